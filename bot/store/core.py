"""The store: tables, seats, game state, action log, results, ratings, outbox — one interface
over two backends (``sqlite`` embedded, ``postgresql`` shared by several processes).

Everything a click changes is written in one transaction and committed before the click is
answered, so a crash never loses an acknowledged move. The messages that announce a change
(log line, direct messages, the end of a game) are queued in the outbox by that same
transaction, so a stop between the commit and Discord can delay them but never lose them.
"""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from ..domain import ratings
from .errors import LobbyExists, StaleWrite, StoreFailure
from .reviews import ReviewQueries
from .rows import (SeatRow, TableRow, TABLE_COLUMNS, dumps, loads, pack_log, row_to_table,
                   unpack_log)
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


class Store(ReviewQueries):
    """Every write is a job (a coroutine function of a transaction) queued for the writer. The
    writer takes all the jobs waiting at that moment and runs them in one transaction, each
    inside its own savepoint so that one refused job does not undo the others, and commits
    once: many tables committing together share one commit instead of queueing behind each
    other's. Reads see committed data only.
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
        self._logged: dict[str, float] = {}

    @classmethod
    async def open(cls, target: str | Path, *, synchronous: str = "FULL", pool_size: int = 20,
                   scope: ShardScope = EVERYTHING) -> "Store":
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

    # -- tables ---------------------------------------------------------------------------

    async def create_table(self, *, game: str, guild_id: int | None, channel_id: int,
                           host_id: int, host_name: str, options: dict[str, Any], locale: str,
                           rematch_of: int | None = None,
                           seats: list[SeatRow] | None = None,
                           invited_id: int | None = None, turn_limit: float | None = None,
                           timeout_policy: str = "ai") -> TableRow:
        """A new lobby; raises LobbyExists when the channel already has one."""
        now = self.clock()
        seat_list = [SeatRow(i, s.user_id, s.name, ai=s.ai, locale=s.locale)
                     for i, s in enumerate(seats or [SeatRow(0, host_id, host_name)])]

        async def job(tx: Tx) -> int:
            row = await tx.fetchrow("SELECT id FROM game_tables WHERE channel_id=? "
                                    "AND status='lobby'", (channel_id,))
            if row:
                raise LobbyExists(row[0])
            table_id = await tx.fetchval(
                "INSERT INTO game_tables (game, guild_id, channel_id, host_id, status, options, "
                "locale, rematch_of, invited_id, created_at, updated_at, rev, lobby_rev, "
                "board_version, turn_limit, timeout_policy) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,1,0,-1,?,?) RETURNING id",
                (game, guild_id, channel_id, host_id, "lobby", dumps(options), locale,
                 rematch_of, invited_id, now, now, turn_limit, timeout_policy))
            await tx.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, ai, locale) "
                "VALUES (?,?,?,?,?,?)",
                [(table_id, s.seat, s.user_id, s.name, s.ai, s.locale) for s in seat_list])
            return table_id

        table_id = await self.write(job)
        table = TableRow(id=table_id, game=game, guild_id=guild_id, channel_id=channel_id,
                         host_id=host_id, status="lobby", options=dict(options), locale=locale,
                         rematch_of=rematch_of, invited_id=invited_id, rev=1, lobby_rev=0,
                         board_version=-1, updated_at=now, turn_limit=turn_limit,
                         timeout_policy=timeout_policy)
        table.seats = seat_list
        return table

    async def get_table(self, table_id: int) -> TableRow | None:
        rows = await self._fetchall(f"SELECT {TABLE_COLUMNS} FROM game_tables WHERE id=?",
                                    (table_id,))
        if not rows:
            return None
        table = row_to_table(rows[0])
        table.seats = await self._seats(table_id)
        return table

    async def lobby_in_channel(self, channel_id: int) -> int | None:
        rows = await self._fetchall(
            "SELECT id FROM game_tables WHERE channel_id=? AND status='lobby'", (channel_id,))
        return rows[0][0] if rows else None

    async def _seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._fetchall(
            "SELECT seat, user_id, name, dm_open, ai, ai_played, timed_out, locale FROM seats "
            "WHERE table_id=? ORDER BY seat", (table_id,))
        return [SeatRow(s, u, n, bool(d), ai, bool(p), bool(o), loc)
                for s, u, n, d, ai, p, o, loc in rows]

    async def unfinished_tables(self) -> list[TableRow]:
        """Every lobby and running game with its seats, without game states (those are loaded
        on first use): what a restart must bring back before it can route clicks."""
        columns = TABLE_COLUMNS.replace(" state,", " NULL,")
        rows = await self._fetchall(
            f"SELECT {columns} FROM game_tables WHERE status IN ('lobby','playing') "
            f"AND {self.scope.sql()} ORDER BY id")
        tables = {r[0]: row_to_table(r) for r in rows}
        seat_rows = await self._fetchall(
            "SELECT s.table_id, s.seat, s.user_id, s.name, s.dm_open, s.ai, s.ai_played, "
            "s.timed_out, s.locale FROM seats s JOIN game_tables t ON t.id = s.table_id "
            f"WHERE t.status IN ('lobby','playing') AND {self.scope.sql('t.guild_id')} "
            "ORDER BY s.table_id, s.seat")
        for table_id, seat, user_id, name, dm_open, ai, played, out, loc in seat_rows:
            tables[table_id].seats.append(SeatRow(seat, user_id, name, bool(dm_open), ai,
                                                  bool(played), bool(out), loc))
        return list(tables.values())

    async def tables_behind(self) -> list[int]:
        """Tables with a Discord surface behind the stored truth or messages still to post."""
        mine = self.scope.sql()
        rows = await self._fetchall(
            f"SELECT id FROM game_tables WHERE (board_version < version OR lobby_rev < rev) "
            f"AND {mine} "
            f"UNION SELECT o.table_id FROM outbox o JOIN game_tables t ON t.id = o.table_id "
            f"WHERE {self.scope.sql('t.guild_id')} "
            f"UNION SELECT id FROM game_tables WHERE status = 'playing' "
            f"AND board_message_id IS NULL AND {mine}")
        return sorted(r[0] for r in rows)

    async def game_state(self, table_id: int) -> dict[str, Any] | None:
        rows = await self._fetchall("SELECT state FROM game_tables WHERE id=?", (table_id,))
        return loads(rows[0][0]) if rows and rows[0][0] else None

    async def playing_in(self, game: str, channel_id: int, user_id: int) -> list[int]:
        """Running tables of ``game`` played in ``channel_id`` (thread or channel) by the user."""
        rows = await self._fetchall(
            "SELECT t.id FROM game_tables t JOIN seats s ON s.table_id = t.id "
            "WHERE t.game=? AND t.status='playing' AND coalesce(t.thread_id, t.channel_id)=? "
            "AND s.user_id=? ORDER BY t.id", (game, channel_id, user_id))
        return [r[0] for r in rows]

    async def running_in(self, game: str, channel_id: int) -> list[int]:
        """Running tables of ``game`` whose thread (or channel, without one) is ``channel_id``."""
        rows = await self._fetchall(
            "SELECT id FROM game_tables WHERE game=? AND status='playing' "
            "AND coalesce(thread_id, channel_id)=? ORDER BY id", (game, channel_id))
        return [r[0] for r in rows]

    async def set_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        async def job(tx: Tx) -> None:
            await tx.execute("DELETE FROM seats WHERE table_id=?", (table_id,))
            await tx.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, dm_open, ai, ai_played, locale) "
                "VALUES (?,?,?,?,?,?,?,?)",
                [(table_id, s.seat, s.user_id, s.name, int(s.dm_open), s.ai, int(s.ai_played),
                  s.locale) for s in seats])
            await tx.execute("UPDATE game_tables SET rev=rev+1, updated_at=? WHERE id=?",
                             (self.clock(), table_id))

        await self.write(job)

    async def update_table(self, table_id: int, **fields: Any) -> None:
        """Change lobby-level fields; a status or host change is something the lobby shows."""
        allowed = {"status", "host_id", "closed_reason", "turn_limit", "timeout_policy"}
        if not fields or set(fields) - allowed:
            raise ValueError(f"cannot update {sorted(set(fields) - allowed)}")
        assignments = ", ".join(f"{k}=?" for k in fields)

        await self._statement(f"UPDATE game_tables SET {assignments}, rev=rev+1, updated_at=? "
                              "WHERE id=?", (*fields.values(), self.clock(), table_id))

    async def set_surface(self, table_id: int, **fields: Any) -> None:
        """Record what a Discord surface now shows (message ids, thread, shown versions). Not
        a change of the table: its ``updated_at`` stays the time of the last real change."""
        allowed = {"thread_id", "lobby_message_id", "board_message_id", "lobby_rev",
                   "board_version"}
        if not fields or set(fields) - allowed:
            raise ValueError(f"cannot set {sorted(set(fields) - allowed)}")
        assignments = ", ".join(f"{k}=?" for k in fields)

        await self._statement(f"UPDATE game_tables SET {assignments} WHERE id=?",
                              (*fields.values(), table_id))

    async def set_seat_ai(self, table_id: int, seat: int, ai: str | None,
                          outbox: list[tuple[str, dict[str, Any]]] = (), *,
                          clock: tuple[float | None, int | None] | None = None,
                          timed_out: bool = False,
                          expect: tuple[int, float | None] | None = None) -> bool:
        """Hand a seat to an AI of level ``ai``, or back to its person (None), with the notice
        that tells the table and the turn's new ``clock``, in one transaction. ``expect``
        (version, deadline): only if the table is still exactly there (a timeout that races a
        last-second move or another process); False when it was not."""
        now = self.clock()

        async def job(tx: Tx) -> bool:
            if expect is not None:
                changed = await tx.execute(
                    "UPDATE game_tables SET rev=rev+1, updated_at=? WHERE id=? AND version=? "
                    "AND deadline IS ? AND status='playing'", (now, table_id, *expect))
            else:
                changed = await tx.execute("UPDATE game_tables SET rev=rev+1, updated_at=? WHERE id=?",
                                 (now, table_id))
            if changed != 1:
                return False
            await tx.execute("UPDATE seats SET ai=?, timed_out=CASE WHEN ?=1 THEN 1 ELSE timed_out END "
                       "WHERE table_id=? AND seat=?", (ai, int(timed_out), table_id, seat))
            if clock is not None:
                await tx.execute("UPDATE game_tables SET deadline=?, deadline_seat=?, reminded=0 "
                           "WHERE id=?", (*clock, table_id))
            await tx.execute("DELETE FROM seat_votes WHERE table_id=?", (table_id,))
            await self._queue_outbox(tx, table_id, outbox, now)
            return True

        return await self.write(job)

    # -- turn clocks ------------------------------------------------------------------------

    async def deadlines(self) -> list[tuple[int, float, float | None, int, int | None]]:
        """(table, deadline, turn limit, reminders sent, seat) of every running clock."""
        return [tuple(r) for r in await self._fetchall(  # type: ignore[misc]
            "SELECT id, deadline, turn_limit, reminded, deadline_seat FROM game_tables "
            f"WHERE deadline IS NOT NULL AND status='playing' AND {self.scope.sql()}")]

    async def set_clock(self, table_id: int, clock: tuple[float | None, int | None],
                        outbox: list[tuple[str, dict[str, Any]]] = ()) -> None:
        now = self.clock()

        async def job(tx: Tx) -> None:
            await tx.execute("UPDATE game_tables SET deadline=?, deadline_seat=?, reminded=0, "
                       "rev=rev+1 WHERE id=?", (*clock, table_id))
            await self._queue_outbox(tx, table_id, outbox, now)

        await self.write(job)

    async def mark_reminded(self, table_id: int, deadline: float, stage: int,
                            outbox: list[tuple[str, dict[str, Any]]]) -> bool:
        """Record that reminder ``stage`` of the turn ending at ``deadline`` went out (with its
        messages), once: False when it already had, or the turn is over."""
        now = self.clock()

        async def job(tx: Tx) -> bool:
            changed = await tx.execute("UPDATE game_tables SET reminded=? WHERE id=? AND deadline=? "
                             "AND reminded<? AND status='playing'",
                             (stage, table_id, deadline, stage))
            if changed != 1:
                return False
            await self._queue_outbox(tx, table_id, outbox, now)
            return True

        return await self.write(job)

    async def beat(self) -> None:
        """This process is up now (a restart gives back the time since its last beat)."""
        now = self.clock()

        async def job(tx: Tx) -> None:
            await self._beat(tx, now)

        await self.write(job)

    async def _beat(self, tx: Tx, now: float) -> None:
        await tx.executemany("INSERT INTO shard_heartbeat (shard, at) VALUES (?, ?) "
                             "ON CONFLICT (shard) DO UPDATE SET at=excluded.at",
                             [(shard, now) for shard in self.scope.ids])

    async def give_back_downtime(self) -> float:
        """At start-up: push this process's running deadlines back by the time since its last
        heartbeat (it was down: nobody could play its tables), then beat. Returns the most
        seconds given back. A shard that never beat (a new shard count) takes the latest beat
        of any shard, or the single heartbeat of a database from before shards."""
        now = self.clock()

        async def job(tx: Tx) -> float:
            beats = dict(await tx.fetch("SELECT shard, at FROM shard_heartbeat"))
            legacy = await tx.fetchval("SELECT at FROM heartbeat WHERE id=1")
            fallback = max(beats.values(), default=legacy)
            given = 0.0
            for shard in self.scope.ids:
                last = beats.get(shard, fallback)
                down = max(0.0, now - last) if last is not None else 0.0
                if down:
                    one = ShardScope(self.scope.count, (shard,))
                    await tx.execute("UPDATE game_tables SET deadline=deadline+? "
                                     f"WHERE deadline IS NOT NULL AND {one.sql()}", (down,))
                given = max(given, down)
            await self._beat(tx, now)
            return given

        return await self.write(job)

    async def vote_for_ai(self, table_id: int, seat: int, voter: int, version: int) -> int:
        """Record a vote to hand ``seat`` to an AI; returns the votes for it at ``version``."""
        async def job(tx: Tx) -> int:
            await tx.execute("INSERT INTO seat_votes (table_id, seat, voter, version) "
                             "VALUES (?,?,?,?) ON CONFLICT (table_id, seat, voter) "
                             "DO UPDATE SET version=excluded.version",
                             (table_id, seat, voter, version))
            return await tx.fetchval("SELECT COUNT(*) FROM seat_votes WHERE table_id=? AND seat=? "
                                     "AND version=?", (table_id, seat, version))

        return await self.write(job)

    async def guild_clock(self, guild_id: int | None, game: str) -> tuple[float | None, str | None] | None:
        """A server's default (turn limit, policy) for a game; None when it set none."""
        rows = await self._fetchall("SELECT turn_limit, timeout_policy FROM guild_settings "
                                    "WHERE guild_id=? AND game=?", (guild_id, game))
        return (rows[0][0], rows[0][1]) if rows else None

    async def set_guild_clock(self, guild_id: int, game: str, *, turn_limit: float | None = None,
                              set_limit: bool = False, policy: str | None = None) -> None:
        async def job(tx: Tx) -> None:
            await tx.execute("INSERT INTO guild_settings (guild_id, game, turn_limit, "
                             "timeout_policy) VALUES (?,?,?,NULL) ON CONFLICT DO NOTHING",
                             (guild_id, game, DEFAULT_TURN_LIMIT))
            if set_limit:
                await tx.execute("UPDATE guild_settings SET turn_limit=? WHERE guild_id=? AND game=?",
                           (turn_limit, guild_id, game))
            if policy is not None:
                await tx.execute("UPDATE guild_settings SET timeout_policy=? WHERE guild_id=? AND game=?",
                           (policy, guild_id, game))

        await self.write(job)

    async def guild_language(self, guild_id: int | None) -> str | None:
        """The language a server chose for public messages (None: its Discord setting)."""
        rows = await self._fetchall("SELECT locale FROM guild_language WHERE guild_id=?",
                                    (guild_id,))
        return rows[0][0] if rows else None

    async def set_guild_language(self, guild_id: int, locale: str | None) -> None:
        async def job(tx: Tx) -> None:
            if locale is None:
                await tx.execute("DELETE FROM guild_language WHERE guild_id=?", (guild_id,))
            else:
                await tx.execute("INSERT INTO guild_language (guild_id, locale) VALUES (?,?) "
                           "ON CONFLICT(guild_id) DO UPDATE SET locale=excluded.locale",
                           (guild_id, locale))

        await self.write(job)

    async def dm_reminders(self, user_id: int) -> bool:
        rows = await self._fetchall("SELECT dm_reminders FROM user_settings WHERE user_id=?",
                                    (user_id,))
        return bool(rows and rows[0][0])

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        async def job(tx: Tx) -> None:
            await tx.execute("INSERT INTO user_settings (user_id, dm_reminders) VALUES (?,?) "
                       "ON CONFLICT(user_id) DO UPDATE SET dm_reminders=excluded.dm_reminders",
                       (user_id, int(on)))

        await self.write(job)

    async def tables_with_ai(self) -> list[int]:
        """Running tables where an AI holds a seat (their AI turns resume after a restart)."""
        rows = await self._fetchall(
            "SELECT DISTINCT s.table_id FROM seats s JOIN game_tables t ON t.id = s.table_id "
            f"WHERE s.ai IS NOT NULL AND t.status = 'playing' AND {self.scope.sql('t.guild_id')} "
            "ORDER BY s.table_id")
        return [r[0] for r in rows]

    async def set_dm_open(self, table_id: int, seat: int, is_open: bool) -> None:
        await self._statement("UPDATE seats SET dm_open=? WHERE table_id=? AND seat=?",
                              (int(is_open), table_id, seat))

    async def start_game(self, table_id: int, seed: int, state: dict[str, Any],
                         thread_id: int | None = None,
                         outbox: list[tuple[str, dict[str, Any]]] = (),
                         clock: tuple[float | None, int | None] = (None, None)) -> None:
        """Lobby → playing, with the start's remaining steps queued in the outbox and the
        first turn's ``clock`` (deadline, seat)."""
        now = self.clock()

        async def job(tx: Tx) -> None:
            changed = await tx.execute(
                "UPDATE game_tables SET status='playing', seed=?, state=?, version=0, "
                "board_version=-1, thread_id=?, rev=rev+1, updated_at=?, deadline=?, "
                "deadline_seat=?, reminded=0 WHERE id=? AND status='lobby'",
                (seed, dumps(state), thread_id, now, *clock, table_id))
            if changed != 1:
                raise StaleWrite(f"table {table_id} is no longer a lobby")
            await self._queue_outbox(tx, table_id, outbox, now)

        await self.write(job)

    async def _queue_outbox(self, tx: Tx, table_id: int,
                            items: Iterable[tuple[str, dict[str, Any]]], now: float) -> None:
        await tx.executemany(
            "INSERT INTO outbox (table_id, kind, payload, created_at) VALUES (?,?,?,?)",
            [(table_id, kind, dumps(payload), now) for kind, payload in items])

    async def record_actions(self, table: TableRow, *, user_id: int,
                             actions: list[tuple[int, dict[str, Any]]], state: dict[str, Any],
                             result: dict[str, Any] | None = None,
                             outcomes: list[tuple[int, int, str, bool]] | None = None,
                             outbox: list[tuple[str, dict[str, Any]]] = (),
                             ai_seat: int | None = None,
                             clock: tuple[float | None, int | None] | None = None,
                             timed_out_seat: int | None = None,
                             cooperative: bool = False) -> None:
        """Append accepted actions (seat, action), the state they produced and the messages
        that announce them, in one transaction. ``table.version`` is the number of the last
        action; the write is refused (StaleWrite) unless the stored table is still at the
        version before them. A game that ends is kept as seed + packed log + result."""
        now = self.clock()
        first = table.version - len(actions) + 1

        async def job(tx: Tx) -> None:
            # The version guard first: a process that lost the race stops here (stale), before
            # its action numbers could collide with the winner's.
            if result is None:
                # The next turn's clock in the same statement (one round trip fewer).
                turn = ", deadline=?, deadline_seat=?, reminded=0" if clock is not None else ""
                changed = await tx.execute(
                    f"UPDATE game_tables SET state=?, version=?, updated_at=?{turn} "
                    "WHERE id=? AND version=? AND status='playing'",
                    (dumps(state), table.version, now, *(clock or ()), table.id, first - 1))
            else:
                # The end stops the clock in the same statement.
                changed = await tx.execute(
                    "UPDATE game_tables SET state=NULL, version=?, status='finished', rev=rev+1, "
                    "updated_at=?, deadline=NULL, deadline_seat=NULL, reminded=0 "
                    "WHERE id=? AND version=? AND status='playing'",
                    (table.version, now, table.id, first - 1))
            if changed != 1:
                raise StaleWrite(f"table {table.id} moved on")
            await tx.executemany(
                "INSERT INTO actions (table_id, n, seat, user_id, action, at) VALUES (?,?,?,?,?,?)",
                [(table.id, first + i, seat, user_id, dumps(action), now)
                 for i, (seat, action) in enumerate(actions)])
            if result is not None:
                full_log = [(seat, loads(a)) for seat, a in await tx.fetch(
                    "SELECT seat, action FROM actions WHERE table_id=? ORDER BY n", (table.id,))]
                await tx.execute("UPDATE game_tables SET packed_log=? WHERE id=?",
                                 (pack_log(full_log), table.id))
            if ai_seat is not None:
                await tx.execute("UPDATE seats SET ai_played=1 WHERE table_id=? AND seat=? "
                           "AND ai_played=0", (table.id, ai_seat))
            if timed_out_seat is not None:
                await tx.execute("UPDATE seats SET timed_out=1 WHERE table_id=? AND seat=?",
                           (table.id, timed_out_seat))
            if result is not None:
                await self._insert_result(tx, table, result, outcomes or [], now)
                # In the same transaction as the end: a game is rated once, or never.
                await self._rate(tx, table, result, cooperative, now)
                await tx.execute("DELETE FROM actions WHERE table_id=?", (table.id,))
                await tx.execute("DELETE FROM questions WHERE table_id=?", (table.id,))
                # Votes about an absent player count only at the version they were cast for,
                # so a turn need not delete them (a statement less per click); the end does.
                await tx.execute("DELETE FROM seat_votes WHERE table_id=?", (table.id,))
            await self._queue_outbox(tx, table.id, outbox, now)

        await self.write(job)

    async def record_action(self, table: TableRow, *, seat: int, user_id: int,
                            action: dict[str, Any], state: dict[str, Any],
                            result: dict[str, Any] | None = None,
                            outcomes: list[tuple[int, int, str]] | None = None) -> None:
        await self.record_actions(table, user_id=user_id, actions=[(seat, action)], state=state,
                                  result=result, outcomes=outcomes)

    async def _insert_result(self, tx: Tx, table: TableRow,
                             result: dict[str, Any], outcomes: list[tuple[int, int, str, bool]],
                             now: float) -> None:
        await tx.execute(
            "INSERT INTO results (table_id, game, guild_id, result, finished_at) VALUES (?,?,?,?,?)",
            (table.id, table.game, table.guild_id, dumps(result), now))
        timed_out = dict(await tx.fetch("SELECT seat, timed_out FROM seats WHERE table_id=?",
                                        (table.id,)))
        await tx.executemany(
            "INSERT INTO result_seats (table_id, seat, user_id, outcome, ai_played, timed_out) "
            "VALUES (?,?,?,?,?,?)",
            [(table.id, seat, uid, outcome, int(ai), int(timed_out.get(seat, 0)))
             for seat, uid, outcome, ai in outcomes])

    async def _rate(self, tx: Tx, table: TableRow, result: dict[str, Any],
                    cooperative: bool, now: float) -> None:
        seats = [{"seat": r[0], "user_id": r[1], "ai": r[2], "ai_played": r[3], "timed_out": r[4]}
                 for r in await tx.fetch("SELECT seat, user_id, ai, ai_played, timed_out "
                                         "FROM seats WHERE table_id=? ORDER BY seat", (table.id,))]
        people = {s["user_id"] for s in seats}
        players_of: dict[int, set[int]] = {}
        for other, uid in await tx.fetch(
                "SELECT r.table_id, rs.user_id FROM results r JOIN result_seats rs "
                "ON rs.table_id = r.table_id WHERE r.guild_id IS ? AND r.game=? "
                "AND r.unrated IS NULL AND r.finished_at > ? AND r.table_id != ?",
                (table.guild_id, table.game, now - ratings.DAY, table.id)):
            players_of.setdefault(other, set()).add(uid)
        same_today = sum(users == people for users in players_of.values())
        why = ratings.unrated_reason(cooperative=cooperative, result=result, seats=seats,
                                     same_players_today=same_today,
                                     per_day=self.rated_per_day)
        if why is not None:
            await tx.execute("UPDATE results SET unrated=? WHERE table_id=?", (why, table.id))
            return
        before = []
        for s in seats:
            row = await tx.fetchrow("SELECT mu, sigma, games FROM ratings WHERE guild_id IS ? "
                                    "AND game=? AND user_id=?",
                                    (table.guild_id, table.game, s["user_id"]))
            before.append(ratings.Rating(*row) if row else ratings.new_rating())
        after = ratings.rate(before, ratings.ranks(result, len(seats)))
        for s, old, new in zip(seats, before, after):
            await tx.execute("DELETE FROM ratings WHERE guild_id IS ? AND game=? AND user_id=?",
                       (table.guild_id, table.game, s["user_id"]))
            await tx.execute("INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, "
                       "updated_at) VALUES (?,?,?,?,?,?,?)",
                       (table.guild_id, table.game, s["user_id"], new.mu, new.sigma, new.games,
                        now))
            await tx.execute("INSERT INTO rating_changes (table_id, user_id, before, after) "
                       "VALUES (?,?,?,?)", (table.id, s["user_id"], old.shown, new.shown))

    async def set_par(self, table_id: int, par: int) -> None:
        await self._statement("UPDATE results SET par=? WHERE table_id=?", (par, table_id))

    async def coop_games(self, guild_id: int | None, game: str,
                         user_id: int) -> list[dict[str, Any]]:
        """A member's finished games of a cooperative game in a server, oldest first."""
        rows = await self._fetchall(
            "SELECT r.table_id, r.result, r.par FROM results r JOIN result_seats rs "
            "ON rs.table_id = r.table_id WHERE r.guild_id IS ? AND r.game=? AND rs.user_id=? "
            "AND r.unrated = 'cooperative' ORDER BY r.finished_at, r.table_id",
            (guild_id, game, user_id))
        out = []
        for table_id, result, par in rows:
            team = await self._fetchall("SELECT s.user_id, s.name FROM result_seats rs JOIN seats s "
                                        "ON s.table_id = rs.table_id AND s.seat = rs.seat "
                                        "WHERE rs.table_id=? ORDER BY rs.seat", (table_id,))
            out.append({"result": loads(result), "par": par, "players": len(team),
                        "team": tuple(sorted(uid for uid, _ in team)),
                        "names": {uid: name for uid, name in team}})
        return out

    async def rating_of(self, guild_id: int | None, game: str,
                        user_id: int) -> tuple["ratings.Rating", int, int] | None:
        """A player's rating, their place and how many are rated, or None if unrated."""
        rows = await self._fetchall("SELECT user_id, mu, sigma, games FROM ratings "
                                    "WHERE guild_id IS ? AND game=?", (guild_id, game))
        board = sorted(((ratings.Rating(mu, sigma, games), uid) for uid, mu, sigma, games in rows),
                       key=lambda item: -item[0].shown)
        for place, (rating, uid) in enumerate(board, start=1):
            if uid == user_id:
                return rating, place, len(board)
        return None

    async def rating_history(self, guild_id: int | None, game: str, user_id: int) -> list[float]:
        """A member's shown rating after each rated game of ``game`` here, oldest first."""
        rows = await self._fetchall(
            "SELECT c.after FROM rating_changes c JOIN results r ON r.table_id = c.table_id "
            "WHERE r.guild_id IS ? AND r.game=? AND c.user_id=? ORDER BY r.finished_at, r.table_id",
            (guild_id, game, user_id))
        return [r[0] for r in rows]

    async def leaderboard(self, guild_id: int | None, game: str, offset: int = 0,
                          limit: int = 10) -> tuple[list[tuple[int, "ratings.Rating"]], int]:
        """One page of a game's ratings in a server, best first, and how many are rated."""
        rows = await self._fetchall("SELECT user_id, mu, sigma, games FROM ratings "
                                    "WHERE guild_id IS ? AND game=?", (guild_id, game))
        board = sorted(((uid, ratings.Rating(mu, sigma, games)) for uid, mu, sigma, games in rows),
                       key=lambda item: -item[1].shown)
        return board[offset:offset + limit], len(board)

    async def actions(self, table_id: int) -> list[tuple[int, dict[str, Any]]]:
        """The whole action log: packed for a finished game, one row per action otherwise."""
        packed = await self._fetchall("SELECT packed_log FROM game_tables WHERE id=?", (table_id,))
        if packed and packed[0][0] is not None:
            return unpack_log(packed[0][0])
        rows = await self._fetchall(
            "SELECT seat, action FROM actions WHERE table_id=? ORDER BY n", (table_id,))
        return [(seat, loads(action)) for seat, action in rows]

    # -- the outbox -----------------------------------------------------------------------

    async def outbox(self, table_id: int) -> list[tuple[int, str, dict[str, Any]]]:
        rows = await self._fetchall(
            "SELECT id, kind, payload FROM outbox WHERE table_id=? ORDER BY id", (table_id,))
        return [(i, kind, loads(payload)) for i, kind, payload in rows]

    async def outbox_done(self, item_id: int) -> None:
        await self._statement("DELETE FROM outbox WHERE id=?", (item_id,))

    async def queue_outbox(self, table_id: int, items: list[tuple[str, dict[str, Any]]]) -> None:
        async def job(tx: Tx) -> None:
            await self._queue_outbox(tx, table_id, items, self.clock())

        await self.write(job)

    # -- questions (Narabi's asking; not part of the rules state) -------------------------

    async def add_question(self, table_id: int, turn: int, asker: int, asked: int,
                           payload: dict[str, Any], answer: bool | None = None) -> int:
        """Record a question (answered already when an AI was asked) and queue its post in the
        thread, in one transaction."""
        now = self.clock()

        async def job(tx: Tx) -> int:
            question_id = await tx.fetchval(
                "INSERT INTO questions (table_id, turn, asker, asked, payload, answer, created_at) "
                "VALUES (?,?,?,?,?,?,?) RETURNING id", (table_id, turn, asker, asked, dumps(payload),
                                           None if answer is None else int(answer), now))
            await self._queue_outbox(tx, table_id, [("question", {"id": question_id})], now)
            return question_id

        return await self.write(job)

    async def get_question(self, question_id: int) -> dict[str, Any] | None:
        rows = await self._fetchall(
            "SELECT id, table_id, turn, asker, asked, payload, answer FROM questions WHERE id=?",
            (question_id,))
        if not rows:
            return None
        qid, table_id, turn, asker, asked, payload, answer = rows[0]
        return {"id": qid, "table_id": table_id, "turn": turn, "asker": asker, "asked": asked,
                "payload": loads(payload), "answer": None if answer is None else bool(answer)}

    async def questions_of(self, table_id: int) -> list[dict[str, Any]]:
        """Every question of a running table, oldest first, as the table saw them (public)."""
        rows = await self._fetchall(
            "SELECT turn, asker, asked, payload, answer, created_at FROM questions "
            "WHERE table_id=? ORDER BY id", (table_id,))
        out = []
        for turn, asker, asked, payload, answer, created_at in rows:
            question = loads(payload)
            out.append({"turn": turn, "asker": asker, "asked": asked,
                        "card": question.get("card"), "other": question.get("other"),
                        "answer": None if answer is None else bool(answer), "at": created_at})
        return out

    async def answer_question(self, question_id: int, answer: bool) -> bool:
        """Record the answer once; False when it was already answered."""
        async def job(tx: Tx) -> bool:
            changed = await tx.execute("UPDATE questions SET answer=? WHERE id=? AND answer IS NULL",
                                   (int(answer), question_id))
            return changed == 1

        return await self.write(job)

    # -- data lifecycle ---------------------------------------------------------------------

    async def stale_lobbies(self, idle_since: float) -> list[int]:
        """Lobbies nobody joined, left or started since ``idle_since``."""
        rows = await self._fetchall(
            f"SELECT id FROM game_tables WHERE status='lobby' AND updated_at < ? "
            f"AND {self.scope.sql()}", (idle_since,))
        return [r[0] for r in rows]

    async def purge_closed(self, before: float) -> int:
        """Delete finished and cancelled tables (with their seats, results and logs) whose
        last change is older than ``before``; returns how many."""
        async def job(tx: Tx) -> int:
            changed = await tx.execute(
                "DELETE FROM game_tables WHERE status IN ('finished','cancelled') "
                f"AND updated_at < ? AND {self.scope.sql()} "
                "AND id NOT IN (SELECT table_id FROM outbox)", (before,))
            return changed

        return await self.write(job)

    # -- history and stats ----------------------------------------------------------------

    async def user_stats(self, guild_id: int | None, user_id: int) -> dict[str, dict[str, int]]:
        rows = await self._fetchall(
            "SELECT r.game, rs.outcome, COUNT(*) FROM result_seats rs JOIN results r "
            "ON r.table_id = rs.table_id WHERE rs.user_id=? AND r.guild_id IS ? AND rs.ai_played=0 "
            "AND rs.timed_out=0 "
            "GROUP BY r.game, rs.outcome", (user_id, guild_id))
        stats: dict[str, dict[str, int]] = {}
        for game, outcome, count in rows:
            stats.setdefault(game, {"win": 0, "loss": 0, "draw": 0})[outcome] = count
        return stats

    async def guild_stats(self, guild_id: int | None) -> dict[str, dict[str, int]]:
        rows = await self._fetchall(
            "SELECT r.game, COUNT(*), COUNT(DISTINCT rs.user_id) FROM results r "
            "JOIN result_seats rs ON rs.table_id = r.table_id WHERE r.guild_id IS ? "
            "AND rs.user_id > 0 "
            "GROUP BY r.game", (guild_id,))
        games = await self._fetchall(
            "SELECT game, COUNT(*) FROM results WHERE guild_id IS ? GROUP BY game", (guild_id,))
        players = {g: p for g, _, p in rows}
        return {g: {"games": n, "players": players.get(g, 0)} for g, n in games}

    async def recent_results(self, guild_id: int | None, limit: int = 10, offset: int = 0,
                             game: str | None = None,
                             user_id: int | None = None) -> tuple[list[dict[str, Any]], int]:
        """Finished games of a server, newest first (one page), optionally of one game or with
        one member, and how many there are in all."""
        where = "r.guild_id IS ?"
        params: list[Any] = [guild_id]
        if game is not None:
            where += " AND r.game = ?"
            params.append(game)
        if user_id is not None:
            where += " AND r.table_id IN (SELECT table_id FROM result_seats WHERE user_id = ?)"
            params.append(user_id)
        total = (await self._fetchall(f"SELECT COUNT(*) FROM results r WHERE {where}",
                                      params))[0][0]
        rows = await self._fetchall(
            "SELECT r.table_id, r.game, r.result, r.finished_at, t.channel_id, t.thread_id "
            f"FROM results r JOIN game_tables t ON t.id = r.table_id WHERE {where} "
            "ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset))
        out = []
        for table_id, game_key, result, finished_at, channel_id, thread_id in rows:
            seats = await self._seats(table_id)
            out.append({"table_id": table_id, "game": game_key, "result": loads(result),
                        "finished_at": finished_at, "seats": seats,
                        "channel_id": thread_id or channel_id})
        return out, total
