"""The shared backend: PostgreSQL through an asyncpg pool, for several bot processes on one
database.

Each write job runs in its own transaction on a pooled connection, concurrently with the others
(PostgreSQL groups concurrent commits' disk flushes itself). Every table write is guarded
by the version it expects, so when two processes race for one table the second finds the row
moved on (PostgreSQL re-reads a row another transaction changed before its guard is checked)
and answers as a stale click.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import re
from typing import Any, Iterable, Sequence

import asyncpg

from . import schema
from .errors import Conflict, StoreError
from .tx import Job

log = logging.getLogger(__name__)

#: the advisory lock two processes starting at once take to migrate one after the other
MIGRATION_LOCK = 0x7461626C65746F70  # "tabletop"
#: a deadlock between two processes' batches aborts one of them: it is run again this often
RETRIES = 3
#: seconds one statement may take before the write is given up (a lock held elsewhere)
STATEMENT_TIMEOUT = 2.0

#: seconds to wait for a free pooled connection before the write is answered as failed
ACQUIRE_TIMEOUT = 2.0

#: what asyncpg raises on a connection the server ended while it sat idle in the pool, before
#: asyncpg saw the socket close: the server's goodbye left its protocol in a state where the
#: next statement is refused before it is sent ("cannot switch to state ...; another operation
#: is in progress"), or the goodbye is the answer to that first statement
DEAD_CONNECTION = (asyncpg.InternalClientError, asyncpg.ConnectionDoesNotExistError,
                   asyncpg.AdminShutdownError, asyncpg.CannotConnectNowError)
#: every error of the connection or the database a job's caller is answered with
FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError,
            asyncio.TimeoutError)

_PLACEHOLDER = re.compile(r"(\bIS )?\?")


@functools.lru_cache(maxsize=512)
def to_postgres(sql: str) -> str:
    """``?`` placeholders numbered ``$1…``; SQLite's null-safe ``IS ?`` spelled out."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return ("IS NOT DISTINCT FROM " if match.group(1) else "") + f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def classify(exc: BaseException) -> str:
    """Which StoreFailure.CAUSES entry an asyncpg (or connection) error is."""
    sqlstate = getattr(exc, "sqlstate", "") or ""
    if sqlstate.startswith("53"):  # insufficient resources: disk full, out of memory
        return "full"
    if sqlstate == "25006":
        return "read_only"
    if sqlstate in ("40P01", "40001", "55P03", "57014"):  # deadlock, serialization, lock, timeout
        return "locked"
    if sqlstate.startswith("58"):
        return "io"
    if sqlstate.startswith("XX"):
        return "damaged"
    if isinstance(exc, asyncpg.InterfaceError) and "pool is clos" in str(exc).lower():
        return "closed"
    if sqlstate.startswith(("08", "57P")) or isinstance(
            exc, (OSError, asyncpg.InterfaceError, asyncpg.InternalClientError,
                  asyncio.TimeoutError)):
        return "unreachable"
    return "other"


def _count(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTx:
    dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn
        #: the job's transaction was opened (BEGIN answered): from here on a failure may
        #: have come after some of the job ran, and the job is not run again
        self.begun = False

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await self._conn.execute(to_postgres(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            await self._conn.executemany(to_postgres(sql), rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        return [tuple(r) for r in await self._conn.fetch(to_postgres(sql), *params)]

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> tuple | None:
        row = await self._conn.fetchrow(to_postgres(sql), *params)
        return None if row is None else tuple(row)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._conn.fetchval(to_postgres(sql), *params)


async def migrate(conn: asyncpg.Connection) -> int:
    """Bring the database to the last migration. The advisory lock makes a second process
    starting at the same moment wait, then find nothing left to do."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(schema.for_postgres(schema.VERSION_TABLE))
        current = await conn.fetchval("SELECT version FROM schema_version WHERE id = 1")
        if current is None:
            current = 0
            await conn.execute("INSERT INTO schema_version (id, version) VALUES (1, 0)")
        if current > len(schema.MIGRATIONS):
            raise schema.SchemaTooNew(current)
        for version in range(current, len(schema.MIGRATIONS)):
            for statement in schema.statements(version):
                await conn.execute(schema.for_postgres(statement))
            await conn.execute("UPDATE schema_version SET version = $1 WHERE id = 1", version + 1)
    return len(schema.MIGRATIONS)


def _redact(url: str) -> str:
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


class PostgresBackend:
    name = "postgresql"
    #: many writers: each job is its own transaction on a pooled connection (PostgreSQL
    #: groups concurrent commits' flushes itself), so no job waits behind another's batch
    group_commit = False
    integrity_errors: tuple[type[BaseException], ...] = (asyncpg.IntegrityConstraintViolationError,)

    def __init__(self, url: str, pool: asyncpg.Pool) -> None:
        self._url = url
        self._pool = pool
        self.broken: str | None = None
        #: batches run again after a deadlock with another process
        self.retried = 0
        #: times a connection was found ended by the server (the pool then renews them all)
        self.reconnects = 0

    @property
    def url(self) -> str:
        """For messages and logs: the password hidden."""
        return _redact(self._url)

    @property
    def dsn(self) -> str:
        return self._url

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 20) -> "PostgresBackend":
        from ..errors import ConfigError
        try:
            # Every connection opened up front and kept: one opened during a burst of clicks
            # costs that click tens of milliseconds.
            pool = await asyncpg.create_pool(
                url, min_size=pool_size, max_size=pool_size, command_timeout=30,
                max_inactive_connection_lifetime=0,
                server_settings={"application_name": "tabletop-bot",
                                 "statement_timeout": str(int(STATEMENT_TIMEOUT * 1000))})
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError,
                asyncio.TimeoutError) as exc:
            raise ConfigError(f"cannot connect to the database {_redact(url)}: {exc}. Check "
                              "DATABASE_URL (host, port, user, password, database name) and "
                              "that the server is running.") from None
        try:
            async with pool.acquire() as conn:
                await migrate(conn)
        except schema.SchemaTooNew as exc:
            await pool.close()
            raise ConfigError(f"the database {_redact(url)} was written by a newer version of "
                              f"the bot ({exc}): update the bot.") from None
        except (asyncpg.PostgresError, OSError) as exc:
            await pool.close()
            raise ConfigError(f"cannot set up the database {_redact(url)}: {exc}") from None
        return cls(url, pool)

    def check(self) -> str | None:
        return self.broken

    classify = staticmethod(classify)

    def is_failure(self, exc: BaseException) -> bool:
        return isinstance(exc, FAILURES)

    async def _found_dead(self, exc: BaseException) -> bool:
        """``exc`` says the connection was ended by the server (a restart, a failover, an
        administrator): the pool's other connections were most likely ended with it, so all
        are replaced as they are next taken (not one failed click each)."""
        if not isinstance(exc, DEAD_CONNECTION):
            return False
        self.reconnects += 1
        await self._pool.expire_connections()
        return True

    async def run_on_writer(self, statement: str) -> None:
        async with self._pool.acquire() as conn:
            await conn.execute(statement)

    async def fetch(self, sql: str, params: Sequence[Any]) -> list[tuple]:
        """A read; one found on a connection the server had ended is read again on a new one."""
        for attempt in range(2):
            try:
                async with self._pool.acquire(timeout=ACQUIRE_TIMEOUT) as conn:
                    return [tuple(r) for r in await conn.fetch(to_postgres(sql), *params)]
            except DEAD_CONNECTION as exc:
                if not await self._found_dead(exc) or attempt:
                    raise
        raise RuntimeError("unreachable")  # pragma: no cover

    async def run_job(self, job: Job, *, single: bool = False) -> tuple[Any, BaseException | None]:
        """``job`` in its own transaction (``single``: a job of one statement, which is a
        transaction by itself): (value, None), or (None, its refusal or the database's
        failure). A deadlock with another process runs it again; so does a job whose
        connection turns out to have been ended by the server before the job's transaction
        was opened (nothing of it ran), on a new connection. A job of one statement is run
        again only when asyncpg refused to send it (InternalClientError)."""
        attempt = 0
        renewed = False
        while True:
            tx: PostgresTx | None = None
            try:
                async with self._pool.acquire(timeout=ACQUIRE_TIMEOUT) as conn:
                    tx = PostgresTx(conn)
                    if single:
                        return await job(tx), None
                    async with conn.transaction():
                        tx.begun = True
                        return await job(tx), None
            except asyncpg.IntegrityConstraintViolationError as exc:
                return None, Conflict(str(exc))
            except (StoreError, KeyError, TypeError) as exc:
                return None, exc
            except FAILURES as exc:
                unsent = tx is None or (not tx.begun if not single
                                        else isinstance(exc, asyncpg.InternalClientError))
                if await self._found_dead(exc) and unsent and not renewed:
                    renewed = True  # once: the pool's connections are all new now
                    continue
                if getattr(exc, "sqlstate", "") not in ("40P01", "40001") or attempt == RETRIES:
                    return None, exc
                attempt += 1
                self.retried += 1

    def pool_usage(self) -> tuple[int, int]:
        """Pooled connections (in use, at most)."""
        pool = self._pool
        return pool.get_size() - pool.get_idle_size(), pool.get_max_size()

    async def close(self) -> None:
        await self._pool.close()
