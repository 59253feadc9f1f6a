"""Judging a puzzle answer where other searches run (the think pool): a Sensei answer is
judged against every reply of the opponent, too slow for the event loop. Plain JSON in and
out, so the call crosses the process boundary."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..games import IllegalAction
from ..games import puzzles
from ..games.narabi import puzzle as _narabi  # noqa: F401  (see below)
from ..games.sarena import puzzle as _sarena  # noqa: F401
from ..games.sensei import puzzle as _sensei  # noqa: F401

# The think pool's processes import this module before they fork (the client preloads it):
# the built-in sets and their checkers are then in memory in every worker, and a person's first
# answer does not wait the best part of a second for them to load.
for _game in puzzles.GAMES:
    puzzles.ids(_game)


def judge(puzzle: Mapping[str, Any], answer: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    try:
        return puzzles.check(puzzles.Puzzle.from_json(puzzle), answer).to_json()
    except IllegalAction as exc:
        return puzzles.illegal(exc).to_json()


def cut(game: str, seats: int, options: Mapping[str, Any], seed: int,
        log: Sequence[Sequence[Any]], review: Mapping[str, Any], game_id: int) -> list[dict[str, Any]]:
    """The puzzles a finished game holds (a missed forced win), as JSON."""
    pairs = [(int(seat), dict(action)) for seat, action in log]
    return [p.to_json() for p in puzzles.from_review(game, seats, options, seed, pairs, review,
                                                     game_id=game_id)]
