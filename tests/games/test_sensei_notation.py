"""Typed turns: parsing, formatting, checking a whole turn and playing it atomically."""
from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.sensei import Sensei, check_turn, format_turn, parse_turn, play_turn


def green_first() -> Sensei:
    return Sensei.new(2, {"first": "green"}, 0)


def test_parse_turn_reads_stone_and_character_moves():
    assert parse_turn("c1-c5 *d1-c5 e1-e2") == [
        {"type": "stone", "from": "c1", "to": "c5"},
        {"type": "character", "from": "d1", "to": "c5"},
        {"type": "stone", "from": "e1", "to": "e2"},
    ]


def test_parse_turn_is_forgiving_about_case_commas_and_phone_dashes():
    assert parse_turn("  C1–C5, ×D1-c5 ") == parse_turn("c1-c5 *d1-c5")


@pytest.mark.parametrize("text, token", [
    ("c1-c9", "c1-c9"), ("c1c5", "c1c5"), ("a1-b2 h1-h2", "h1-h2"), ("**d1-d2", "**d1-d2"),
    ("c1-", "c1-"),
])
def test_parse_turn_names_the_bad_token(text, token):
    with pytest.raises(IllegalAction) as info:
        parse_turn(text)
    assert info.value.code == "bad_notation" and info.value.params == {"token": token}


def test_parse_turn_refuses_empty_and_long_turns():
    with pytest.raises(IllegalAction) as info:
        parse_turn("   ")
    assert info.value.code == "empty_turn"
    with pytest.raises(IllegalAction) as info:
        parse_turn("a1-a2 b1-b2 c1-c2 *d1-e1")
    assert info.value.code == "too_many_actions" and info.value.params == {"max": 3}
    with pytest.raises(IllegalAction) as info:
        parse_turn(None)  # type: ignore[arg-type]
    assert info.value.code == "bad_notation"


def test_format_turn_round_trips_and_skips_end_turn():
    text = "c2-c5 *d1-c5 e1-e2"
    assert format_turn(parse_turn(text)) == text
    assert format_turn(parse_turn("a1-a3") + [{"type": "end_turn"}]) == "a1-a3"
    with pytest.raises(IllegalAction):
        format_turn([{"type": "resign"}])


def test_check_turn_names_the_first_illegal_action():
    game = green_first()
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        check_turn(game, 0, parse_turn("a1-a4 d1-d2 b1-b3"))
    assert info.value.code == "stone_carries_character"
    assert info.value.params["index"] == 2 and info.value.params["move"] == "d1-d2"
    with pytest.raises(IllegalAction) as info:
        check_turn(game, 0, parse_turn("a1-a4 b1-b3 c1-c2"))
    assert info.value.code == "no_stone_moves_left" and info.value.params["index"] == 3
    with pytest.raises(IllegalAction) as info:
        check_turn(game, 1, parse_turn("a7-a6"))
    assert info.value.code == "not_your_turn" and info.value.params["index"] == 1
    with pytest.raises(IllegalAction) as info:
        check_turn(game, 0, [])
    assert info.value.code == "empty_turn"
    assert game.to_json() == before


def test_check_turn_returns_the_events_without_touching_the_game():
    game = green_first()
    before = game.to_json()
    events = check_turn(game, 0, parse_turn("a1-a4 *d1-a4"))
    assert [e["type"] for e in events] == ["stone_moved", "character_moved"]
    assert game.to_json() == before


def test_play_turn_applies_and_ends_the_turn():
    game = green_first()
    events = play_turn(game, 0, parse_turn("a1-a4"))
    assert events[-1]["type"] == "turn_ended" and events[-1]["auto"] is False
    assert game.to_move == 1
    events = play_turn(game, 1, parse_turn("a7-a5 b7-b5 *d7-b5"))
    assert [e["type"] for e in events].count("turn_ended") == 1
    assert game.to_move == 0 and game.turn == 3


def test_play_turn_changes_nothing_when_an_action_is_refused():
    game = green_first()
    before = game.to_json()
    with pytest.raises(IllegalAction):
        play_turn(game, 0, parse_turn("a1-a4 a4-b5"))
    assert game.to_json() == before


def test_typed_turn_continues_a_turn_started_with_buttons():
    game = green_first()
    game.apply(0, {"type": "stone", "from": "a1", "to": "a4"})
    play_turn(game, 0, parse_turn("*d1-a4"))
    assert game.to_move == 1
    assert game.public_view()["last_turn"]["actions"][1]["notation"] == "*d1-a4"


def test_a_typed_turn_continuing_after_a_win_names_the_winning_move():
    from bot.games import IllegalAction
    from bot.games.sensei import Sensei
    from bot.games.sensei.notation import parse_turn
    from bot.games.sensei.turns import check_turn

    data = Sensei.new(2, {"version": "arashi", "setup": "standard", "board": "plain",
                          "first": "green"}, 1).to_json()
    data.update(stones=[["b3", "b7", "c1", "d1", "e1", "f1", "g1"],
                        ["a7", "c7", "d7", "e7", "f7", "g7", "a6"]], characters=["b3", "d7"])
    game = Sensei.from_json(data)
    try:
        check_turn(game, 0, parse_turn("*b3-b7 c1-c2"))
    except IllegalAction as exc:
        assert exc.code == "after_game_end"
        assert exc.params["ended_by"] == "*b3-b7" and exc.params["index"] == 2
    else:
        raise AssertionError("a move after the winning one was accepted")
    assert check_turn(game, 0, parse_turn("*b3-b7"))[-1]["type"] == "game_over"
