"""Random full games: a fast path for AIs and benchmarks, and the same game through the API.

Both draw moves with :func:`choose_edge`, whose pick depends only on the *set* of legal moves
and the random stream, never on the order a set happens to iterate in, so the two paths play
the same game for the same seed; the test suite checks they do.
"""
from __future__ import annotations

import random
from typing import Callable, Collection

from ..base import Result
from .board import (ARROW, EDGE_ID, EDGES, IN_LINKS, LINKS, OUT_EDGES, SQUARE_INDEX,
                    TOUCHING_EDGES)
from .chips import MAX_HEIGHT, flip_pile
from .rules import Sarena
from .scoring import final_result
from .setup import deal

EDGE_COUNT = len(EDGES)
_SRC = tuple(u for u, _ in EDGES)
_DST = tuple(v for _, v in EDGES)
# At the start every pile is one chip, so every line is a legal move both ways.
_OPENING_LEGAL = frozenset(range(EDGE_COUNT))
# Below this many legal moves, sorting beats rejection sampling (120 / n draws expected).
_SMALL = 24
_CHOICE_SALT = 0x5A7E_C401CE


def choice_random(seed: int) -> random.Random:
    """The stream random playouts draw moves from, separate from the game's own dealing stream."""
    return random.Random(seed ^ _CHOICE_SALT)


def choose_edge(legal: Collection[int], rnd: Callable[[], float]) -> int:
    """A uniformly random member of ``legal`` (non-empty), independent of iteration order."""
    n = len(legal)
    if n < _SMALL:
        return sorted(legal)[int(rnd() * n)]
    edge = int(rnd() * EDGE_COUNT)
    while edge not in legal:
        edge = int(rnd() * EDGE_COUNT)
    return edge


def playout(seed: int, seats: int = 2, fair: bool = False,
            record: list[int] | None = None, board: list[int] | None = None) -> Result:
    """Play ``Sarena.new(seats, {"fair": fair}, seed)`` to the end with random moves.

    ``record`` receives the edge ids played and ``board`` the final piles.
    """
    if not Sarena.min_seats <= seats <= Sarena.max_seats:
        raise ValueError(f"sarena: {seats!r} seats, expected 2-4")
    opening = deal(random.Random(seed), seats, fair)
    piles = opening.piles
    heights = [1] * len(piles)
    moves = play_random(piles, heights, set(_OPENING_LEGAL), choice_random(seed).random, record)
    if board is not None:
        board[:] = piles
    return final_result(piles, heights, opening.colours, [True] * seats, moves)


def play_random(piles: list[int], heights: list[int], legal: set[int],
                rnd: Callable[[], float], record: list[int] | None = None) -> int:
    """Play uniformly random moves from any position until none is legal; returns how many.

    ``piles``, ``heights`` and ``legal`` (the position's legal edges) are updated in place."""
    return play_out(piles, heights, legal, lambda legal, moves: choose_edge(legal, rnd), record)


def play_out(piles: list[int], heights: list[int], legal: set[int],
             pick: Callable[[set[int], int], int], record: list[int] | None = None) -> int:
    """Play the move ``pick(legal, moves so far)`` until none is legal; returns how many.

    ``piles``, ``heights`` and ``legal`` (the position's legal edges) are updated in place, so
    ``pick`` may read the position from them. The loop repeats :meth:`Position.move` inline on
    local variables because attribute and call overhead dominate pure-Python playouts (see
    there for why each update is enough). Random playouts (:func:`play_random`) and the
    expert's informed ones share it.
    """
    add, discard, drop = legal.add, legal.discard, legal.difference_update
    src_of, dst_of, links, arrow = _SRC, _DST, LINKS, ARROW
    out_edges, in_links, touching = OUT_EDGES, IN_LINKS, TOUCHING_EDGES
    moves = 0
    while legal:
        edge = pick(legal, moves)
        u = src_of[edge]
        v = dst_of[edge]
        hu = heights[u]
        hv = heights[v]
        if hv:
            piles[v] |= piles[u] << (8 * hv)
        else:
            piles[v] = flip_pile(piles[u], hu)
        piles[u] = 0
        heights[u] = 0
        hv += hu
        heights[v] = hv
        if arrow[u]:
            drop(out_edges[u])
            for w, in_edge in in_links[u]:
                if heights[w]:
                    add(in_edge)
        else:
            drop(touching[u])
        for w, out_edge, in_edge in links[v]:
            hw = heights[w]
            if hw:
                if hw + hv <= MAX_HEIGHT:
                    add(out_edge)
                    add(in_edge)
                else:
                    discard(out_edge)
                    discard(in_edge)
            elif arrow[w]:
                add(out_edge)
        moves += 1
        if record is not None:
            record.append(edge)
    return moves


def playout_api(seed: int, seats: int = 2, fair: bool = False,
                record: list[int] | None = None) -> Sarena:
    """The same random game as :func:`playout`, played through the public rules API only."""
    game = Sarena.new(seats, {"fair": fair}, seed)
    rnd = choice_random(seed).random
    while game.to_move is not None:
        seat = game.to_move
        by_edge = {EDGE_ID[(SQUARE_INDEX[action["from"]], SQUARE_INDEX[action["to"]])]: action
                   for action in game.legal_actions(seat)}
        edge = choose_edge(by_edge.keys(), rnd)
        game.apply(seat, by_edge[edge])
        if record is not None:
            record.append(edge)
    return game

