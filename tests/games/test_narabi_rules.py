"""Narabi rules on hand-made positions: one test (or a few) per rule of the contract."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bot.games.base import IllegalAction
from bot.games.narabi import Narabi
from bot.games.narabi.conditions import allows
from bot.games.narabi.deck import DECK, parse_deck
from bot.games.narabi.ring import is_solved, left, right

W, D = "white", "dark"
CONDITIONS = {c["id"]: c for c in DECK.conditions}


def make(rows: list[list[tuple[int | None, str, str]]], active: int = 0,
         advanced: bool = False, turn: int = 0) -> Narabi:
    """A game with exactly these rows of (number, colour, condition id); card ids count up."""
    game = Narabi.new(len(rows), {"advanced": advanced}, 0)
    game.cards, game.rows = {}, []
    next_id = 0
    for row in rows:
        ids = []
        for number, colour, cond in row:
            game.cards[next_id] = {"number": number, "colour": colour,
                                   "condition": dict(CONDITIONS[cond])}
            ids.append(next_id)
            next_id += 1
        game.rows.append(ids)
    game.initial_rows = [list(r) for r in game.rows]
    game.active = game.first_seat = active
    game.turn = turn
    return game


def snapshot(game: Narabi) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def switch(card: int, target: int) -> dict[str, Any]:
    return {"type": "switch", "card": card, "target": target}


# A 4-player table two switches away from 0..8 in ring order (blanks anywhere).
NEAR = [
    [(0, D, "free"), (1, W, "free"), (2, W, "free")],
    [(3, D, "free"), (None, W, "free"), (4, D, "free")],
    [(6, W, "free"), (5, W, "free"), (None, D, "free")],
    [(7, D, "free"), (8, D, "free"), (None, W, "free")],
]
# A 4-player table one switch from solved: seat 1's 5 and seat 2's 4 are exchanged.
ONE_AWAY = [
    [(0, D, "free"), (1, W, "free"), (2, W, "free")],
    [(3, D, "free"), (None, W, "free"), (5, W, "free")],
    [(4, D, "free"), (6, W, "free"), (None, D, "free")],
    [(7, D, "free"), (8, D, "free"), (None, W, "free")],
]


# ----------------------------------------------------------------------------- setup

@pytest.mark.parametrize("seats,each", [(3, 4), (4, 3), (5, 3)])
def test_deal_sizes_removed_cards_and_first_player(seats: int, each: int) -> None:
    for seed in range(20):
        game = Narabi.new(seats, {}, seed)
        assert [len(r) for r in game.rows] == [each] * seats
        numbers = sorted(game.cards[c]["number"] for r in game.rows for c in r
                         if game.cards[c]["number"] is not None)
        blanks = [game.cards[c]["colour"] for r in game.rows for c in r
                  if game.cards[c]["number"] is None]
        if seats < 5:
            assert numbers == list(range(9))
            assert sorted(blanks) == [D, W, W]
        else:
            assert numbers == list(range(10))
            assert sorted(blanks) == [D, D, W, W, W]
        zero = next(c for c in game.cards if game.cards[c]["number"] == 0)
        assert zero in game.rows[game.to_move]
        conditions = [game.cards[c]["condition"]["id"] for c in game.cards]
        assert len(set(conditions)) == len(conditions)
        assert not is_solved([game.cards[c]["number"] for r in game.rows for c in r])
        assert game.legal_actions(game.to_move)


def test_deck_colours_and_removals_match_the_contract() -> None:
    white = sorted(s["number"] for s in DECK.stones if s["colour"] == W and s["number"] is not None)
    dark = sorted(s["number"] for s in DECK.stones if s["colour"] == D and s["number"] is not None)
    assert white == [1, 2, 5, 6, 9] and dark == [0, 3, 4, 7, 8]
    removed = [DECK.stones[i] for i in DECK.setups[4].remove]
    assert sorted(map(str, [(s["number"], s["colour"]) for s in removed])) == sorted(
        map(str, [(9, W), (None, W), (None, D)]))
    assert DECK.max_turns == 24 and len(DECK.conditions) == 15


def test_same_seed_same_deal_and_options_checked() -> None:
    assert Narabi.new(5, {}, 42).to_json() == Narabi.new(5, {}, 42).to_json()
    assert Narabi.new(5, {}, 42).rows != Narabi.new(5, {}, 43).rows
    with pytest.raises(ValueError):
        Narabi.new(5, {"advanced": "yes"}, 1)
    with pytest.raises(ValueError):
        Narabi.new(6, {}, 1)


def test_broken_deck_edit_is_refused() -> None:
    raw = json.loads((__import__("importlib").resources.files("bot.games.narabi")
                      / "deck.json").read_text(encoding="utf-8"))
    bad = copy.deepcopy(raw)
    bad["conditions"][0]["kind"] = "telepathy"
    with pytest.raises(ValueError):
        parse_deck(bad)
    bad = copy.deepcopy(raw)
    bad["setup"]["3"]["cards_each"] = 5
    with pytest.raises(ValueError):
        parse_deck(bad)


# ----------------------------------------------------------------------------- geometry, conditions

def test_seat_geometry() -> None:
    assert left(0, 4) == 1 and right(0, 4) == 3 and left(4, 5) == 0
    cond = CONDITIONS
    # With 3 players two seats left is the right neighbour and two seats right the left one.
    assert allows(cond["left2"], 1, 1, W, seat_offset=2, seats=3)  # offset 2 == right
    assert allows(cond["right2"], 1, 1, W, seat_offset=1, seats=3)  # == left
    assert not allows(cond["left2"], 1, 1, W, seat_offset=1, seats=3)
    assert allows(cond["left2"], 1, 1, W, 2, 5) and not allows(cond["left2"], 1, 1, W, 3, 5)
    assert allows(cond["right2"], 1, 1, W, 3, 5) and not allows(cond["right2"], 1, 1, W, 2, 5)
    assert allows(cond["left"], 1, 1, W, 1, 4) and not allows(cond["left"], 1, 1, W, 3, 4)
    assert allows(cond["right"], 1, 1, W, 3, 4) and not allows(cond["right"], 1, 1, W, 1, 4)


@pytest.mark.parametrize("cond,c_number,d_number,d_colour,expected", [
    ("white", 3, 4, W, True), ("white", 3, 4, D, False),
    ("dark", 3, None, D, True), ("dark", 3, 1, W, False),
    ("even", 1, None, W, True), ("even", 1, 0, D, True), ("even", 1, 3, D, False),
    ("odd", 1, 7, D, True), ("odd", 1, None, D, False),
    ("higher", 4, 5, W, True), ("higher", 4, 4, W, False), ("higher", None, 1, W, True),
    ("higher", None, None, W, False),
    ("lower", 4, 3, D, True), ("lower", 4, None, D, True), ("lower", 0, None, D, False),
    ("lower", None, 0, D, False),
    ("locked", 4, 5, W, False),
    ("mid", 1, 2, W, True), ("mid", 1, 6, W, True), ("mid", 1, 7, W, False),
    ("mid", 1, None, W, False),
    ("high3", 1, 3, W, True), ("high3", 1, 2, W, False), ("high3", 1, None, W, False),
    ("low4", 9, 4, W, True), ("low4", 9, 5, W, False), ("low4", 9, None, W, True),
    ("free", 0, None, D, True),
])
def test_condition_kinds(cond: str, c_number, d_number, d_colour, expected: bool) -> None:
    for offset in (1, 2, 3):
        assert allows(CONDITIONS[cond], c_number, d_number, d_colour, offset, 4) is expected


@pytest.mark.parametrize("numbers,solved", [
    ([0, 1, 2, 3, 4, 5, 6, 7, 8], True),
    ([5, 6, 7, 8, 0, 1, 2, 3, 4], True),
    ([3, 2, 1, 0, 8, 7, 6, 5, 4], True),
    ([None, 0, 1, None, 2, 3, 4, 5, 6, 7, None, 8], True),
    ([None, 8, 7, 6, 5, 4, 3, 2, 1, None, None, 0], True),
    ([0, 1, 2, 3, 4, 5, 6, 8, 7], False),
    ([0, 2, 1, 3, 4, 5, 6, 7, 8], False),
    ([1, 0, 2, 3, 4, 5, 6, 7, 8], False),
])
def test_solved_on_the_circular_ring(numbers, solved: bool) -> None:
    assert is_solved(numbers) is solved


# ----------------------------------------------------------------------------- a turn

def test_switch_exchanges_positions_and_passes_left() -> None:
    game = make(NEAR)
    events = game.apply(0, switch(2, 3))  # seat 0's 2 for seat 1's 3
    assert game.rows[0] == [0, 1, 3] and game.rows[1] == [2, 4, 5]
    assert game.turn == 1 and game.to_move == 1
    assert events == [{"type": "switched", "turn": 1, "seat": 0, "card": 2, "card_number": 2,
                       "card_colour": W, "target_seat": 1, "target": 3, "target_number": 3,
                       "target_colour": D, "to_move": 1}]
    assert game.public_view()["last_switch"] == {
        "turn": 1, "seat": 0, "index": 2, "card": 2, "target_seat": 1, "target_index": 0,
        "target": 3}


def test_own_cards_never_switched_and_other_refusals_leave_state_untouched() -> None:
    game = make(NEAR)
    before = snapshot(game)
    cases = [
        (0, switch(0, 1), "own_card"),
        (0, switch(3, 0), "not_your_card"),
        (1, switch(3, 0), "not_your_turn"),
        (0, {"type": "dance"}, "unknown_action"),
        (0, {"type": "switch"}, "bad_action"),
        (0, {"type": "switch", "card": "0", "target": 3}, "bad_action"),
        (0, {"type": "switch", "card": True, "target": 3}, "bad_action"),
        (0, {"type": "switch", "card": 0, "target": 10 ** 9}, "bad_action"),
        (0, {"type": "switch", "card": -1, "target": 3}, "bad_action"),
        (0, {"card": 0, "target": 3}, "bad_action"),
        (0, "switch", "bad_action"),
        (0, {"type": None}, "bad_action"),
        (7, switch(0, 3), "bad_seat"),
        ("0", switch(0, 3), "bad_seat"),
        (0, {"type": "resign", "seat": 2}, "bad_action"),
    ]
    for seat, action, code in cases:
        with pytest.raises(IllegalAction) as err:
            game.apply(seat, action)  # type: ignore[arg-type]
        assert err.value.code == code, (seat, action)
        assert snapshot(game) == before


def test_only_the_given_cards_condition_counts() -> None:
    rows = copy.deepcopy(NEAR)
    rows[0][2] = (2, W, "dark")  # seat 0 may give its 2 only for a dark stone
    rows[1][1] = (None, W, "locked")  # the taken card's own condition is ignored
    game = make(rows)
    with pytest.raises(IllegalAction) as err:
        game.apply(0, switch(2, 4))  # white blank
    assert err.value.code == "condition_forbids"
    assert {"type": "switch", "card": 2, "target": 4} not in game.legal_actions(0)
    assert {"type": "switch", "card": 2, "target": 3} in game.legal_actions(0)
    game.apply(0, switch(2, 3))  # dark 3: allowed even though seat 1 holds a locked card
    assert game.turn == 1


def test_locked_card_can_still_be_taken() -> None:
    rows = copy.deepcopy(NEAR)
    rows[0] = [(0, D, "locked"), (1, W, "locked"), (2, W, "free")]
    rows[1][0] = (3, D, "locked")
    game = make(rows)
    actions = game.legal_actions(0)
    assert actions and all(a["card"] == 2 for a in actions)
    assert switch(2, 3) in actions  # taking the other player's locked card


def test_legal_actions_only_for_the_active_seat() -> None:
    game = make(NEAR)
    assert game.legal_actions(1) == [] and game.legal_actions(0)
    # free everywhere: 3 own cards x 9 other cards
    assert len(game.legal_actions(0)) == 27


# ----------------------------------------------------------------------------- end of game

@pytest.mark.parametrize("turns,rating", [(1, "zen_master"), (8, "zen_master"), (9, "great"),
                                          (12, "great"), (13, "good"), (16, "good"),
                                          (17, "fair"), (20, "fair"), (21, "close_call"),
                                          (24, "close_call"), (None, "horrible")])
def test_rating_bands(turns, rating: str) -> None:
    assert make(NEAR).rating(turns) == rating


def test_victory_when_a_switch_solves_the_ring() -> None:
    solved_next = make(ONE_AWAY, active=1, turn=8)
    events = solved_next.apply(1, switch(5, 6))  # seat 1's 5 <-> seat 2's 4
    result = solved_next.result()
    assert result is not None and result.reason == "solved"
    assert result.winners == (0, 1, 2, 3)
    assert result.details == {"turns": 9, "rating": "great"}
    assert events[-1] == {"type": "game_over", "reason": "solved", "winners": [0, 1, 2, 3],
                          "turn": 9, "turns": 9, "rating": "great"}
    assert solved_next.to_move is None and solved_next.legal_actions(1) == []
    with pytest.raises(IllegalAction) as err:
        solved_next.apply(2, switch(6, 0))
    assert err.value.code == "game_over"


def test_victory_on_the_24th_switch_and_defeat_after_it() -> None:
    game = make(ONE_AWAY, active=1, turn=23)
    game.apply(1, switch(5, 6))
    assert game.result().reason == "solved" and game.result().details["rating"] == "close_call"

    game = make(ONE_AWAY, active=1, turn=23)
    events = game.apply(1, switch(4, 8))  # a blank for a blank: still unsolved
    result = game.result()
    assert result.reason == "out_of_turns" and result.winners == ()
    assert result.details == {"turns": 24, "rating": "horrible"}
    assert events[-1]["type"] == "game_over" and game.to_move is None


def test_defeat_when_the_next_player_has_no_legal_switch() -> None:
    # Seat 1: a locked card, a blank wanting something lower than 0, an 8 wanting something
    # higher (no 9 with 4 players): whatever seat 0 does to the others, seat 1 is stuck.
    stuck = make([
        [(0, D, "free"), (1, W, "free"), (2, W, "free")],
        [(3, D, "locked"), (None, W, "lower"), (8, D, "higher")],
        [(6, W, "free"), (5, W, "free"), (None, D, "free")],
        [(7, D, "free"), (4, D, "free"), (None, W, "free")],
    ])
    events = stuck.apply(0, switch(2, 6))  # seat 0's 2 <-> seat 2's 6
    result = stuck.result()
    assert result is not None and result.reason == "no_legal_switch"
    assert result.details == {"turns": 1, "rating": "horrible", "seat": 1}
    assert [e["type"] for e in events] == ["switched", "game_over"]
    assert events[0]["to_move"] is None


def test_resign_abandons_the_table_from_any_seat() -> None:
    game = make(NEAR)
    assert all(a["type"] == "switch" for a in game.legal_actions(0))
    events = game.apply(2, {"type": "resign"})
    assert events[0] == {"type": "abandoned", "seat": 2, "turn": 0}
    result = game.result()
    assert result.reason == "abandoned" and result.winners == ()
    assert result.details == {"turns": 0, "rating": "horrible", "seat": 2}
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "resign", "seat": 0})
    assert err.value.code == "game_over"


# ----------------------------------------------------------------------------- advanced mode

def test_advanced_mode_forbids_undoing_the_previous_switch_only() -> None:
    for advanced in (False, True):
        game = make(NEAR, advanced=advanced)
        assert game.asking_allowed is (not advanced)
        assert Narabi.asking_allowed_for({"advanced": advanced}) is (not advanced)
        game.apply(0, switch(2, 3))  # seat 0's position 2 <-> seat 1's position 0
        undo = switch(2, 3)  # seat 1 now holds card 2 at position 0 and gives it back
        if advanced:
            assert undo not in game.legal_actions(1)
            before = snapshot(game)
            with pytest.raises(IllegalAction) as err:
                game.apply(1, undo)
            assert err.value.code == "undo_forbidden" and snapshot(game) == before
        else:
            assert undo in game.legal_actions(1)
    # Touching one of the same positions with another card is not an undo.
    game = make(NEAR, advanced=True)
    game.apply(0, switch(2, 3))
    assert switch(4, 3) in game.legal_actions(1)
    game.apply(1, switch(4, 3))
    assert game.rows[0] == [0, 1, 4]


# ----------------------------------------------------------------------------- views, JSON

def test_public_view_hides_conditions_until_the_end() -> None:
    game = Narabi.new(4, {}, 5)
    text = json.dumps(game.public_view())
    assert "condition" not in text
    for cond in set(CONDITIONS) - {W, D}:  # colour names are public anyway
        assert f'"{cond}"' not in text
    mine = game.private_view(1)
    assert mine["seat"] == 1 and [c["id"] for c in mine["cards"]] == game.rows[1]
    assert all("condition" in c for c in mine["cards"])
    others = {c for s, r in enumerate(game.rows) if s != 1 for c in r}
    assert not others & {c["id"] for c in mine["cards"]}
    game.apply(0, {"type": "resign"})
    view = game.public_view()
    assert view["finished"] and view["result"]["reason"] == "abandoned"
    assert all(card["condition"] in CONDITIONS for row in view["rows"] for card in row)


def test_json_round_trip_and_replay() -> None:
    game = Narabi.new(5, {"advanced": True}, 11)
    log = []
    for _ in range(5):
        if game.finished:
            break
        seat = game.to_move
        action = game.legal_actions(seat)[-1]
        game.apply(seat, action)
        log.append((seat, action))
        data = json.loads(json.dumps(game.to_json()))
        assert Narabi.from_json(data).to_json() == game.to_json()
    assert Narabi.replay(5, {"advanced": True}, 11, log).to_json() == game.to_json()
