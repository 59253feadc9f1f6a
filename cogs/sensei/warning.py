"""The question before a Sensei turn that loses at once: when a table asks it, and what it
says. The verdict is the rules' own (``bot.games.warnings``), so it names only what the board
shows."""
from __future__ import annotations

from typing import Any

from bot.domain.tables import LiveTable
from bot.games.sensei import Sensei
from bot.games.warnings import losing_turn

def warns(live: LiveTable) -> bool:
    """Whether a turn that loses at once is questioned before it is sent: always in a casual
    game (an AI holds a seat, nothing is rated), in a rated one when the lobby chose it."""
    casual = any(not s.person or s.ai is not None for s in live.row.seats)
    return casual or bool(live.row.options.get("warn"))


def losing_reason(trial: Sensei, seat: int, rest: list[dict[str, Any]]
                  ) -> tuple[str, dict[str, Any]] | None:
    """Why the planned turn (``trial``, to be finished by ``rest``) would lose the game for
    ``seat`` by a rule, as a catalog key and its values, or None. The rules' own verdict
    (``bot.games.warnings``), so it says only what the board shows."""
    found = losing_turn(trial, seat, rest)
    if found is None:
        return None
    params = found["params"]
    key = "warn.sensei.both" if params.get("both") else "warn.sensei.barrier"
    return key, {"barrier": " ".join(params["barrier"]), "touching": " ".join(params["touching"]),
                 "count": params["count"]}
