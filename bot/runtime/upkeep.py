"""Periodic upkeep: lobbies that expire, finished games past the retention period, and a
watch on the database file itself. Time comes from an injected clock, so tests move it."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable

from ..config import Settings
from ..store import Store, StoreFailure
from ..domain.tables import TableService
from .background import BackgroundLoop

log = logging.getLogger(__name__)

#: seconds between two rounds: the database file is checked at least this often
INTERVAL = 30.0
DAY = 86_400.0


class Upkeep(BackgroundLoop):
    task_name = "tabletop-upkeep"

    def __init__(self, store: Store, tables: TableService, settings: Settings,
                 on_change: Callable[[int], None],
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.tables = tables
        self.settings = settings
        self.on_change = on_change
        self.clock = clock

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(INTERVAL)
            try:
                await self.run_once()
            except StoreFailure:
                pass  # already logged by the store, once per cause
            except Exception:
                log.exception("upkeep round failed")

    async def run_once(self) -> dict[str, int]:
        """One round; returns what it did (for tests and the log)."""
        done = {"expired": 0, "purged": 0}
        if self.store.check_file():
            return done  # logged loudly by the store; nothing may be written now
        now = self.clock()
        for table_id in await self.store.stale_lobbies(now - self.settings.lobby_ttl_hours * 3600):
            if await self.tables.expire(table_id) is not None:
                done["expired"] += 1
                self.on_change(table_id)
        if self.settings.retention_days is not None:
            done["purged"] = await self.store.purge_closed(now - self.settings.retention_days * DAY)
        if done["expired"] or done["purged"]:
            log.info("upkeep: %d lobbies expired, %d finished games deleted past the retention "
                     "period", done["expired"], done["purged"])
        return done
