"""Squares, directions and the cell encoding shared by every Sensei module.

A position is a flat list of 49 cells indexed ``y * 7 + x`` (a1 = 0, g7 = 48). Pits live in the
cells too, so a single lookup answers "can a stone pass here" and "does this block a jump".
"""
from __future__ import annotations

SIZE = 7
FILES = "abcdefg"

EMPTY = -1
PIT = 2
# Seats are the cell values 0 and 1, so ``cells[sq] == seat`` reads as "seat has a stone here".

COLOURS = ("green", "red")
HOME_RANK = (0, SIZE - 1)

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ALL_DIRECTIONS = ORTHOGONAL + DIAGONAL


def square_name(sq: int) -> str:
    return f"{FILES[sq % SIZE]}{sq // SIZE + 1}"


_BY_NAME = {square_name(sq): sq for sq in range(SIZE * SIZE)}


def parse_square(name: object) -> int | None:
    """The index of a square name such as ``"c5"``, or None for anything else."""
    if not isinstance(name, str):
        return None
    return _BY_NAME.get(name.strip().lower())


def rank_of(sq: int) -> int:
    return sq // SIZE


def _ray(sq: int, dx: int, dy: int) -> tuple[int, ...]:
    x, y = sq % SIZE + dx, sq // SIZE + dy
    out = []
    while 0 <= x < SIZE and 0 <= y < SIZE:
        out.append(y * SIZE + x)
        x, y = x + dx, y + dy
    return tuple(out)


# Rays are precomputed because move generation walks them millions of times in the benchmark.
ORTHOGONAL_RAYS = tuple(tuple(_ray(sq, dx, dy) for dx, dy in ORTHOGONAL) for sq in range(SIZE * SIZE))
ALL_RAYS = tuple(tuple(_ray(sq, dx, dy) for dx, dy in ALL_DIRECTIONS) for sq in range(SIZE * SIZE))
NEIGHBOURS = tuple(tuple(r[0] for r in rays if r) for rays in ORTHOGONAL_RAYS)


def direction_between(a: int, b: int) -> tuple[int, int] | None:
    """The unit step from a to b when they share a row, column or diagonal (and differ)."""
    dx = b % SIZE - a % SIZE
    dy = b // SIZE - a // SIZE
    if (dx, dy) == (0, 0) or (dx and dy and abs(dx) != abs(dy)):
        return None
    return (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)


def squares_between(a: int, b: int) -> list[int]:
    """Squares strictly between a and b; assumes direction_between(a, b) is not None."""
    step = direction_between(a, b)
    assert step is not None
    dx, dy = step
    out = []
    x, y = a % SIZE + dx, a // SIZE + dy
    while y * SIZE + x != b:
        out.append(y * SIZE + x)
        x, y = x + dx, y + dy
    return out
