"""Sàréná properties over random games: invariants, persistence, secrecy, fast path = API."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import IllegalAction
from bot.games.sarena import Sarena, playout
from bot.games.sarena.board import EDGES, SQUARE_INDEX
from bot.games.sarena.chips import B_UP, DOWN_SEEN
from bot.games.sarena.playout import playout_api
from bot.games.sarena.position import edge_is_legal

seeds = st.integers(0, 2**32 - 1)
table_sizes = st.integers(2, 4)
fair_deals = st.booleans()


def random_game(seed: int, seats: int, fair: bool, choices: random.Random,
                stop: int | None = None):
    """A game and its log, played with random legal moves (``stop`` moves at most)."""
    game = Sarena.new(seats, {"fair": fair}, seed)
    log = []
    while game.to_move is not None and (stop is None or len(log) < stop):
        seat = game.to_move
        action = choices.choice(game.legal_actions(seat))
        log.append((seat, action))
        game.apply(seat, action)
    return game, log


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(seeds, table_sizes, fair_deals, st.randoms(use_true_random=False))
def test_incremental_legal_moves_match_a_full_recount(seed, seats, fair, choices):
    game = Sarena.new(seats, {"fair": fair}, seed)
    moves = 0
    while game.to_move is not None:
        state = game.to_json()
        recount = {e for e in range(len(EDGES)) if edge_is_legal(state["heights"], e)}
        assert game.legal_edges() == recount
        assert recount, "a running game always has a move"
        for seat in range(seats):
            listed = game.legal_actions(seat)
            assert (seat == game.to_move) == bool(listed)
        game.apply(game.to_move, choices.choice(game.legal_actions(game.to_move)))
        moves += 1
    assert game.legal_edges() == frozenset()
    state = game.to_json()
    assert not any(edge_is_legal(state["heights"], e) for e in range(len(EDGES)))
    assert moves == game.result().details["moves"] <= 45
    assert sum(state["heights"]) == 36 and max(state["heights"]) <= 4


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(seeds, table_sizes, fair_deals)
def test_a_game_lasts_at_most_45_moves(seed, seats, fair):
    result = playout(seed, seats, fair)
    assert 1 <= result.details["moves"] <= 45
    scores = result.details["scores"]
    assert sum(scores) <= 36 and all(s >= 0 for s in scores)
    assert result.winners and set(result.winners) <= set(range(seats))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(seeds, table_sizes, fair_deals)
def test_fast_playout_and_public_api_play_the_same_game(seed, seats, fair):
    fast_moves, fast_board, api_moves = [], [], []
    result = playout(seed, seats, fair, record=fast_moves, board=fast_board)
    game = playout_api(seed, seats, fair, record=api_moves)
    assert fast_moves == api_moves
    assert fast_board == game.to_json()["piles"]
    assert result == game.result()


@settings(max_examples=40, deadline=None)
@given(seeds, table_sizes, fair_deals, st.randoms(use_true_random=False), st.integers(0, 45))
def test_json_round_trip_and_replay_anywhere(seed, seats, fair, choices, stop):
    game, log = random_game(seed, seats, fair, choices, stop)
    state = json.loads(json.dumps(game.to_json()))
    restored = Sarena.from_json(state)
    assert restored.to_json() == game.to_json()
    assert Sarena.replay(seats, {"fair": fair}, seed, log).to_json() == game.to_json()
    # The restored game carries on exactly like the original.
    follow = random.Random(stop)
    while game.to_move is not None:
        action = follow.choice(game.legal_actions(game.to_move))
        assert restored.apply(game.to_move, action) == game.apply(game.to_move, action)
    assert restored.to_json() == game.to_json()
    assert restored.result() == game.result()


def _twin_with_other_secrets(game: Sarena, rng: random.Random) -> Sarena:
    """The same public history with different secrets: colours dealt differently and every
    never-seen face replaced by another colour."""
    state = game.to_json()
    state["colours"] = rng.sample(range(4), len(state["colours"]))
    piles = []
    for pile, h in zip(state["piles"], state["heights"]):
        chips = list(pile.to_bytes(h, "little")) if h else []
        for k, c in enumerate(chips):
            if not DOWN_SEEN[c] and not c & B_UP:
                # Down face is b (bits 2-3), unseen: any colour other than a will do.
                a = c & 3
                b = rng.choice([x for x in range(4) if x != a])
                chips[k] = (c & ~0b1100) | (b << 2)
        piles.append(int.from_bytes(bytes(chips), "little") if chips else 0)
    state["piles"] = piles
    return Sarena.from_json(state)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(seeds, table_sizes, fair_deals, st.randoms(use_true_random=False), st.integers(0, 45))
def test_public_view_depends_only_on_public_information(seed, seats, fair, choices, stop):
    game, _ = random_game(seed, seats, fair, choices, stop)
    if game.result() is not None:
        return  # after the end the colours are public; secrecy is about the running game
    view = game.public_view()
    assert json.loads(json.dumps(view)) == view
    assert view["result"] is None and not view["finished"]
    twin = _twin_with_other_secrets(game, random.Random(seed))
    assert twin.public_view() == view
    # Every face shown is a real face of that chip, and tops are what is really on top.
    state = game.to_json()
    for i, circle in enumerate(view["board"]):
        assert circle["height"] == state["heights"][i] == len(circle["chips"])
        if circle["height"]:
            assert circle["chips"][-1]["up"] == circle["top"]


@settings(max_examples=40, deadline=None)
@given(seeds, table_sizes, st.randoms(use_true_random=False), st.integers(0, 45))
def test_illegal_moves_raise_cleanly_and_change_nothing(seed, seats, choices, stop):
    game, _ = random_game(seed, seats, False, choices, stop)
    before = game.to_json()
    legal = {(a["from"], a["to"]) for a in game.legal_actions(game.to_move)} \
        if game.to_move is not None else set()
    names = list(SQUARE_INDEX)
    for _ in range(30):
        src, dst = choices.choice(names), choices.choice(names + ["zz", "", "a0"])
        seat = choices.choice([game.to_move, 0, 1, seats - 1, seats, -1, None])
        action = {"type": "move", "from": src, "to": dst}
        should_pass = game.to_move is not None and seat == game.to_move and (src, dst) in legal
        if should_pass:
            continue
        try:
            game.apply(seat, action)
        except IllegalAction as exc:
            assert exc.code and exc.code.replace("_", "").isalpha()
        else:
            raise AssertionError(f"accepted {seat} {action}")
        assert game.to_json() == before
