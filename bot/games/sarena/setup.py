"""The opening position: chips dealt onto the circles, secret colours, first player.

Both the rules class and the fast playout call :func:`deal`, so a seed means the same game for
both. Every random draw uses the game's own ``random.Random``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb

from .board import CIRCLES
from .chips import COPIES, PAIRS, new_chip

FAIR_SHARE = 9  # 36 chips / 4 colours


def _colour_counts(a_up: tuple[int, ...]) -> list[int]:
    """Face-up count of each colour when ``a_up[p]`` chips of pair p show their lower colour."""
    counts = [0, 0, 0, 0]
    for (a, b), n in zip(PAIRS, a_up):
        counts[a] += n
        counts[b] += COPIES - n
    return counts


def _fair_vectors() -> tuple[tuple[tuple[int, ...], ...], list[int]]:
    # Pairs are (W,B) (W,R) (W,Y) (B,R) (B,Y) (R,Y). Three counts are free; the colour
    # equations fix the other three. Each vector is weighted by the number of ways to pick
    # which copies show which face, so drawing a vector, then placing the chips by a uniform
    # shuffle, is uniform over all fair face assignments.
    vectors, cumulative, total = [], [], 0
    for wb in range(COPIES + 1):
        for wr in range(COPIES + 1):
            for br in range(COPIES + 1):
                vector = (wb, wr, FAIR_SHARE - wb - wr, br, 3 + wb - br, wr + br - 3)
                if not all(0 <= n <= COPIES for n in vector):
                    continue
                assert _colour_counts(vector) == [FAIR_SHARE] * 4
                weight = 1
                for n in vector:
                    weight *= comb(COPIES, n)
                total += weight
                vectors.append(vector)
                cumulative.append(total)
    return tuple(vectors), cumulative


FAIR_VECTORS, _FAIR_CUMULATIVE = _fair_vectors()


# Chip k of the canonical set (pair k // 6), as dealt with its lower / higher colour up.
_EITHER_FACE = tuple((new_chip(a, b, False), new_chip(a, b, True))
                     for a, b in PAIRS for _ in range(COPIES))


# The canonical chip set for each fair vector: the first ``n`` copies of a pair show its
# lower colour. Which copies those are does not matter, as the shuffle places them.
_FAIR_CHIPS = tuple(
    tuple(new_chip(a, b, k >= n) for (a, b), n in zip(PAIRS, a_up) for k in range(COPIES))
    for a_up in FAIR_VECTORS)


@dataclass(frozen=True)
class Opening:
    piles: list[int]      # one chip per circle
    colours: list[int]    # colour index per seat
    first: int            # seat to move first


def deal(rng: random.Random, seats: int, fair: bool) -> Opening:
    if fair:
        chips = rng.choices(_FAIR_CHIPS, cum_weights=_FAIR_CUMULATIVE)[0]
    else:
        bits = rng.getrandbits(CIRCLES)
        chips = [faces[bits >> k & 1] for k, faces in enumerate(_EITHER_FACE)]
    # Sorting by random keys is a uniform shuffle (ties have probability ~0) and is several
    # times cheaper than random.shuffle, which matters for the fast playout.
    rnd = rng.random
    keys = [rnd() for _ in range(CIRCLES)]
    piles = [chips[i] for i in sorted(range(CIRCLES), key=keys.__getitem__)]
    colour_keys = [rnd(), rnd(), rnd(), rnd()]
    colours = sorted(range(4), key=colour_keys.__getitem__)[:seats]
    first = int(rnd() * seats)
    return Opening(piles, colours, first)
