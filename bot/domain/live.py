"""The live tables: what a table is in memory (``LiveTable``, with its game), what a request
can be refused with (``TableError``), what an accepted move did (``Outcome``), and the cache
of live tables the table service keeps over the store (``TableCache``).
"""
from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from ..games import Game, Result, game_class
from ..store import Store, TableRow
from .regulation import drawn, ruling

#: finished or cancelled tables kept in memory after they close, while their messages catch up
RECENT_CLOSED = 256
#: the level of the AI that takes a seat whose person ran out of time or was voted absent
STAND_IN_LEVEL = "medium"
#: what happens when a turn's time runs out (a cooperative game always uses "ai")
POLICIES = ("ai", "forfeit", "wait")


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
    #: the table's version this action made (``table.row.version`` may have moved on since:
    #: the next seat, an AI, can commit before the mover's handler gets on)
    version: int = -1


def closed_error(status: str) -> TableError:
    """The refusal for a click on a table that is not running, naming what it really is."""
    return TableError({"lobby": "not_running", "finished": "game_over"}.get(status, "table_closed"))


class TableCache:
    """The unfinished tables by id (and the recently closed, while their messages catch up),
    one lock a table, and the listeners told of every committed change."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[int, LiveTable] = {}
        self._recent: OrderedDict[int, LiveTable] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        #: called with a table id after every committed change to a running table or its end
        #: (the AI players watch for their turns this way)
        self.listeners: list[Callable[[int], None]] = []
        #: moves committed since start, by (game, "person" | "ai" | "timeout")
        self.moves: dict[tuple[str, str], int] = {}

    def _changed(self, table_id: int) -> None:
        for listener in self.listeners:
            listener(table_id)

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
        live = self._cache.get(table_id) or self._recent.get(table_id)
        if live is None:
            row = await self.store.get_table(table_id)
            return None if row is None else self._live(row)
        if live.game is None and live.row.status == "playing":
            state = await self.store.game_state(table_id)
            # Another coroutine may have loaded (and moved) the game while this one awaited.
            if live.game is None and state is not None:
                live.game = live.cls.from_json(state)
        return live

    async def with_game(self, table_id: int) -> LiveTable | None:
        """The table with its game, a finished one rebuilt from seed and action log (a finished
        game keeps no state of its own)."""
        live = await self.get(table_id)
        if live is not None and live.game is None and live.row.status == "finished" \
                and live.row.seed is not None:
            log_rows = await self.store.actions(table_id)
            game = live.cls.replay(len(live.row.seats), live.row.options, live.row.seed,
                                   log_rows)
            found = ruling(game) if game.result() is None else None
            # A game the table's regulation ended has no action that ends it: the same ruling,
            # read from the same positions, ends it again.
            live.game = game if found is None else drawn(game, found)[0]
        return live

    def forget_older(self, table_id: int, version: int, rev: int) -> bool:
        """Another process committed ``(version, rev)`` of the table: drop an older copy kept
        here, so that its next use reads the store. True when one was dropped."""
        live = self._cache.get(table_id) or self._recent.get(table_id)
        if live is None or (live.row.version, live.row.rev) >= (version, rev):
            return False
        self._cache.pop(table_id, None)
        self._recent.pop(table_id, None)
        return True

    def threads_seating(self, user_id: int) -> set[int]:
        """The threads of the tables kept here at which ``user_id`` holds a seat."""
        return {live.row.thread_id for live in self._cache.values()
                if live.row.thread_id and user_id in live.row.user_ids}

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
            # Its surfaces are brought up to date right after; keep it at hand for that.
            self._recent[live.id] = live
            while len(self._recent) > RECENT_CLOSED:
                self._recent.popitem(last=False)

    async def set_surface(self, live: LiveTable, **fields: Any) -> None:
        """Record what a Discord surface of the table now shows (message ids, versions)."""
        await self.store.set_surface(live.id, **fields)
        for name, value in fields.items():
            setattr(live.row, name, value)

    async def set_dm_open(self, live: LiveTable, seat: int, is_open: bool) -> bool:
        """Remember whether a player's DMs work; True when that changed."""
        seat_row = live.row.seats[seat]
        if seat_row.dm_open == is_open:
            return False
        seat_row.dm_open = is_open
        await self.store.set_dm_open(live.id, seat, is_open)
        return True

    def _clock_for(self, row: TableRow, seat: int | None) -> tuple[float | None, int | None]:
        """The clock of a turn starting now for ``seat``: none without a time control, at the
        end of the game, or for an AI (it does not walk away)."""
        if row.turn_limit is None or seat is None or row.seats[seat].ai is not None:
            return (None, None)
        return (self.store.clock() + row.turn_limit, seat)

    async def rebuild(self, table_id: int) -> Game:
        """The game rebuilt from options + seed + action log (proves the log is complete)."""
        row = await self.store.get_table(table_id)
        if row is None or row.seed is None:
            raise TableError("no_table")
        log_rows = await self.store.actions(table_id)
        return game_class(row.game).replay(len(row.seats), row.options, row.seed, log_rows)
