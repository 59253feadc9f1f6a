"""The board state the rules mutate: piles, heights and the set of legal directed edges.

The legal set is kept incrementally: a move empties its source and changes the height of its
destination, and a line's legality depends only on the heights at its two ends (and whether an
empty end is an arrow circle), so only lines touching those two circles are re-examined.
"""
from __future__ import annotations

from .board import ARROW, CIRCLES, EDGES, IN_LINKS, LINKS, OUT_EDGES, TOUCHING_EDGES
from .chips import MAX_HEIGHT, UP, flip_pile, top_chip


def edge_is_legal(heights: list[int], edge: int) -> bool:
    u, v = EDGES[edge]
    hu, hv = heights[u], heights[v]
    if not hu:
        return False
    if hv:
        return hu + hv <= MAX_HEIGHT
    return ARROW[v]


class Position:
    __slots__ = ("piles", "heights", "legal")

    def __init__(self, piles: list[int], heights: list[int]) -> None:
        self.piles = piles
        self.heights = heights
        self.legal = {e for e in range(len(EDGES)) if edge_is_legal(heights, e)}

    def copy(self) -> "Position":
        """An independent copy, without recounting the legal moves (search trees branch a lot)."""
        twin = Position.__new__(Position)
        twin.piles = list(self.piles)
        twin.heights = list(self.heights)
        twin.legal = set(self.legal)
        return twin

    @classmethod
    def opening(cls, chips: list[int]) -> "Position":
        return cls(list(chips), [1] * CIRCLES)

    def top_colour(self, circle: int) -> int | None:
        h = self.heights[circle]
        return UP[top_chip(self.piles[circle], h)] if h else None

    def move(self, edge: int) -> bool:
        """Play a legal edge; returns whether the pile was flipped."""
        u, v = EDGES[edge]
        piles, heights, legal = self.piles, self.heights, self.legal
        hu, hv = heights[u], heights[v]
        if hv:
            piles[v] |= piles[u] << (8 * hv)
            flipped = False
        else:
            piles[v] = flip_pile(piles[u], hu)
            flipped = True
        piles[u] = 0
        heights[u] = 0
        hv += hu
        heights[v] = hv

        # The source is empty now: nothing leaves it, and a neighbouring pile may enter it
        # only if it is an arrow circle. Edges out of empty neighbours were illegal already.
        if ARROW[u]:
            legal.difference_update(OUT_EDGES[u])
            for w, in_edge in IN_LINKS[u]:
                if heights[w]:
                    legal.add(in_edge)
        else:
            legal.difference_update(TOUCHING_EDGES[u])
        # Between two piles both directions share one test: the sum of the heights. Into an
        # empty neighbour the destination pile may go iff it is an arrow circle (an empty plain
        # neighbour was never a legal target, and an empty neighbour has no moves of its own).
        for w, out_edge, in_edge in LINKS[v]:
            hw = heights[w]
            if hw:
                if hw + hv <= MAX_HEIGHT:
                    legal.add(out_edge)
                    legal.add(in_edge)
                else:
                    legal.discard(out_edge)
                    legal.discard(in_edge)
            elif ARROW[w]:
                legal.add(out_edge)
        return flipped
