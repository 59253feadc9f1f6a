"""The unfair-game (anti-blocking) rule.

A barrier of P is a chain with one square in each of the 7 files, each square holding a stone
of P or a pit, consecutive files at most one rank apart. It is touched by the opponent stones
that share an edge with one of the chain's *stones*: a pit is part of the chain but cannot be
touched, because the rules count contact with the barrier's stones. P may own several chains;
P is in the losing state when any one of them is touched by 3 or more distinct opponent stones,
so we look for the chain with the most touching stones. Touching sets of neighbouring files can
overlap (one opponent stone can touch two chain stones), so counts are not additive and the
chains are enumerated outright; with 7 stones and 4 pits there are only a handful.
"""
from __future__ import annotations

from .board import NEIGHBOURS, PIT, SIZE

LOSING_TOUCHES = 3
#: each file's squares, rank by rank (asked at the end of every turn the searches play)
FILES = tuple(tuple(y * SIZE + x for y in range(SIZE)) for x in range(SIZE))


def worst_barrier(cells: list[int], seat: int) -> tuple[list[int], list[int]] | None:
    """The most-touched barrier of ``seat`` as (chain squares by file, touching stones), or None."""
    opponent = 1 - seat
    columns = []
    for file in FILES:
        column = [sq for sq in file if cells[sq] == seat or cells[sq] == PIT]
        if not column:
            return None
        columns.append(column)
    touching = {}
    for column in columns:
        for sq in column:
            touching[sq] = frozenset() if cells[sq] == PIT else frozenset(
                n for n in NEIGHBOURS[sq] if cells[n] == opponent)

    best: list = [None, None]

    def extend(chain: list[int], touched: frozenset) -> None:
        x = len(chain)
        if x == SIZE:
            if best[1] is None or len(touched) > len(best[1]):
                best[0], best[1] = list(chain), touched
            return
        for sq in columns[x]:
            if chain and abs(sq // SIZE - chain[-1] // SIZE) > 1:
                continue
            chain.append(sq)
            extend(chain, touched | touching[sq])
            chain.pop()

    extend([], frozenset())
    if best[0] is None:
        return None
    return best[0], sorted(best[1])


def loses_to_barrier(cells: list[int], seat: int) -> tuple[list[int], list[int]] | None:
    """The offending barrier when ``seat`` has one touched by 3+ opponent stones, else None."""
    found = worst_barrier(cells, seat)
    if found is None or len(found[1]) < LOSING_TOUCHES:
        return None
    return found
