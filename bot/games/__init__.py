"""Pure game rules. Nothing here touches Discord, Pillow, files, the clock or global randomness.

Each game is a subpackage; ``bot.registry`` finds them, so no list of games is kept here.
"""
from __future__ import annotations

from typing import Iterator, Mapping

from .base import Game, IllegalAction, Result

__all__ = ["Game", "IllegalAction", "Result", "GAMES", "game_class"]


def game_class(key: str) -> type[Game]:
    # Imported here: the registry imports this package, and looking up one game imports only it.
    from ..registry import entry

    return entry(key).rules


class _Games(Mapping[str, type[Game]]):
    """Rules class by key, read from the registry."""

    def __getitem__(self, key: str) -> type[Game]:
        return game_class(key)

    def __iter__(self) -> Iterator[str]:
        from ..registry import keys

        return iter(keys())

    def __len__(self) -> int:
        from ..registry import keys

        return len(keys())


GAMES: Mapping[str, type[Game]] = _Games()
