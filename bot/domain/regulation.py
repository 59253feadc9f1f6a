"""The table's regulation: how a game that would never end is ended, without changing a rule.

Sensei has no repetition rule and no turn limit, and two players (or two AIs) can repeat one
cycle of turns for ever. The rules stay as they are (``/work/shared/rules/sensei.md``); the
table reads the positions the game has been in (``bot.games.sensei.positions``) after every
turn and steps in when
- the position at the start of a turn has now been seen three times (``repetition``), or
- neither character has come nearer its goal rank than it had ever been for
  ``NO_PROGRESS_TURNS`` turns (``turn_limit``).

Then a tournament table, or a table where an AI holds a seat, is drawn (both seats get half a
point, as in an agreed draw). A casual game between people is offered a draw instead, once: the
first time a position comes back a third time, and when the turn limit is reached. Each of them
may accept it with the board's draw button (the rules' own "both may agree to a draw"), or play
on.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games import Game, Result
from ..games.sensei.positions import (NO_PROGRESS_TURNS, REPETITIONS, counts, game_positions,
                                      turns_without_progress)

REASONS = ("repetition", "turn_limit")


@dataclass(frozen=True)
class Ruling:
    reason: str
    details: dict[str, Any]
    #: the first time this reason applies in the game: a casual table is offered a draw now
    offer: bool


def ruling(game: Game) -> Ruling | None:
    """What the regulation says of ``game`` at the start of a turn, if anything."""
    if game.key != "sensei" or game.result() is not None or getattr(game, "current", None):
        return None
    positions = game_positions(game)
    seen = counts(positions)
    now = seen[positions[-1][0]]
    turn = int(getattr(game, "turn", len(positions)))
    if now >= REPETITIONS:
        first = now == REPETITIONS and sum(1 for n in seen.values() if n >= REPETITIONS) == 1
        return Ruling("repetition", {"count": now, "turn": turn}, first)
    idle = turns_without_progress(positions)
    if idle >= NO_PROGRESS_TURNS:
        return Ruling("turn_limit", {"turns": idle, "turn": turn}, idle == NO_PROGRESS_TURNS)
    return None


def draws_outright(seats: list[Any], tournament: bool) -> bool:
    """Whether the regulation draws the game (else it offers a draw): at a tournament's table,
    and wherever an AI holds a seat (nobody could answer an offer for it)."""
    return tournament or any(not s.person or s.ai is not None for s in seats)


def drawn(game: Game, found: Ruling) -> tuple[Game, list[dict[str, Any]]]:
    """``game`` ended in a draw by the regulation, and the event that says so. The rules'
    state is rebuilt with the result set: no rule is asked to end it."""
    state = game.to_json()
    result = Result((), found.reason, draw=True, details=dict(found.details))
    state["result"] = result.to_json()
    if "draw_offer" in state:
        state["draw_offer"] = None
    ended = type(game).from_json(state)
    return ended, [{"type": "game_over", "reason": found.reason, "winners": [], "draw": True,
                    "details": dict(found.details), "turn": found.details.get("turn"),
                    "regulation": True}]


__all__ = ["Ruling", "ruling", "drawn", "draws_outright", "REASONS", "NO_PROGRESS_TURNS",
           "REPETITIONS"]
