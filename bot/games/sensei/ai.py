"""Sensei AI players: ``choose(view, level, rng)`` returns one of ``view["legal"]``.

The levels' searches live beside this entry point: easy, medium and hard in ``search.py``,
expert in ``expert.py``, all on the evaluation in ``evaluation.py``; see their docstrings.
"""
from __future__ import annotations

import random
from functools import partial
from typing import Any, Mapping

from .board import square_name
from .expert import plan_turn
from .game import Sensei
from .search import easy_action, hard_turn
from .whole_turns import Move, _best, scored_turns
from .wintwo import hard_win_in_two

LEVELS = ("easy", "medium", "hard", "expert")


def plan(view: Mapping[str, Any], level: str, rng: random.Random) -> list[dict[str, Any]]:
    """The rest of the turn ``level`` means to play: the actions still to come, in order (empty
    when it would end the turn now). Easy plans one action at a time."""
    if level not in LEVELS:
        raise ValueError(f"unknown Sensei AI level {level!r}")
    game = Sensei.from_public_view(view["public"], view.get("history"))
    seat = view["seat"]
    if game.to_move != seat:
        raise ValueError(f"seat {seat} is not to move")
    if level == "easy":
        move = easy_action(game, seat, rng)
        path: tuple[Move, ...] = () if move is None else (move,)
    elif level == "medium":
        path = _best(scored_turns(game, seat), rng)
    elif level == "expert":
        path = plan_turn(game, seat)
    else:
        path = hard_turn(game, seat, rng, partial(hard_win_in_two, game, seat))
    return [{"type": kind, "from": square_name(frm), "to": square_name(to)}
            for kind, frm, to in path]


def choose(view: Mapping[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    steps = plan(view, level, rng)
    wanted = steps[0] if steps else {"type": "end_turn"}
    for action in view["legal"]:
        if action == wanted:
            return action
    raise ValueError(f"sensei AI planned {wanted!r}, which is not legal here")
