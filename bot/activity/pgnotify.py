"""Open boards in every process: with PostgreSQL, each process says on one channel which
table moved to which version (``NOTIFY tabletop_activity, '<table>:<version>:<rev>'``: ids
and counters only, never a secret), and every process listening reloads that table and pushes
it to its own open boards. SQLite has one process, so nothing here runs there.
"""
from __future__ import annotations

import asyncio
import logging
import re
from typing import Callable

import asyncpg

log = logging.getLogger(__name__)

CHANNEL = "tabletop_activity"
_PAYLOAD = re.compile(r"([0-9]{1,19}):([0-9]{1,19}):([0-9]{1,19})")
#: seconds between attempts to listen again after the connection was lost
RECONNECT = (1, 2, 5, 10, 30)


class PgBridge:
    def __init__(self, dsn: str, on_notify: Callable[[int, int, int], None],
                 on_reconnect: Callable[[], None] | None = None) -> None:
        self._dsn = dsn
        self.on_notify = on_notify
        self.on_reconnect = on_reconnect
        self._conn: asyncpg.Connection | None = None
        self._pid: int | None = None
        self._outgoing: asyncio.Queue[str] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._stopping = False
        #: notifications received from other processes, and sent by this one
        self.received = 0
        self.sent = 0

    async def start(self) -> None:
        await self._connect()
        self._sender = asyncio.get_running_loop().create_task(self._send_loop(),
                                                              name="activity-notify")

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self._dsn, server_settings={
            "application_name": "tabletop-activity"})
        await conn.add_listener(CHANNEL, self._got)
        conn.add_termination_listener(self._lost)
        self._conn, self._pid = conn, conn.get_server_pid()

    def _got(self, conn: object, pid: int, channel: str, payload: str) -> None:
        if pid == self._pid:
            return  # this process's own: its boards were told already
        match = _PAYLOAD.fullmatch(payload)
        if match is None:
            return
        self.received += 1
        self.on_notify(*(int(g) for g in match.groups()))

    def _lost(self, conn: object) -> None:
        if not self._stopping:
            log.warning("lost the database connection the Activity listens on; reconnecting")
            asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        for delay in (*RECONNECT, *([RECONNECT[-1]] * 1000)):
            if self._stopping:
                return
            await asyncio.sleep(delay)
            try:
                await self._connect()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("Activity listener: reconnect failed (%s)", type(exc).__name__)
                continue
            if self.on_reconnect is not None:
                self.on_reconnect()  # what was missed meanwhile is pushed again
            return

    def notify(self, table_id: int, version: int, rev: int) -> None:
        self._outgoing.put_nowait(f"{table_id}:{version}:{rev}")

    async def _send_loop(self) -> None:
        while True:
            payload = await self._outgoing.get()
            conn = self._conn
            if conn is None or conn.is_closed():
                continue  # the boards of other processes catch up after the reconnect
            try:
                await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, payload)
                self.sent += 1
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("Activity notify failed (%s)", type(exc).__name__)

    async def stop(self) -> None:
        self._stopping = True
        if self._sender is not None:
            self._sender.cancel()
            await asyncio.gather(self._sender, return_exceptions=True)
        if self._conn is not None and not self._conn.is_closed():
            await self._conn.close()
