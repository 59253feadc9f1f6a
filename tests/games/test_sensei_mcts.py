"""The MCTS the Sensei expert's alpha-beta was measured against (bot/games/sensei/mcts.py): a
legal whole turn from any position, the same turn every time, a win in hand taken."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.sensei import check_turn, mcts
from bot.games.sensei.board import square_name
from bot.games.sensei.expert import PROVED
from tests.games.test_sensei_ai import OPTIONS, WIN_IN_THREE, position, random_walk, scattered

SMALL = 3_000


def _actions(path):
    return [{"type": kind, "from": square_name(frm), "to": square_name(to)}
            for kind, frm, to in path]


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPTIONS, st.integers(0, 10_000), st.integers(0, 60), st.booleans())
def test_mcts_plays_a_legal_whole_turn_from_any_position(options, seed, steps, crowded):
    game = scattered(random.Random(seed), options) if crowded else random_walk(options, seed, steps)
    if game.to_move is None or game.current:
        return
    cells, characters = list(game.cells), list(game.characters)
    decision = mcts.decide(cells, characters, game.to_move, game.slide, SMALL)
    assert (list(game.cells), list(game.characters)) == (cells, characters)
    if decision.path:
        check_turn(game, game.to_move, _actions(decision.path))
    else:
        assert not game.can_act(game.to_move)


def test_mcts_gives_the_same_turn_every_time():
    for seed in range(3):
        game = random_walk({"version": ("arashi", "shizukana")[seed % 2]}, seed, 8)
        if game.to_move is None or game.current:
            continue
        first = mcts.decide(game.cells, game.characters, game.to_move, game.slide, SMALL)
        again = mcts.decide(game.cells, game.characters, game.to_move, game.slide, SMALL)
        assert first.path == again.path and first.value == again.value


def test_mcts_takes_a_win_in_hand():
    game = position(**WIN_IN_THREE)
    decision = mcts.decide(game.cells, game.characters, 0, game.slide, SMALL)
    assert decision.value >= PROVED
    check_turn(game, 0, _actions(decision.path))
    for action in _actions(decision.path):
        game.apply(0, action)
    assert game.result().winners == (0,)


def test_chance_is_one_and_zero_for_proved_scores_and_even_at_zero():
    assert mcts.chance(PROVED) == 1.0 and mcts.chance(-PROVED) == 0.0
    assert mcts.chance(0) == 0.5 and 0.5 < mcts.chance(mcts.SCALE) < 1.0
