"""One scheduler for every turn clock of the process: reminders at half time and near the end,
and the timeout itself.

The store is the truth (each running table keeps its deadline, the seat it is for and how many
reminders went out); this keeps a heap of the moments something is due, fed at start-up from
the store and afterwards by every change to a table. An entry whose turn ended meanwhile is
simply found stale when it comes up: nothing is cancelled, nothing sleeps per table. The clock
is the store's (injected), so tests move time and call ``run_due``.
"""
from __future__ import annotations

import asyncio
import heapq
import logging
from typing import Any, Awaitable, Callable

from ..store import StoreFailure
from ..domain.tables import TableService

log = logging.getLogger(__name__)

#: reminders: the fraction of the turn's time gone when each is sent
REMINDERS = ((1, 0.5), (2, 0.9))
TIMEOUT = 3
#: the loop looks at the heap at least this often (a clock moved by hand is noticed)
MAX_SLEEP = 30.0
#: a step that failed on a storage fault is tried again after this long
RETRY = 15.0
#: due entries handled together at most
BATCH = 200
#: seconds between two heartbeats (a restart gives back the time since the last one)
BEAT = 20.0


class TurnClock:
    def __init__(self, tables: TableService, *, on_change: Callable[[int], None]) -> None:
        self.tables = tables
        self.store = tables.store
        self.on_change = on_change
        self._heap: list[tuple[float, int, int, float]] = []
        #: each table's running deadline, as scheduled: entries for any other are stale
        self._scheduled: dict[int, float] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._last_beat = float("-inf")
        #: seconds given back at the last start-up (time the bot was down)
        self.downtime = 0.0
        #: reminders sent and timeouts applied since start
        self.fired = {"reminders": 0, "timeouts": 0}
        tables.listeners.append(self._on_change)

    @property
    def pending(self) -> int:
        """Entries still to come up (stale ones included until dropped)."""
        return len(self._heap)

    async def load(self, restoring: Awaitable[Any] | None = None) -> int:
        """Give back the downtime, then schedule every running clock; returns how many.

        ``restoring`` (the tables' restore) runs alongside the give-back, which rewrites every
        running deadline: the two together take the time of the longer. The restored rows may
        have been read before or after it, so their deadlines are then set from the store."""
        if restoring is None:
            self.downtime = await self.store.give_back_downtime()
        else:
            _, self.downtime = await asyncio.gather(restoring, self.store.give_back_downtime())
        if self.downtime > 60:
            log.info("turn clocks: %.0f s of downtime given back to every running turn",
                     self.downtime)
        rows = await self.store.deadlines()
        entries = []
        for table_id, deadline, limit, reminded, _seat in rows:
            entries.extend(self._entries(table_id, deadline, limit, reminded))
            self._scheduled[table_id] = deadline
            live = self.tables._cache.get(table_id)
            if live is not None:
                live.row.deadline = deadline
        self._heap = entries
        heapq.heapify(self._heap)
        return len(rows)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop(),
                                                                name="tabletop-turn-clock")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    @staticmethod
    def _entries(table_id: int, deadline: float, limit: float | None,
                 reminded: int) -> list[tuple[float, int, int, float]]:
        out = []
        if limit:
            out += [(deadline - limit * (1 - share), table_id, stage, deadline)
                    for stage, share in REMINDERS if reminded < stage]
        out.append((deadline, table_id, TIMEOUT, deadline))
        return out

    def _on_change(self, table_id: int) -> None:
        # Called on every commit: only a new deadline schedules anything.
        live = self.tables._cache.get(table_id)
        deadline = None if live is None else live.row.deadline
        if deadline == self._scheduled.get(table_id):
            return
        if deadline is None:
            del self._scheduled[table_id]  # its entries are stale now
        else:
            self._scheduled[table_id] = deadline
            for entry in self._entries(table_id, deadline, live.row.turn_limit, live.row.reminded):
                heapq.heappush(self._heap, entry)
            self._wake.set()
        if len(self._heap) > 4 * len(self._scheduled) * len(REMINDERS) + 1024:
            # Turns end long before their deadlines: drop the entries of ended turns at once
            # rather than keep them until they come up.
            self._heap = [e for e in self._heap if self._scheduled.get(e[1]) == e[3]]
            heapq.heapify(self._heap)

    async def run_due(self) -> int:
        """Do everything due by now; returns how many entries were looked at. Entries of
        different tables run together (their writes share group commits); a table's own
        entries keep their order."""
        now = self.store.clock()
        seen = 0
        while self._heap and self._heap[0][0] <= now:
            batch: list[tuple[float, int, int, float]] = []
            tables: set[int] = set()
            while self._heap and self._heap[0][0] <= now and len(batch) < BATCH:
                if self._scheduled.get(self._heap[0][1]) != self._heap[0][3]:
                    heapq.heappop(self._heap)  # a turn that has ended since
                    continue
                if self._heap[0][1] in tables:
                    break  # the same table again: after this batch
                entry = heapq.heappop(self._heap)
                batch.append(entry)
                tables.add(entry[1])
            seen += len(batch)
            results = await asyncio.gather(*(self._fire(t, k, d) for _, t, k, d in batch),
                                           return_exceptions=True)
            failed = False
            for (_, table_id, kind, deadline), result in zip(batch, results):
                if isinstance(result, StoreFailure):
                    failed = True
                    heapq.heappush(self._heap, (now + RETRY, table_id, kind, deadline))
                elif isinstance(result, BaseException):
                    log.error("table %s: turn clock step failed", table_id, exc_info=result)
            if failed:
                log.warning("turn clock steps postponed by a storage fault")
                break
        return seen

    async def _fire(self, table_id: int, kind: int, deadline: float) -> None:
        if kind == TIMEOUT:
            policy = await self.tables.time_out(table_id, deadline)
            if policy is not None:
                self.fired["timeouts"] += 1
                log.info("table %s: turn timed out (%s)", table_id, policy)
                self.on_change(table_id)
            return
        live = await self.tables.get(table_id)
        if live is None or live.row.deadline != deadline or live.row.deadline_seat is None:
            return
        seat = live.row.seats[live.row.deadline_seat]
        dm = seat.person and await self.store.dm_reminders(seat.user_id)
        if await self.tables.remind(table_id, deadline, kind, dm):
            self.fired["reminders"] += 1
            self.on_change(table_id)

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_due()
                if self.store.clock() - self._last_beat >= BEAT:
                    await self.store.beat()
                    self._last_beat = self.store.clock()
            except StoreFailure:
                pass  # logged by the store; try again next round
            except Exception:
                log.exception("turn clock round failed")
            delay = MAX_SLEEP
            if self._heap:
                delay = min(MAX_SLEEP, max(0.05, self._heap[0][0] - self.store.clock()))
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except asyncio.TimeoutError:
                pass
