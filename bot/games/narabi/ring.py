"""Seat geometry and the goal test on the circular ring of cards."""
from __future__ import annotations

from typing import Sequence


def left(seat: int, seats: int) -> int:
    """The next seat clockwise."""
    return (seat + 1) % seats


def right(seat: int, seats: int) -> int:
    return (seat - 1) % seats


def is_solved(numbers: Sequence[int | None]) -> bool:
    """True when the numbered stones, read around the circle, run 0..max in either direction.

    ``numbers`` is the ring in seat order (the rows concatenated); blanks (None) are skipped.
    """
    seq = [n for n in numbers if n is not None]
    size = len(seq)
    if size < 2:
        return True
    start = seq.index(0) if 0 in seq else -1
    if start < 0:
        return False
    forward = all(seq[(start + k) % size] == k for k in range(size))
    return forward or all(seq[(start - k) % size] == k for k in range(size))
