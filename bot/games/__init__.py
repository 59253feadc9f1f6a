"""Pure game rules, solvers and AI players, and the registry that finds them. Nothing here
touches Discord, Pillow, files, the clock or global randomness, and nothing here imports
anything of the bot outside this package.

Each game is a subpackage; ``bot.games.registry`` finds them, so no list of games is kept here.
"""
from __future__ import annotations

from typing import Iterator, Mapping

from .base import Game, IllegalAction, Result
from .registry import entry, keys

__all__ = ["Game", "IllegalAction", "Result", "GAMES", "game_class"]


def game_class(key: str) -> type[Game]:
    return entry(key).rules


class _Games(Mapping[str, type[Game]]):
    """Rules class by key, read from the registry."""

    def __getitem__(self, key: str) -> type[Game]:
        return game_class(key)

    def __iter__(self) -> Iterator[str]:
        return iter(keys())

    def __len__(self) -> int:
        return len(keys())


GAMES: Mapping[str, type[Game]] = _Games()
