"""Chips and piles packed into ints, so the rules and the fast playout share one representation.

A chip is one byte: bits 0-1 its lower colour ``a``, bits 2-3 its higher colour ``b`` (a < b),
bit 4 set when face ``b`` is up, bit 5 / bit 6 set once face ``a`` / ``b`` has been visible on
top of a pile (the public memory aid). Turning a chip over toggles bit 4 only.

A pile is an int of chip bytes, bottom chip in the lowest byte. Its height is kept beside it.
Chip bytes are never 0 (b >= 1), so a pile's height is also its length in bytes.
"""
from __future__ import annotations

WHITE, BLACK, RED, YELLOW = range(4)
COLOURS: tuple[str, ...] = ("white", "black", "red", "yellow")
COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}

PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(4) for b in range(a + 1, 4))
COPIES = 6
MAX_HEIGHT = 4

B_UP = 0x10
SEEN_A = 0x20
SEEN_B = 0x40

UP: tuple[int, ...] = tuple(((c >> 2) & 3) if c & B_UP else (c & 3) for c in range(128))
DOWN: tuple[int, ...] = tuple((c & 3) if c & B_UP else ((c >> 2) & 3) for c in range(128))
UP_SEEN: tuple[bool, ...] = tuple(bool(c & (SEEN_B if c & B_UP else SEEN_A)) for c in range(128))
DOWN_SEEN: tuple[bool, ...] = tuple(bool(c & (SEEN_A if c & B_UP else SEEN_B)) for c in range(128))
# The chip with its up face recorded as seen.
MARK_UP_SEEN: tuple[int, ...] = tuple(c | (SEEN_B if c & B_UP else SEEN_A) for c in range(128))
# Per colour, whether a chip carries it on either face (the tie-break count).
CARRIES: tuple[tuple[bool, ...], ...] = tuple(
    tuple((c & 3) == colour or ((c >> 2) & 3) == colour for c in range(128)) for colour in range(4)
)

_FLIP_MASK = (0, 0x10, 0x1010, 0x101010, 0x10101010)


def new_chip(a: int, b: int, b_up: bool) -> int:
    """A fresh chip on the board: its up face is visible, so it is already seen."""
    return a | (b << 2) | (B_UP | SEEN_B if b_up else SEEN_A)


def flip_pile(pile: int, height: int) -> int:
    """Reverse the chip order, turn every chip over and record the new top face as seen."""
    flipped = int.from_bytes(pile.to_bytes(height, "little"), "big") ^ _FLIP_MASK[height]
    shift = 8 * (height - 1)
    top = flipped >> shift
    return flipped + ((MARK_UP_SEEN[top] - top) << shift)


def top_chip(pile: int, height: int) -> int:
    return pile >> (8 * (height - 1))


def pile_chips(pile: int, height: int) -> list[int]:
    """Chip bytes bottom to top."""
    return list(pile.to_bytes(height, "little")) if height else []
