"""Sàréná rules on hand-made positions: one test (or a few) per rule of the contract."""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.games.base import IllegalAction, Result
from bot.games.sarena import Sarena, format_move, parse_move, playout
from bot.games.sarena.board import ARROW, EDGES, NEIGHBOURS, SQUARE_INDEX, SQUARE_NAMES
from bot.games.sarena.chips import COLOUR_INDEX, COLOURS, DOWN, PAIRS, UP, new_chip, pile_chips
from bot.games.sarena.setup import FAIR_VECTORS, deal

ROOT = Path(__file__).resolve().parents[2]
W, B, R, Y = "white", "black", "red", "yellow"


def chip(up: str, down: str) -> int:
    a, b = sorted((COLOUR_INDEX[up], COLOUR_INDEX[down]))
    return new_chip(a, b, b_up=COLOUR_INDEX[up] == b)


def game_with(layout: dict[str, list[tuple[str, str]]], *, seats: int = 2,
              colours: tuple[str, ...] = (W, B, R, Y), to_move: int = 0) -> Sarena:
    """A game whose board holds exactly ``layout``: square -> chips (up, down) bottom to top."""
    state = Sarena.new(seats, {}, 0).to_json()
    piles, heights = [0] * 36, [0] * 36
    for square, chips in layout.items():
        i = SQUARE_INDEX[square]
        heights[i] = len(chips)
        for k, (up, down) in enumerate(chips):
            piles[i] |= chip(up, down) << (8 * k)
    state.update(piles=piles, heights=heights, to_move=to_move,
                 colours=[COLOUR_INDEX[c] for c in colours[:seats]])
    return Sarena.from_json(state)


def faces(game: Sarena, square: str) -> list[tuple[str, str]]:
    """(up, down) of each chip bottom to top, read from the state (tests may see secrets)."""
    state = game.to_json()
    i = SQUARE_INDEX[square]
    return [(COLOURS[UP[c]], COLOURS[DOWN[c]]) for c in pile_chips(state["piles"][i],
                                                                    state["heights"][i])]


def move(game: Sarena, seat: int, text: str) -> list[dict]:
    return game.apply(seat, parse_move(text))


def raises(code: str, game: Sarena, seat, action) -> None:
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert info.value.code == code
    assert game.to_json() == before


# -- board ---------------------------------------------------------------------------------

def test_board_has_36_circles_60_lines_and_18_arrows_on_the_even_squares():
    assert len(SQUARE_NAMES) == 36 and SQUARE_NAMES[0] == "a1" and SQUARE_NAMES[35] == "f6"
    assert len(EDGES) == 120  # 60 lines, each usable both ways
    assert sum(ARROW) == 18
    arrows = {SQUARE_NAMES[i] for i in range(36) if ARROW[i]}
    assert {"a1", "c1", "e1", "b2", "d2", "f2", "f6"} <= arrows
    assert not {"b1", "a2", "a6"} & arrows
    for i in range(36):
        assert all(abs(i % 6 - j % 6) + abs(i // 6 - j // 6) == 1 for j in NEIGHBOURS[i])
        if ARROW[i]:
            assert not any(ARROW[j] for j in NEIGHBOURS[i])


# -- setup ---------------------------------------------------------------------------------

def test_setup_deals_six_chips_of_each_pair_one_per_circle():
    game = Sarena.new(4, {}, 7)
    state = game.to_json()
    assert state["heights"] == [1] * 36
    pairs = Counter(tuple(sorted((UP[c], DOWN[c]))) for c in state["piles"])
    assert pairs == {pair: 6 for pair in PAIRS}


def test_setup_gives_distinct_secret_colours_and_a_random_first_player():
    firsts = Counter()
    for seed in range(200):
        seats = 2 + seed % 3
        game = Sarena.new(seats, {}, seed)
        colours = [game.private_view(s)["colour"] for s in range(seats)]
        assert len(set(colours)) == seats and set(colours) <= set(COLOURS)
        firsts[(seats, game.to_move)] += 1
    assert len(firsts) == 2 + 3 + 4  # every seat starts sometimes, for every table size


def test_setup_is_deterministic_per_seed_and_varies_between_seeds():
    assert Sarena.new(3, {}, 42).to_json() == Sarena.new(3, {}, 42).to_json()
    assert Sarena.new(3, {}, 42).to_json()["piles"] != Sarena.new(3, {}, 43).to_json()["piles"]


def test_fair_deal_shows_each_colour_on_exactly_nine_chips():
    for seed in range(300):
        piles = deal(random.Random(seed), 2, True).piles
        assert Counter(UP[c] for c in piles) == {0: 9, 1: 9, 2: 9, 3: 9}


def test_unfair_deal_is_not_always_balanced_and_faces_are_random():
    balanced, b_up = 0, 0
    for seed in range(300):
        piles = deal(random.Random(seed), 2, False).piles
        counts = Counter(UP[c] for c in piles)
        balanced += counts == {0: 9, 1: 9, 2: 9, 3: 9}
        b_up += sum(UP[c] > DOWN[c] for c in piles)
    assert balanced < 30
    assert 0.45 < b_up / (300 * 36) < 0.55


def test_fair_deal_draws_all_orientations_of_a_pair():
    # Every count 0..6 of (white up) among white/black chips is reachable, and the mean is 3.
    seen, total = set(), 0
    for seed in range(400):
        piles = deal(random.Random(seed), 2, True).piles
        n = sum(1 for c in piles if {UP[c], DOWN[c]} == {0, 1} and UP[c] == 0)
        seen.add(n)
        total += n
    assert len(FAIR_VECTORS) > 20
    assert seen >= {1, 2, 3, 4, 5}
    assert 2.6 < total / 400 < 3.4


def test_every_line_is_legal_at_the_start():
    game = Sarena.new(2, {}, 3)
    assert len(game.legal_actions(game.to_move)) == 120


# -- moves ---------------------------------------------------------------------------------

def test_pile_onto_pile_stacks_unflipped_on_top():
    game = game_with({"b1": [(R, W), (Y, B)], "c1": [(W, B)]})
    events = move(game, 0, "b1-c1")
    assert faces(game, "c1") == [(W, B), (R, W), (Y, B)]
    assert faces(game, "b1") == []
    assert events[0] == {"type": "moved", "seat": 0, "from": "b1", "to": "c1", "chips": 2,
                         "height": 3, "flipped": False, "top": Y, "move": 1}


def test_stacking_is_allowed_on_plain_circles_too():
    game = game_with({"a1": [(R, W)], "b1": [(W, B)], "f6": [(B, Y)]})
    move(game, 0, "a1-b1")  # a1 is an arrow circle, b1 plain
    assert faces(game, "b1") == [(W, B), (R, W)]


def test_new_height_four_is_allowed_and_five_is_not():
    game = game_with({"b1": [(R, W), (Y, B)], "c1": [(W, B), (B, R)], "d1": [(Y, R)],
                      "f6": [(B, Y)]})
    move(game, 0, "b1-c1")
    assert len(faces(game, "c1")) == 4
    raises("too_tall", game, 1, parse_move("d1-c1"))


def test_move_onto_empty_arrow_circle_flips_the_pile():
    # b1 is plain, c1 is an arrow circle.
    game = game_with({"b1": [(R, W), (Y, B), (W, Y)], "f6": [(B, Y)]})
    events = move(game, 0, "b1-c1")
    # Order reversed and every chip turned over: the old bottom's hidden face is now on top.
    assert faces(game, "c1") == [(Y, W), (B, Y), (W, R)]
    assert events[0]["flipped"] is True and events[0]["top"] == W
    assert game.public_view()["last_move"] == {"seat": 0, "from": "b1", "to": "c1",
                                               "flipped": True, "move": 1}


def test_single_chip_onto_empty_arrow_turns_over():
    game = game_with({"b1": [(R, W)], "f6": [(B, Y)]})
    move(game, 0, "b1-a1")
    assert faces(game, "a1") == [(W, R)]


def test_move_onto_empty_plain_circle_is_never_allowed():
    game = game_with({"a1": [(R, W)], "f6": [(B, Y)]})
    raises("empty_plain", game, 0, parse_move("a1-b1"))
    raises("empty_plain", game, 0, parse_move("a1-a2"))


def test_move_must_follow_one_line():
    game = game_with({"c3": [(R, W)], "d4": [(B, Y)], "c5": [(W, Y)], "b3": [(Y, B)]})
    raises("not_adjacent", game, 0, parse_move("c3-d4"))  # diagonal
    raises("not_adjacent", game, 0, parse_move("c3-c5"))  # two steps
    raises("not_adjacent", game, 0, parse_move("c3-c3"))
    raises("not_adjacent", game, 0, {"type": "move", "from": "a1", "to": "f1"})
    move(game, 0, "c3-b3")


def test_empty_source_is_refused():
    game = game_with({"c3": [(R, W)], "f6": [(B, Y)]})
    raises("empty_source", game, 0, parse_move("d3-c3"))


def test_legal_actions_list_exactly_the_legal_moves_for_the_player_to_move():
    game = game_with({"b1": [(R, W), (Y, B), (W, Y)], "c1": [(W, B)], "f5": [(B, Y)]})
    legal = {format_move(a) for a in game.legal_actions(0)}
    # b1 (3 high) onto c1 or flipped onto the empty arrows a1 and b2; c1 onto b1 but never to
    # the empty plain d1 or c2; f5 (plain) has only arrow neighbours, all empty.
    assert legal == {"b1-c1", "b1-a1", "b1-b2", "c1-b1", "f5-f6", "f5-e5", "f5-f4"}
    assert game.legal_actions(1) == []
    assert all(a["type"] == "move" for a in game.legal_actions(0))
    assert game.legal_actions(0) == sorted(game.legal_actions(0), key=lambda a: (
        SQUARE_INDEX[a["from"]], SQUARE_INDEX[a["to"]]))


def test_turns_go_clockwise_in_seat_order():
    game = Sarena.new(3, {}, 5)
    first = game.to_move
    for k in range(1, 6):
        action = game.legal_actions(game.to_move)[0]
        game.apply(game.to_move, action)
        assert game.to_move == (first + k) % 3


def test_not_your_turn_and_bad_input_leave_the_state_untouched():
    game = Sarena.new(2, {}, 1)
    other = 1 - game.to_move
    me = game.to_move
    raises("not_your_turn", game, other, parse_move("b1-c1"))
    raises("bad_seat", game, 2, parse_move("b1-c1"))
    raises("bad_seat", game, -1, parse_move("b1-c1"))
    raises("bad_seat", game, True, parse_move("b1-c1"))
    raises("bad_seat", game, "0", parse_move("b1-c1"))
    raises("bad_action", game, me, "b1-c1")
    raises("bad_action", game, me, None)
    raises("bad_action", game, me, {"from": "b1", "to": "c1"})
    raises("bad_action", game, me, {"type": 3})
    raises("bad_action", game, me, {"type": "move", "from": "b1"})
    raises("bad_action", game, me, {"type": "move", "from": 1, "to": 2})
    raises("bad_action", game, me, {"type": "move", "from": ["b1"], "to": "c1"})
    raises("bad_square", game, me, {"type": "move", "from": "z9", "to": "c1"})
    raises("bad_square", game, me, {"type": "move", "from": "b1", "to": "c10"})
    raises("unknown_action", game, me, {"type": "pass"})


# -- end and scoring -----------------------------------------------------------------------

def test_game_ends_when_no_pile_can_move_and_piles_go_to_their_top_colour():
    # After b1-c1 no pile can move: c1 (4 high) and e5 have only empty plain neighbours.
    game = game_with({"b1": [(R, W)], "c1": [(W, B), (B, Y), (R, Y)], "e5": [(Y, B), (W, R)]},
                     colours=(W, R))
    events = move(game, 0, "b1-c1")
    assert game.to_move is None and game.legal_actions(0) == []
    over = events[-1]
    assert over["type"] == "game_over" and over["reason"] == "score"
    # c1: top R (4 chips) -> red (seat 1) takes 4, two of them carry red; e5: top W ->
    # white (seat 0) takes 2, one carries white.
    assert over["scores"] == [2, 4] and over["winners"] == [1] and over["draw"] is False
    assert over["colours"] == [W, R]
    result = game.result()
    assert result == Result((1,), "score", False, {
        "colours": [W, R], "scores": [2, 4], "tiebreaks": [1, 2], "moves": 1, "resigned": []})
    raises("game_over", game, 0, parse_move("c1-b1"))
    raises("game_over", game, 1, {"type": "resign"})


def test_unowned_colours_score_for_nobody():
    game = game_with({"b1": [(Y, W)], "c1": [(Y, B), (Y, B), (Y, R)], "e5": [(B, W)]},
                     colours=(W, B))
    move(game, 0, "b1-c1")
    assert game.result().details["scores"] == [0, 1]


def test_tie_on_score_breaks_on_chips_carrying_the_owners_colour():
    # Both take 2 chips; white's pile has 2 chips with white on a face, black's only 1.
    game = game_with({"a1": [(B, W), (W, R)], "c1": [(R, Y), (B, W)], "e5": [(Y, R)],
                      "e6": [(Y, R)]}, colours=(W, B))
    move(game, 0, "e6-e5")
    result = game.result()
    assert result.details["scores"] == [2, 2]
    assert result.details["tiebreaks"] == [2, 1]
    assert result.winners == (0,) and result.draw is False and result.reason == "score"


def test_full_tie_is_a_shared_victory_and_a_draw():
    game = game_with({"a1": [(R, W), (W, R)], "c1": [(R, B), (B, R)], "e5": [(Y, R)],
                      "e6": [(Y, R)]}, colours=(W, B))
    move(game, 0, "e6-e5")
    result = game.result()
    assert result.winners == (0, 1) and result.draw is True and result.reason == "score"


def test_tie_among_some_players_is_shared_victory_without_draw():
    game = game_with({"a1": [(R, W), (W, R)], "c1": [(R, B), (B, R)], "e5": [(Y, R)],
                      "e6": [(Y, R)]}, seats=3, colours=(W, B, Y))
    move(game, 0, "e6-e5")
    result = game.result()
    assert result.details["scores"] == [2, 2, 2]
    assert result.details["tiebreaks"] == [2, 2, 2]
    game = game_with({"a1": [(R, W), (W, R)], "c1": [(R, B), (B, R)], "e5": [(R, Y)],
                      "e6": [(R, Y)]}, seats=3, colours=(W, B, Y))
    move(game, 0, "e6-e5")
    result = game.result()
    assert result.details["scores"] == [2, 2, 0]
    assert result.winners == (0, 1) and result.draw is False


# -- resign --------------------------------------------------------------------------------

def test_resign_with_two_players_hands_the_win_to_the_other():
    game = Sarena.new(2, {}, 9)
    waiting = 1 - game.to_move
    events = game.apply(waiting, {"type": "resign"})
    assert events[0] == {"type": "resigned", "seat": waiting, "move": 0}
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "resigned"
    result = game.result()
    assert result.winners == (1 - waiting,) and result.reason == "resigned" and not result.draw
    assert result.details["scores"][waiting] is None
    assert result.details["resigned"] == [waiting]
    assert game.to_move is None


def test_resigned_seat_is_skipped_and_unranked():
    game = Sarena.new(3, {}, 4)
    first = game.to_move
    game.apply(first, {"type": "resign"})  # resigning on one's own turn passes the turn
    assert game.to_move == (first + 1) % 3
    assert game.result() is None
    raises("seat_resigned", game, first, {"type": "resign"})
    raises("seat_resigned", game, first, game.legal_actions(game.to_move)[0])
    for _ in range(4):
        assert game.to_move != first
        game.apply(game.to_move, game.legal_actions(game.to_move)[0])
    assert game.legal_actions(first) == []
    assert game.public_view()["resigned"] == [first]
    rnd = random.Random(0)
    while game.to_move is not None:
        game.apply(game.to_move, rnd.choice(game.legal_actions(game.to_move)))
    result = game.result()
    assert first not in result.winners and result.details["scores"][first] is None
    assert result.details["resigned"] == [first]
    assert all(result.details["scores"][s] is not None for s in range(3) if s != first)


def test_last_two_of_three_resigning_ends_the_game():
    game = Sarena.new(3, {}, 4)
    game.apply(0, {"type": "resign"})
    events = game.apply(2, {"type": "resign"})
    assert game.result().winners == (1,) and events[-1]["reason"] == "resigned"


def test_resign_is_accepted_but_not_listed():
    game = Sarena.new(2, {}, 4)
    assert all(a["type"] == "move" for a in game.legal_actions(game.to_move))


# -- views ---------------------------------------------------------------------------------

def test_public_view_hides_colours_and_never_seen_faces():
    game = game_with({"b1": [(R, W), (Y, B), (W, Y)], "f6": [(B, Y)]}, colours=(W, B))
    view = game.public_view()
    text = json.dumps(view)
    assert "colour" not in text and view["result"] is None and view["finished"] is False
    b1 = view["board"][SQUARE_INDEX["b1"]]
    assert b1 == {"square": "b1", "x": 1, "y": 0, "arrow": False, "height": 3, "top": W,
                  "chips": [{"up": R, "down": None}, {"up": Y, "down": None},
                            {"up": W, "down": None}]}
    move(game, 0, "b1-c1")
    c1 = game.public_view()["board"][SQUARE_INDEX["c1"]]
    # After the flip only the new top face has been seen; the middle chip's new up face (B)
    # never showed, and faces seen before stay known as down faces.
    assert c1["top"] == W and c1["height"] == 3 and c1["arrow"] is True
    assert c1["chips"] == [{"up": None, "down": W}, {"up": None, "down": Y},
                           {"up": W, "down": R}]


def test_public_view_lists_moves_and_reveals_everything_at_the_end():
    game = game_with({"b1": [(R, W)], "c1": [(W, B), (B, Y), (R, Y)], "e5": [(Y, B), (W, R)]},
                     colours=(W, R))
    view = game.public_view()
    assert view["legal"] == ["b1-a1", "b1-c1", "b1-b2", "c1-b1"]
    assert view["movable"] == ["b1", "c1"]
    assert view["to_move"] == 0 and view["move"] == 1 and view["moves_played"] == 0
    move(game, 0, "b1-c1")
    view = game.public_view()
    assert view["finished"] is True and view["to_move"] is None and view["legal"] == []
    assert view["result"] == {"winners": [1], "reason": "score", "draw": False,
                              "colours": [W, R], "scores": [2, 4], "tiebreaks": [1, 2]}


def test_private_view_is_the_seat_colour_only():
    game = game_with({"b1": [(R, W)], "f6": [(B, Y)]}, seats=3, colours=(Y, R, B))
    assert [game.private_view(s) for s in range(3)] == [{"colour": Y}, {"colour": R},
                                                         {"colour": B}]
    with pytest.raises(IllegalAction):
        game.private_view(3)


# -- notation, persistence, catalog ------------------------------------------------------

def test_notation_round_trips_and_rejects_garbage():
    assert parse_move("c3-c4") == {"type": "move", "from": "c3", "to": "c4"}
    assert parse_move(" C3 c4 ") == {"type": "move", "from": "c3", "to": "c4"}
    assert parse_move("a1a2") == {"type": "move", "from": "a1", "to": "a2"}
    assert format_move({"type": "move", "from": "f6", "to": "e6"}) == "f6-e6"
    for text in ("", "c3", "c3-c7", "g1-f1", "c3--c4", 34, None):
        with pytest.raises(IllegalAction) as info:
            parse_move(text)
        assert info.value.code == "bad_notation"
    with pytest.raises(IllegalAction):
        format_move({"type": "move", "from": "x1", "to": "a1"})


def test_json_round_trip_and_replay_reproduce_the_game():
    game = Sarena.new(4, {"fair": True}, 77)
    log = []
    rnd = random.Random(1)
    while game.to_move is not None:
        seat = game.to_move
        action = rnd.choice(game.legal_actions(seat))
        log.append((seat, action))
        game.apply(seat, action)
        state = json.loads(json.dumps(game.to_json()))
        assert Sarena.from_json(state).to_json() == game.to_json()
    assert Sarena.replay(4, {"fair": True}, 77, log).to_json() == game.to_json()
    assert Sarena.from_json(game.to_json()).result() == game.result()


def test_options_and_seat_limits():
    assert Sarena.key == "sarena" and (Sarena.min_seats, Sarena.max_seats) == (2, 4)
    assert Sarena.normalize_options({}) == {"fair": False}
    with pytest.raises(ValueError):
        Sarena.new(5, {}, 1)
    with pytest.raises(ValueError):
        Sarena.new(1, {}, 1)
    with pytest.raises(ValueError):
        Sarena.new(2, {"fair": "yes"}, 1)


def test_playout_plays_a_whole_game():
    result = playout(5, 3, True)
    assert result.reason == "score" and 1 <= result.details["moves"] <= 45
    assert set(result.winners) <= {0, 1, 2}


def test_catalog_covers_every_code_reason_and_colour():
    catalog = json.loads((ROOT / "cogs/sarena/locales/en.json").read_text("utf-8"))
    source = "".join(p.read_text("utf-8") for p in (ROOT / "bot/games/sarena").glob("*.py"))
    codes = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', source))
    assert {"not_your_turn", "game_over", "bad_action", "too_tall", "bad_notation"} <= codes
    for code in codes:
        assert f"sarena.illegal.{code}" in catalog
    for reason in ("score", "resigned"):
        assert f"sarena.end.{reason}" in catalog
    for colour in COLOURS:
        assert f"sarena.colour.{colour}" in catalog
    assert 0 < len(catalog["sarena.rules"]) < 1500
    assert all(key.startswith("sarena.") and isinstance(v, str) for key, v in catalog.items())
    # Placeholders name only parameters the rules pass with that code.
    assert set(re.findall(r"{(\w+)}", catalog["sarena.illegal.too_tall"])) <= {
        "from", "to", "height"}
