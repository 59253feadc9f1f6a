"""Brings every Discord surface of a table up to the stored truth, in the background.

The store is the truth; the lobby message, the board message, the log lines, the private
messages are projections of it. A committed change marks its table here; a few workers then
deliver the table's outbox and re-render what is behind. The same repair runs at start-up for
every table left behind, and on demand when a click comes from a surface that is behind.
A failure leaves the table marked and is tried again later: nothing can leave a table stuck.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable, Protocol

import aiohttp
import discord

from ..store import StoreFailure
from ..runtime.thinkpool import ThinkFailed, ThinkTimeout

log = logging.getLogger(__name__)

#: board edits and posts under way at once: each waits on Discord (and on the budget), so a
#: few more than the budget needs per round trip
WORKERS = 16
#: longest a background repair waits for the clicks under way to be answered first
YIELD_TO_CLICKS = 0.5
#: clicks under way that make a burst: below it a repair goes ahead (steady traffic always has
#: a click or two under way, and the board must not wait half a second behind each)
BURST = 8
#: seconds before a table whose repair failed is tried again, growing with each failure
RETRY_DELAYS = (2, 10, 30, 120, 600)


class SurfaceBlocked(Exception):
    """Discord refused the bot in the table's channel (a permission is missing): retrying at
    once is pointless, players are told when they click."""

    def __init__(self, table_id: int, missing: list[str]) -> None:
        super().__init__(f"table {table_id}: missing permissions {missing}")
        self.missing = missing


class TableRepair(Protocol):
    async def sync_table(self, table_id: int) -> bool:
        """Bring one table's messages up to date; True if anything was behind."""
        ...


class Repairs(Protocol):
    """What the reconciler needs of the bot: the router, which hands a table's repair to its
    game's cog; and, read with getattr (a stand-in may lack them), how busy the clicks are."""
    router: TableRepair
    #: set while no interaction is being answered
    clicks_settled: asyncio.Event
    in_flight_count: int


class Reconciler:
    def __init__(self, bot: Repairs) -> None:
        self.bot = bot
        self._pending: dict[int, None] = {}   # an ordered set: first marked, first repaired
        self._active: set[int] = set()
        self._locks: dict[int, asyncio.Lock] = {}
        self._failures: dict[int, int] = {}
        self._retries: dict[int, asyncio.TimerHandle] = {}
        #: table id -> the permissions Discord refused last time (cleared by a success)
        self.blocked: dict[int, list[str]] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._workers: list[asyncio.Task] = []
        self._stopping = False
        #: table id -> when it was first marked and not yet brought up to date (waiting,
        #: under repair, or waiting to be tried again)
        self.behind_since: dict[int, float] = {}
        #: told how many seconds each table's messages were behind once they are up to date
        #: (the operator's metrics)
        self.on_caught_up: Callable[[float], None] | None = None

    # -- control --------------------------------------------------------------------------

    def start(self) -> None:
        if not self._workers:
            self._workers = [asyncio.create_task(self._work(), name=f"tabletop-reconcile-{i}")
                             for i in range(WORKERS)]

    def mark(self, table_id: int) -> None:
        """The table changed in the store: bring its surfaces up to date soon."""
        if self._stopping:
            return
        self._pending[table_id] = None
        if table_id not in self.behind_since:
            self.behind_since[table_id] = time.monotonic()
        self._idle.clear()
        self._wake.set()
        self.start()

    def mark_all(self, table_ids: list[int]) -> None:
        for table_id in table_ids:
            self.mark(table_id)

    @property
    def idle(self) -> bool:
        return not self._pending and not self._active

    async def wait_idle(self) -> None:
        while not self.idle:
            self._idle.clear()
            await self._idle.wait()

    async def stop(self, timeout: float = 3.0) -> None:
        """Let the repairs under way finish (briefly), then stop; pending ones resume at the
        next start from the store."""
        self._stopping = True
        for handle in self._retries.values():
            handle.cancel()
        self._pending.clear()
        self.behind_since.clear()
        if self._active:
            try:
                await asyncio.wait_for(self._until_no_active(), timeout)
            except asyncio.TimeoutError:
                log.warning("shutdown: %d table repairs cut short; they resume at the next "
                            "start", len(self._active))
        for task in self._workers:
            task.cancel()
        await asyncio.gather(*self._workers, return_exceptions=True)
        self._workers = []

    async def _until_no_active(self) -> None:
        while self._active:
            await asyncio.sleep(0.05)

    # -- repairing --------------------------------------------------------------------------

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def sync(self, table_id: int) -> bool:
        """Repair one table now (raises what the repair raised); True if anything was behind."""
        self._pending.pop(table_id, None)
        self._active.add(table_id)
        try:
            async with self.lock(table_id):
                repaired = await self.bot.router.sync_table(table_id)
            self._failures.pop(table_id, None)
            self.blocked.pop(table_id, None)
            # marked again while it was repaired: still behind, since the first mark
            since = None if table_id in self._pending else self.behind_since.pop(table_id, None)
            if since is not None and self.on_caught_up is not None:
                self.on_caught_up(time.monotonic() - since)
            if repaired:
                log.debug("table %s: messages brought up to date", table_id)
            return repaired
        finally:
            self._active.discard(table_id)
            if self.idle:
                self._idle.set()

    async def _work(self) -> None:
        while True:
            table_id = next((t for t in self._pending if t not in self._active), None)
            if table_id is None:
                if self.idle:
                    self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            await self._after_clicks()
            if table_id not in self._pending or table_id in self._active:
                continue  # repaired meanwhile, on demand
            try:
                await self.sync(table_id)
            except asyncio.CancelledError:
                raise
            except SurfaceBlocked as exc:
                self.blocked[table_id] = exc.missing
                log.warning("table %s: Discord refused the bot in its channel (missing %s); "
                            "will try again later", table_id, ", ".join(exc.missing) or "access")
                self._retry_later(table_id, long=True)
            except (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError,
                    OSError, StoreFailure, ThinkFailed, ThinkTimeout) as exc:
                log.warning("table %s: could not bring its messages up to date (%s); will try "
                            "again", table_id, type(exc).__name__)
                self._retry_later(table_id)
            except Exception:
                log.exception("table %s: unexpected error while repairing its messages", table_id)
                self._retry_later(table_id, long=True)
            if self._pending:
                self._wake.set()

    async def _after_clicks(self) -> None:
        # A burst of clicks is answered before the boards are redrawn: a player waits for the
        # answer to a click, a board a fraction of a second late goes unnoticed. The wait is
        # capped so that steady traffic cannot starve the boards.
        settled = getattr(self.bot, "clicks_settled", None)
        if settled is not None and not settled.is_set() \
                and getattr(self.bot, "in_flight_count", BURST) >= BURST:
            try:
                await asyncio.wait_for(settled.wait(), YIELD_TO_CLICKS)
            except asyncio.TimeoutError:
                pass

    def _retry_later(self, table_id: int, *, long: bool = False) -> None:
        if self._stopping:
            return
        count = self._failures.get(table_id, 0) + 1
        self._failures[table_id] = count
        delay = RETRY_DELAYS[-1 if long else min(count, len(RETRY_DELAYS)) - 1]
        old = self._retries.pop(table_id, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._retries[table_id] = loop.call_later(delay, self._retry_due, table_id)

    def _retry_due(self, table_id: int) -> None:
        self._retries.pop(table_id, None)
        self.mark(table_id)
