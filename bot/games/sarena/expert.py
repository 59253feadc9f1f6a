"""Sàréná expert: determinized search whose playouts play like people who want their colour.

The hidden information (never-seen chip faces, the other seats' colours) is handled as hard
handles it: each *world* is a full state drawn consistently with the seat's view, the faces by
:class:`~.knowledge.FaceSampler` and the colours from :class:`~.beliefs.Beliefs` built on the
evidence of the seats' past moves. What makes the expert stronger than hard:

- **Informed playouts.** In a world every seat's colour is known, so each playout move is the
  best of a few random legal moves for the seat that makes it (its own colour's chips gained,
  the other players' chips taken), not a uniform one: two with two players, four with more,
  where the other seats make three moves of every four. Real opponents do not hand over chips for
  nothing; uniform playouts assume they do and overrate greedy moves.
- **A sharper reading of the other seats' moves.** Hard reads them as a loose player's (often
  careless, mildly drawn to its colour's chips); the expert expects purposeful players and lets
  their moves say how sharply they follow their colour (:data:`RATIONALITY`), so its worlds give
  the others their true colours more often (a mean chance of 0.85 against 0.77 in games
  between hard players; measured by ``python -m bot.tools.fit_beliefs``).
- **Seat order.** Playouts follow the table's turn order, so a world knows who moves next and
  what that seat wants (hard's playouts do not care who moves).
- **Discretion** (two players). Among moves of about the same worth it prefers the one that
  tells least about its colour to someone reading its moves (:func:`telltale`): the opponent's
  beliefs are what let it play against the expert. With three or four players it is off: there
  it cost more than it hid.
- **A bigger budget**, spent by sequential halving with common worlds for every surviving move,
  and in each world the same playout random numbers for every move (common random numbers: two
  moves' playouts run alike until their positions part, so their difference is the moves').

The same evaluation serves the game review (:func:`analyse`, :func:`evaluate`), which needs the
mover's winning chances with the best move found and with the move played.
Budgets count simulated moves, never time; every draw comes from the ``rng`` passed in.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .beliefs import RATIONALITY as HARD_RATIONALITY
from .beliefs import Beliefs, _log_sum_exp, colour_evidence, gain_now
from .knowledge import FaceSampler, Table
from .search import Child, _children, _tiebreaks, halving, piles_after
from .chips import DOWN, UP
from .playout import _DST, _SMALL, _SRC, EDGE_COUNT, play_out

#: simulated moves per ``choose`` call: on the 2-core dev machine 0.7 s of CPU at the median,
#: 0.94 s at p95, under a second at most (measured over 81 expert moves, 2 and 4 players)
BUDGET = 200_000
#: playout moves are the best of this many random legal moves for their mover. With two players
#: two already models a purposeful player, and more made playouts slower and too predictable;
#: with three or four, where the playouts' other seats are most of the moves, sharper ones
#: (:data:`CROWD_CANDIDATES`) won more (arena: 28 % with two, 34 % with three, 35 % with four)
CANDIDATES = 2
CROWD_CANDIDATES = 4
#: a chip of final margin is worth this much win (as in hard): it ranks moves that all win or
#: all lose in every world, and is too small to trade a win for a bigger score
MARGIN = 0.01
#: the cost of setting up one playout and of drawing one world, in simulated moves
PLAYOUT_COST = 8
SAMPLE_COST = 16
#: win chance the expert gives up per unit of what a move tells about its colour (its
#: :func:`telltale`, a log ratio mostly within ±1.2), with two players: enough to choose the
#: quieter of two close moves, too little to give up a clearly better one
DISCRETION = 0.03
#: how sharply the reader that :func:`telltale` assumes follows the chips: hard's reading
READER_RATIONALITY = HARD_RATIONALITY
#: how the expert reads the other seats' moves (:func:`~.beliefs.evidence_from`): players who
#: play for their colour, weighing the chips a move brings under it at once as sharply as one
#: of RATIONALITY says, the moves themselves telling which (a beginner or a strong player).
#: Fitted with ``python -m bot.tools.fit_beliefs`` to medium's, hard's and the expert's moves;
#: hard's looser single reading was fitted to random and medium players
RATIONALITY = (0.5, 1.0, 2.0, 3.0)
CARELESS = 0.01
SLIP = 0.05


@dataclass(frozen=True)
class World:
    """One full state consistent with the view: the chips and each seat's colour."""

    piles: list[int]
    # Colour of each playing seat in turn order, starting with the seat after the mover.
    turn_colours: tuple[int, ...]
    rivals: tuple[int, ...]
    # worth[c][x]: what a chip under colour x is worth to the player of colour c.
    worth: tuple[tuple[float, ...], ...]


class Worlds:
    """Draws worlds for one seat's view."""

    def __init__(self, table: Table, beliefs: Beliefs) -> None:
        self.table = table
        self.beliefs = beliefs
        self.faces = FaceSampler(table)
        seats = len(table.active)
        # Playing seats in turn order after the mover (resigned seats never move again).
        self.after = [(table.seat + step) % seats for step in range(1, seats + 1)
                      if table.active[(table.seat + step) % seats]]

    def draw(self, rng: random.Random) -> World:
        table = self.table
        assignment = self.beliefs.sample(rng)
        colour_of = dict(zip(self.beliefs.seats, assignment))
        colour_of[table.seat] = table.colour
        players = sorted(colour_of.values())
        worth = tuple(_worth(c, players) for c in range(4))
        return World(self.faces.sample(rng), tuple(colour_of[s] for s in self.after),
                     tuple(assignment), worth)


def _worth(colour: int, players: Sequence[int]) -> tuple[float, ...]:
    rivals = [c for c in players if c != colour]
    share = 1 / len(rivals) if rivals else 0.0
    return tuple(1.0 if x == colour else (-share if x in rivals else 0.0) for x in range(4))


# -- playouts ---------------------------------------------------------------------------------

def playout(piles: list[int], heights: list[int], legal: set[int], world: World,
            rnd, candidates: int = CANDIDATES) -> int:
    """Play to the end from a position (updated in place), the seats moving in ``world``'s
    turn order, each move the best of ``candidates`` random legal moves for its mover;
    returns how many moves were played."""
    src_of, dst_of, up, down = _SRC, _DST, UP, DOWN
    order = world.turn_colours
    worths = [world.worth[c] for c in order]
    turns = len(order)

    def best_of_candidates(legal: set[int], moves: int) -> int:
        worth = worths[moves % turns]
        n = len(legal)
        ordered = sorted(legal) if n < _SMALL else None
        edge = -1
        best = -1e9
        for _ in range(candidates):
            if ordered is not None:
                e = ordered[int(rnd() * n)]
            else:
                e = int(rnd() * EDGE_COUNT)
                while e not in legal:
                    e = int(rnd() * EDGE_COUNT)
            u = src_of[e]
            v = dst_of[e]
            hu = heights[u]
            hv = heights[v]
            top_u = up[piles[u] >> (8 * hu - 8)]
            if hv:
                value = (worth[top_u] - worth[up[piles[v] >> (8 * hv - 8)]]) * hv
            else:
                value = (worth[down[piles[u] & 0xFF]] - worth[top_u]) * hu
            if value > best:
                best = value
                edge = e
        return edge

    return play_out(piles, heights, legal, best_of_candidates)


def win_score(piles: Sequence[int], heights: Sequence[int], mine: int,
              rivals: Sequence[int]) -> tuple[float, int]:
    """(1 for a sole win, 0.5 for a shared one, 0 for a loss; chips ahead of the best rival)."""
    score = [0, 0, 0, 0]
    for pile, h in zip(piles, heights):
        if h:
            score[UP[pile >> (8 * h - 8)]] += h
    me = score[mine]
    best = max(score[c] for c in rivals) if rivals else -1
    if me != best:
        return float(me > best), me - best
    tied = [c for c in rivals if score[c] == me]
    breaks = _tiebreaks(list(piles), list(heights), [mine, *tied])
    best_break = max(breaks[c] for c in tied)
    if breaks[mine] != best_break:
        return float(breaks[mine] > best_break), 0
    # Everyone tied shares the win: as the arena counts it, a share is half a win.
    return 0.5, 0


def candidates_for(table: Table) -> int:
    """How sharply the playouts' movers choose at this table (:data:`CANDIDATES`)."""
    return CANDIDATES if len(table.others) <= 1 else CROWD_CANDIDATES


def simulate(table: Table, child: Child, world: World, rng: random.Random,
             candidates: int) -> tuple[float, int, int]:
    """Play ``child``'s move in ``world``, then a playout whose movers choose among
    ``candidates`` moves (:func:`candidates_for`): (win score, margin, moves)."""
    piles = piles_after(table, child, world.piles)
    heights = list(child.heights)
    moves = 1 + playout(piles, heights, set(child.legal), world, rng.random, candidates)
    win, margin = win_score(piles, heights, table.colour, world.rivals)
    return win, margin, moves


# -- search -----------------------------------------------------------------------------------

@dataclass
class Analysis:
    """A search's outcome: the move it picks and what every move scored where it was tried."""

    edge: int
    wins: dict[int, float]  # edge -> summed win score
    visits: dict[int, int]

    def value(self, edge: int) -> float:
        return self.wins[edge] / self.visits[edge] if self.visits.get(edge) else 0.0


def analyse(table: Table, worlds: Worlds, budget: int, rng: random.Random,
            tells: Mapping[int, float] | None = None) -> Analysis:
    """Sequential halving over the legal moves: each round spends an equal share of the budget,
    every surviving move played out in the same worlds, then the better half survives (ranked
    by win score plus a hint of margin, less :data:`DISCRETION` times what the move ``tells``
    about the seat's colour when given). In a world every move's playout draws the same random
    numbers, so two moves' playouts run alike until their positions part: the comparison
    measures the moves more than the luck of their playouts (common random numbers)."""
    tells = tells or {}
    candidates = candidates_for(table)
    children = _children(table)
    rank = {child.edge: 0.0 for child in children}
    wins = {child.edge: 0.0 for child in children}
    visits = {child.edge: 0 for child in children}

    def sample(survivors: list[Child]) -> int:
        world = worlds.draw(rng)
        stream = rng.getrandbits(64)
        spent = SAMPLE_COST
        for child in survivors:
            win, margin, moves = simulate(table, child, world, random.Random(stream), candidates)
            rank[child.edge] += win + MARGIN * margin
            wins[child.edge] += win
            visits[child.edge] += 1
            spent += moves + PLAYOUT_COST
        return spent

    # Ties keep the legal order (sort is stable), so the pick never depends on set order.
    best = halving(children, budget, sample,
                   lambda child: DISCRETION * tells.get(child.edge, 0.0)
                   - rank[child.edge] / visits[child.edge])
    return Analysis(best.edge, wins, visits)


def telltale(table: Table) -> dict[int, float]:
    """Per legal move, how much more likely a player of the seat's colour is to make it than a
    player of any colour, as a log ratio, for someone reading moves as hard reads them (each
    colour's player drawn to the chips a move brings under it at once). Positive: the move
    points at the seat's colour; negative: at another."""
    gains = [gain_now(table, edge) for edge in table.legal]
    log_odds = []
    for colour in range(4):
        logits = [READER_RATIONALITY * gain[colour] for gain in gains]
        norm = _log_sum_exp(logits)
        log_odds.append([logit - norm for logit in logits])
    mean = [_log_sum_exp([log_odds[c][k] for c in range(4)]) - math.log(4)
            for k in range(len(gains))]
    return {edge: log_odds[table.colour][k] - mean[k] for k, edge in enumerate(table.legal)}


def evaluate(table: Table, worlds: Worlds, edges: Sequence[int], budget: int,
             rng: random.Random) -> dict[int, float]:
    """Mean win score of each of ``edges`` over the same fresh worlds and playout numbers (an
    unbiased estimate, unlike the figures of the search that picked among them)."""
    children = [child for child in _children(table) if child.edge in edges]
    candidates = candidates_for(table)
    wins = {child.edge: 0.0 for child in children}
    runs = 0
    spent = 0
    while spent < budget or not runs:
        world = worlds.draw(rng)
        stream = rng.getrandbits(64)
        spent += SAMPLE_COST
        for child in children:
            win, _, moves = simulate(table, child, world, random.Random(stream), candidates)
            wins[child.edge] += win
            spent += moves + PLAYOUT_COST
        runs += 1
    return {edge: total / runs for edge, total in wins.items()}


def worlds_for(table: Table, history: Sequence[Mapping[str, Any]]) -> Worlds:
    evidence = colour_evidence(table, history, rationality=RATIONALITY, careless=CARELESS,
                               slip=SLIP)
    return Worlds(table, Beliefs(table, evidence))


def choose_edge(table: Table, history: Sequence[Mapping[str, Any]], rng: random.Random,
                budget: int | None = None) -> int:
    if len(table.legal) == 1:
        return table.legal[0]
    # Discretion pays against one reader; among three it cost more chips than it hid (arena).
    tells = telltale(table) if len(table.others) == 1 else None
    return analyse(table, worlds_for(table, history), BUDGET if budget is None else budget,
                   rng, tells).edge
