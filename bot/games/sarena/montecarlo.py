"""A sparring partner for Sàréná's AI levels: flat Monte Carlo with colour inference.

It is a measuring stick, not a level offered to players (issue 55): the levels were only ever
measured against each other, and a player built differently tells whether they are strong or
only strong against their own family. It plays as a careful person with a computer would:

- it samples the never-seen chip faces consistently with the chip set (the same sampler the
  levels use: there is one right way to draw them);
- it weighs each other seat's secret colour by how well that colour explains the seat's past
  public moves (hard's reading of them);
- it plays **every** legal move out in the same sampled worlds, ``playouts`` each, with uniform
  random playouts, and takes the move with the best **mean score margin** (its chips minus the
  best rival's), not the best win rate. No pruning, no sequential halving, no informed playouts,
  no discretion: flat, as the outside player of issue 55 was written.

Pure and deterministic: every draw comes from the ``rng`` passed in; it sees the seat's view only.
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from .chips import UP
from .playout import play_random
from .beliefs import Beliefs, colour_evidence
from .knowledge import FaceSampler, read_view
from .search import _children, piles_after

#: playouts per legal move (the outside player of issue 55: about 100, 0.45 s a move)
PLAYOUTS = 100


def margin(piles: Sequence[int], heights: Sequence[int], mine: int,
           rivals: Sequence[int]) -> int:
    """Chips under my colour minus chips under the best rival's."""
    score = [0, 0, 0, 0]
    for pile, h in zip(piles, heights):
        if h:
            score[UP[pile >> (8 * h - 8)]] += h
    return score[mine] - max(score[c] for c in rivals)


def choose(view: Mapping[str, Any], rng: random.Random,
           playouts: int = PLAYOUTS) -> dict[str, Any]:
    """The legal action of ``view`` with the best mean margin over ``playouts`` sampled worlds."""
    table = read_view(view)
    if len(table.legal) == 1:
        return dict(table.actions[0])
    faces = FaceSampler(table)
    beliefs = Beliefs(table, colour_evidence(table, view.get("history", ())))
    children = _children(table)
    totals = [0] * len(children)
    for _ in range(max(1, playouts)):
        piles = faces.sample(rng)
        rivals = beliefs.sample(rng)
        stream = rng.getrandbits(64)
        for k, child in enumerate(children):
            after = piles_after(table, child, piles)
            heights = list(child.heights)
            # The same playout numbers for every move in a world: their difference is the moves'.
            play_random(after, heights, set(child.legal), random.Random(stream).random)
            totals[k] += margin(after, heights, table.colour, rivals)
    # Ties keep the legal order, so the pick never depends on anything but the view and rng.
    best = max(range(len(children)), key=lambda k: (totals[k], -k))
    return dict(table.actions[table.legal.index(children[best].edge)])


def sparring_level(name: str) -> int | None:
    """``montecarlo`` or ``montecarlo@N`` (N playouts a move) -> N; None for anything else."""
    base, _, count = name.partition("@")
    if base != "montecarlo":
        return None
    return int(count) if count else PLAYOUTS


def choose_sparring(view: Mapping[str, Any], name: str, seed: int) -> dict[str, Any]:
    """The arena's entry for the sparring partner, seeded as ``choose_action`` is."""
    playouts = sparring_level(name)
    if playouts is None:
        raise ValueError(f"not a sparring partner: {name!r}")
    return choose(view, random.Random(seed), playouts)

