"""Tables: lobbies, seats, turns. The runtime between the store and the game rules.

Nothing here talks to Discord: cogs call these methods, then present the outcome. Each table
has one lock; a change is validated against the stored state, applied, and committed inside it.

The service is composed here: the live-table cache (``live.py``), the lobby (``lobby.py``) and
play (``play.py``); starting a game, where the lobby turns into play, is its own.
"""
from __future__ import annotations

import secrets
from typing import Any

from ..games import IllegalAction
from ..store import StaleWrite, StoreFailure
from .live import (POLICIES, RECENT_CLOSED, STAND_IN_LEVEL, LiveTable, Outcome, TableCache,
                   TableError, closed_error)
from .lobby import LobbyOps
from .play import PlayOps, announcements, outcomes_for


class TableService(LobbyOps, PlayOps, TableCache):
    """Every table's lobby and play, over the store."""

    async def start(self, table_id: int, user_id: int, *, use_thread: bool,
                    seed: int | None = None) -> LiveTable:
        """Deal and start. The rest of the start (thread, announcement, board, private hands)
        is queued in the outbox by the same commit, so a stop at any point finishes it later.
        ``use_thread``: whether a thread may be opened from the lobby message."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self.check_startable(live, user_id)
            seed = secrets.randbits(63) if seed is None else seed
            game = live.cls.new(len(live.row.seats), live.row.options, seed)
            # Who plays first is said as dealt: an AI seat may have moved before it is posted.
            steps: list[tuple[str, dict[str, Any]]] = [("thread", {"use": use_thread}),
                                                       ("announce", {"first": game.to_move})]
            steps += [("dm", {"seat": seat, "hand": True}) for seat in range(len(live.row.seats))
                      if game.private_view(seat) and live.row.seats[seat].person]
            clock = self._clock_for(live.row, game.to_move)
            try:
                await self.store.start_game(table_id, seed, game.to_json(), outbox=steps,
                                            clock=clock)
            except StaleWrite:
                self._cache.pop(table_id, None)
                raise TableError("not_lobby") from None
            live.row.deadline, live.row.deadline_seat, live.row.reminded = *clock, 0
            live.row.status, live.row.seed, live.row.version = "playing", seed, 0
            live.row.board_version = -1
            live.row.rev += 1
            live.game = game
            self._changed(table_id)
            return live


__all__ = ["TableService", "TableError", "LiveTable", "Outcome", "IllegalAction", "outcomes_for",
           "closed_error", "StoreFailure", "announcements", "POLICIES", "RECENT_CLOSED",
           "STAND_IN_LEVEL"]
