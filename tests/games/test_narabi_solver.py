"""Narabi's par solver: hand-made positions with a known par, agreement with a plain
breadth-first search (straight from the rules contract, nothing pruned) on deals cut short
enough for it, and every line it finds played through the real rules."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.narabi import Narabi
from bot.games.narabi.conditions import allows
from bot.games.narabi.ring import is_solved
from bot.games.narabi.solver import _Cover, _Table, fewest_switches, par
from tests.games.test_narabi_rules import D, NEAR, ONE_AWAY, W, make, switch


def reference_par(game: Narabi) -> int | None:
    """The fewest switches solving the deal within its turn limit, or None: every legal switch
    of every position, layer by layer. A position met again in a later layer (same ring, same
    player to move, same undo forbidden) has fewer turns left, so it is not searched again."""
    cards, seats = game.cards, game.seats
    seat_at = [s for s, row in enumerate(game.initial_rows) for _ in row]
    start = tuple(c for row in game.initial_rows for c in row)
    if is_solved([cards[c]["number"] for c in start]):
        return 0
    layer = {(start, None)}
    seen = {(start, game.first_seat, None)}
    for turn in range(game.max_turns):
        seat = (game.first_seat + turn) % seats
        following = set()
        for ring, last in layer:
            for i, j in _legal(game, ring, seat, last, seat_at):
                child = list(ring)
                child[i], child[j] = child[j], child[i]
                if is_solved([cards[c]["number"] for c in child]):
                    return turn + 1
                undo = frozenset((i, j)) if game.advanced else None
                if (tuple(child), (seat + 1) % seats, undo) not in seen:
                    seen.add((tuple(child), (seat + 1) % seats, undo))
                    following.add((tuple(child), undo))
        layer = following
    return None


def _legal(game: Narabi, ring: tuple[int, ...], seat: int, last: frozenset[int] | None,
           seat_at: list[int]) -> list[tuple[int, int]]:
    out = []
    for i, card in enumerate(ring):
        for j, target in enumerate(ring):
            if seat_at[i] != seat or seat_at[j] == seat or frozenset((i, j)) == last:
                continue
            c, d = game.cards[card], game.cards[target]
            if allows(c["condition"], c["number"], d["number"], d["colour"],
                      (seat_at[j] - seat) % game.seats, game.seats):
                out.append((i, j))
    return out


def played(game: Narabi, line: list[list[int]]) -> Narabi:
    """The deal with ``line`` ([seat, card given, card taken] per switch) played by the rules."""
    game = Narabi.from_json(game.to_json())
    for seat, card, target in line:
        assert game.to_move == seat
        game.apply(seat, switch(card, target))
    return game


def assert_line_solves(game: Narabi, found: dict) -> None:
    end = played(game, found["line"])
    assert end.turn == found["best"]
    assert is_solved([end.cards[c]["number"] for row in end.rows for c in row])
    if found["best"]:
        assert end.result().reason == "solved"


def near_solved(seats: int, advanced: bool, seed: int, swaps: int, turns: int) -> Narabi:
    """A real deal's cards laid out solved (any rotation, direction and blank places), then
    ``swaps`` random exchanges of two places, with a turn limit of ``turns``."""
    game = Narabi.new(seats, {"advanced": advanced}, seed)
    rng = random.Random(seed)

    def number(card: int) -> int | None:
        return game.cards[card]["number"]

    ring = sorted((c for c in game.cards if number(c) is not None), key=number)
    cut = rng.randrange(len(ring))
    ring = ring[cut:] + ring[:cut]
    if rng.random() < 0.5:
        ring.reverse()
    for blank in sorted(c for c in game.cards if number(c) is None):
        ring.insert(rng.randrange(len(ring) + 1), blank)
    for _ in range(swaps):
        p, q = rng.sample(range(len(ring)), 2)
        ring[p], ring[q] = ring[q], ring[p]
    each = len(ring) // seats
    game.rows = [ring[s * each:(s + 1) * each] for s in range(seats)]
    game.initial_rows = [list(row) for row in game.rows]
    game.first_seat = game.active = next(s for s, row in enumerate(game.rows)
                                         if any(number(c) == 0 for c in row))
    game.max_turns = turns
    return game


# ----------------------------------------------------------------------------- hand-made

SOLVED = [
    [(0, D, "free"), (1, W, "free"), (2, W, "free")],
    [(3, D, "free"), (None, W, "free"), (4, D, "free")],
    [(5, W, "free"), (6, W, "free"), (None, D, "free")],
    [(7, D, "free"), (8, D, "free"), (None, W, "free")],
]


def test_a_solved_deal_has_par_zero() -> None:
    assert par(make(SOLVED)) == {"best": 0, "status": "found", "line": []}


def test_one_and_two_switch_solutions() -> None:
    one = make(ONE_AWAY, active=1)
    found = par(one)
    assert found["best"] == 1 and found["status"] == "found"
    assert_line_solves(one, found)
    # Seat 0 must move first; it cannot fix seat 1/seat 2's pair, so it takes two switches.
    two = make(ONE_AWAY, active=0)
    found = par(two)
    assert found["best"] == 2 == fewest_switches(two.to_json()) == reference_par(two)
    assert_line_solves(two, found)


def test_conditions_are_respected() -> None:
    blocked = make([
        [(0, D, "free"), (1, W, "free"), (2, W, "free")],
        [(3, D, "free"), (None, W, "white"), (5, W, "white")],
        [(4, D, "free"), (6, W, "free"), (None, D, "free")],
        [(7, D, "free"), (8, D, "free"), (None, W, "free")],
    ], active=1)
    found = par(blocked)
    assert found["best"] == reference_par(blocked) and found["best"] > 1
    assert_line_solves(blocked, found)


def test_proved_none_when_the_numbers_can_never_move() -> None:
    # Every number is locked and white; each blank may only take a dark stone, i.e. another
    # blank: the blanks go round for ever and the ring never changes.
    forever = make([
        [(0, W, "locked"), (2, W, "locked"), (None, D, "dark"), (1, W, "locked")],
        [(3, W, "locked"), (None, D, "dark"), (4, W, "locked"), (5, W, "locked")],
        [(6, W, "locked"), (7, W, "locked"), (8, W, "locked"), (None, D, "dark")],
    ])
    assert par(forever) == {"best": None, "status": "none", "limit": 24}
    assert reference_par(forever) is None
    # The same with a player holding only locked cards: the game dies on that player's turn.
    stuck = make([
        [(0, W, "locked"), (None, D, "dark"), (2, W, "locked")],
        [(1, W, "locked"), (None, D, "dark"), (3, W, "locked")],
        [(4, W, "locked"), (5, W, "locked"), (None, D, "dark")],
        [(6, W, "locked"), (7, W, "locked"), (8, W, "locked")],
    ])
    assert par(stuck)["status"] == "none" and reference_par(stuck) is None


# Seat 0's 8 and seat 1's 7 are swapped; only seat 0 can exchange them, and seat 1 starts.
# Seat 1 gives its 0 for seat 2's 2 and seat 2 gives it straight back (the two positions
# exchanged again): a pass of two turns. Advanced mode forbids that undo.
UNDO_PASS = [
    [(6, W, "right2"), (None, W, "dark"), (None, W, "mid"), (8, D, "free")],
    [(7, D, "odd"), (0, D, "higher"), (None, D, "left2"), (1, W, "right")],
    [(2, W, "high3"), (3, D, "lower"), (4, D, "locked"), (5, W, "white")],
]


def test_advanced_mode_par_without_the_undo() -> None:
    basic = make(UNDO_PASS, active=1)
    found = par(basic)
    assert found["best"] == 3 == reference_par(basic)
    first, second, _ = found["line"]
    assert (first[1], first[2]) == (second[1], second[2])  # the same two cards, back again
    assert_line_solves(basic, found)
    advanced = make(UNDO_PASS, active=1, advanced=True)
    found = par(advanced)
    assert found["best"] == 4 == reference_par(advanced)
    assert_line_solves(advanced, found)


def test_the_undo_is_the_only_switch_advanced_mode_removes() -> None:
    table = _Table(make(NEAR, advanced=True).to_json())
    assert (2, 3) in table.moves(table.start, 0, None)
    # After seat 0 exchanged positions 2 and 3, seat 1 may not exchange 3 and 2 back.
    assert table.undo_of(2, 3, 0) == (3, 2)
    assert (3, 2) in table.moves(table.start, 1, None)
    assert set(table.moves(table.start, 1, (3, 2))) == set(table.moves(table.start, 1, None)) - {(3, 2)}
    # Seat 2 moves after seat 1: seat 1's switch with seat 0 cannot be undone by seat 2.
    assert table.undo_of(3, 0, 1) is None


def test_a_search_that_gives_up_says_so() -> None:
    game = Narabi.new(3, {"advanced": False}, 11)
    found = par(game)
    assert found["status"] == "found" and found["best"] > 0
    assert fewest_switches(game) == found["best"]
    assert par(game, node_budget=0) == {"best": None, "status": "unknown"}
    assert fewest_switches(Narabi.new(5, {}, 2), node_budget=3) is None


# ----------------------------------------------------------------------------- properties

@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(3, 5), st.booleans(), st.integers(0, 2 ** 32), st.integers(0, 4),
       st.integers(1, 3))
def test_agrees_with_plain_breadth_first_search(seats, advanced, seed, swaps, turns) -> None:
    game = near_solved(seats, advanced, seed, swaps, turns)
    found = par(game)
    expected = reference_par(game)
    if expected is None:
        assert found == {"best": None, "status": "none", "limit": turns}
    else:
        assert found["status"] == "found" and found["best"] == expected
        assert_line_solves(game, found)


def covered(table: _Table, ring: list[int], turns: list[int], m: int) -> bool:
    """The covering bound by enumeration: is there a solved ring (any direction, rotation and
    places of the blanks) whose differing places the ``m`` switches can touch, each seat s's
    own turns ``turns[s]`` touching one of its places and every switch one more anywhere?"""
    ranks = [table.rank[c] for c in ring]
    numbers = table.numbers
    for blanks in itertools.combinations(range(len(ring)), len(ring) - numbers):
        places = [p for p in range(len(ring)) if p not in blanks]
        for first in range(numbers):
            for direction in (1, -1):
                goal = [-1] * len(ring)
                for i, p in enumerate(places):
                    goal[p] = (first + direction * i) % numbers
                differing = [0] * table.seats
                for p, (have, want) in enumerate(zip(ranks, goal)):
                    differing[table.seat_at[p]] += have != want and (have >= 0 or want >= 0)
                if sum(max(0, e - t) for e, t in zip(differing, turns)) <= m:
                    return True
    return False


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.integers(3, 4), st.integers(0, 2 ** 32), st.integers(0, 3), st.integers(2, 3),
       st.integers(0, 4), st.data())
def test_covering_bound_is_the_enumerated_one(seats, seed, swaps, m, turn, data) -> None:
    game = near_solved(seats, False, seed, swaps, 24)
    table = _Table(game.to_json())
    ring = list(table.start)
    turns = [0] * seats
    for t in range(turn, turn + m):
        turns[table.seat_to_move(t)] += 1
    cover = _Cover(table)
    ranks = [table.rank[c] for c in ring]
    prepared = cover.prepare(ranks, turns, m)
    p, q = data.draw(st.lists(st.integers(0, len(ring) - 1), min_size=2, max_size=2, unique=True))
    ring[p], ring[q] = ring[q], ring[p]
    assert cover.fits(prepared, ranks, p, q, turns, m) == covered(table, ring, turns, m)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.integers(3, 5), st.booleans(), st.integers(0, 2 ** 32))
def test_real_deals_get_an_exact_par(seats, advanced, seed) -> None:
    game = Narabi.new(seats, {"advanced": advanced}, seed)
    found = par(game)
    assert found["status"] == "found"
    assert_line_solves(game, found)
    # Optimal: with one switch fewer allowed there is provably no solution.
    game.max_turns = found["best"] - 1
    assert par(game) == {"best": None, "status": "none", "limit": found["best"] - 1}
