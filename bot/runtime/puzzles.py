"""Judging a puzzle answer where other searches run (the think pool): a Sensei answer is
judged against every reply of the opponent, too slow for the event loop. Plain JSON in and
out, so the call crosses the process boundary."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..games import IllegalAction
from ..games import puzzles


def judge(puzzle: Mapping[str, Any], answer: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    try:
        return puzzles.check(puzzles.Puzzle.from_json(puzzle), answer).to_json()
    except IllegalAction as exc:
        return puzzles.illegal(exc).to_json()
