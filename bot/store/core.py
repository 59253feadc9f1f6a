"""The store's core: opening one of the two backends (``sqlite`` embedded, ``postgresql``
shared by several processes), the writer that group-commits every write, and the reads and
outbox writes every query shares. ``ShardScope`` says whose tables a process owns.

The queries are mixins over ``StoreCore`` by concern; ``bot/store/store.py`` composes them.
"""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Self

from . import ratings
from .errors import StoreFailure
from .rows import SeatRow, dumps
from .tx import Job, Tx

log = logging.getLogger(__name__)

UNFINISHED = ("lobby", "playing")
#: the bot's own time per turn when a server chose none: a day
DEFAULT_TURN_LIMIT = 86_400.0


@dataclass(frozen=True)
class ShardScope:
    """The shards of ``count`` whose servers' tables this process restores, repairs and
    times (Discord's rule: a server is on shard ``(guild_id >> 22) % count``)."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int | None) -> bool:
        return ((guild_id or 0) >> 22) % self.count in self.ids

    def sql(self, column: str = "guild_id") -> str:
        """A condition true for the rows of this process's servers (direct messages: shard 0)."""
        if self.count <= 1:
            return "1=1"
        ids = ",".join(str(int(i)) for i in self.ids)
        return f"((coalesce({column}, 0) >> 22) % {int(self.count)}) IN ({ids})"


EVERYTHING = ShardScope(1, (0,))


def backend_kind(target: str | Path) -> str:
    """'postgresql' for a ``postgres(ql)://`` URL, else 'sqlite' (a path or ``sqlite:///``)."""
    text = str(target)
    return "postgresql" if text.startswith(("postgresql://", "postgres://")) else "sqlite"


def sqlite_path(target: str | Path) -> Path:
    text = str(target)
    return Path(text[len("sqlite:///"):] if text.startswith("sqlite:///") else text)


class StoreCore:
    """Every write is a job (a coroutine function of a transaction) queued for the writer. The
    writer takes all the jobs waiting at that moment and runs them in one transaction, each
    inside its own savepoint so that one refused job does not undo the others, and commits
    once: many tables committing together share one commit instead of queueing behind each
    other's. Reads see committed data only.

    The queries are mixins over this core, by concern (tables, actions, results, settings);
    ``bot/store/store.py`` composes them into ``Store``.
    """

    def __init__(self, backend: Any, scope: ShardScope = EVERYTHING) -> None:
        self.backend = backend
        #: the servers whose tables this process owns (all of them in one process)
        self.scope = scope
        self._queue: list[tuple[Job, asyncio.Future]] = []
        self._writer: asyncio.Task | None = None
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False
        #: the clock for created/updated times (tests move it by hand)
        self.clock: Callable[[], float] = time.time
        #: rated games a day between the same people (more are played but not rated)
        self.rated_per_day = ratings.RATED_PER_DAY
        self.commits = 0
        self.batches = 0
        #: storage failures by cause (StoreFailure.CAUSES), for the operator's metrics
        self.failures: dict[str, int] = {}
        self._logged: dict[str, float] = {}

    @classmethod
    async def open(cls, target: str | Path, *, synchronous: str = "FULL", pool_size: int = 20,
                   scope: ShardScope = EVERYTHING) -> Self:
        """Open (creating and migrating) the database at ``target``: a SQLite path or
        ``sqlite:///path``, or a ``postgresql://`` URL."""
        if backend_kind(target) == "postgresql":
            from .postgres import PostgresBackend
            backend: Any = await PostgresBackend.open(str(target), pool_size=pool_size)
        else:
            from .sqlite import SqliteBackend
            backend = await SqliteBackend.open(sqlite_path(target), synchronous=synchronous)
        return cls(backend, scope)

    @property
    def kind(self) -> str:
        return self.backend.name

    @property
    def path(self) -> Path | None:
        """The SQLite file (None on PostgreSQL)."""
        return getattr(self.backend, "path", None)

    @property
    def target(self) -> Path | str:
        """What ``Store.open`` opens to reach this same database (another process's view)."""
        return self.path if self.path is not None else self.backend.dsn

    @property
    def broken(self) -> str | None:
        return self.backend.broken

    @property
    def closed(self) -> bool:
        return self._closed

    def connections(self) -> tuple[int, int]:
        """Database connections (in use, at most): PostgreSQL's pool; SQLite's one writer,
        in use while a batch is being written."""
        pool = getattr(self.backend, "pool_usage", None)
        if pool is not None:
            return pool()
        writing = self._writer is not None and not self._writer.done()
        return (1 if writing or self._in_flight else 0), 1

    def check_file(self) -> str | None:
        return self.backend.check()

    async def run_on_writer(self, statement: str) -> None:
        """One statement outside any job (tests, maintenance)."""
        await self.backend.run_on_writer(statement)

    async def close(self) -> None:
        """Close after the last queued write has been committed."""
        if self._closed:
            return
        if self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)
        await self._idle.wait()
        self._closed = True
        await self.backend.close()

    # -- the group commit -------------------------------------------------------------------

    async def write(self, job: Job) -> Any:
        """Run ``job(connection)`` inside a committed transaction; returns what it returned.
        Raises what the job raised (its changes undone), or StoreFailure."""
        if self._closed:
            raise StoreFailure("closed")
        if not self.backend.group_commit:
            return await self._write_alone(job)
        future = asyncio.get_running_loop().create_future()
        self._queue.append((job, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._drain(), name="tabletop-store-writer")
        return await future

    async def _statement(self, sql: str, params: tuple = ()) -> int:
        """A write of one statement: on PostgreSQL sent alone (its own implicit transaction,
        one round trip instead of three); batched like any job on SQLite. Returns the rows
        it changed."""
        async def job(tx: Tx) -> int:
            return await tx.execute(sql, params)

        if self._closed:
            raise StoreFailure("closed")
        if self.backend.group_commit:
            return await self.write(job)
        return await self._write_alone(job, single=True)

    async def _write_alone(self, job: Job, single: bool = False) -> Any:
        """A backend that takes many writers at once (PostgreSQL's pool): each job in its own
        transaction, concurrently with the others, none waiting behind a batch."""
        self._in_flight += 1
        self._idle.clear()
        try:
            value, refusal = await self.backend.run_job(job, single=single)
        finally:
            self._in_flight -= 1
            if not self._in_flight:
                self._idle.set()
        if refusal is not None:
            if self.backend.is_failure(refusal):
                raise self._failure(refusal) from None
            raise refusal
        self.commits += 1
        self.batches += 1
        return value

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            broken = self.check_file()
            if broken:
                self.failures[broken] = self.failures.get(broken, 0) + 1
                self._fail(batch, StoreFailure(broken))
                continue
            try:
                outcomes, failed_at, error = await self.backend.run_batch(
                    [job for job, _ in batch])
            except Exception as exc:  # a driver error no backend foresaw: answer, never hang
                log.exception("database batch failed unexpectedly")
                self._fail(batch, self._failure(exc))
                continue
            if error is not None:
                # The database itself failed: nothing of this batch was saved. The jobs up to
                # the failing one fail with it; the ones after are tried in a new batch.
                self._fail(batch[:failed_at + 1], self._failure(error))
                self._queue[:0] = batch[failed_at + 1:]
                continue
            self.batches += 1
            self.commits += len(batch)
            for (_, future), (value, refusal) in zip(batch, outcomes):
                if future.done():
                    continue
                if refusal is None:
                    future.set_result(value)
                else:
                    future.set_exception(refusal)

    def _failure(self, exc: BaseException) -> StoreFailure:
        cause = self.backend.classify(exc)
        self.failures[cause] = self.failures.get(cause, 0) + 1
        failure = StoreFailure(cause, str(exc))
        now = time.monotonic()
        # One line per cause and minute: a full disk must not flood the log it may share.
        if now - self._logged.get(cause, -1e9) > 60:
            self._logged[cause] = now
            log.error("database write failed: %s. Nothing was saved; players are asked to "
                      "try again. (%s)", StoreFailure.CAUSES.get(cause, cause), exc)
        return failure

    @staticmethod
    def _fail(batch: list[tuple[Job, asyncio.Future]], error: BaseException) -> None:
        for _, future in batch:
            if not future.done():
                future.set_exception(error)

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        if self._closed:
            raise StoreFailure("closed")
        try:
            return await self.backend.fetch(sql, tuple(params))
        except Exception as exc:
            if not self.backend.is_failure(exc):
                raise
            raise self._failure(exc) from None

    # -- shared by the queries --------------------------------------------------------------

    async def _seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._fetchall(
            "SELECT seat, user_id, name, dm_open, ai, ai_played, timed_out, locale FROM seats "
            "WHERE table_id=? ORDER BY seat", (table_id,))
        return [SeatRow(s, u, n, bool(d), ai, bool(p), bool(o), loc)
                for s, u, n, d, ai, p, o, loc in rows]

    async def _queue_outbox(self, tx: Tx, table_id: int,
                            items: Iterable[tuple[str, dict[str, Any]]], now: float) -> None:
        await tx.executemany(
            "INSERT INTO outbox (table_id, kind, payload, created_at) VALUES (?,?,?,?)",
            [(table_id, kind, dumps(payload), now) for kind, payload in items])
