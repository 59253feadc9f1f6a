"""Grading a finished Sensei game turn by turn with the expert's search (``expert.py``).

For each turn the expert searches the position the turn started from (``best``, and the turn it
would play, ``better``), then the position the played turn left, from the opponent's side, one
turn shallower (``value``): both are the same search seen from the same root, so a turn the
expert would have played gets the value of the best one. Scores become expected scores through
``expected``. Only the action log is read; Sensei hides nothing anyway.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from ..review import TurnReview, stored
from .whole_turns import Move
from .board import square_name
from .expert import INFINITY, PROVED, OutOfBudget, Search, decide, _after
from .evaluation import WIN
from .wintwo import Prover
from .game import Sensei
from .notation import MAX_ACTIONS

#: children scored per search; a turn takes two searches (the start and the turn played)
REVIEW_NODES = 12_000
#: the evaluation difference that is worth 1 : e (about 73 %) in expected score. One arrival
#: threat the opponent must answer is worth about 220, a double threat 620.
SCALE = 300.0
#: the most a turn that gives up a forced win in two is worth (an even game at best)
GIVEN_UP = 0.5
#: actions that belong to a turn; draw offers and resignation happen beside the turns
_TURN_ACTIONS = ("stone", "character", "end_turn", "undo")


def expected(score: int) -> float:
    """The mover's expected score for a search score: 1 and 0 for proved wins and losses,
    else logistic in the score (monotone, 0.5 for an even position)."""
    if score >= PROVED:
        return 1.0
    if score <= -PROVED:
        return 0.0
    # Clamped: a barrier threat scores in the tens of thousands, far past exp's range.
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -score / SCALE))))


def review(seats: int, options: Mapping[str, Any], seed: int,
           log: Sequence[tuple[int, Mapping[str, Any]]], *, nodes: int | None = None,
           ) -> dict[str, Any]:
    """The stored review of the game the log replays (``bot.games.review.stored``)."""
    budget = REVIEW_NODES if nodes is None else nodes
    game = Sensei.new(seats, options, seed)
    turns: list[TurnReview] = []
    start: Sensei | None = None
    first = 0
    played: list[dict[str, Any]] = []
    for index, (seat, action) in enumerate(log):
        in_turn = action.get("type") in _TURN_ACTIONS
        if in_turn and start is None:
            start, first, played = game.copy(), index, []
        game.apply(seat, action)
        if not in_turn or start is None:
            continue
        played.append(dict(action))
        if game.result() is not None or game.active != start.active or game.turn != start.turn:
            turns.append(_graded(start, game, first, played, budget))
            start = None
    return stored("sensei", seats, turns)


def _graded(start: Sensei, after: Sensei, first: int, played: list[dict[str, Any]],
            nodes: int) -> TurnReview:
    seat = start.active
    decision = decide(start.cells, start.characters, seat, start.slide, nodes=nodes)
    best = expected(decision.value)
    better = _actions(decision.path, seat, start)
    expert_end = _after(start.cells, start.characters, seat, decision.path)
    if (list(after.cells), list(after.characters)) == expert_end and after.result() is None:
        # The same position as the expert's turn, whatever the order: the same turn.
        return TurnReview.graded(seat, first, played, best, best, played)
    if decision.value >= WIN - 2:
        # A forced win within two turns (proved, every reply checked): the played turn either
        # keeps it (worth a win) or gives it up, which is a blunder whatever the evaluation
        # says of what is left, since the win was certain and what is left is not.
        if after.result() is not None:
            value = _value_after(after, seat, 1, nodes)
        elif Prover(start.slide).reply_refuting(list(after.cells), list(after.characters),
                                                seat) is None:
            value = 1.0
        else:
            value = min(_value_after(after, seat, max(decision.depth, 2) - 1, nodes), GIVEN_UP)
        return TurnReview.graded(seat, first, played, best, value, better)
    value = _value_after(after, seat, max(decision.depth, 2) - 1, nodes)
    return TurnReview.graded(seat, first, played, max(best, value), value, better)


def _value_after(game: Sensei, seat: int, depth: int, nodes: int) -> float:
    """The mover's expected score once its turn is over, searched from the opponent's side."""
    result = game.result()
    if result is not None:
        if result.draw or not result.winners:
            return 0.5
        return 1.0 if seat in result.winners else 0.0
    search = Search(game.slide, nodes)
    score = None
    # Deepening, so that a budget too small for ``depth`` still gives the deepest value it can.
    for level in range(1, depth + 1):
        try:
            score = -search.value(list(game.cells), list(game.characters), 1 - seat, level,
                                  -INFINITY, INFINITY, 1)
        except OutOfBudget:
            break
    if score is None:
        score = Search(game.slide, 10 ** 9).value(list(game.cells), list(game.characters),
                                                  1 - seat, 1, -INFINITY, INFINITY, 1)
        score = -score
    return expected(score)


def _actions(path: tuple[Move, ...], seat: int, start: Sensei) -> list[dict[str, Any]]:
    """The turn as the log would hold it: its moves, then end_turn unless it ends by itself
    (a third action or an arrival)."""
    out: list[dict[str, Any]] = [{"type": kind, "from": square_name(frm), "to": square_name(to)}
                                 for kind, frm, to in path]
    trial = start.copy()
    for action in out:
        trial.apply(seat, action)
    if trial.result() is None and trial.active == seat and len(out) < MAX_ACTIONS:
        out.append({"type": "end_turn"})
    return out
