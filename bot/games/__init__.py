"""Pure game rules. Nothing here touches Discord, Pillow, files, the clock or global randomness."""
from __future__ import annotations

from .base import Game, IllegalAction, Result

__all__ = ["Game", "IllegalAction", "Result", "GAMES", "game_class"]


def _registry() -> dict[str, type[Game]]:
    # Imported lazily so one game's import error cannot hide the others' tests.
    from .narabi import Narabi
    from .sarena import Sarena
    from .sensei import Sensei

    return {cls.key: cls for cls in (Narabi, Sensei, Sarena)}


GAMES: dict[str, type[Game]] = {}


def game_class(key: str) -> type[Game]:
    if not GAMES:
        GAMES.update(_registry())
    return GAMES[key]
