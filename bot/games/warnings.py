"""Turns that lose at once by a rule, so the UI can ask "Play it anyway?" before sending one.

Only the rules' own verdicts on the board are used (Sensei's unfair barrier), so a warning
tells the player nothing they could not see. Narabi's "the next player has no legal switch"
would reveal hidden conditions, and Sàréná has no rule that loses at once: neither warns.
Pure: the actions are tried on a copy of the game.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .base import Game, IllegalAction


def losing_turn(game: Game, seat: int, actions: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """``{"code", "params"}`` when playing ``actions`` now (the rest of the current turn; a
    turn ends with an ``end_turn``, a third action or a win) makes ``seat`` lose at once by a
    rule; None otherwise, and None for actions the rules refuse (the game says why itself)."""
    if game.key != "sensei" or game.result() is not None:
        return None
    trial = game.copy()
    try:
        for action in actions:
            if trial.result() is not None:
                return None
            trial.apply(seat, action)
    except IllegalAction:
        return None
    result = trial.result()
    if result is None or result.reason != "barrier" or result.details.get("loser") != seat:
        return None
    details = result.details
    return {"code": "unfair_barrier", "params": {
        "barrier": list(details["barrier"]), "touching": list(details["touching"]),
        "count": details["count"], "both": bool(details.get("both"))}}
