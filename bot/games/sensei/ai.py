"""Sensei AI players: ``choose(view, level, rng)`` returns one of ``view["legal"]``.

The levels' searches live beside this entry point: easy, medium and hard in ``search.py``,
expert in ``expert.py``, all on the evaluation in ``evaluation.py``; see their docstrings.

Every level but easy keeps the game's history in view (the positions are read back from it by
``positions.py``): a turn that would bring back a position already seen twice is a draw under
the table's regulation (``bot/domain/regulation.py``), so the AI plays another turn instead when
one is no worse for it: one that medium's evaluation scores at least as high as the draw (0, an
even position) or as the turn it meant to play, whichever is lower.
"""
from __future__ import annotations

import random
from functools import partial
from typing import Any, Mapping

from .board import square_name
from .expert import plan_turn
from .game import Sensei
from .evaluation import turn_end_score
from .positions import counts, position_key, turn_starts
from .search import easy_action, hard_turn
from .whole_turns import Move, _after, _best, scored_turns
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
    if level != "easy":
        path = avoid_repetition(game, seat, path, rng)
    return [{"type": kind, "from": square_name(frm), "to": square_name(to)}
            for kind, frm, to in path]


#: what a draw is worth in medium's evaluation: an even position
DRAW = 0


def avoid_repetition(game: Sensei, seat: int, path: tuple[Move, ...],
                     rng: random.Random) -> tuple[Move, ...]:
    """``path``, or, when it would bring back a position already seen twice, the best other
    rest of the turn scoring at least the lower of the draw that repetition means and ``path``
    itself (by medium's evaluation); ``path`` when there is none."""
    seen = counts(turn_starts(game.cells, game.characters, game.active, game.history))
    if max(seen.values()) < 2:
        return path  # nothing has come back twice yet: no turn can make a third time

    def repeats(rest: tuple[Move, ...]) -> bool:
        cells, characters = _after(game.cells, game.characters, seat, rest)
        return seen[position_key(cells, characters, 1 - seat)] >= 2

    if not repeats(path):
        return path
    scored = scored_turns(game, seat)
    planned = next((score for score, rest in scored if rest == path), None)
    if planned is None:
        planned = turn_end_score(*_after(game.cells, game.characters, seat, path), seat,
                                 game.slide)
    floor = min(planned, DRAW)
    fresh = [(score, rest) for score, rest in scored if score >= floor and not repeats(rest)]
    return _best(fresh, rng) if fresh else path


def choose(view: Mapping[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    steps = plan(view, level, rng)
    wanted = steps[0] if steps else {"type": "end_turn"}
    for action in view["legal"]:
        if action == wanted:
            return action
    raise ValueError(f"sensei AI planned {wanted!r}, which is not legal here")
