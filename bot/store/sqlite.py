"""The embedded backend: one SQLite file (WAL), one writer connection on its own thread, one
reader connection (aiosqlite).

A batch of jobs runs on the writer thread in one transaction and one thread hop. Jobs are
coroutines (the PostgreSQL backend really awaits); here every statement completes at once, so
a job is driven to its end with ``send`` and never needs an event loop on that thread.
"""
from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Coroutine, Iterable, Sequence

import aiosqlite

from . import schema
from .errors import Conflict, StoreError, StoreFailure
from .tx import Job, Outcomes

log = logging.getLogger(__name__)

#: how long a write waits for another program's lock: short enough that the click that asked
#: for it still gets its answer inside Discord's three seconds
BUSY_TIMEOUT_MS = 1500


def classify(exc: BaseException) -> str:
    """Which StoreFailure.CAUSES entry a sqlite3 error is, from its extended code when Python
    gives one."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    if name.startswith("SQLITE_FULL") or "disk is full" in text or "database or disk is full" in text:
        return "full"
    if name.startswith("SQLITE_READONLY") or "readonly" in text or "read-only" in text:
        return "read_only"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return "locked"
    if name.startswith("SQLITE_IOERR") or "i/o error" in text:
        return "io"
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text \
            or "not a database" in text:
        return "damaged"
    if name.startswith("SQLITE_CANTOPEN") or "unable to open" in text:
        return "missing"
    if isinstance(exc, ValueError) and "closed" in text:
        return "closed"
    return "other"


def migrate(db: sqlite3.Connection) -> int:
    """Bring the file to the last migration, one transaction per migration."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(schema.VERSION_TABLE)
        row = db.execute("SELECT version FROM schema_version WHERE id = 1").fetchone()
        if row is None:
            # A file made before the version table: its number is in user_version.
            current = db.execute("PRAGMA user_version").fetchone()[0]
            db.execute("INSERT INTO schema_version (id, version) VALUES (1, ?)", (current,))
        else:
            current = row[0]
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    if current > len(schema.MIGRATIONS):
        raise schema.SchemaTooNew(current)
    for version in range(current, len(schema.MIGRATIONS)):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in schema.statements(version):
                db.execute(statement)
            db.execute("UPDATE schema_version SET version = ? WHERE id = 1", (version + 1,))
            # Kept too: a bot older than the version table reads this one and refuses a newer file.
            db.execute(f"PRAGMA user_version={version + 1}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    return len(schema.MIGRATIONS)


def _connect_writer(path: Path, synchronous: str) -> sqlite3.Connection:
    """On the writer thread: open, check, set up and migrate the database."""
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        verdict = db.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(verdict)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={synchronous}")
        db.execute("PRAGMA foreign_keys=ON")
        migrate(db)
    except BaseException:
        db.close()
        raise
    return db


class _Refused(Exception):
    """A job of a batch run without savepoints was refused; the batch was rolled back."""

    def __init__(self, refusal: BaseException) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


class SqliteTx:
    """The statements a job may run, on the writer connection inside the batch's transaction."""

    dialect = "sqlite"

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""
        return self._db.execute(sql, tuple(params)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._db.executemany(sql, list(rows))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        return self._db.execute(sql, tuple(params)).fetchall()

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> tuple | None:
        return self._db.execute(sql, tuple(params)).fetchone()

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self._db.execute(sql, tuple(params)).fetchone()
        return None if row is None else row[0]


def drive(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a job whose awaits all complete at once (SQLite statements) to its end."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("a store job waited on something other than its own statements")


class SqliteBackend:
    name = "sqlite"
    #: one writer: concurrent jobs are batched into one transaction
    group_commit = True
    #: a driver error that is the job's own refusal (a rule of the schema)
    integrity_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)

    def __init__(self, path: Path, reader: aiosqlite.Connection,
                 writer: sqlite3.Connection, executor: ThreadPoolExecutor) -> None:
        self.path = path
        self._reader = reader
        self._writer_db = writer
        self._executor = executor
        self._identity = self._stat()
        #: a cause from StoreFailure.CAUSES once the file was found deleted or replaced
        self.broken: str | None = None

    @property
    def url(self) -> str:
        return f"sqlite:///{self.path}"

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> "SqliteBackend":
        from ..errors import ConfigError, check_database_path
        path = Path(path)
        check_database_path(path)
        loop = asyncio.get_running_loop()
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabletop-store")
        try:
            writer = await loop.run_in_executor(executor, _connect_writer, path, synchronous)
        except (sqlite3.Error, schema.SchemaTooNew) as exc:
            executor.shutdown(wait=False)
            if isinstance(exc, schema.SchemaTooNew):
                raise ConfigError(f"the database {path} was written by a newer version of the "
                                  f"bot ({exc}): update the bot, or restore a backup.") from None
            if classify(exc) == "locked":
                raise ConfigError(f"the database {path} is locked by another program (another "
                                  "copy of the bot, or a backup or editing tool): stop it and "
                                  "start again.") from None
            if classify(exc) == "damaged" or isinstance(exc, sqlite3.DatabaseError):
                raise ConfigError(f"the database file {path} is damaged or not a SQLite "
                                  f"database ({exc}): restore a backup or move it away to start "
                                  "fresh.") from None
            raise ConfigError(f"cannot open the database {path}: {exc}") from None
        reader = await aiosqlite.connect(str(path), isolation_level=None)
        await reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        return cls(path, reader, writer, executor)

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return st.st_dev, st.st_ino

    def check(self) -> str | None:
        """'missing' or 'replaced' when the file the bot opened is no longer at its path (a
        deleted file keeps working for this process and is gone at the next start)."""
        if self._identity is None:
            return None
        now = self._stat()
        cause = "missing" if now is None else "replaced" if now != self._identity else None
        if cause and self.broken is None:
            self.broken = cause
            log.critical("DATABASE %s: %s. Every write is refused from now on so that nothing "
                         "is acknowledged and then lost; restore the file and restart the bot.",
                         self.path, StoreFailure.CAUSES[cause].upper())
        return self.broken

    classify = staticmethod(classify)

    def is_failure(self, exc: BaseException) -> bool:
        return isinstance(exc, (sqlite3.Error, ValueError))

    async def run_on_writer(self, statement: str) -> None:
        """One statement on the writer connection, outside any job (tests, maintenance)."""
        await asyncio.get_running_loop().run_in_executor(
            self._executor, self._writer_db.execute, statement)

    async def fetch(self, sql: str, params: Sequence[Any]) -> list[tuple]:
        # In one hop of the reader's thread: a query left half-read between two hops keeps the
        # connection's read transaction, and its old snapshot, open for the next query, which
        # then missed a write committed just before it (a tournament just created, not found).
        return list(await self._reader.execute_fetchall(sql, tuple(params)))

    async def run_batch(self, jobs: list[Job]) -> Outcomes:
        return await asyncio.get_running_loop().run_in_executor(
            self._executor, self._run_batch, jobs)

    def _run_batch(self, jobs: list[Job]) -> Outcomes:
        """On the writer thread: all ``jobs`` in one transaction. Returns each job's value or
        refusal, or (index, error) when the database itself failed.

        A job is rarely refused (a stale click), so a batch first runs without a savepoint per
        job: each statement costs this thread the interpreter lock again, which it waits for
        while the event loop is busy answering the rest of a burst. Only when a job is refused
        is the batch undone and run again with savepoints, so that the refusal undoes that job
        alone and the others stand."""
        try:
            return self._run_jobs(jobs, savepoints=False)
        except _Refused as refused:
            if len(jobs) == 1:
                return [(None, refused.refusal)], -1, None
            return self._run_jobs(jobs, savepoints=True)

    def _run_jobs(self, jobs: list[Job], *, savepoints: bool) -> Outcomes:
        db = self._writer_db
        tx = SqliteTx(db)
        outcomes: list[tuple[Any, BaseException | None]] = []
        index = -1
        try:
            db.execute("BEGIN IMMEDIATE")
            for index, job in enumerate(jobs):
                if savepoints:
                    db.execute("SAVEPOINT job")
                try:
                    value = drive(job(tx))
                except (sqlite3.IntegrityError, StoreError, KeyError, TypeError) as exc:
                    # The job's own refusal (a rule of the schema, a stale version) or its own
                    # bug.
                    if isinstance(exc, sqlite3.IntegrityError):
                        exc = Conflict(str(exc))
                    if not savepoints:
                        db.execute("ROLLBACK")
                        raise _Refused(exc) from None
                    db.execute("ROLLBACK TO job")
                    db.execute("RELEASE job")
                    outcomes.append((None, exc))
                    continue
                if savepoints:
                    db.execute("RELEASE job")
                outcomes.append((value, None))
            db.execute("COMMIT")
        except (sqlite3.Error, ValueError) as exc:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite already rolled back (full disk, I/O error)
            # Failed at BEGIN (index -1): every job of the batch fails with it.
            return [], index if index >= 0 else len(jobs) - 1, exc
        return outcomes, -1, None

    async def close(self) -> None:
        await self._reader.close()
        await asyncio.get_running_loop().run_in_executor(self._executor, self._writer_db.close)
        self._executor.shutdown(wait=True)
