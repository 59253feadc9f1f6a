"""Hand-made positions for every Sensei rule and option."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.games.base import IllegalAction
from bot.games.sensei import Sensei
from bot.games.sensei.barrier import worst_barrier

ROOT = Path(__file__).resolve().parents[2]


def position(green, red, green_character, red_character, to_move=0, current=(), **options):
    """A game with exactly these stones; characters must stand on their own stones."""
    data = Sensei.new(2, options, 0).to_json()
    data.update(stones=[sorted(green), sorted(red)], characters=[green_character, red_character],
                active=to_move, current=[dict(a) for a in current])
    return Sensei.from_json(data)


def refused(game, seat, action, code):
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert info.value.code == code, str(info.value)
    assert game.to_json() == before
    return info.value


def stone(frm, to):
    return {"type": "stone", "from": frm, "to": to}


def character(frm, to):
    return {"type": "character", "from": frm, "to": to}


END = {"type": "end_turn"}
# A scattered red army that neither blocks nor builds barriers in the tests below.
RED = ["a7", "b7", "c7", "d7", "e7", "f7", "g7"]
GREEN = ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]


# ----------------------------------------------------------------- setup and options
def test_standard_setup():
    view = Sensei.new(2, {"first": "green"}, 3).public_view()
    assert {sq for sq, s in view["board"].items() if s["seat"] == 0} == set(GREEN)
    assert {sq for sq, s in view["board"].items() if s["seat"] == 1} == set(RED)
    assert view["characters"] == ["d1", "d7"]
    assert view["pits"] == []
    assert view["to_move"] == 0 and view["turn"] == 1


def test_crossed_setup_swaps_b_and_f_stones():
    view = Sensei.new(2, {"setup": "crossed"}, 3).public_view()
    green = {sq for sq, s in view["board"].items() if s["seat"] == 0}
    red = {sq for sq, s in view["board"].items() if s["seat"] == 1}
    assert green == {"a1", "c1", "d1", "e1", "g1", "b7", "f7"}
    assert red == {"a7", "c7", "d7", "e7", "g7", "b1", "f1"}
    assert view["board"]["d1"]["character"] and view["board"]["d7"]["character"]


def test_storm_side_has_four_pits():
    assert Sensei.new(2, {"board": "storm"}, 1).public_view()["pits"] == ["c3", "e3", "c5", "e5"]


def test_first_player_option():
    assert Sensei.new(2, {"first": "green"}, 5).to_move == 0
    assert Sensei.new(2, {"first": "red"}, 5).to_move == 1
    random_firsts = {Sensei.new(2, {}, seed).to_move for seed in range(20)}
    assert random_firsts == {0, 1}
    assert Sensei.new(2, {}, 11).to_move == Sensei.new(2, {}, 11).to_move


def test_bad_options_and_seat_counts():
    with pytest.raises(ValueError):
        Sensei.new(2, {"version": "hurricane"}, 1)
    with pytest.raises(ValueError):
        Sensei.new(2, {"colour": "blue"}, 1)
    with pytest.raises(ValueError):
        Sensei.new(3, {}, 1)
    assert Sensei.options_spec[0].default == "arashi"


# ----------------------------------------------------------------- stone moves
def test_arashi_slides_through_empty_squares_only():
    game = position(["c2", "c5", "a2", "d1"], RED, "d1", "d7")
    assert sorted(game.stone_destinations(0, "c2")) == ["b2", "c1", "c3", "c4", "d2", "e2",
                                                        "f2", "g2"]
    refused(game, 0, stone("c2", "c6"), "path_blocked")
    refused(game, 0, stone("c2", "c5"), "path_blocked")
    refused(game, 0, stone("c2", "a2"), "path_blocked")
    events = game.apply(0, stone("c2", "g2"))
    assert events == [{"type": "stone_moved", "seat": 0, "from": "c2", "to": "g2",
                       "notation": "c2-g2", "turn": 1}]


def test_arashi_opponent_stone_stops_a_slide():
    game = position(["c2", "d1"], ["c4", "d7"], "d1", "d7")
    assert "c3" in game.stone_destinations(0, "c2")
    refused(game, 0, stone("c2", "c5"), "path_blocked")


def test_shizukana_moves_exactly_one_square():
    game = position(["c2", "d1"], RED, "d1", "d7", version="shizukana")
    assert sorted(game.stone_destinations(0, "c2")) == ["b2", "c1", "c3", "d2"]
    refused(game, 0, stone("c2", "c4"), "one_square_only")
    game.apply(0, stone("c2", "c3"))
    assert game.public_view()["board"]["c3"]["seat"] == 0


def test_stones_never_move_diagonally_or_stay():
    game = position(["c2", "d1"], RED, "d1", "d7")
    refused(game, 0, stone("c2", "d3"), "not_orthogonal")
    refused(game, 0, stone("c2", "e3"), "not_orthogonal")
    refused(game, 0, stone("c2", "c2"), "no_movement")


def test_stones_never_enter_or_cross_a_pit():
    game = position(["c2", "a3", "d1"], RED, "d1", "d7", board="storm")
    assert sorted(game.stone_destinations(0, "c2")) == ["a2", "b2", "c1", "d2", "e2", "f2", "g2"]
    refused(game, 0, stone("c2", "c3"), "pit")
    refused(game, 0, stone("c2", "c4"), "pit")
    refused(game, 0, stone("a3", "d3"), "pit")
    assert "b3" in game.stone_destinations(0, "a3")
    assert "d3" not in game.stone_destinations(0, "a3")
    shizukana = position(["c2", "d1"], RED, "d1", "d7", board="storm", version="shizukana")
    refused(shizukana, 0, stone("c2", "c3"), "pit")


def test_only_own_stones_move():
    game = position(GREEN, RED, "d1", "d7")
    refused(game, 0, stone("a7", "a6"), "not_your_stone")
    refused(game, 0, stone("a4", "a5"), "not_your_stone")


def test_the_stone_carrying_the_character_cannot_move():
    game = position(["d2", "d4", "a1"], RED, "d2", "d7")
    refused(game, 0, stone("d2", "e2"), "stone_carries_character")
    assert game.stone_destinations(0, "d2") == []
    game.apply(0, character("d2", "d4"))
    assert game.stone_destinations(0, "d2") != []
    refused(game, 0, stone("d4", "e4"), "stone_carries_character")
    game.apply(0, stone("d2", "e2"))


# ----------------------------------------------------------------- character moves
def test_character_jumps_along_lines_to_own_stones():
    game = position(["d1", "d5", "b4", "g4", "b3", "f3", "g1"], ["d7", "e7"], "d1", "d7")
    assert sorted(game.character_targets(0)) == ["b3", "d5", "f3", "g1", "g4"]
    refused(game, 0, character("d1", "b4"), "not_in_line")
    refused(game, 0, character("d1", "d3"), "character_needs_own_stone")
    refused(game, 0, character("d1", "d7"), "character_needs_own_stone")
    refused(game, 0, character("d5", "d1"), "not_your_character")
    game.apply(0, character("d1", "g4"))
    assert game.public_view()["characters"][0] == "g4"


def test_only_opponent_stones_block_a_jump():
    # The own stone on d3 does not block the jump to d5; the red stone on c2 blocks d1-a4.
    game = position(["d1", "d3", "d5", "a4"], ["c2", "d7"], "d1", "d7")
    assert "d5" in game.character_targets(0) and "a4" not in game.character_targets(0)
    refused(game, 0, character("d1", "a4"), "jump_blocked")
    across_pit = position(["c2", "c6", "a1"], RED, "c2", "d7", board="storm")
    assert "c6" in across_pit.character_targets(0)
    across_pit.apply(0, character("c2", "c6"))


# ----------------------------------------------------------------- turn structure
def test_two_stone_moves_and_one_character_move_then_automatic_end():
    game = position(GREEN, RED, "d1", "d7")
    game.apply(0, stone("a1", "a2"))
    game.apply(0, stone("a2", "a3"))  # the same stone twice is allowed
    refused(game, 0, stone("b1", "b2"), "no_stone_moves_left")
    events = game.apply(0, character("d1", "c1"))
    assert [e["type"] for e in events] == ["character_moved", "turn_ended"]
    assert events[-1] == {"type": "turn_ended", "seat": 0, "turn": 1, "auto": True,
                          "actions": ["a1-a2", "a2-a3", "*d1-c1"]}
    assert game.to_move == 1 and game.turn == 2
    assert game.public_view()["last_turn"]["actions"][2]["kind"] == "character"


def test_second_character_move_is_refused():
    game = position(GREEN, RED, "d1", "d7")
    game.apply(0, character("d1", "e1"))
    refused(game, 0, character("e1", "f1"), "no_character_move_left")
    assert game.character_targets(0) == []


def test_end_turn_needs_an_action_and_passes_the_turn():
    game = position(GREEN, RED, "d1", "d7")
    refused(game, 0, END, "nothing_done_yet")
    assert {"type": "end_turn"} not in game.legal_actions(0)
    game.apply(0, stone("a1", "a4"))
    assert {"type": "end_turn"} in game.legal_actions(0)
    events = game.apply(0, END)
    assert events == [{"type": "turn_ended", "seat": 0, "turn": 1, "auto": False,
                       "actions": ["a1-a4"]}]
    assert game.to_move == 1 and game.turn == 2
    refused(game, 0, stone("b1", "b2"), "not_your_turn")
    assert game.legal_actions(0) == []


def test_legal_actions_list_no_meta_actions():
    game = position(GREEN, RED, "d1", "d7")
    kinds = {a["type"] for a in game.legal_actions(0)}
    assert kinds == {"stone", "character"}


def test_public_view_tracks_what_is_left_in_the_turn():
    game = position(GREEN, RED, "d1", "d7")
    game.apply(0, stone("a1", "a3"))
    turn = game.public_view()["current_turn"]
    assert turn == {"seat": 0, "actions": [{"kind": "stone", "from": "a1", "to": "a3",
                                            "notation": "a1-a3"}],
                    "stone_moves_left": 1, "character_move_left": True, "can_end": True}


# ----------------------------------------------------------------- winning by arrival
def test_character_arriving_on_the_far_rank_wins_at_once():
    finished = position(["d1", "g4", "d7"], ["e6", "a6"], "d1", "e6")
    events = finished.apply(0, character("d1", "d7"))
    assert [e["type"] for e in events] == ["character_moved", "turn_ended", "game_over"]
    result = finished.result()
    assert result.winners == (0,) and result.reason == "arrived"
    assert result.details == {"winner": 0, "square": "d7", "turn": 1}
    assert finished.to_move is None and finished.legal_actions(0) == []
    refused(finished, 1, stone("a6", "a5"), "game_over")
    refused(finished, 0, {"type": "resign"}, "game_over")


def test_red_arrives_on_rank_one():
    game = position(["a3", "c3"], ["d7", "d2", "d1"], "a3", "d2", to_move=1)
    game.apply(1, character("d2", "d1"))
    assert game.result().winners == (1,) and game.result().reason == "arrived"


def test_arrival_mid_turn_ends_the_turn_with_moves_left():
    game = position(["d1", "d7", "a1"], ["e6", "a6"], "d1", "e6")
    game.apply(0, stone("a1", "a2"))
    game.apply(0, character("d1", "d7"))
    assert game.result().reason == "arrived"
    assert [a["notation"] for a in game.public_view()["last_turn"]["actions"]] == ["a1-a2",
                                                                                   "*d1-d7"]


# ----------------------------------------------------------------- barrier rule
WALL = ["a4", "b4", "c4", "d4", "e4", "f4", "g4"]


def test_barrier_touched_by_three_stones_loses():
    game = position(WALL, ["b5", "d5", "f6", "a7"], "a4", "a7", to_move=1)
    game.apply(1, stone("f6", "f5"))
    events = game.apply(1, END)
    assert events[-1]["type"] == "game_over"
    result = game.result()
    assert result.reason == "barrier" and result.winners == (1,)
    assert result.details == {"loser": 0, "barrier": WALL, "touching": ["b5", "d5", "f5"],
                              "count": 3, "both": False, "turn": 1}


def test_barrier_is_only_checked_at_the_end_of_the_turn():
    game = position(WALL, ["b5", "d5", "f6", "a7", "g7"], "a4", "a7", to_move=1)
    game.apply(1, stone("f6", "f5"))
    assert game.result() is None
    game.apply(1, {"type": "undo"})
    game.apply(1, stone("g7", "g6"))
    game.apply(1, END)
    assert game.result() is None


def test_barrier_touched_by_two_stones_is_fine():
    game = position(WALL, ["b5", "d5", "f7", "a7"], "a4", "a7", to_move=1)
    game.apply(1, stone("f7", "f6"))
    game.apply(1, END)
    assert game.result() is None


def test_one_stone_touching_two_barrier_stones_counts_once():
    # A zig-zag wall: the red stone on e5 touches both d5 and e4, the one on c5 both c4 and d5.
    wall = ["a4", "b4", "c4", "d5", "e4", "f4", "g4"]
    game = position(wall, ["e5", "c5", "a7", "g7"], "a4", "a7", to_move=1)
    assert worst_barrier(game.cells, 0)[1] == [30, 32]  # c5 and e5: two distinct stones
    game.apply(1, stone("g7", "g6"))
    game.apply(1, END)
    assert game.result() is None


def test_chain_may_step_one_rank_but_not_two():
    stepped = ["a2", "b3", "c4", "d5", "e4", "f3", "g2"]
    game = position(stepped, ["a3", "b4", "c5", "g7", "f7"], "a2", "g7", to_move=1)
    game.apply(1, stone("f7", "f6"))
    game.apply(1, END)
    assert game.result().reason == "barrier"
    gap = ["a2", "b4", "c4", "d4", "e4", "f4", "g4"]
    game = position(gap, ["b5", "c5", "d5", "g7", "f7"], "a2", "g7", to_move=1)
    game.apply(1, stone("f7", "f6"))
    game.apply(1, END)
    assert game.result() is None


def test_moving_player_whose_opponent_is_walled_in_wins():
    game = position(WALL, ["b5", "d5", "f6", "a7"], "a4", "a7", to_move=0)
    game.apply(0, character("a4", "b4"))
    game.apply(0, END)
    # Red's stones b5, d5 and f6 touch only two wall stones: no loss yet.
    assert game.result() is None
    game.apply(1, stone("f6", "f5"))
    game.apply(1, END)
    assert game.result().winners == (1,)


def test_when_both_players_are_walled_the_mover_loses():
    green = ["a3", "b3", "c3", "d3", "e3", "f3", "g2"]
    red = ["a4", "b4", "c4", "d4", "e4", "f4", "g5"]
    game = position(green, red, "a3", "a4", to_move=0)
    game.apply(0, stone("g2", "g3"))
    game.apply(0, END)
    assert game.result().winners == (1,)
    assert game.result().details["loser"] == 0 and game.result().details["both"] is True
    game = position(green, red, "a3", "a4", to_move=1)
    game.apply(1, stone("g5", "g4"))
    game.apply(1, END)
    assert game.result().winners == (0,) and game.result().details["loser"] == 1


def test_non_moving_player_with_touched_barrier_loses():
    red = ["a6", "b6", "c6", "d6", "e6", "f6", "g6"]
    game = position(["a5", "c5", "e4", "g1"], red, "g1", "a6", to_move=0)
    game.apply(0, stone("e4", "e5"))
    game.apply(0, END)
    assert game.result().winners == (0,)
    assert game.result().details["loser"] == 1


def test_pits_on_the_storm_side_serve_both_players():
    # Red's a4 b4 c5(pit) d4 e5(pit) f6 g7 is a barrier too, touched by green a3, b3 and d3.
    green = ["a3", "b3", "d3", "f3", "g3", "a1", "b1"]
    game = position(green, ["a4", "b4", "d4", "g7", "f7"], "a1", "g7", to_move=1, board="storm")
    game.apply(1, stone("f7", "f6"))
    game.apply(1, END)
    assert game.result().details["both"] is True and game.result().winners == (0,)


def test_storm_pits_complete_a_barrier_but_cannot_be_touched():
    green = ["a3", "b3", "d3", "f3", "g3", "a1", "b1"]
    # c4 and e4 touch only the pits c3 and e3; d4 touches d3: one touching stone.
    game = position(green, ["c4", "e4", "d4", "a7", "b7"], "a1", "a7", to_move=1, board="storm")
    chain, touching = worst_barrier(game.cells, 0)
    assert len(chain) == 7 and len(touching) == 1
    game.apply(1, stone("b7", "b6"))
    game.apply(1, END)
    assert game.result() is None
    # Three stones touching real barrier stones do count.
    game = position(green, ["a4", "b4", "d4", "a7", "b7"], "a1", "a7", to_move=1, board="storm")
    game.apply(1, stone("b7", "b6"))
    game.apply(1, END)
    assert game.result().reason == "barrier"
    assert game.result().details["barrier"] == ["a3", "b3", "c3", "d3", "e3", "f3", "g3"]
    # The same stones on the plain side make no barrier: files c and e are empty.
    plain = position(green, ["a4", "b4", "d4", "a7", "b7"], "a1", "a7", to_move=1)
    plain.apply(1, stone("b7", "b6"))
    plain.apply(1, END)
    assert plain.result() is None


def test_any_touched_chain_loses_even_if_another_chain_is_not():
    # Two chains: through the pits c3/e3 (touched by a1 only) or through c2/e2 (touched by
    # a1, c1 and e1). The second one decides.
    green = ["a2", "b2", "c2", "d2", "e2", "f2", "g2"]
    game = position(green, ["a1", "c1", "e1", "g7", "f7"], "a2", "g7", to_move=1, board="storm")
    game.apply(1, stone("f7", "f6"))
    game.apply(1, END)
    assert game.result().reason == "barrier"
    assert sorted(game.result().details["touching"]) == ["a1", "c1", "e1"]


# ----------------------------------------------------------------- passing and deadlock
def test_player_without_any_action_passes():
    # Red has only the stone under its character: it can neither move it nor jump.
    game = position(["a1", "c1", "g1"], ["g7"], "a1", "g7", to_move=0)
    events = game.apply(0, stone("c1", "c2"))
    events += game.apply(0, END)
    assert events[-1] == {"type": "passed", "seat": 1, "turn": 2}
    assert game.to_move == 0 and game.turn == 3
    assert game.legal_actions(1) == []


def test_draw_when_neither_player_can_act():
    # After a real move the mover can always move back, so this deadlock only arises from a
    # hand-made state: green ends a recorded turn and nobody can act afterwards.
    game = position(["a1"], ["g7"], "a1", "g7", to_move=0,
                    current=[{"kind": "stone", "from": "b1", "to": "a1"}])
    events = game.apply(0, END)
    assert [e["type"] for e in events] == ["turn_ended", "passed", "game_over"]
    assert game.result().draw and game.result().reason == "no_moves"
    assert game.result().winners == ()


# ----------------------------------------------------------------- undo, resign, draws
def test_undo_takes_back_the_last_action_of_the_turn():
    game = position(GREEN, RED, "d1", "d7")
    start = game.to_json()
    game.apply(0, stone("a1", "a5"))
    game.apply(0, character("d1", "e1"))
    events = game.apply(0, {"type": "undo"})
    assert events == [{"type": "undone", "seat": 0, "turn": 1, "notation": "*d1-e1",
                       "action": {"kind": "character", "from": "d1", "to": "e1"}}]
    game.apply(0, {"type": "undo"})
    assert game.to_json() == start
    refused(game, 0, {"type": "undo"}, "nothing_to_undo")
    refused(game, 1, {"type": "undo"}, "not_your_turn")


def test_undo_cannot_reach_into_a_finished_turn():
    game = position(GREEN, RED, "d1", "d7")
    game.apply(0, stone("a1", "a5"))
    game.apply(0, END)
    refused(game, 0, {"type": "undo"}, "not_your_turn")
    refused(game, 1, {"type": "undo"}, "nothing_to_undo")


def test_resign_any_time_by_either_seat():
    game = position(GREEN, RED, "d1", "d7")
    events = game.apply(1, {"type": "resign"})
    assert events[0] == {"type": "resigned", "seat": 1, "turn": 1}
    assert game.result().winners == (0,) and game.result().reason == "resigned"
    assert game.result().details == {"loser": 1, "turn": 1}


def test_agreed_draw():
    game = position(GREEN, RED, "d1", "d7")
    assert game.apply(1, {"type": "offer_draw"}) == [{"type": "draw_offered", "seat": 1,
                                                       "turn": 1}]
    assert game.public_view()["draw_offer"] == 1
    refused(game, 1, {"type": "offer_draw"}, "draw_already_offered")
    refused(game, 1, {"type": "accept_draw"}, "no_draw_offer")
    events = game.apply(0, {"type": "accept_draw"})
    assert [e["type"] for e in events] == ["draw_accepted", "game_over"]
    assert game.result().draw and game.result().reason == "agreed_draw"


def test_declined_draw_and_counter_offer():
    game = position(GREEN, RED, "d1", "d7")
    refused(game, 0, {"type": "decline_draw"}, "no_draw_offer")
    game.apply(0, {"type": "offer_draw"})
    assert game.apply(1, {"type": "decline_draw"})[0]["implicit"] is False
    assert game.public_view()["draw_offer"] is None
    game.apply(0, {"type": "offer_draw"})
    game.apply(1, {"type": "offer_draw"})
    assert game.result().reason == "agreed_draw"


def test_playing_on_declines_a_pending_draw_offer():
    game = position(GREEN, RED, "d1", "d7")
    game.apply(0, {"type": "offer_draw"})
    game.apply(0, stone("a1", "a2"))
    game.apply(0, END)
    assert game.public_view()["draw_offer"] == 0  # the offer waits for red's answer
    game.apply(1, stone("a7", "a6"))
    events = game.apply(1, END)
    assert {"type": "draw_declined", "seat": 1, "turn": 2, "implicit": True} in events
    assert game.public_view()["draw_offer"] is None


# ----------------------------------------------------------------- garbage input
@pytest.mark.parametrize("action, code", [
    (None, "bad_action"), ("stone", "bad_action"), ({}, "bad_action"), ({"type": 3}, "bad_action"),
    ({"type": "fly"}, "unknown_action"), ({"type": "stone"}, "bad_action"),
    ({"type": "stone", "from": "a1"}, "bad_action"), ({"type": "stone", "from": "a1", "to": 5},
                                                     "bad_action"),
    ({"type": "stone", "from": "a1", "to": "a9"}, "bad_action"),
    ({"type": "stone", "from": "h1", "to": "a2"}, "bad_action"),
    ({"type": "character", "from": ["d1"], "to": "e1"}, "bad_action"),
    ({"type": "stone", "from": "", "to": "a2"}, "bad_action"),
])
def test_malformed_actions_are_refused_cleanly(action, code):
    refused(position(GREEN, RED, "d1", "d7"), 0, action, code)


@pytest.mark.parametrize("seat", [2, -1, None, "0", True])
def test_bad_seats_are_refused(seat):
    refused(position(GREEN, RED, "d1", "d7"), seat, stone("a1", "a2"), "bad_seat")


def test_views():
    game = position(GREEN, RED, "d1", "d7")
    view = game.public_view()
    assert view["board"]["d1"] == {"seat": 0, "colour": "green", "character": True}
    assert view["board"]["a7"] == {"seat": 1, "colour": "red", "character": False}
    assert view["finished"] is False and view["result"] is None and view["last_turn"] is None
    assert view["home_ranks"] == [1, 7] and view["options"]["version"] == "arashi"
    assert game.private_view(0) == {} and game.private_view(1) == {}
    json.dumps(view)


def test_helper_functions_match_legal_actions():
    game = position(GREEN, ["a7", "b7", "c4", "d7"], "d1", "d7")
    stones = {a["from"] for a in game.legal_actions(0) if a["type"] == "stone"}
    assert set(game.movable_stones(0)) == stones
    assert game.movable_stones(1) == [] and game.stone_destinations(1, "a7") == []
    assert game.stone_destinations(0, "zz") == [] and game.character_targets(1) == []


# ----------------------------------------------------------------- catalog
def _catalog():
    return json.loads((ROOT / "cogs/sensei/locales/en.json").read_text("utf-8"))


def test_catalog_covers_every_code_reason_and_option():
    catalog = _catalog()
    source = "\n".join(p.read_text("utf-8") for p in (ROOT / "bot/games/sensei").glob("*.py"))
    codes = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', source))
    codes |= set(re.findall(r'^\s*"([a-z_]+)": "', source.split("_REFUSALS = {")[1]
                            .split("}")[0], re.M))
    assert codes and all(f"sensei.illegal.{code}" in catalog for code in codes), \
        sorted(c for c in codes if f"sensei.illegal.{c}" not in catalog)
    for reason in ("arrived", "barrier", "resigned", "agreed_draw", "no_moves"):
        assert f"sensei.end.{reason}" in catalog
    for spec in Sensei.options_spec:
        for value in spec.choices:
            assert f"sensei.{spec.name}.{value}" in catalog
    assert len(catalog["sensei.rules"]) < 1500


def test_refusal_params_fill_their_catalog_sentences():
    catalog = _catalog()
    game = position(GREEN, RED, "d1", "d7")
    for action in (stone("a1", "b2"), stone("d1", "d2"), stone("a7", "a6"),
                   character("e1", "e2"), character("d1", "a4")):
        with pytest.raises(IllegalAction) as info:
            game.apply(0, action)
        catalog[f"sensei.illegal.{info.value.code}"].format(**info.value.params)
