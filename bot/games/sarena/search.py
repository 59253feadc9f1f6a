"""Sàréná: the searches of the medium and hard AI players (``ai.py`` is the entry point that
picks a level and plays easy; ``expert.py`` builds on the same samplers, ``knowledge.py``, and
beliefs, ``beliefs.py``).

The AI sees only a seat's view (public board, its own colour, the public history). Whenever it
needs a complete state it *samples* one consistent with that view: every never-seen chip face is
drawn so that the chip set (6 chips of each colour pair) still adds up, and the other seats'
colours are drawn from beliefs that weigh how well each colour explains their past moves.

- easy: one look ahead: the move that puts the most chips under its own colour right now
  (expected value for a flip onto an unknown face), with a random move now and then.
- medium: flat Monte-Carlo over sampled states with uniformly random playouts, the legal moves
  pruned by sequential halving; every colour equally likely for the others.
- hard: the same search with about eight times the budget, and the others' colours drawn from
  beliefs inferred from their past moves (a seat that keeps crowning red is probably red).
- expert: see :mod:`.expert` (hard's samples, beliefs from a sharper reading of the moves,
  playouts in which every seat plays for its colour, a bigger budget).

Budgets count simulated moves, never time, and every draw comes from the ``rng`` passed in.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Sequence

from .beliefs import Beliefs
from .board import EDGES
from .chips import CARRIES, UP, flip_pile
from .knowledge import FaceSampler, Table
from .playout import play_random
from .position import Position


#: a chip of final margin is worth this much win: enough to rank moves that all win (or all
#: lose) in every playout, too little to trade a win for a bigger score
MARGIN = 0.01


def outcome(piles: list[int], heights: list[int], mine: int, rivals: Sequence[int]) -> float:
    """1 for a sole win, 0.5 for a shared one, 0 for a loss; plus a hint of the margin."""
    score = [0, 0, 0, 0]
    for pile, h in zip(piles, heights):
        if h:
            score[UP[pile >> (8 * h - 8)]] += h
    me = score[mine]
    best = max(score[c] for c in rivals)
    margin = MARGIN * (me - best)
    if me != best:
        return margin + (me > best)
    tied = [c for c in rivals if score[c] == me]
    breaks = _tiebreaks(piles, heights, [mine, *tied])
    mine_break = breaks[mine]
    best_break = max(breaks[c] for c in tied)
    if mine_break != best_break:
        return margin + (mine_break > best_break)
    return margin + 0.5


def _tiebreaks(piles: list[int], heights: list[int], colours: list[int]) -> list[int]:
    counts = [0, 0, 0, 0]
    for pile, h in zip(piles, heights):
        if not h:
            continue
        colour = UP[pile >> (8 * h - 8)]
        if colour in colours:
            carries = CARRIES[colour]
            for _ in range(h):
                counts[colour] += carries[pile & 0xFF]
                pile >>= 8
    return counts


@dataclass(frozen=True)
class Child:
    """The board structure after one root move (it does not depend on hidden faces)."""

    edge: int
    heights: list[int]
    legal: frozenset[int]


def _children(table: Table) -> list[Child]:
    # Legality depends on heights only, so any chips will do for the structure.
    base = Position([int.from_bytes(b"\x01" * h, "little") for h in table.heights],
                    list(table.heights))
    out = []
    for edge in table.legal:
        position = base.copy()
        position.move(edge)
        out.append(Child(edge, position.heights, frozenset(position.legal)))
    return out


def piles_after(table: Table, child: Child, piles: Sequence[int]) -> list[int]:
    """A sampled board's piles once ``child``'s move is played on it (a new list)."""
    u, v = EDGES[child.edge]
    piles = list(piles)
    hv = table.heights[v]
    if hv:
        piles[v] |= piles[u] << (8 * hv)
    else:
        piles[v] = flip_pile(piles[u], table.heights[u])
    piles[u] = 0
    return piles


def simulate(table: Table, child: Child, piles: list[int], rivals: Sequence[int],
             rng: random.Random) -> tuple[float, int]:
    """Play ``child``'s move on a sampled board, then random moves to the end: (reward, plies)."""
    piles = piles_after(table, child, piles)
    heights = list(child.heights)
    plies = 1 + play_random(piles, heights, set(child.legal), rng.random)
    return outcome(piles, heights, table.colour, rivals), plies


#: the work of one playout's setup and of one sampled state, in simulated moves: late in the
#: game playouts are short and this overhead is most of the cost
PLAYOUT_COST = 8
SAMPLE_COST = 16


def halving(children: list[Child], budget: float, sample: Callable[[list[Child]], float],
            key: Callable[[Child], float]) -> Child:
    """Sequential halving: each round ``sample(survivors)`` is called until the round's equal
    share of ``budget`` is spent (each call returns what it spent, in simulated moves), then
    the better half by ``key`` (lowest first) survives, until one is left."""
    survivors = list(children)
    rounds = max(1, math.ceil(math.log2(len(survivors))))
    quota = budget / rounds
    while len(survivors) > 1:
        spent = 0.0
        while True:
            spent += sample(survivors)
            if spent >= quota:
                break
        survivors.sort(key=key)
        survivors = survivors[:(len(survivors) + 1) // 2]
    return survivors[0]


def search(table: Table, beliefs: Beliefs, budget: int, rng: random.Random) -> int:
    """Sequential halving over the legal moves: each round spends an equal share of the budget
    (counted in simulated moves), every surviving move playing out the same sampled states
    (common samples make the comparison fairer), then the better half survives."""
    faces = FaceSampler(table)
    children = _children(table)
    total = {child.edge: 0.0 for child in children}
    visits = {child.edge: 0 for child in children}

    def sample(survivors: list[Child]) -> int:
        piles = faces.sample(rng)
        rivals = beliefs.sample(rng)
        spent = SAMPLE_COST
        for child in survivors:
            reward, plies = simulate(table, child, piles, rivals, rng)
            total[child.edge] += reward
            visits[child.edge] += 1
            spent += plies + PLAYOUT_COST
        return spent

    return halving(children, budget, sample,
                   lambda child: -total[child.edge] / visits[child.edge]).edge
