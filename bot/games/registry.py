"""The one list of games, found by convention rather than written down.

A game is a package ``bot/games/<key>/`` whose ``__init__`` exports a Game subclass with that
``key``. Its other parts are found by name: ``cogs.<key>`` (the Discord cog), ``render.<key>``
(the board picture), ``bot.games.<key>.ai`` (the AI players). Adding a game therefore adds files
and edits none that the games share.

Only the rules are imported here; cog and renderer are recorded by module name, so this stays
importable without discord or Pillow (the rules must never need them).
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
import sys
from dataclasses import dataclass
from functools import lru_cache

from .base import Game

#: the games package, whose every subpackage is looked at. It is read from ``sys.modules`` (it is
#: always loaded before this module, its child) rather than imported, so it may import this module.
_GAMES_PACKAGE = __name__.rpartition(".")[0]

#: a game key as it may appear in a custom_id (``<key>:<table>:<verb>``) and a catalog key
KEY_PATTERN = r"[a-z][a-z0-9_]{1,15}"
_KEY = re.compile(KEY_PATTERN)


@dataclass(frozen=True)
class GameEntry:
    key: str
    rules: type[Game]
    cog: str | None  # module name of the extension, None for a game not offered on Discord
    renderer: str | None  # module name whose ``render(view, …)`` draws the board
    ai: str | None  # module name whose ``choose(view, level, rng)`` plays a seat

    @property
    def min_seats(self) -> int:
        return self.rules.min_seats

    @property
    def max_seats(self) -> int:
        return self.rules.max_seats


def _module_if_present(name: str) -> str | None:
    try:
        return name if importlib.util.find_spec(name) is not None else None
    except ModuleNotFoundError:  # the parent package itself is missing
        return None


@lru_cache(maxsize=1)
def _candidates() -> tuple[str, ...]:
    return tuple(sorted(m.name for m in pkgutil.iter_modules(sys.modules[_GAMES_PACKAGE].__path__)
                        if m.ispkg and not m.name.startswith("_")))


@lru_cache(maxsize=None)
def _load(name: str) -> GameEntry | None:
    # One package at a time, so looking up one game never imports (or trips over) another.
    module = importlib.import_module(f"{_GAMES_PACKAGE}.{name}")
    rules = next((value for value in vars(module).values()
                  if isinstance(value, type) and issubclass(value, Game) and value is not Game
                  and getattr(value, "key", None) == name), None)
    if rules is None:
        return None
    if not _KEY.fullmatch(name):
        raise RuntimeError(f"game key {name!r} does not match {KEY_PATTERN}: it could not be "
                           f"routed")
    return GameEntry(key=name, rules=rules, cog=_module_if_present(f"cogs.{name}"),
                     renderer=_module_if_present(f"render.{name}"),
                     ai=_module_if_present(f"{module.__name__}.ai"))


def entry(key: str) -> GameEntry:
    """The game ``key``; KeyError if there is none."""
    found = _load(key) if key in _candidates() else None
    if found is None:
        raise KeyError(key)
    return found


def is_game(key: str) -> bool:
    try:
        entry(key)
    except KeyError:
        return False
    return True


def games() -> dict[str, GameEntry]:
    """Every game, by key, in key order."""
    return {name: found for name in _candidates() if (found := _load(name)) is not None}


def keys() -> tuple[str, ...]:
    return tuple(games())


def refresh() -> None:
    """Forget what was discovered (tests that add or hide a game package)."""
    _candidates.cache_clear()
    _load.cache_clear()
