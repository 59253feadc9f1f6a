"""Narabi AI teammates: legal and deterministic choices, the information barrier (conditions
the seat cannot see never matter), truthful answers, sensible questions, the inference from
public evidence, and whole games at every level."""
from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.ai import choose_action, seat_view
from bot.games.narabi import Narabi, ai
from bot.games.narabi.conditions import allows
from bot.games.narabi.deck import DECK

LEVELS = ("easy", "medium", "hard")
CONDITION_BY_ID = {cond["id"]: cond for cond in DECK.conditions}


# -- building positions -------------------------------------------------------------------

def random_game(seats: int, advanced: bool, seed: int, moves: int) -> Narabi:
    """A game ``moves`` uniformly random switches in (fewer if it ends first)."""
    rnd = random.Random(seed)
    game = Narabi.new(seats, {"advanced": advanced}, seed)
    for _ in range(moves):
        if game.to_move is None:
            break
        game.apply(game.to_move, rnd.choice(game.legal_actions(game.to_move)))
    return game


def positions_of_games(games: int, seed: int) -> Iterator[Narabi]:
    """Every running position of ``games`` random games (3-5 seats, basic or advanced)."""
    rnd = random.Random(seed)
    for g in range(games):
        seats = 3 + g % 3
        game = Narabi.new(seats, {"advanced": rnd.random() < 0.5}, rnd.randrange(2**32))
        while game.to_move is not None:
            yield game
            game.apply(game.to_move, rnd.choice(game.legal_actions(game.to_move)))


def narabi_with(rows: list[list[int]], conditions: dict[int, str], *, active: int = 0,
                advanced: bool = False, turn: int = 0,
                history: list[list[int]] | None = None) -> Narabi:
    """A running game whose rows are ``rows`` (card ids = deck indexes) with ``active`` to
    move: the named conditions, and every other card the next unused condition in deck
    order (conditions stay distinct, as in a real deal)."""
    seats = len(rows)
    state = Narabi.new(seats, {"advanced": advanced}, 0).to_json()
    cards = sorted(c for row in rows for c in row)
    spare = [cond["id"] for cond in DECK.conditions if cond["id"] not in conditions.values()]
    named = {c: conditions.get(c) or spare.pop(0) for c in cards}
    state["cards"] = [{"id": c, "number": DECK.stones[c]["number"],
                       "colour": DECK.stones[c]["colour"],
                       "condition": dict(CONDITION_BY_ID[named[c]])} for c in cards]
    state.update(rows=[list(r) for r in rows], initial_rows=[list(r) for r in rows],
                 active=active, first_seat=active, turn=turn, last_switch=None,
                 history=history or [], result=None)
    return Narabi.from_json(state)


def twin_with_other_conditions(game: Narabi, seat: int, rng: random.Random) -> Narabi:
    """The same game as ``seat`` sees it, with other secrets: the conditions of every card
    ``seat`` does not hold now are dealt again from those conditions and the ones that left
    the game with the removed stones (so the twin stays a possible deal)."""
    state = game.to_json()
    mine = set(game.rows[seat])
    in_play = {card["condition"]["id"] for card in state["cards"]}
    pool = [dict(card["condition"]) for card in state["cards"] if card["id"] not in mine]
    pool += [dict(cond) for cond in DECK.conditions if cond["id"] not in in_play]
    rng.shuffle(pool)
    for card in state["cards"]:
        if card["id"] not in mine:
            card["condition"] = pool.pop()
    return Narabi.from_json(state)


def truthful_questions(game: Narabi, rng: random.Random, count: int) -> list[dict[str, Any]]:
    """``count`` public questions asked this turn, answered from the real conditions."""
    out = []
    for _ in range(count):
        asker = game.to_move
        asked = rng.choice([s for s in range(game.seats) if s != asker])
        card = rng.choice(game.rows[asked])
        other = rng.choice([c for s, row in enumerate(game.rows) if s != asked for c in row])
        holder = game.seat_of(other)
        data, target = game.cards[card], game.cards[other]
        answer = allows(data["condition"], data["number"], target["number"], target["colour"],
                        (holder - asked) % game.seats, game.seats)
        out.append({"turn": game.turn, "asker": asker, "asked": asked, "card": card,
                    "other": other, "answer": answer if rng.random() < 0.9 else None})
    return out


def view_with_questions(game: Narabi, seat: int, rng: random.Random) -> dict[str, Any]:
    view = seat_view(game, seat)
    if game.asking_allowed and rng.random() < 0.5:
        view["questions"] = truthful_questions(game, rng, rng.randint(1, 4))
    return view


@pytest.fixture
def small_budgets(monkeypatch):
    """The searching levels with few worlds and candidates: every code path, a few ms."""
    monkeypatch.setattr(ai, "LEVELS", _small_levels())


def _small_levels() -> dict[str, ai.Level]:
    return {name: (dataclasses.replace(level, worlds=min(level.worlds, 3),
                                       candidates=min(level.candidates, 4))
                   if level.worlds else level)
            for name, level in ai.LEVELS.items()}


# -- legality and determinism -------------------------------------------------------------

@pytest.mark.slow
def test_every_level_picks_a_legal_action_in_thousands_of_positions(small_budgets):
    # Easy looks at every position; the searching levels at every third, some of them with
    # public questions and answers to weigh.
    rnd = random.Random(5)
    checked = Counter()
    for i, game in enumerate(positions_of_games(120, seed=7)):
        view = view_with_questions(game, game.to_move, rnd)
        for level in LEVELS if i % 3 == 0 else ("easy",):
            assert ai.choose(view, level, random.Random(i)) in view["legal"]
            checked[level, game.seats, game.advanced] += 1
    assert sum(n for (level, _, _), n in checked.items() if level == "easy") >= 2000
    for level in LEVELS:
        for seats in (3, 4, 5):
            for advanced in (False, True):
                assert checked[level, seats, advanced] >= 40, (level, seats, advanced)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(3, 5), st.booleans(), st.integers(0, 2**32), st.integers(0, 30),
       st.integers(0, 2**16))
def test_legal_and_deterministic_anywhere_in_a_random_game(seats, advanced, seed, moves, pick):
    game = random_game(seats, advanced, seed, moves)
    if game.to_move is None:
        return
    view = view_with_questions(game, game.to_move, random.Random(pick))
    before = json.loads(json.dumps(view))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ai, "LEVELS", _small_levels())
        for level in LEVELS:
            first = ai.choose(view, level, random.Random(pick))
            assert first in view["legal"]
            assert ai.choose(json.loads(json.dumps(view)), level, random.Random(pick)) == first
            question = ai.choose_question(view, level, random.Random(pick))
            assert ai.choose_question(view, level, random.Random(pick)) == question
    # The view is not changed by being looked at.
    assert view == before


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_same_view_level_and_seed_give_the_same_action(level):
    for seats, advanced, moves in ((3, False, 0), (4, True, 7), (5, False, 13)):
        game = random_game(seats, advanced, 40 + seats, moves)
        assert game.to_move is not None
        view = seat_view(game, game.to_move)
        first = ai.choose(view, level, random.Random(77))
        assert ai.choose(json.loads(json.dumps(view)), level, random.Random(77)) == first
        assert choose_action("narabi", view, level, 5) == choose_action("narabi", view, level, 5)


@pytest.mark.slow
def test_choices_vary_with_the_seed():
    # Many switches look alike at the deal: a seeded AI is not a constant.
    for level in LEVELS:
        picks = set()
        for seed in range(8):
            game = Narabi.new(5, {}, 11 + seed % 2)
            view = seat_view(game, game.to_move)
            picks.add(json.dumps(ai.choose(view, level, random.Random(seed)), sort_keys=True))
        assert len(picks) > 1, level


# -- the information barrier --------------------------------------------------------------

@pytest.mark.slow
def test_conditions_the_seat_cannot_see_change_neither_view_nor_choice(small_budgets):
    rnd = random.Random(21)
    differing = compared = 0
    for i, game in enumerate(positions_of_games(45, seed=21)):
        if i % 4:
            continue
        seat = game.to_move
        twin = twin_with_other_conditions(game, seat, rnd)
        differing += twin.to_json() != game.to_json()
        view = seat_view(game, seat)
        assert seat_view(twin, seat) == view
        # Every other seat's view is the same too, except the conditions it may see itself.
        for other in range(game.seats):
            if other != seat:
                assert seat_view(twin, other)["public"] == seat_view(game, other)["public"]
        questions = truthful_questions(game, rnd, 2) if game.asking_allowed else []
        view["questions"] = questions
        twin_view = seat_view(twin, seat)
        twin_view["questions"] = questions
        level = LEVELS[i % 3]
        assert ai.choose(twin_view, level, random.Random(i)) == \
            ai.choose(view, level, random.Random(i))
        assert ai.choose_question(twin_view, level, random.Random(i)) == \
            ai.choose_question(view, level, random.Random(i))
        compared += 1
    assert compared >= 150
    assert differing >= 0.9 * compared  # the twins really hold other conditions


@pytest.mark.slow
def test_full_budget_choices_ignore_hidden_conditions_too():
    for seats in (3, 4, 5):
        game = random_game(seats, seats == 4, 60 + seats, 5)
        seat = game.to_move
        twin = twin_with_other_conditions(game, seat, random.Random(seats))
        assert twin.to_json() != game.to_json()
        for level in LEVELS:
            assert choose_action("narabi", seat_view(twin, seat), level, 3) == \
                choose_action("narabi", seat_view(game, seat), level, 3)


def _rules_allow(game: Narabi, seat: int, card: int, other: int) -> bool:
    """The rules' own check: would ``seat`` be allowed to give ``card`` for ``other`` if it
    were its turn (no previous switch to undo)?"""
    state = game.to_json()
    state.update(active=seat, last_switch=None, result=None)
    probe = Narabi.from_json(state)
    return {"type": "switch", "card": card, "target": other} in probe.legal_actions(seat)


def test_answers_are_the_truth_for_every_card_and_every_other_card():
    answered = Counter()
    for seats in (3, 4, 5):
        for seed in range(3):
            game = random_game(seats, False, 90 + 7 * seed + seats, 3 * seed)
            for seat in range(seats):
                view = seat_view(game, seat)
                twin_view = seat_view(twin_with_other_conditions(game, seat, random.Random(seed)),
                                      seat)
                for card in game.rows[seat]:
                    for other in game.cards:
                        question = {"card": card, "other": other}
                        answer = ai.answer_question(view, question)
                        assert answer is (other not in game.rows[seat]
                                          and _rules_allow(game, seat, card, other))
                        assert ai.answer_question(twin_view, question) is answer
                        answered[answer] += 1
    assert answered[True] >= 200 and answered[False] >= 200


def test_no_answer_for_a_card_the_seat_does_not_hold():
    for seats in (3, 4, 5):
        game = random_game(seats, False, 120 + seats, 4)
        for seat in range(seats):
            view = seat_view(game, seat)
            for holder in range(seats):
                if holder == seat:
                    continue
                for card in game.rows[holder]:
                    for other in game.cards:
                        # Even where the holder itself would say yes.
                        assert ai.answer_question(view, {"card": card, "other": other}) is False
            # Cards not in play and malformed questions get no yes either.
            assert ai.answer_question(view, {"card": game.rows[seat][0], "other": 999}) is False
            assert ai.answer_question(view, {}) is False


def test_a_locked_card_answers_no_and_a_free_card_yes():
    game = narabi_with([[0, 1, 2, 4], [3, 5, 6, 7], [8, 10, 11, 13]],
                       {4: "locked", 0: "free", 1: "left", 2: "right"}, active=1)
    view = seat_view(game, 0)
    for other in (3, 5, 8, 13):
        assert ai.answer_question(view, {"card": 4, "other": other}) is False
        assert ai.answer_question(view, {"card": 0, "other": other}) is True
    # left = the next seat clockwise (1), right = the previous one (2).
    assert ai.answer_question(view, {"card": 1, "other": 5}) is True
    assert ai.answer_question(view, {"card": 1, "other": 8}) is False
    assert ai.answer_question(view, {"card": 2, "other": 8}) is True
    assert ai.answer_question(view, {"card": 2, "other": 5}) is False


# -- questions ----------------------------------------------------------------------------

def test_no_question_when_asking_is_off_the_game_is_over_or_it_is_not_the_seats_turn():
    for seats in (3, 4, 5):
        for seed in range(4):
            basic = random_game(seats, False, 200 + seed, seed * 2)
            advanced = random_game(seats, True, 200 + seed, seed * 2)
            if basic.to_move is None or advanced.to_move is None:
                continue
            for level in LEVELS:
                seat = advanced.to_move
                assert ai.choose_question(seat_view(advanced, seat), level,
                                          random.Random(seed)) is None
                for other in range(seats):
                    if other != basic.to_move:
                        assert ai.choose_question(seat_view(basic, other), level,
                                                  random.Random(seed)) is None
    finished = random_game(3, False, 5, 40)
    assert finished.to_move is None
    for seat in range(3):
        for level in LEVELS:
            assert ai.choose_question(seat_view(finished, seat), level, random.Random(1)) is None


@pytest.mark.slow
def test_questions_are_about_a_card_another_seat_holds(small_budgets):
    asked = Counter()
    rnd = random.Random(3)
    for i, game in enumerate(positions_of_games(60, seed=33)):
        if game.advanced or i % 2:
            continue
        seat = game.to_move
        view = view_with_questions(game, seat, rnd)
        level = ("medium", "hard")[i % 4 // 2]
        question = ai.choose_question(view, level, random.Random(i))
        if question is None:
            continue
        assert set(question) == {"card", "other"}
        holder = game.seat_of(question["card"])
        assert holder is not None and holder != seat
        assert game.seat_of(question["other"]) not in (None, holder)
        already = {(q["card"], q["other"]) for q in view.get("questions", ())}
        assert (question["card"], question["other"]) not in already
        asked[level, game.seats] += 1
    # Questions really are asked, at every table size.
    assert all(asked["hard", seats] + asked["medium", seats] >= 5 for seats in (3, 4, 5)), asked


def test_easy_never_asks():
    for i, game in enumerate(positions_of_games(6, seed=8)):
        if not game.advanced:
            view = seat_view(game, game.to_move)
            assert ai.choose_question(view, "easy", random.Random(i)) is None


# -- what the AI infers from public evidence ----------------------------------------------

def test_a_switch_made_tells_what_the_given_card_allows():
    # Seat 1 gave card 5 (now with seat 2) for card 8: 5's condition let it take a dark 8
    # from the seat on its left. Seat 0 never saw that condition; it may only infer.
    game = narabi_with([[0, 1, 2, 3], [4, 8, 6, 7], [5, 10, 11, 13]], {5: "dark"}, active=2,
                       turn=1, history=[[1, 5, 8]])
    table = ai.Table(seat_view(game, 0))
    cands = ai.candidate_conditions(table, game.public_history())
    assert set(cands) == {4, 5, 6, 7, 8, 10, 11, 13}
    possible = {ai.CONDITIONS[k]["id"] for k in range(len(ai.CONDITIONS)) if cands[5] >> k & 1}
    # Dark stone, even value, on the left, 8 > 5, 2..6 no, >= 3, <= 4 no, free.
    own = {game.cards[c]["condition"]["id"] for c in game.rows[0]}
    assert possible == {"dark", "even", "left", "right2", "higher", "high3", "free"} - own
    # Nothing is learnt about cards nobody gave away, except which conditions seat 0 holds.
    unseen = {cond["id"] for cond in DECK.conditions} - own
    assert {ai.CONDITIONS[k]["id"] for k in range(len(ai.CONDITIONS)) if cands[6] >> k & 1} \
        == unseen


def test_answers_narrow_the_conditions_and_every_sampled_world_respects_them():
    game = narabi_with([[0, 1, 2, 4], [3, 5, 6, 7], [8, 10, 11, 13]], {3: "left"}, active=0)
    view = seat_view(game, 0)
    # "Seat 1, can you switch your 3 with seat 2's 8?" (on its left) - yes. "With seat 0's 0?"
    # - no.
    view["questions"] = [
        {"turn": 0, "asker": 0, "asked": 1, "card": 3, "other": 8, "answer": True},
        {"turn": 0, "asker": 0, "asked": 1, "card": 3, "other": 0, "answer": False},
    ]
    table = ai.Table(view)
    cands = ai.candidate_conditions(table, view["history"], view["questions"])
    possible = {ai.CONDITIONS[k]["id"] for k in range(len(ai.CONDITIONS)) if cands[3] >> k & 1}
    # Yes: dark, even, higher, >= 3, left (= right2 with 3 players) or free allow 8.
    # No: dark, even, lower, right (= left2), <= 4 or free would allow 0.
    assert possible == {"higher", "high3", "left", "right2"} - {
        game.cards[c]["condition"]["id"] for c in game.rows[0]}
    assert "left" in possible  # the truth survives
    rnd = random.Random(2)
    for world in ai.sampled_worlds(table, view, 30, rnd):
        assert ai.CONDITIONS[world[3]]["id"] in possible
        assert len({world[c] for c in table.ring}) == len(table.ring)  # distinct conditions
        for c in game.rows[0]:
            assert ai.CONDITIONS[world[c]]["id"] == game.cards[c]["condition"]["id"]


def test_contradicting_answers_do_not_break_the_sampling():
    game = narabi_with([[0, 1, 2, 4], [3, 5, 6, 7], [8, 10, 11, 13]], {}, active=0)
    view = seat_view(game, 0)
    view["questions"] = [
        {"turn": 0, "asker": 0, "asked": 1, "card": 3, "other": 8, "answer": True},
        {"turn": 0, "asker": 2, "asked": 1, "card": 3, "other": 8, "answer": False},
        {"turn": 0, "asker": 2, "asked": 1, "card": 3, "other": 999, "answer": True},
        {"turn": 0, "asker": 2, "asked": 1, "card": 0, "other": 8, "answer": True},
        {"turn": 7, "asker": 2, "asked": 1, "card": 5, "other": 8, "answer": True},
        {},
    ]
    for level in LEVELS:
        assert ai.choose(view, level, random.Random(4)) in view["legal"]


# -- hand-made positions ------------------------------------------------------------------

ONE_SWITCH_FROM_SOLVED = [[0, 1, 2, 4], [3, 5, 6, 7], [8, 10, 11, 13]]


@pytest.mark.parametrize("level", ("medium", "hard"))
def test_searching_levels_take_the_winning_switch(level):
    game = narabi_with(ONE_SWITCH_FROM_SOLVED, {4: "odd"}, active=0)
    win = {"type": "switch", "card": 4, "target": 3}
    assert win in game.legal_actions(0)
    for seed in range(5):
        assert ai.choose(seat_view(game, 0), level, random.Random(seed)) == win
    # The same with the conditions dealt any other way among the cards seat 0 cannot see.
    for seed in range(5):
        twin = twin_with_other_conditions(game, 0, random.Random(seed))
        assert choose_action("narabi", seat_view(twin, 0), level, seed) == win


def test_easy_mostly_takes_the_winning_switch():
    game = narabi_with(ONE_SWITCH_FROM_SOLVED, {4: "odd"}, active=0)
    picks = Counter(json.dumps(ai.choose(seat_view(game, 0), "easy", random.Random(seed)),
                               sort_keys=True) for seed in range(60))
    win = json.dumps({"type": "switch", "card": 4, "target": 3}, sort_keys=True)
    assert picks[win] >= 45


@pytest.mark.slow
def test_a_locked_card_is_never_given_away():
    # The winning switch would give the locked 4: the rules forbid it and no level tries.
    game = narabi_with(ONE_SWITCH_FROM_SOLVED, {4: "locked"}, active=0)
    assert all(a["card"] != 4 for a in game.legal_actions(0))
    for level in LEVELS:
        for seed in range(10):
            action = choose_action("narabi", seat_view(game, 0), level, seed)
            assert action["card"] != 4


@pytest.mark.slow
def test_advanced_mode_never_undoes_the_previous_switch():
    # Seat 2 just took 3 from seat 0 for 4; in advanced mode seat 0 may not switch them back.
    game = narabi_with([[0, 1, 2, 3], [4, 5, 6, 7], [8, 10, 11, 13]], {8: "free"}, active=2,
                       advanced=True)
    game.apply(2, {"type": "switch", "card": 8, "target": 3})
    undo = {"type": "switch", "card": 8, "target": 3}
    assert game.to_move == 0 and undo not in game.legal_actions(0)
    for level in LEVELS:
        for seed in range(10):
            assert choose_action("narabi", seat_view(game, 0), level, seed) != undo


# -- whole games --------------------------------------------------------------------------

def play_out(game: Narabi, level: str, seed: int) -> Narabi:
    for ply in range(game.max_turns + 1):
        if game.to_move is None:
            break
        seat = game.to_move
        view = seat_view(game, seat)
        action = choose_action("narabi", view, level, seed * 1009 + ply)
        assert action in view["legal"]
        game.apply(seat, action)
    return game


@pytest.mark.slow
@pytest.mark.parametrize("seats", (3, 4, 5))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_finishes_whole_games(level, seats):
    outcomes = Counter()
    for g in range(2):
        advanced = bool(g)
        game = play_out(Narabi.new(seats, {"advanced": advanced}, 300 + 10 * seats + g), level, g)
        result = game.result()
        assert result is not None
        assert 1 <= game.turn <= game.max_turns
        assert len(game.public_history()) == game.turn
        if result.reason == "solved":
            assert result.winners == tuple(range(seats))
        else:
            assert result.reason in ("out_of_turns", "no_legal_switch") and not result.winners
            assert (result.reason == "out_of_turns") == (game.turn == game.max_turns)
        outcomes[result.reason] += 1
    if level == "hard":
        assert outcomes["solved"] >= 1
