"""Geometry of the 6×6 board: circle indexes, square names, arrow circles and the lines.

A circle is an int ``y * 6 + x`` (a1 = 0, b1 = 1 … f6 = 35). A move follows a *directed edge*
(source, destination) along one of the 60 lines; the 120 directed edges are numbered in
(source, destination) order, which is also the order legal moves are listed in.
"""
from __future__ import annotations

SIZE = 6
CIRCLES = SIZE * SIZE
FILES = "abcdef"

SQUARE_NAMES: tuple[str, ...] = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(CIRCLES))
SQUARE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARE_NAMES)}

# An empty arrow circle is the only empty circle a pile may enter (and it flips on arrival).
ARROW: tuple[bool, ...] = tuple((i % SIZE + i // SIZE) % 2 == 0 for i in range(CIRCLES))


def _neighbours(i: int) -> tuple[int, ...]:
    x, y = i % SIZE, i // SIZE
    out = []
    for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        nx, ny = x + dx, y + dy
        if 0 <= nx < SIZE and 0 <= ny < SIZE:
            out.append(ny * SIZE + nx)
    return tuple(sorted(out))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(CIRCLES))

EDGES: tuple[tuple[int, int], ...] = tuple((u, v) for u in range(CIRCLES) for v in NEIGHBOURS[u])
EDGE_ID: dict[tuple[int, int], int] = {edge: e for e, edge in enumerate(EDGES)}

# For each circle: (neighbour, edge circle->neighbour, edge neighbour->circle). A move only
# changes the heights of its two circles, so only the edges listed here for those two circles
# can change legality.
LINKS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((w, EDGE_ID[(c, w)], EDGE_ID[(w, c)]) for w in NEIGHBOURS[c]) for c in range(CIRCLES)
)

# Edges leaving a circle; every edge touching it; (neighbour, edge neighbour->circle) pairs.
OUT_EDGES: tuple[tuple[int, ...], ...] = tuple(
    tuple(out_edge for _, out_edge, _ in LINKS[c]) for c in range(CIRCLES))
TOUCHING_EDGES: tuple[tuple[int, ...], ...] = tuple(
    tuple(e for _, out_edge, in_edge in LINKS[c] for e in (out_edge, in_edge))
    for c in range(CIRCLES))
IN_LINKS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((w, in_edge) for w, _, in_edge in LINKS[c]) for c in range(CIRCLES))


def parse_square(text: object) -> int | None:
    """The circle named ``text`` ("c3", case-insensitive), or None."""
    if not isinstance(text, str):
        return None
    return SQUARE_INDEX.get(text.strip().lower())
