"""Property tests over random Sensei games."""
from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import IllegalAction
from bot.games.sensei import Sensei, legal_turns
from bot.games.sensei.barrier import worst_barrier
from bot.games.sensei.board import EMPTY, PIT, SIZE

OPTIONS = st.fixed_dictionaries({
    "version": st.sampled_from(["arashi", "shizukana"]),
    "setup": st.sampled_from(["standard", "crossed"]),
    "board": st.sampled_from(["plain", "storm"]),
    "first": st.sampled_from(["random", "green", "red"]),
})
SQUARES = [f"{f}{r}" for f in "abcdefgh" for r in range(0, 9)]
META = [{"type": "undo"}, {"type": "offer_draw"}, {"type": "decline_draw"}]


def garbage(rng: random.Random) -> dict:
    kind = rng.choice(["stone", "character", "fly", None, 7])
    action = {"type": kind}
    if rng.random() < 0.8:
        action["from"] = rng.choice(SQUARES + [None, 3, ["a1"]])
    if rng.random() < 0.8:
        action["to"] = rng.choice(SQUARES + [None, 3])
    return action


def roundtrip(game: Sensei) -> Sensei:
    return Sensei.from_json(json.loads(json.dumps(game.to_json())))


def check_invariants(game: Sensei) -> None:
    view = game.public_view()
    for seat in (0, 1):
        stones = [sq for sq, s in view["board"].items() if s["seat"] == seat]
        assert len(stones) == 7
        assert view["board"][view["characters"][seat]]["seat"] == seat
    other = 1 - game.active
    assert game.legal_actions(other) == []
    if game.to_move is None:
        assert game.legal_actions(game.active) == []
    json.dumps(view)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(OPTIONS, st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(options, seed, walk):
    rng = random.Random(walk)
    game = Sensei.new(2, options, seed)
    log = []
    for _ in range(160):
        check_invariants(game)
        seat = game.to_move
        if seat is None:
            break
        roll = rng.random()
        if roll < 0.1:
            actor = rng.choice([seat, 1 - seat])
            action = garbage(rng)
            allowed = action in game.legal_actions(actor)
            before = game.to_json()
            try:
                events = game.apply(actor, action)
            except IllegalAction as exc:
                assert not allowed and isinstance(exc.code, str) and exc.code
                assert game.to_json() == before
                continue
            assert allowed, f"garbage accepted: {action}"
            log.append((actor, action))
            continue
        if roll < 0.15:
            action = rng.choice(META)
            actor = rng.choice([0, 1])
            try:
                events = game.apply(actor, action)
            except IllegalAction:
                continue
            log.append((actor, action))
        else:
            actions = game.legal_actions(seat)
            assert actions, "the player to move always has a legal action"
            action = rng.choice(actions)
            events = game.apply(seat, action)
            log.append((seat, action))
        for event in events:
            assert isinstance(event["type"], str) and "turn" in event
        if rng.random() < 0.2:
            copy = roundtrip(game)
            assert copy.to_json() == game.to_json()
            if game.to_move is not None:
                probe = rng.choice(game.legal_actions(game.to_move))
                assert copy.apply(game.to_move, probe) == game.copy().apply(game.to_move, probe)
    replayed = Sensei.replay(2, options, seed, log)
    assert replayed.to_json() == game.to_json()
    assert roundtrip(game).to_json() == game.to_json()


def play_to(options: dict, seed: int, steps: int) -> Sensei:
    rng = random.Random(seed)
    game = Sensei.new(2, options, seed)
    for _ in range(steps):
        if game.to_move is None:
            break
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    return game


@settings(max_examples=30, deadline=None)
@given(OPTIONS, st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_helpers_agree_with_legal_actions(options, seed, steps):
    game = play_to(options, seed, steps)
    seat = game.active
    actions = game.legal_actions(seat)
    stone_moves = {(a["from"], a["to"]) for a in actions if a["type"] == "stone"}
    helper_moves = {(frm, to) for frm in game.movable_stones(seat)
                    for to in game.stone_destinations(seat, frm)}
    assert helper_moves == stone_moves
    jumps = sorted(a["to"] for a in actions if a["type"] == "character")
    assert sorted(game.character_targets(seat)) == jumps
    for action in actions:
        game.copy().apply(seat, action)


def _brute_force_turn_positions(game: Sensei) -> set:
    seat = game.to_move
    found = set()
    if game.current:
        found.add(tuple(game.cells) + (game.characters[seat],))

    def walk(g: Sensei):
        for action in g.legal_actions(seat):
            if action["type"] == "end_turn":
                continue
            child = g.copy()
            child.apply(seat, action)
            found.add(tuple(child.cells) + (child.characters[seat],))
            if child.to_move == seat and child.current:
                walk(child)

    walk(game)
    return found


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["plain", "storm"]), st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_legal_turns_reach_exactly_the_reachable_positions(board, seed, steps):
    options = {"version": "shizukana", "board": board}
    game = play_to(options, seed, steps)
    if game.to_move is None:
        assert legal_turns(game) == []
        return
    seat = game.to_move
    turns = legal_turns(game)
    reached = []
    for turn in turns:
        trial = game.copy()
        for action in turn:
            trial.apply(seat, action)
        reached.append(tuple(trial.cells) + (trial.characters[seat],))
    assert len(set(reached)) == len(reached)
    assert set(reached) == _brute_force_turn_positions(game)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([EMPTY, EMPTY, 0, 0, 1]), min_size=49, max_size=49),
       st.booleans(), st.sampled_from([0, 1]))
def test_worst_barrier_matches_brute_force(cells, storm, seat):
    if storm:
        for sq in (16, 18, 30, 32):
            cells[sq] = PIT
    columns = [[y * SIZE + x for y in range(SIZE) if cells[y * SIZE + x] in (seat, PIT)]
               for x in range(SIZE)]
    best = None
    for chain in itertools.product(*columns):
        if any(abs(a // SIZE - b // SIZE) > 1 for a, b in zip(chain, chain[1:])):
            continue
        touching = {n for sq in chain if cells[sq] == seat
                    for n in _neighbours(sq) if cells[n] == 1 - seat}
        best = len(touching) if best is None else max(best, len(touching))
    found = worst_barrier(cells, seat)
    assert (found is None) == (best is None)
    if found is not None:
        assert len(found[1]) == best


def _neighbours(sq: int):
    x, y = sq % SIZE, sq // SIZE
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE:
            yield (y + dy) * SIZE + x + dx
