"""A stand-in for cutting puzzles out of a reviewed game, run in the think pool by the puzzle
tests: the lesson's arrival position, missed by seat 1 (importable in a fresh worker)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bot.games import puzzles
from bot.games.sensei import parse_turn


def cut(game: str, seats: int, options: Mapping[str, Any], seed: int,
        log: Sequence[Sequence[Any]], review: Mapping[str, Any], game_id: int) -> list[dict]:
    from cogs.sensei.lesson import LINE, played

    position = played(LINE)
    return [puzzles.Puzzle(f"sensei:g:{game_id}:8", "sensei", "win_in_two", 0,
                           position.to_json(), parse_turn("b6-b7 *f3-b7"),
                           {"type": "game", "game_id": game_id, "turn_index": 8, "seat": 1},
                           2).to_json()]
