"""Sàréná game review: each move graded by the expert, from what its mover could know then.

**Secrets.** At the end every player's colour is revealed, but chip faces that never showed stay
hidden for good, and a player chose each move without knowing the others' colours. So every
turn is judged from the mover's own information set at that moment: the expert is handed exactly
the view the mover had (public board and history up to the turn, their own colour, never anyone
else's, never the final reveal) and averages over worlds consistent with it, weighted by what
the others' past moves said about their colours. The grade therefore rates the decision, not the
luck of the hidden faces, and the review can reveal nothing the game did not: its inputs are
views the game handed out anyway, and its outputs are win chances and a suggested move.

**Values.** ``best`` and ``value`` are the mover's chances of winning (a shared win counts half)
with the best move the expert finds and with the move played, each measured over the same fresh
worlds, after the search that picked the best move (whose own figures flatter its pick).
Sàréná's turn is one move, so a turn is one action; resignations are not graded.
Pure and deterministic: each turn's search is seeded by the game's seed and the turn's place.
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from .. import game_class
from ..review import TurnReview, stored
from .knowledge import read_view
from .board import EDGE_ID, SQUARE_INDEX
from .expert import analyse, evaluate, worlds_for

#: simulated moves spent on each turn: 0.4 s of CPU a turn on average on the 2-core dev machine
#: (a 36-move 4-player game took 14 s), so even a 45-move game, the longest Sàréná allows,
#: reviews well within a minute on one process
NODES = 120_000
#: the share of a turn's budget that searches for the best move; the rest measures it and the
#: move played over common fresh worlds
SEARCH_SHARE = 0.6


def seat_view(game: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` knows now: the same fields :func:`bot.ai.seat_view` gives an AI."""
    return {"game": game.key, "seat": seat, "public": game.public_view(),
            "private": game.private_view(seat), "legal": game.legal_actions(seat),
            "history": game.public_history()}


def turn_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"sarena-review:{seed}:{index}")


def judge(view: Mapping[str, Any], played: Mapping[str, Any], nodes: int,
          rng: random.Random) -> tuple[float, float, dict[str, Any]]:
    """(best, value, better action) for the move ``played`` from ``view``."""
    table = read_view(view)
    worlds = worlds_for(table, view.get("history", ()))
    played_edge = EDGE_ID[(SQUARE_INDEX[played["from"]], SQUARE_INDEX[played["to"]])]
    if len(table.legal) == 1:
        found = played_edge
    else:
        found = analyse(table, worlds, int(nodes * SEARCH_SHARE), rng).edge
    edges = sorted({found, played_edge})
    values = evaluate(table, worlds, edges, int(nodes * (1 - SEARCH_SHARE)), rng)
    # The move played may measure better than the search's pick: then it was the best move.
    better = found if values[found] > values[played_edge] else played_edge
    return values[better], values[played_edge], dict(table.actions[table.legal.index(better)])


def best_move(view: Mapping[str, Any], nodes: int, rng: random.Random) -> dict[str, Any]:
    """The move the review's expert finds from ``view`` (what :func:`judge` compares with)."""
    table = read_view(view)
    if len(table.legal) == 1:
        return dict(table.actions[0])
    edge = analyse(table, worlds_for(table, view.get("history", ())),
                   int(nodes * SEARCH_SHARE), rng).edge
    return dict(table.actions[table.legal.index(edge)])


def review(seats: int, options: Mapping, seed: int, log: Sequence[tuple[int, Mapping]], *,
           nodes: int | None = None) -> dict:
    """The stored review of the game played from ``new(seats, options, seed)`` by ``log``."""
    budget = NODES if nodes is None else nodes
    game = game_class("sarena").new(seats, options, seed)
    turns = []
    for index, (seat, action) in enumerate(log):
        if action.get("type") == "move" and seat == game.to_move:
            best, value, better = judge(seat_view(game, seat), action, budget,
                                        turn_rng(seed, index))
            turns.append(TurnReview.graded(seat, index, [dict(action)], best, value, [better]))
        game.apply(seat, action)
    return stored("sarena", seats, turns)
