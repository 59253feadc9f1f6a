"""The one door between AI players and a game: a seat's view in, one legal action out.

An AI never receives a game object. ``seat_view`` copies out what one seat may know (the public
view, that seat's private view, its legal actions and the public history) as plain JSON data;
``choose_action`` hands that copy to the game's AI module (``bot/games/<game>/ai.py``), which is
pure: no I/O, no clock, no global randomness, search budgets counted in iterations.
"""
from __future__ import annotations

import importlib
import json
import random
from typing import Any, Mapping

from .base import Game
from .registry import entry

#: "random" is uniform over the legal actions: the yardstick the arena measures the others by.
LEVELS = ("random", "easy", "medium", "hard", "expert")
PLAYER_LEVELS = ("easy", "medium", "hard", "expert")


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know, detached from the game (a JSON round trip, so the AI cannot
    reach into the game through a shared list or dict)."""
    view = {
        "game": game.key,
        "seat": seat,
        "public": game.public_view(),
        "private": game.private_view(seat),
        "legal": game.legal_actions(seat),
        "history": game.public_history(),
    }
    return json.loads(json.dumps(view))


def rng_for(game_key: str, level: str, seed: int) -> random.Random:
    # A string seed is hashed with SHA-512 by random.Random: stable across runs and platforms.
    return random.Random(f"{game_key}:{level}:{seed}")


def choose_action(game_key: str, view: Mapping[str, Any], level: str = "medium",
                  seed: int = 0) -> dict[str, Any]:
    """One of ``view["legal"]``, the same one for the same view, level and seed."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}: one of {', '.join(LEVELS)}")
    legal = list(view["legal"])
    if not legal:
        raise ValueError(f"{game_key}: seat {view.get('seat')} has no legal action")
    rng = rng_for(game_key, level, seed)
    if level == "random" or len(legal) == 1:
        return dict(rng.choice(legal))
    ai = entry(game_key).ai
    if ai is None:
        raise ValueError(f"{game_key} has no AI players (no bot/games/{game_key}/ai.py)")
    module = importlib.import_module(ai)
    action = module.choose(view, level, rng)
    if action not in legal:
        raise RuntimeError(f"{game_key} AI ({level}) chose an action that is not legal: {action!r}")
    return dict(action)


def choose_question(game_key: str, view: Mapping[str, Any], level: str = "medium",
                    seed: int = 0) -> dict[str, Any] | None:
    """A question this seat would ask its teammates now, for games that have them (Narabi),
    else None. Pure and seeded like ``choose_action``."""
    module = importlib.import_module(f"bot.games.{game_key}.ai")
    ask = getattr(module, "choose_question", None)
    if ask is None or level not in PLAYER_LEVELS:
        return None
    return ask(view, level, rng_for(game_key, f"ask-{level}", seed))
