"""Lobbies: opening one, joining and leaving, seating and removing AI players, the host's
time control, and closing a lobby (cancelled, expired). Starting is the table service's.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Mapping

from ..games import game_class
from ..markdown import Markdown
from ..store import DEFAULT_TURN_LIMIT, LobbyExists, SeatRow
from .live import POLICIES, LiveTable, TableCache, TableError


#: AI seats added in a lobby get user ids below zero (Discord ids are positive)
def _next_ai_id(seats: list[SeatRow]) -> int:
    return min([0, *(s.user_id for s in seats)]) - 1


def _renumbered(seats: list[SeatRow]) -> list[SeatRow]:
    """The seats that remain, numbered again from 0 (a lobby has no gaps)."""
    return ai_numbered([SeatRow(i, s.user_id, s.name, s.dm_open, s.ai, locale=s.locale)
                        for i, s in enumerate(seats)])


_NUMBER = re.compile(r" \d+$")


def ai_numbered(seats: list[SeatRow]) -> list[SeatRow]:
    """AI players of one level are told apart by a number ("AI · Easy 1", "AI · Easy 2"), as
    tournaments do, or every line would read "AI · Easy switched with AI · Easy"; a lone one
    keeps its plain name. AI names are the bot's own, so the number it added is safe to strip."""
    levels = Counter(s.ai for s in seats if s.ai and not s.person)
    seen: Counter[str] = Counter()
    out = []
    for s in seats:
        name = s.name
        if s.ai and not s.person:
            name = _NUMBER.sub("", s.name)
            if levels[s.ai] > 1:
                seen[s.ai] += 1
                name = f"{name} {seen[s.ai]}"
        out.append(SeatRow(s.seat, s.user_id, name, s.dm_open, s.ai, locale=s.locale))
    return out


class LobbyOps(TableCache):
    """What players and the host do in a lobby."""

    async def open_lobby(self, game_key: str, *, guild_id: int | None, channel_id: int,
                         host_id: int, host_name: str, options: Mapping[str, Any] | None,
                         locale: str, rematch_of: int | None = None,
                         seats: list[SeatRow] | None = None,
                         invited_id: int | None = None,
                         clock: tuple[float | None, str] | None = None,
                         surface: str | None = None) -> LiveTable:
        """A lobby. ``clock`` (time per turn, policy) defaults to the server's choice for the
        game, else a day per turn with an AI standing in for whoever runs out of time."""
        cls = game_class(game_key)
        try:
            normalized = cls.normalize_options(options)
        except ValueError:
            raise TableError("bad_options") from None
        if clock is None:
            chosen = await self.store.guild_clock(guild_id, game_key)
            clock = (DEFAULT_TURN_LIMIT, "ai") if chosen is None else (chosen[0], chosen[1] or "ai")
        try:
            row = await self.store.create_table(
                game=game_key, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                host_name=host_name, options=normalized, locale=locale, rematch_of=rematch_of,
                seats=None if seats is None else ai_numbered(seats), invited_id=invited_id,
                turn_limit=clock[0], timeout_policy=clock[1], surface=surface)
        except LobbyExists as exc:
            raise TableError("lobby_exists", table=exc.table_id) from None
        return self._live(row)

    async def discard_lobby(self, table_id: int) -> None:
        """Forget a lobby whose message was never posted (Discord refused it): no table may
        outlive the message that holds it."""
        async with self.lock(table_id):
            await self.store.discard_lobby(table_id)
            self._cache.pop(table_id, None)

    def _require_lobby(self, live: LiveTable) -> None:
        if live.row.status != "lobby":
            raise TableError("not_lobby" if live.row.status in ("playing", "finished")
                             else "table_closed")

    async def join(self, table_id: int, user_id: int, name: str,
                   locale: str | None = None) -> LiveTable:
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if live.row.seat_of(user_id) is not None:
                raise TableError("already_seated")
            if live.row.invited_id is not None and user_id != live.row.invited_id:
                raise TableError("invite_only", player=Markdown(f"<@{live.row.invited_id}>"))
            if len(live.row.seats) >= live.cls.max_seats:
                raise TableError("table_full", max=live.cls.max_seats)
            await self._set_seats(
                live, [*live.row.seats, SeatRow(len(live.row.seats), user_id, name, locale=locale)])
            return live

    async def leave(self, table_id: int, user_id: int) -> LiveTable:
        """Leave a lobby. The host leaving hands the table to the next player, or closes it."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if live.row.seat_of(user_id) is None:
                raise TableError("not_seated")
            remaining = [s for s in live.row.seats if s.user_id != user_id]
            if not remaining:
                await self._close(live, "cancelled")
                return live
            if not any(s.person for s in remaining):
                # AI players alone: nobody left to start the game.
                await self._close(live, "cancelled")
                return live
            await self._set_seats(live, _renumbered(remaining))
            if live.row.host_id == user_id:
                host = next(s for s in live.row.seats if s.person)
                await self.store.update_table(table_id, host_id=host.user_id)
                live.row.host_id = host.user_id
                live.row.rev += 1
            return live

    async def add_ai(self, table_id: int, user_id: int, level: str, name: str) -> LiveTable:
        """The host seats an AI player of ``level`` (shown as ``name``) in a free seat."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if user_id != live.row.host_id:
                raise TableError("host_only_ai")
            if len(live.row.seats) >= live.cls.max_seats:
                raise TableError("table_full", max=live.cls.max_seats)
            await self._set_seats(live, ai_numbered([
                *live.row.seats,
                SeatRow(len(live.row.seats), _next_ai_id(live.row.seats), name, ai=level)]))
            return live

    async def remove_ai(self, table_id: int, user_id: int, seat: int) -> LiveTable:
        """The host takes an AI player out of the lobby."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if user_id != live.row.host_id:
                raise TableError("host_only_ai")
            if not 0 <= seat < len(live.row.seats) or live.row.seats[seat].person:
                raise TableError("stale")
            await self._set_seats(live, _renumbered([s for s in live.row.seats if s.seat != seat]))
            return live

    async def _set_seats(self, live: LiveTable, seats: list[SeatRow]) -> None:
        """Store the lobby's new seats; the lobby shows them."""
        await self.store.set_seats(live.id, seats)
        live.row.seats = seats
        live.row.rev += 1

    async def _close(self, live: LiveTable, reason: str) -> None:
        await self.store.update_table(live.id, status="cancelled", closed_reason=reason)
        live.row.status, live.row.closed_reason = "cancelled", reason
        live.row.rev += 1
        self._forget_if_over(live)
        self._changed(live.id)

    async def expire(self, table_id: int) -> LiveTable | None:
        """Close a lobby nobody started in time (None if it is no longer a lobby)."""
        async with self.lock(table_id):
            live = await self.get(table_id)
            if live is None or live.row.status != "lobby":
                return None
            await self._close(live, "expired")
            return live

    async def cancel(self, table_id: int, user_id: int, *, can_manage: bool) -> LiveTable:
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if user_id != live.row.host_id and not can_manage:
                raise TableError("host_only_cancel")
            await self._close(live, "cancelled")
            return live

    def check_startable(self, live: LiveTable, user_id: int) -> None:
        self._require_lobby(live)
        if user_id != live.row.host_id:
            raise TableError("host_only_start")
        if not live.seat_count_ok():
            raise TableError("seat_count", min=live.cls.min_seats, max=live.cls.max_seats,
                             count=len(live.row.seats))

    async def set_time_control(self, table_id: int, user_id: int, *,
                               turn_limit: float | None = None, set_limit: bool = False,
                               policy: str | None = None) -> LiveTable:
        """The host changes the lobby's time per turn or what happens when it runs out."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if user_id != live.row.host_id:
                raise TableError("host_only_clock")
            fields: dict[str, Any] = {}
            if set_limit:
                fields["turn_limit"] = turn_limit
            if policy is not None:
                if policy not in POLICIES:
                    raise TableError("stale")
                fields["timeout_policy"] = policy
            if fields:
                await self.store.update_table(table_id, **fields)
                for name, value in fields.items():
                    setattr(live.row, name, value)
                live.row.rev += 1
            return live
