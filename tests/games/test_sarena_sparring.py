"""Sàréná's sparring partner (issue 55): flat Monte Carlo with colour inference, in the arena
beside the levels but never offered to players."""
from __future__ import annotations

import argparse
import random

import pytest

from bot.games.ai import LEVELS, PLAYER_LEVELS, seat_view
from bot.games.sarena import montecarlo
from bot.tools import arena
from tests.games.test_sarena_ai import positions_of_games, twin_with_other_secrets
from tests.games.test_sarena_rules import B, R, W, Y, game_with


def test_it_plays_a_legal_move_the_same_for_the_same_view_and_seed():
    for i, game in enumerate(positions_of_games(6, seed=4)):
        if i % 4:
            continue
        view = seat_view(game, game.to_move)
        action = montecarlo.choose(view, random.Random(i), playouts=6)
        assert action in view["legal"]
        assert montecarlo.choose(view, random.Random(i), playouts=6) == action


def test_what_the_seat_cannot_see_changes_nothing():
    rnd = random.Random(5)
    compared = 0
    for i, game in enumerate(positions_of_games(8, seed=5)):
        if i % 5:
            continue
        seat = game.to_move
        twin = twin_with_other_secrets(game, seat, rnd)
        compared += twin.to_json() != game.to_json()
        assert montecarlo.choose(seat_view(twin, seat), random.Random(i), playouts=4) == \
            montecarlo.choose(seat_view(game, seat), random.Random(i), playouts=4)
    assert compared >= 10


def test_it_takes_the_winning_last_move():
    # White to move: b1-c1 makes a white pile of 4 and ends the game (as in the levels' test).
    layout = {"b1": [(W, R)], "c1": [(B, R), (B, Y), (B, W)], "f6": [(R, Y), (Y, R)]}
    for seed in range(3):
        view = seat_view(game_with(layout, seats=2, colours=(W, B)), 0)
        assert montecarlo.choose(view, random.Random(seed), playouts=20) == \
            {"type": "move", "from": "b1", "to": "c1"}


def test_the_arena_plays_it_and_players_are_never_offered_it():
    tally = arena.run("sarena", "easy", "montecarlo@3", games=2, seed=2)
    assert tally.games == 2 and tally.unfinished == 0
    assert set(tally.think) == {"easy", "montecarlo@3"}
    assert "montecarlo" not in LEVELS and "montecarlo" not in PLAYER_LEVELS
    assert arena.player_name("montecarlo") == "montecarlo"
    assert montecarlo.sparring_level("montecarlo") == montecarlo.PLAYOUTS
    assert montecarlo.sparring_level("montecarlo@250") == 250
    with pytest.raises(argparse.ArgumentTypeError):
        arena.player_name("montycarlo")


def test_the_command_line_sets_its_playouts(capsys):
    parser = argparse.ArgumentParser()
    arena.add_arguments(parser)
    args = parser.parse_args(["sarena", "--a", "easy", "--b", "montecarlo", "--playouts", "2",
                              "--games", "1"])
    assert arena.main(args) == 0
    assert "easy vs montecarlo@2, 1 games" in capsys.readouterr().out
    args = parser.parse_args(["sensei", "--a", "easy", "--b", "montecarlo", "--games", "1"])
    assert arena.main(args) == 2


def test_a_match_played_in_chunks_adds_up_to_the_whole_match():
    whole = arena.run("sarena", "easy", "montecarlo@1", games=2, seed=9)
    chunks = [arena.run("sarena", "easy", "montecarlo@1", games=games, seed=9, first=first)
              for first, games in ((0, 1), (1, 1))]
    assert whole.outcomes == chunks[0].outcomes + chunks[1].outcomes
    assert whole.wins == sum(c.wins for c in chunks) and whole.games == 2
    assert sum(whole.outcomes) == whole.wins + 0.5 * whole.draws
