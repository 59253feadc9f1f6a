"""Sàréná: what a move brings each colour, and beliefs about the other seats' colours read
from the moves they made (a seat that keeps crowning red is probably red).

A seat is modelled as careless (its moves say nothing) or purposeful with some colour, its moves
chosen with probability growing with the chips they bring under that colour; the evidence gives
each colour assignment of the other seats a weight (``Beliefs``), from which the hard and expert
players draw the colours of the states they sample.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Mapping, Sequence

from .board import CIRCLES, EDGE_ID, EDGES, SQUARE_INDEX
from .knowledge import COLOURS, Table
from .position import Position


# -- the immediate effect of a move -------------------------------------------------------

def gain(hu: int, hv: int, top_u: int, top_v: int | None,
         flip_odds: Sequence[float]) -> list[float]:
    """Per colour, the chips that come under it (or leave it) when a pile of ``hu`` topped by
    ``top_u`` moves onto a pile of ``hv`` topped by ``top_v``, or onto an empty arrow circle,
    where ``flip_odds`` gives the chance of each colour showing once the pile turns over."""
    out = [0.0, 0.0, 0.0, 0.0]
    if hv:
        out[top_u] += hv
        out[top_v] -= hv
    else:
        for c in COLOURS:
            out[c] += hu * flip_odds[c]
        out[top_u] -= hu
    return out


def _odds(known: int | None, other_face: int | None) -> list[float]:
    """Chances of each colour for a face that is ``known`` or, if not, the partner of
    ``other_face`` (one of the three other colours)."""
    if known is not None:
        return [1.0 if c == known else 0.0 for c in COLOURS]
    if other_face is None:
        return [0.25] * 4
    return [0.0 if c == other_face else 1 / 3 for c in COLOURS]


def gain_now(table: Table, edge: int) -> list[float]:
    u, v = EDGES[edge]
    top_u = table.faces[u][-1][0]
    top_v = table.faces[v][-1][0] if table.heights[v] else None
    up, down = table.faces[u][0]
    return gain(table.heights[u], table.heights[v], top_u, top_v, _odds(down, up))


# -- inference from behaviour -------------------------------------------------------------

#: how sharply a purposeful player prefers moves that help its colour; with CARELESS and SLIP,
#: the value that best predicted the true colours in medium-vs-medium and random games
RATIONALITY = 1.0
#: prior odds that a seat plays without regard to its colour (then its moves say nothing)
CARELESS = 0.5
#: even a purposeful seat sometimes plays a move its colour does not explain
SLIP = 0.1


@dataclass(frozen=True)
class Observed:
    """One past move as its mover could judge it: per legal option (in edge order), the chips
    it brought under (or took from) each colour, and which option was played."""

    seat: int
    gains: tuple[list[float], ...]
    chosen: int


def observed_moves(table: Table, history: Sequence[Mapping[str, Any]]) -> list[Observed] | None:
    """The other seats' moves in ``history``, replayed; None when the history does not lead to
    the board seen (a state saved before the history was kept), as nothing can be replayed."""
    moves = [(entry["seat"], EDGE_ID[(SQUARE_INDEX[entry["action"]["from"]],
                                      SQUARE_INDEX[entry["action"]["to"]])])
             for entry in history if entry["action"].get("type") == "move"]
    faces = _opening_faces(table, moves)
    if faces is None:
        return None
    wanted = set(table.others)
    out = []
    stacks = [[(chip, 0)] for chip in range(CIRCLES)]
    seen = [[True, False] for _ in range(CIRCLES)]
    legality = Position([1] * CIRCLES, [1] * CIRCLES)
    for seat, edge in moves:
        if seat in wanted:
            options = sorted(legality.legal)
            out.append(Observed(seat, tuple(_past_gain(stacks, faces, seen, e) for e in options),
                                options.index(edge)))
        _replay(stacks, edge, seen)
        legality.move(edge)
    return out


def evidence_from(observed: Sequence[Observed], seats: Sequence[int],
                  rationality: float | Sequence[float] = RATIONALITY,
                  careless: float = CARELESS, slip: float = SLIP) -> dict[int, list[float]]:
    """Log-likelihood of each colour for each of ``seats``, from their observed moves.

    A seat is modelled as careless (uniform over legal moves) or purposeful with some colour:
    its moves are chosen with probability growing with the chips they bring under that colour,
    as sharply as ``rationality`` says. Given several rationalities, each is equally likely a
    priori and the seat's moves weigh them (a strong player's moves follow its gains more
    closely than a beginner's, and the model finds out which it faces)."""
    sharpness = (rationality,) if isinstance(rationality, (int, float)) else tuple(rationality)
    purposeful = {s: [[0.0] * 4 for _ in sharpness] for s in seats}
    random_ll = {s: 0.0 for s in seats}
    for move in observed:
        if move.seat not in purposeful:
            continue
        uniform = 1 / len(move.gains)
        random_ll[move.seat] += math.log(uniform)
        for k, sharp in enumerate(sharpness):
            lls = purposeful[move.seat][k]
            for c in COLOURS:
                logits = [sharp * g[c] for g in move.gains]
                aimed = math.exp(logits[move.chosen] - _log_sum_exp(logits))
                lls[c] += math.log(slip * uniform + (1 - slip) * aimed)
    careless_log = math.log(careless) if careless > 0 else -math.inf
    purposeful_log = math.log((1 - careless) / len(sharpness))
    return {s: [_log_sum_exp([careless_log + random_ll[s],
                              *(purposeful_log + lls[c] for lls in purposeful[s])])
                for c in COLOURS] for s in seats}


def colour_evidence(table: Table, history: Sequence[Mapping[str, Any]],
                    rationality: float | Sequence[float] = RATIONALITY, careless: float = CARELESS,
                    slip: float = SLIP) -> dict[int, list[float]] | None:
    """Log-likelihood of each colour for each other seat, from the moves it made (the model of
    :func:`evidence_from`); None when the history cannot be replayed."""
    observed = observed_moves(table, history)
    if observed is None:
        return None
    return evidence_from(observed, table.others, rationality, careless, slip)


def _log_sum_exp(values: Sequence[float]) -> float:
    top = max(values)
    if top == -math.inf:
        return top
    return top + math.log(sum(math.exp(v - top) for v in values))


def _replay(stacks: list[list[tuple[int, int]]], edge: int,
            seen: list[list[bool]] | None = None) -> None:
    """Move chip identities (chip = its deal circle, with whether it is turned over)."""
    u, v = EDGES[edge]
    moving = stacks[u]
    stacks[u] = []
    if stacks[v]:
        stacks[v] = stacks[v] + moving
        return
    stacks[v] = [(chip, 1 - turned) for chip, turned in reversed(moving)]
    if seen is not None:
        chip, turned = stacks[v][-1]
        seen[chip][turned] = True


def _opening_faces(table: Table, moves: list[tuple[int, int]]) -> list[list[int | None]] | None:
    """Per chip (numbered by deal circle): [colour dealt up, colour dealt down or None]."""
    stacks = [[(chip, 0)] for chip in range(CIRCLES)]
    legality = Position([1] * CIRCLES, [1] * CIRCLES)
    for _, edge in moves:
        if edge not in legality.legal:
            return None
        legality.move(edge)
        _replay(stacks, edge)
    if tuple(len(s) for s in stacks) != table.heights:
        return None
    faces: list[list[int | None]] = [[None, None] for _ in range(CIRCLES)]
    for stack, chips in zip(stacks, table.faces):
        for (chip, turned), (up, down) in zip(stack, chips):
            faces[chip] = [down, up] if turned else [up, down]
    if any(dealt_up is None for dealt_up, _ in faces):
        return None
    return faces


def _past_gain(stacks, faces, seen, edge: int) -> list[float]:
    """:func:`gain` as the mover could judge it then: faces not yet seen count as odds."""
    u, v = EDGES[edge]
    top_chip, top_turned = stacks[u][-1]
    top_u = faces[top_chip][top_turned]
    top_v = None
    if stacks[v]:
        chip, turned = stacks[v][-1]
        top_v = faces[chip][turned]
    bottom, turned = stacks[u][0]
    shows = 1 - turned
    odds = _odds(faces[bottom][shows] if seen[bottom][shows] else None, faces[bottom][turned])
    return gain(len(stacks[u]), len(stacks[v]), top_u, top_v, odds)


# -- beliefs about the other seats' colours -----------------------------------------------

class Beliefs:
    """A distribution over colour assignments to the other seats still playing."""

    def __init__(self, table: Table, evidence: dict[int, list[float]] | None) -> None:
        self.seats = table.others
        free = [c for c in COLOURS if c != table.colour]
        self.assignments = list(permutations(free, len(self.seats)))
        logs = [sum(evidence[s][c] for s, c in zip(self.seats, colours)) if evidence else 0.0
                for colours in self.assignments]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        total = 0.0
        self.cumulative = []
        for w in weights:
            total += w
            self.cumulative.append(total)
        self.probabilities = [w / total for w in weights]

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        return rng.choices(self.assignments, cum_weights=self.cumulative)[0]

    def colour_odds(self, seat: int) -> list[float]:
        """Marginal chance of each colour for one seat (for tests and tuning)."""
        k = self.seats.index(seat)
        odds = [0.0] * 4
        for colours, p in zip(self.assignments, self.probabilities):
            odds[colours[k]] += p
        return odds
