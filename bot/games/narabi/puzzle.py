"""Narabi par puzzles (``bot/games/puzzles.py``): a deal with every condition shown; solve it in
the par number of switches, playing every seat in turn.

An answer is the switches made so far. It stays ``incomplete`` while the par can still be
reached from where it stands (``solver.par`` on the position reached, with the switches left);
it is ``wrong`` as soon as it cannot, and the verdict then gives a par line from the start.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import IllegalAction
from ..puzzle_types import ILLEGAL, INCOMPLETE, SOLVED, WRONG, Puzzle, Verdict, illegal
from .rules import Narabi
from .solver import par


def check(puzzle: Puzzle, answer: Sequence[Mapping[str, Any]]) -> Verdict:
    game = puzzle.position()
    assert isinstance(game, Narabi)
    line = [dict(a) for a in puzzle.solution]
    for action in answer:
        if action.get("type") != "switch":
            return Verdict(ILLEGAL, error={"code": "bad_action", "params": {}})
        if game.result() is not None:
            return Verdict(ILLEGAL, error={"code": "game_over", "params": {}})
        try:
            game.apply(game.active, action)
        except IllegalAction as exc:
            return illegal(exc)
    result = game.result()
    if result is not None:
        if result.reason == "solved" and game.turn <= puzzle.par:
            return Verdict(SOLVED)
        return Verdict(WRONG, reason="par_out_of_reach", line=line)
    left = puzzle.par - game.turn
    if left <= 0 or not reachable(game, left):
        return Verdict(WRONG, reason="par_out_of_reach", line=line)
    return Verdict(INCOMPLETE)


def reachable(game: Narabi, switches: int) -> bool:
    """Whether the deal as it stands can be solved within ``switches`` more switches."""
    state = game.to_json()
    state.update(initial_rows=[list(r) for r in game.rows], first_seat=game.active,
                 max_turns=switches)
    return par(state)["status"] == "found"


def verify(puzzle: Puzzle) -> str | None:
    """Why a shipped puzzle is not sound, or None: the solver's par of the deal must be the
    puzzle's par, and the shipped line must solve it in that many switches."""
    game = puzzle.position()
    assert isinstance(game, Narabi)
    if game.turn != 0 or game.result() is not None:
        return "not at the start of a deal"
    found = par(game)
    if found["status"] != "found" or found["best"] != puzzle.par:
        return f"par is {found.get('best')}, not {puzzle.par}"
    try:
        for action in puzzle.solution:
            game.apply(game.active, action)
    except IllegalAction as exc:
        return f"illegal line: {exc}"
    result = game.result()
    if result is None or result.reason != "solved" or game.turn != puzzle.par:
        return "the line does not solve the deal in par"
    return None
