"""Sàréná: the view read into a table, samples of what is hidden and the searches of the easy,
medium and hard AI players (``ai.py`` is the entry point that picks a level; ``expert.py``
builds on the samplers here).

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
from itertools import permutations
from typing import Any, Mapping, Sequence

from .board import CIRCLES, EDGE_ID, EDGES, SQUARE_INDEX
from .chips import B_UP, CARRIES, COLOUR_INDEX, COPIES, UP, flip_pile
from .playout import play_random
from .position import Position

COLOURS = range(4)


# -- what the seat knows ------------------------------------------------------------------

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


# -- search -------------------------------------------------------------------------------

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


def search(table: Table, beliefs: Beliefs, budget: int, rng: random.Random) -> int:
    """Sequential halving over the legal moves: each round spends an equal share of the budget
    (counted in simulated moves), every surviving move playing out the same sampled states
    (common samples make the comparison fairer), then the better half survives."""
    faces = FaceSampler(table)
    survivors = _children(table)
    total = {child.edge: 0.0 for child in survivors}
    visits = {child.edge: 0 for child in survivors}
    rounds = max(1, math.ceil(math.log2(len(survivors))))
    quota = budget / rounds
    while len(survivors) > 1:
        spent = 0
        while True:
            piles = faces.sample(rng)
            rivals = beliefs.sample(rng)
            spent += SAMPLE_COST
            for child in survivors:
                reward, plies = simulate(table, child, piles, rivals, rng)
                total[child.edge] += reward
                visits[child.edge] += 1
                spent += plies + PLAYOUT_COST
            if spent >= quota:
                break
        survivors.sort(key=lambda child: -total[child.edge] / visits[child.edge])
        survivors = survivors[:(len(survivors) + 1) // 2]
    return survivors[0].edge
