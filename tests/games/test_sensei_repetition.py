"""Games that would never end: the positions a Sensei game has been in, read back from its
history, and an AI that keeps that history in view and steers clear of a third repetition."""
from __future__ import annotations

import random

from bot.games.ai import choose_action, seat_view
from bot.games.sensei import Sensei, parse_turn
from bot.games.sensei import ai as sensei_ai
from bot.games.sensei.board import parse_square
from bot.games.sensei.positions import (counts, game_positions, position_key, turn_starts,
                                        turns_without_progress, view_history)
from bot.games.sensei.search import _after, scored_turns
from bot.domain.regulation import ruling

#: two turns each way and back: the first position comes back every fourth turn
CYCLE = ("b1-b2", "b7-b6", "b2-b1", "b6-b7")


def play(game: Sensei, notation: str) -> None:
    seat = game.to_move
    for action in parse_turn(notation):
        game.apply(seat, action)
    if game.to_move == seat:
        game.apply(seat, {"type": "end_turn"})


def test_a_cycle_of_four_turns_brings_the_first_position_back_every_fourth_turn():
    game = Sensei.new(2, {"first": "green"}, 1)
    start = position_key(game.cells, game.characters, 0)
    for notation in CYCLE * 2:
        play(game, notation)
    positions = game_positions(game)
    assert len(positions) == 9 and positions[0][0] == positions[4][0] == positions[8][0] == start
    assert counts(positions)[start] == 3
    # The position under way counts from the start of its turn: a move played since is undone.
    game.apply(0, parse_turn("b1-b2")[0])
    assert game_positions(game) == positions


def test_the_history_in_a_seat_view_gives_the_same_positions():
    game = Sensei.new(2, {"first": "red"}, 3)
    for notation in ("b7-b5 *d7-b5", "a1-a2 g1-g3", "c7-c6", "*d1-c1"):
        play(game, notation)
    view = seat_view(game, game.to_move)
    rebuilt = Sensei.from_public_view(view["public"], view["history"])
    assert turn_starts(rebuilt.cells, rebuilt.characters, rebuilt.active,
                       view_history(view["history"])) == game_positions(game)


def test_turns_without_progress_count_from_a_characters_best_rank():
    far = parse_square("d1"), parse_square("d7")
    nearer = parse_square("d2"), parse_square("d7")
    positions = [("a", far), ("b", nearer), ("c", nearer), ("d", far), ("e", nearer)]
    assert turns_without_progress(positions) == 3  # d2 was reached at the second turn


def test_the_regulation_names_a_third_repetition_once():
    game = Sensei.new(2, {"first": "green"}, 1)
    for notation in CYCLE * 2:
        assert ruling(game) is None
        play(game, notation)
    found = ruling(game)
    assert found is not None and found.reason == "repetition" and found.offer
    assert found.details == {"count": 3, "turn": 9}
    play(game, CYCLE[0])
    again = ruling(game)
    # Another position seen a third time: the table is not offered a draw at every turn.
    assert again is not None and again.reason == "repetition" and not again.offer


def _memoryless_line(seed: int, level: str) -> tuple[Sensei, int]:
    """Medium against medium without their history, as the AI played before it kept it, up to
    the turn whose planned end would bring a position back a third time."""
    game = Sensei.new(2, {}, seed)
    ply = 0
    while game.result() is None and game.turn < 60:
        seat = game.to_move
        if not game.current:
            path = sensei_ai.plan(dict(seat_view(game, seat), history=[]), level,
                                  random.Random(0))
            probe = game.copy()
            for action in path:
                probe.apply(seat, action)
            seen = counts(game_positions(game))
            if probe.result() is None and seen[position_key(probe.cells, probe.characters,
                                                            1 - seat)] >= 2:
                return game, seat
        view = dict(seat_view(game, seat), history=[])
        game.apply(seat, choose_action("sensei", view, level, seed=seed * 10_007 + ply))
        ply += 1
    raise AssertionError(f"seed {seed}: no repetition in 60 turns")


def test_the_ai_deviates_from_a_third_repetition_when_a_move_no_worse_exists():
    # Seed 1010: the one game of 30 (seeds 1000-1029) in which two medium players without
    # their history came back to a position a third time.
    game, seat = _memoryless_line(1010, "medium")
    view = seat_view(game, seat)
    forgetful = sensei_ai.plan(dict(view, history=[]), "medium", random.Random(0))
    mindful = sensei_ai.plan(view, "medium", random.Random(0))
    assert mindful != forgetful

    def after(path):
        moves = tuple((a["type"], parse_square(a["from"]), parse_square(a["to"])) for a in path)
        return moves, _after(game.cells, game.characters, seat, moves)

    seen = counts(game_positions(game))
    moves, (cells, characters) = after(mindful)
    assert seen[position_key(cells, characters, 1 - seat)] < 2
    scores = dict((path, score) for score, path in scored_turns(game, seat))
    planned, _ = after(forgetful)
    assert scores[moves] >= min(scores[planned], sensei_ai.DRAW)
    # Every level but easy keeps the history: hard and expert steer clear too.
    for level in ("hard", "expert"):
        path = sensei_ai.plan(view, level, random.Random(0))
        moves, (cells, characters) = after(path)
        assert seen[position_key(cells, characters, 1 - seat)] < 2
