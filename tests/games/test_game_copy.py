"""Game.copy: the same state, and independent of the original (the table service applies a
click to a copy and keeps it only once committed)."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from bot.games import game_class

SEATS = {"narabi": (3, 5), "sensei": (2, 2), "sarena": (2, 4)}


@settings(max_examples=60, deadline=None)
@given(key=st.sampled_from(sorted(SEATS)), seed=st.integers(0, 2**32), moves=st.integers(0, 30),
       data=st.data())
def test_a_copy_is_equal_and_independent(key, seed, moves, data):
    low, high = SEATS[key]
    game = game_class(key).new(data.draw(st.integers(low, high)), {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.result() is not None:
            break
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    before = game.to_json()
    twin = game.copy()
    assert twin.to_json() == before
    for _ in range(5):
        if twin.result() is not None:
            break
        twin.apply(twin.to_move, rng.choice(twin.legal_actions(twin.to_move)))
    assert game.to_json() == before
