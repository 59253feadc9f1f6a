"""Tables: lobbies, seats, turns. The runtime between the store and the game rules.

Nothing here talks to Discord: cogs call these methods, then present the outcome. Each table
has one lock; a change is validated against the stored state, applied, and committed inside it.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from dataclasses import dataclass, field
from typing import Any, Mapping

from .games import Game, IllegalAction, Result, game_class
from .store import LobbyExists, SeatRow, Store, TableRow

log = logging.getLogger(__name__)


class TableError(Exception):
    """A refused request, as a catalog key under ``error.`` plus its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass
class LiveTable:
    row: TableRow
    game: Game | None = None

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def cls(self) -> type[Game]:
        return game_class(self.row.game)

    def names(self) -> list[str]:
        return [s.name for s in self.row.seats]

    def user_of(self, seat: int) -> int:
        return self.row.seats[seat].user_id

    def seat_count_ok(self) -> bool:
        return self.cls.min_seats <= len(self.row.seats) <= self.cls.max_seats


@dataclass
class Outcome:
    """What one accepted action did, for the cog to present after the commit."""

    table: LiveTable
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    result: Result | None
    private_changed: dict[int, tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=dict)


def outcomes_for(result: Result, seats: list[SeatRow]) -> list[tuple[int, int, str]]:
    rows = []
    for s in seats:
        if result.draw and (not result.winners or s.seat in result.winners):
            outcome = "draw"
        else:
            outcome = "win" if s.seat in result.winners else "loss"
        rows.append((s.seat, s.user_id, outcome))
    return rows


class TableService:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[int, LiveTable] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def _live(self, row: TableRow) -> LiveTable:
        game = None
        if row.state is not None:
            game = game_class(row.game).from_json(row.state)
            row.state = None  # the Game object is the truth from here on; no stale copy
        live = LiveTable(row, game)
        if row.status in ("lobby", "playing"):
            self._cache[row.id] = live
        return live

    async def restore(self) -> int:
        """Register every unfinished table (called at start-up); returns how many. Game states
        are parsed on first use, so start-up time does not grow with their size."""
        rows = await self.store.unfinished_tables()
        for row in rows:
            self._cache[row.id] = LiveTable(row, None)
        return len(rows)

    async def get(self, table_id: int) -> LiveTable | None:
        live = self._cache.get(table_id)
        if live is None:
            row = await self.store.get_table(table_id)
            return None if row is None else self._live(row)
        if live.game is None and live.row.status == "playing":
            state = await self.store.game_state(table_id)
            # Another coroutine may have loaded (and moved) the game while this one awaited.
            if live.game is None and state is not None:
                live.game = live.cls.from_json(state)
        return live

    def unfinished_ids(self, game_key: str) -> list[int]:
        return [tid for tid, live in self._cache.items() if live.row.game == game_key]

    async def playing_in(self, game_key: str, channel_id: int, user_id: int) -> list[LiveTable]:
        """The running tables of a game in a channel or thread where the user has a seat."""
        found = []
        for table_id in await self.store.playing_in(game_key, channel_id, user_id):
            live = await self.get(table_id)
            if live is not None and live.game is not None:
                found.append(live)
        return found

    async def _require(self, table_id: int, game_key: str | None = None) -> LiveTable:
        live = await self.get(table_id)
        if live is None or (game_key is not None and live.row.game != game_key):
            raise TableError("no_table")
        return live

    def _forget_if_over(self, live: LiveTable) -> None:
        if live.row.status not in ("lobby", "playing"):
            self._cache.pop(live.id, None)

    # -- lobby ----------------------------------------------------------------------------

    async def open_lobby(self, game_key: str, *, guild_id: int | None, channel_id: int,
                         host_id: int, host_name: str, options: Mapping[str, Any] | None,
                         locale: str, rematch_of: int | None = None,
                         seats: list[tuple[int, str]] | None = None,
                         invited_id: int | None = None) -> LiveTable:
        cls = game_class(game_key)
        try:
            normalized = cls.normalize_options(options)
        except ValueError:
            raise TableError("bad_options") from None
        try:
            row = await self.store.create_table(
                game=game_key, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                host_name=host_name, options=normalized, locale=locale, rematch_of=rematch_of,
                seats=seats, invited_id=invited_id)
        except LobbyExists as exc:
            raise TableError("lobby_exists", table=exc.table_id) from None
        return self._live(row)

    async def set_lobby_message(self, table_id: int, message_id: int) -> None:
        live = await self._require(table_id)
        live.row.lobby_message_id = message_id
        await self.store.update_table(table_id, lobby_message_id=message_id)

    def _require_lobby(self, live: LiveTable) -> None:
        if live.row.status != "lobby":
            raise TableError("not_lobby" if live.row.status == "playing" else "table_closed")

    async def join(self, table_id: int, user_id: int, name: str) -> LiveTable:
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if live.row.seat_of(user_id) is not None:
                raise TableError("already_seated")
            if live.row.invited_id is not None and user_id != live.row.invited_id:
                raise TableError("invite_only", player=f"<@{live.row.invited_id}>")
            if len(live.row.seats) >= live.cls.max_seats:
                raise TableError("table_full", max=live.cls.max_seats)
            seats = [*live.row.seats, SeatRow(len(live.row.seats), user_id, name)]
            await self.store.set_seats(table_id, seats)
            live.row.seats = seats
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
                await self.store.update_table(table_id, status="cancelled")
                live.row.status = "cancelled"
                self._forget_if_over(live)
                return live
            seats = [SeatRow(i, s.user_id, s.name, s.dm_open) for i, s in enumerate(remaining)]
            await self.store.set_seats(table_id, seats)
            live.row.seats = seats
            if live.row.host_id == user_id:
                live.row.host_id = seats[0].user_id
                await self.store.update_table(table_id, host_id=live.row.host_id)
            return live

    async def cancel(self, table_id: int, user_id: int, *, can_manage: bool) -> LiveTable:
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if user_id != live.row.host_id and not can_manage:
                raise TableError("host_only_cancel")
            await self.store.update_table(table_id, status="cancelled")
            live.row.status = "cancelled"
            self._forget_if_over(live)
            return live

    def check_startable(self, live: LiveTable, user_id: int) -> None:
        self._require_lobby(live)
        if user_id != live.row.host_id:
            raise TableError("host_only_start")
        if not live.seat_count_ok():
            raise TableError("seat_count", min=live.cls.min_seats, max=live.cls.max_seats,
                             count=len(live.row.seats))

    async def start(self, table_id: int, user_id: int, thread_id: int | None,
                    seed: int | None = None) -> LiveTable:
        """Deal and start. Call under ``lock(table_id)`` after ``check_startable`` (the caller
        opens the thread in between, so a double click cannot open two)."""
        live = await self._require(table_id)
        self.check_startable(live, user_id)
        seed = secrets.randbits(63) if seed is None else seed
        game = live.cls.new(len(live.row.seats), live.row.options, seed)
        await self.store.start_game(table_id, seed, game.to_json(), thread_id)
        live.row.status, live.row.seed, live.row.version = "playing", seed, 0
        live.row.thread_id = thread_id
        live.game = game
        return live

    async def set_board_message(self, table_id: int, message_id: int) -> None:
        live = await self._require(table_id)
        live.row.board_message_id = message_id
        await self.store.update_table(table_id, board_message_id=message_id)

    async def set_dm_open(self, live: LiveTable, seat: int, is_open: bool) -> bool:
        """Remember whether a player's DMs work; True when that changed."""
        seat_row = live.row.seats[seat]
        if seat_row.dm_open == is_open:
            return False
        seat_row.dm_open = is_open
        await self.store.set_dm_open(live.id, seat, is_open)
        return True

    # -- play -----------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, action: Mapping[str, Any], *,
                  expected_version: int | None = None, game_key: str | None = None) -> Outcome:
        """Validate ``action`` against the stored table, apply it and commit it.

        Raises TableError (not seated, stale, not running) or IllegalAction (the rules said no).
        """
        return await self.act_many(table_id, user_id, [action], expected_version=expected_version,
                                   game_key=game_key)

    async def act_many(self, table_id: int, user_id: int, actions: list[Mapping[str, Any]], *,
                       expected_version: int | None = None,
                       game_key: str | None = None) -> Outcome:
        """Several actions of one seat as one unit: all applied and committed, or none."""
        async with self.lock(table_id):
            live = await self._require(table_id, game_key)
            row = live.row
            if row.status != "playing" or live.game is None:
                raise TableError("not_running" if row.status == "lobby" else "game_over")
            seat = row.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated")
            if expected_version is not None and expected_version != row.version:
                raise TableError("stale")
            game = live.game
            if len(actions) > 1:
                # A later action may be refused after earlier ones changed the state: work on a copy.
                game = live.cls.from_json(game.to_json())
            before = {s: game.private_view(s) for s in range(len(row.seats))}
            applied: list[dict[str, Any]] = []
            events: list[dict[str, Any]] = []
            for action in actions:
                action = dict(action)
                events.extend(game.apply(seat, action))  # raises IllegalAction, state untouched
                applied.append(action)
            result = game.result()
            row.version += len(applied)
            try:
                await self.store.record_actions(
                    row, user_id=user_id, actions=[(seat, a) for a in applied],
                    state=game.to_json(), result=None if result is None else result.to_json(),
                    outcomes=None if result is None else outcomes_for(result, row.seats))
            except BaseException:
                # The in-memory game already moved on; drop it so the stored truth is reloaded.
                self._cache.pop(table_id, None)
                raise
            live.game = game
            if result is not None:
                row.status = "finished"
                self._forget_if_over(live)
            changed = {}
            for s in range(len(row.seats)):
                after = game.private_view(s)
                if after != before[s]:
                    changed[s] = (before[s], after)
            return Outcome(live, seat, applied[-1], events, result, changed)

    async def rebuild(self, table_id: int) -> Game:
        """The game rebuilt from options + seed + action log (proves the log is complete)."""
        row = await self.store.get_table(table_id)
        if row is None or row.seed is None:
            raise TableError("no_table")
        log_rows = await self.store.actions(table_id)
        return game_class(row.game).replay(len(row.seats), row.options, row.seed, log_rows)


__all__ = ["TableService", "TableError", "LiveTable", "Outcome", "IllegalAction", "outcomes_for"]
