"""Sàréná: what a seat knows, read once from its view (``Table``), and samples of what it
does not: every never-seen chip face drawn so that the chip set (6 chips of each colour pair)
still adds up (``FaceSampler``). Every AI level builds on these."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Mapping

from .board import CIRCLES, EDGE_ID, SQUARE_INDEX
from .chips import B_UP, COLOUR_INDEX, COPIES

COLOURS = range(4)


@dataclass(frozen=True)
class Table:
    """A seat's knowledge, read once from its view."""

    seat: int
    colour: int
    active: tuple[bool, ...]
    heights: tuple[int, ...]
    # Per circle, bottom to top: (up colour, down colour), None where never seen.
    faces: tuple[tuple[tuple[int | None, int | None], ...], ...]
    legal: tuple[int, ...]  # edge ids, in the order of view["legal"]
    actions: tuple[Mapping[str, Any], ...]

    @property
    def others(self) -> list[int]:
        """Seats still playing, other than this one: the colours that compete with ours."""
        return [s for s, playing in enumerate(self.active) if playing and s != self.seat]


def _colour(name: object) -> int | None:
    return COLOUR_INDEX[name] if isinstance(name, str) else None


def read_view(view: Mapping[str, Any]) -> Table:
    public = view["public"]
    board = public["board"]
    resigned = set(public.get("resigned", ()))
    legal = tuple(EDGE_ID[(SQUARE_INDEX[a["from"]], SQUARE_INDEX[a["to"]])] for a in view["legal"])
    return Table(
        seat=view["seat"],
        colour=COLOUR_INDEX[view["private"]["colour"]],
        active=tuple(s not in resigned for s in range(public["seats"])),
        heights=tuple(circle["height"] for circle in board),
        faces=tuple(tuple((_colour(c["up"]), _colour(c["down"])) for c in circle["chips"])
                    for circle in board),
        legal=legal,
        actions=tuple(view["legal"]),
    )


def chip_byte(up: int, down: int) -> int:
    a, b = (up, down) if up < down else (down, up)
    return a | (b << 2) | (B_UP if up == b else 0)


# -- never-seen faces ---------------------------------------------------------------------

def _pair_index(x: int, y: int) -> tuple[int, int]:
    return (x, y) if x < y else (y, x)


class FaceSampler:
    """Draws every never-seen face so the 36 chips are again 6 of each colour pair.

    Every chip has at least one face seen (its face up at the deal), so a hidden face is the
    *partner* of a known colour. All consistent completions are equally likely (the deal is
    uniform), so first a partner-count matrix m[x][y] (chips showing x whose hidden face is y)
    is drawn with weight equal to its number of completions, then partners are shuffled.
    """

    def __init__(self, table: Table) -> None:
        self.base = [0] * CIRCLES
        self.known_pairs = {pair: 0 for pair in _all_pairs()}
        # half-known chips by known colour: (circle, shift, known face is up)
        self.half: list[list[tuple[int, int, bool]]] = [[], [], [], []]
        for circle, chips in enumerate(table.faces):
            for k, (up, down) in enumerate(chips):
                if up is not None and down is not None:
                    self.base[circle] |= chip_byte(up, down) << (8 * k)
                    self.known_pairs[_pair_index(up, down)] += 1
                elif up is not None:
                    self.half[up].append((circle, 8 * k, True))
                elif down is not None:
                    self.half[down].append((circle, 8 * k, False))
                else:
                    raise ValueError("sarena AI: a chip with no face ever seen")
        self.matrices, self.cumulative = self._matrices()

    def _matrices(self) -> tuple[list[list[list[int]]], list[float]]:
        u = [len(chips) for chips in self.half]
        r = {pair: COPIES - n for pair, n in self.known_pairs.items()}
        out, cumulative, total = [], [], 0.0
        for m01 in range(r[0, 1] + 1):
            for m02 in range(r[0, 2] + 1):
                m03 = u[0] - m01 - m02
                if not 0 <= m03 <= r[0, 3]:
                    continue
                m10, m20, m30 = r[0, 1] - m01, r[0, 2] - m02, r[0, 3] - m03
                for m12 in range(r[1, 2] + 1):
                    m13 = u[1] - m10 - m12
                    if not 0 <= m13 <= r[1, 3]:
                        continue
                    m21, m31 = r[1, 2] - m12, r[1, 3] - m13
                    m23 = u[2] - m20 - m21
                    if not 0 <= m23 <= r[2, 3]:
                        continue
                    m32 = r[2, 3] - m23
                    if m30 + m31 + m32 != u[3]:
                        continue
                    m = [[0, m01, m02, m03], [m10, 0, m12, m13], [m20, m21, 0, m23],
                         [m30, m31, m32, 0]]
                    total += _completions(m, u)
                    out.append(m)
                    cumulative.append(total)
        return out, cumulative

    def sample(self, rng: random.Random) -> list[int]:
        piles = list(self.base)
        if self.matrices:
            m = rng.choices(self.matrices, cum_weights=self.cumulative)[0]
        else:
            m = None  # an impossible chip set (hand-made position): any partner will do
        for x, chips in enumerate(self.half):
            if not chips:
                continue
            if m is None:
                partners = [rng.choice([y for y in COLOURS if y != x]) for _ in chips]
            else:
                partners = [y for y in COLOURS for _ in range(m[x][y])]
                rng.shuffle(partners)
            for (circle, shift, known_up), y in zip(chips, partners):
                piles[circle] |= (chip_byte(x, y) if known_up else chip_byte(y, x)) << shift
        return piles


def _all_pairs() -> list[tuple[int, int]]:
    return [(a, b) for a in COLOURS for b in COLOURS if a < b]


def _completions(m: list[list[int]], u: list[int]) -> float:
    """Ways to hand the partners of matrix ``m`` to the half-known chips of each colour."""
    ways = 1.0
    for x in COLOURS:
        ways *= math.factorial(u[x])
        for y in COLOURS:
            ways /= math.factorial(m[x][y])
    return ways
