"""Sàréná expert, two players: the last moves searched exactly in each sampled world.

Late in a two-player game few moves remain, and each can turn a tall pile from one colour to
the other; playouts (even informed ones) guess at the replies, while a world's game tree is
then small enough to search whole. So when the tree is small, the expert draws worlds as it
always does (:class:`~.expert.Worlds`: never-seen faces and the other seat's colour, from the
seat's view only) and in each one plays every legal move out with alpha-beta, both seats
playing perfectly for the world's colours (two players: what one gains the other loses). A
move's worth is its mean over the worlds of a win (1), a shared win (0) or a loss (−1) plus
:data:`~.expert.MARGIN` a chip of final margin, so the pick maximises the win rate first.

Budgets count searched positions, never time; the worlds come from the ``rng`` passed in.
"""
from __future__ import annotations

import random
from typing import Callable

from .board import EDGES
from .chips import DOWN, UP
from .position import Position

#: positions searched per decision at most (about 160,000 a second on the 2-core dev machine)
NODES = 150_000
#: worlds searched per decision at most, and at least (below it, the playouts decide)
MAX_WORLDS = 48
MIN_WORLDS = 12


class _OutOfNodes(Exception):
    pass


def solve(root: Position, me: int, legal: tuple[int, ...],
          draw_world: Callable[[random.Random], tuple[list[int], int]],
          leaf: Callable[[list[int], list[int], int], float], rng: random.Random,
          nodes: int = NODES) -> dict[int, float] | None:
    """Mean exact value of each of ``legal`` (edges playable from ``root``'s heights) over
    worlds from ``draw_world`` (their piles and the rival's colour), or None when fewer than
    :data:`MIN_WORLDS` worlds fit in ``nodes`` searched positions. ``leaf(piles, heights,
    rival)`` is the final value for ``me``; the rival's is its negation."""
    per_world = nodes // MIN_WORLDS
    left = nodes
    totals = {edge: 0.0 for edge in legal}
    worlds = 0
    while worlds < MAX_WORLDS:
        piles, rival = draw_world(rng)
        cap = min(per_world, left)
        search = _Search(me, rival, leaf, cap)
        try:
            values = {}
            for edge in legal:
                child = Position.__new__(Position)
                child.piles = list(piles)
                child.heights = list(root.heights)
                child.legal = set(root.legal)
                child.move(edge)
                values[edge] = -search.negamax(child, -2.0, 2.0, False)
        except _OutOfNodes:
            break
        left -= search.used
        worlds += 1
        for edge, value in values.items():
            totals[edge] += value
        if left < search.used:
            break
    if worlds < MIN_WORLDS:
        return None
    return {edge: total / worlds for edge, total in totals.items()}


class _Search:
    """Alpha-beta (negamax) over one world, both seats' colours known."""

    def __init__(self, me: int, rival: int, leaf: Callable[[list[int], list[int], int], float],
                 cap: int) -> None:
        self.me = me
        self.rival = rival
        self.leaf = leaf
        self.cap = cap
        self.used = 0
        # (piles, whether ``me`` moves) -> (lower bound, upper bound) of the mover's value
        self.table: dict[tuple[tuple[int, ...], bool], tuple[float, float]] = {}

    def negamax(self, position: Position, alpha: float, beta: float, mine: bool) -> float:
        """The value for the seat to move (``me`` if ``mine``)."""
        self.used += 1
        if self.used > self.cap:
            raise _OutOfNodes
        piles, heights = position.piles, position.heights
        if not position.legal:
            value = self.leaf(piles, heights, self.rival)
            return value if mine else -value
        key = (tuple(piles), mine)
        known = self.table.get(key)
        if known is not None:
            low, high = known
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
            alpha, beta = max(alpha, low), min(beta, high)
        start_alpha = alpha
        best = -3.0
        for edge in self._ordered(position, mine):
            child = position.copy()
            child.move(edge)
            value = -self.negamax(child, -beta, -alpha, not mine)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        low = best if best > start_alpha else -3.0
        high = best if best < beta else 3.0
        self.table[key] = (low, high)
        return best

    def _ordered(self, position: Position, mine: bool) -> list[int]:
        """The legal edges, the mover's best immediate gains first (more cut-offs)."""
        piles, heights = position.piles, position.heights
        good, bad = (self.me, self.rival) if mine else (self.rival, self.me)
        scored = []
        for edge in position.legal:
            u, v = EDGES[edge]
            hu, hv = heights[u], heights[v]
            top_u = UP[piles[u] >> (8 * hu - 8)]
            if hv:
                top_v = UP[piles[v] >> (8 * hv - 8)]
                gain = hv * ((top_u == good) - (top_u == bad) - (top_v == good) + (top_v == bad))
            else:
                new = DOWN[piles[u] & 0xFF]
                gain = hu * ((new == good) - (new == bad) - (top_u == good) + (top_u == bad))
            scored.append((-gain, edge))
        scored.sort()
        return [edge for _, edge in scored]
