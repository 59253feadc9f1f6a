"""The tournaments' scheduler: one loop a process over the stored ``next_at`` of every
tournament (check-in opening, start time, a round's set time, a round that just ended).

The store is the truth: a round's end sets its tournament due in the transaction of the last
table's end, so a stop anywhere loses nothing; at start-up the loop simply finds what is due.
A table's end wakes the loop at once (the tables' listeners); otherwise it looks at least every
``MAX_SLEEP`` seconds. The clock is the store's (injected): tests move it and call
``run_due``. Several processes may run it: a round is written once (see the store).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Callable

from ..domain.tournaments import TournamentService
from ..store import StoreFailure

log = logging.getLogger(__name__)

#: the loop looks at the store at least this often (another process's changes, a moved clock)
MAX_SLEEP = 30.0


class TournamentClock:
    def __init__(self, service: TournamentService, *, on_table: Callable[[int], None],
                 on_tournament: Callable[[int], None]) -> None:
        self.service = service
        self.store = service.store
        self.on_table = on_table
        self.on_tournament = on_tournament
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._swept = float("-inf")
        #: what the loop did since start (for the log and the bench)
        self.done: dict[str, int] = {}
        service.tables.listeners.append(self._on_table_change)

    def _on_table_change(self, table_id: int) -> None:
        live = self.service.tables._recent.get(table_id)
        if live is not None and live.row.status == "finished":
            self._wake.set()  # perhaps a round's last game

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop(),
                                                                name="tabletop-tournaments")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def run_due(self) -> int:
        """Every step due by now; returns how many tournaments were advanced."""
        count = 0
        for _ in range(10):  # a step may make another due at once (an empty round)
            due = await self.store.due_tournaments(self.store.clock())
            if not due:
                break
            for tournament_id in due:
                try:
                    what, tables = await self.service.advance(tournament_id)
                except StoreFailure:
                    raise
                except Exception:
                    log.exception("tournament %s: step failed", tournament_id)
                    continue
                self.done[what] = self.done.get(what, 0) + 1
                if what not in ("nothing", "raced"):
                    count += 1
                    log.info("tournament %s: %s (%d tables)", tournament_id, what, len(tables))
                for table_id in tables:
                    self.on_table(table_id)
                self.on_tournament(tournament_id)
        return count

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                if self.store.clock() - self._swept >= MAX_SLEEP:
                    self._swept = self.store.clock()
                    if await self.store.wake_stalled_tournaments():
                        log.warning("tournaments: a round's end was found late; going on")
                await self.run_due()
                nxt = await self.store.next_tournament_due()
            except StoreFailure:
                nxt = None  # logged by the store; try again next round
            except Exception:
                log.exception("tournament scheduler round failed")
                nxt = None
            delay = MAX_SLEEP
            if nxt is not None:
                delay = min(MAX_SLEEP, max(0.05, nxt - self.store.clock()))
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except asyncio.TimeoutError:
                pass
