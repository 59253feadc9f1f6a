"""SQLite persistence (aiosqlite, WAL): tables, seats, game state, action log, results, outbox.

Everything a click changes is written in one transaction and committed before the click is
answered, so a crash never loses an acknowledged move. The messages that announce a change
(log line, direct messages, the end of a game) are queued in the outbox by that same
transaction, so a stop between the commit and Discord can delay them but never lose them.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import aiosqlite

from . import ratings

from .config import ConfigError

log = logging.getLogger(__name__)

# Each entry moves the schema from version i to i + 1. Never edit a shipped entry: append.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE game_tables (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        game             TEXT    NOT NULL,
        guild_id         INTEGER,
        channel_id       INTEGER NOT NULL,
        thread_id        INTEGER,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        host_id          INTEGER NOT NULL,
        status           TEXT    NOT NULL CHECK (status IN ('lobby','playing','finished','cancelled')),
        options          TEXT    NOT NULL,
        locale           TEXT    NOT NULL DEFAULT 'en-US',
        seed             INTEGER,
        version          INTEGER NOT NULL DEFAULT 0,
        state            TEXT,
        rematch_of       INTEGER REFERENCES game_tables(id),
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL
    );
    CREATE UNIQUE INDEX one_lobby_per_channel ON game_tables(channel_id) WHERE status = 'lobby';
    CREATE INDEX unfinished_tables ON game_tables(status) WHERE status IN ('lobby','playing');
    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        name     TEXT    NOT NULL,
        dm_open  INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (table_id, seat),
        UNIQUE (table_id, user_id)
    );
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        n        INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        action   TEXT    NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    CREATE TABLE results (
        table_id    INTEGER PRIMARY KEY REFERENCES game_tables(id) ON DELETE CASCADE,
        game        TEXT    NOT NULL,
        guild_id    INTEGER,
        result      TEXT    NOT NULL,
        finished_at REAL    NOT NULL
    );
    CREATE TABLE result_seats (
        table_id INTEGER NOT NULL REFERENCES results(table_id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        outcome  TEXT    NOT NULL CHECK (outcome IN ('win','loss','draw')),
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX result_seats_user ON result_seats(user_id);
    CREATE INDEX results_guild ON results(guild_id, game);
    """,
    """
    CREATE TABLE questions (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id  INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        turn      INTEGER NOT NULL,
        asker     INTEGER NOT NULL,
        asked     INTEGER NOT NULL,
        payload   TEXT    NOT NULL,
        answer    INTEGER,
        created_at REAL   NOT NULL
    );
    CREATE INDEX questions_table ON questions(table_id);
    """,
    """
    ALTER TABLE game_tables ADD COLUMN invited_id INTEGER;
    """,
    # Surfaces (what the lobby and board messages show), an outbox of one-shot messages
    # written in the same transaction as the change they announce, and finished games kept as
    # seed + packed action log only.
    """
    ALTER TABLE game_tables ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_tables ADD COLUMN lobby_rev INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_tables ADD COLUMN board_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_tables ADD COLUMN packed_log BLOB;
    ALTER TABLE game_tables ADD COLUMN closed_reason TEXT;
    UPDATE game_tables SET board_version = version;
    UPDATE game_tables SET state = NULL WHERE status IN ('finished', 'cancelled');
    CREATE INDEX surfaces_behind ON game_tables(id)
        WHERE board_version < version OR lobby_rev < rev;
    CREATE INDEX closed_tables ON game_tables(updated_at) WHERE status IN ('finished','cancelled');
    CREATE INDEX open_lobbies ON game_tables(updated_at) WHERE status = 'lobby';
    CREATE TABLE outbox (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id   INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        kind       TEXT    NOT NULL,
        payload    TEXT    NOT NULL,
        created_at REAL    NOT NULL
    );
    CREATE INDEX outbox_table ON outbox(table_id, id);
    """,
    # Seats held by AI players. ``ai`` is the level of the AI holding a seat now (NULL: its
    # person). A seat an AI was added to has a negative user_id (never a Discord id); a person's
    # seat an AI took over keeps the person's id. ``ai_played`` stays set once an AI has acted
    # for the seat, so the result is not rated for it.
    """
    ALTER TABLE seats ADD COLUMN ai TEXT;
    ALTER TABLE seats ADD COLUMN ai_played INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE result_seats ADD COLUMN ai_played INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX seats_ai ON seats(table_id) WHERE ai IS NOT NULL;
    """,
    # Turn clocks. ``deadline`` is when the seat ``deadline_seat`` runs out of time (NULL: no
    # clock running); ``reminded`` how many reminders of that turn were sent. The heartbeat
    # lets a restart give back the time the bot was down.
    """
    ALTER TABLE game_tables ADD COLUMN turn_limit REAL;
    ALTER TABLE game_tables ADD COLUMN timeout_policy TEXT NOT NULL DEFAULT 'ai';
    ALTER TABLE game_tables ADD COLUMN deadline REAL;
    ALTER TABLE game_tables ADD COLUMN deadline_seat INTEGER;
    ALTER TABLE game_tables ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX deadlines ON game_tables(deadline) WHERE deadline IS NOT NULL;
    ALTER TABLE seats ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE result_seats ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE guild_settings (
        guild_id       INTEGER NOT NULL,
        game           TEXT    NOT NULL,
        turn_limit     REAL,
        timeout_policy TEXT,
        PRIMARY KEY (guild_id, game)
    );
    CREATE TABLE user_settings (
        user_id      INTEGER PRIMARY KEY,
        dm_reminders INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seat_votes (
        table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        voter    INTEGER NOT NULL,
        version  INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat, voter)
    );
    CREATE TABLE heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        at REAL NOT NULL
    );
    """,
    # The language a server chose for its public messages and pictures.
    """
    CREATE TABLE guild_language (
        guild_id INTEGER PRIMARY KEY,
        locale   TEXT NOT NULL
    );
    ALTER TABLE seats ADD COLUMN locale TEXT;
    """,
    # Ratings per server and game (OpenSkill μ and σ), and each rated game's changes.
    """
    CREATE TABLE ratings (
        guild_id   INTEGER,
        game       TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game, mu);
    CREATE TABLE rating_changes (
        table_id INTEGER NOT NULL REFERENCES results(table_id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        before   REAL    NOT NULL,
        after    REAL    NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    ALTER TABLE results ADD COLUMN unrated TEXT;
    """,
    # A cooperative deal's par (fewest switches), once computed after its end.
    """
    ALTER TABLE results ADD COLUMN par INTEGER;
    """,
)


UNFINISHED = ("lobby", "playing")
#: the bot's own time per turn when a server chose none: a day
DEFAULT_TURN_LIMIT = 86_400.0
#: how long a write waits for another program's lock: short enough that the click that asked
#: for it still gets its answer inside Discord's three seconds
BUSY_TIMEOUT_MS = 1500


class StoreError(Exception):
    pass


class LobbyExists(StoreError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"channel already has lobby {table_id}")
        self.table_id = table_id


class StaleWrite(StoreError):
    """The table moved on since it was read (another click or another process won)."""


class StoreFailure(StoreError):
    """The database could not read or write. ``cause`` is one of CAUSES, for the log line
    and for a short answer to the player; nothing was changed."""

    CAUSES = {
        "full": "the disk (or the database's size limit) is full",
        "read_only": "the database file or its folder is read-only",
        "locked": "another program holds a lock on the database",
        "missing": "the database file was deleted while the bot was running",
        "replaced": "the database file was replaced while the bot was running",
        "io": "the disk reported an input/output error",
        "damaged": "the database file is damaged",
        "closed": "the database is closed (the bot is shutting down)",
        "other": "an unexpected database error",
    }

    def __init__(self, cause: str, detail: str = "") -> None:
        super().__init__(f"{self.CAUSES.get(cause, cause)}" + (f" ({detail})" if detail else ""))
        self.cause = cause


def classify(exc: BaseException) -> str:
    """Which CAUSES entry a sqlite3 error is, from its extended code when Python gives one."""
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


@dataclass
class SeatRow:
    seat: int
    user_id: int
    name: str
    dm_open: bool = True
    #: level of the AI holding the seat now; None while its person plays it
    ai: str | None = None
    #: an AI has acted for this seat (the game is not rated for it)
    ai_played: bool = False
    #: the seat's person ran out of time (or the others handed the seat to an AI) this game
    timed_out: bool = False
    #: the Discord language of the seat's person (their DMs are written in it)
    locale: str | None = None

    @property
    def person(self) -> bool:
        """A Discord user sits here (an AI may be playing for them meanwhile)."""
        return self.user_id > 0


@dataclass
class TableRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    locale: str
    thread_id: int | None = None
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    seed: int | None = None
    version: int = 0
    state: dict[str, Any] | None = None
    rematch_of: int | None = None
    invited_id: int | None = None
    #: bumped by every change the lobby message shows (seats, status)
    rev: int = 0
    #: the ``rev`` the lobby message shows, and the ``version`` the board message shows
    lobby_rev: int = 0
    board_version: int = -1
    closed_reason: str | None = None
    updated_at: float = 0.0
    #: seconds per turn (None: no clock) and what happens when they run out
    turn_limit: float | None = None
    timeout_policy: str = "ai"
    #: when ``deadline_seat`` runs out of time (None: no clock running)
    deadline: float | None = None
    deadline_seat: int | None = None
    reminded: int = 0
    seats: list[SeatRow] = field(default_factory=list)

    @property
    def user_ids(self) -> list[int]:
        return [s.user_id for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def game_channel_id(self) -> int:
        return self.thread_id or self.channel_id

    @property
    def board_behind(self) -> bool:
        return self.status in ("playing", "finished") and (
            self.board_version < self.version or self.board_message_id is None)

    @property
    def lobby_behind(self) -> bool:
        return self.lobby_message_id is not None and self.lobby_rev < self.rev


_TABLE_COLUMNS = ("id, game, guild_id, channel_id, host_id, status, options, locale, thread_id, "
                  "lobby_message_id, board_message_id, seed, version, state, rematch_of, invited_id, "
                  "rev, lobby_rev, board_version, closed_reason, updated_at, turn_limit, "
                  "timeout_policy, deadline, deadline_seat, reminded")


def _row_to_table(row: sqlite3.Row | tuple) -> TableRow:
    (id_, game, guild_id, channel_id, host_id, status, options, locale, thread_id, lobby_id,
     board_id, seed, version, state, rematch_of, invited_id, rev, lobby_rev, board_version,
     closed_reason, updated_at, turn_limit, timeout_policy, deadline, deadline_seat,
     reminded) = row
    return TableRow(id=id_, game=game, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                    status=status, options=json.loads(options), locale=locale,
                    thread_id=thread_id, lobby_message_id=lobby_id, board_message_id=board_id,
                    seed=seed, version=version, state=json.loads(state) if state else None,
                    rematch_of=rematch_of, invited_id=invited_id, rev=rev, lobby_rev=lobby_rev,
                    board_version=board_version, closed_reason=closed_reason,
                    updated_at=updated_at, turn_limit=turn_limit, timeout_policy=timeout_policy,
                    deadline=deadline, deadline_seat=deadline_seat, reminded=reminded)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


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


def migrate(db: sqlite3.Connection) -> int:
    current = db.execute("PRAGMA user_version").fetchone()[0]
    if current > len(MIGRATIONS):
        raise sqlite3.DatabaseError(
            f"schema version {current} is newer than this bot ({len(MIGRATIONS)})")
    for version in range(current, len(MIGRATIONS)):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[version].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version={version + 1}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    return len(MIGRATIONS)


def pack_log(log: list[tuple[int, dict[str, Any]]]) -> bytes:
    """A finished game's action log, compressed: JSON actions repeat their keys, so zlib
    brings a 60-turn Sensei game from about 7 KB to under 1 KB."""
    return zlib.compress(_dumps([[seat, action] for seat, action in log]).encode(), 9)


def unpack_log(blob: bytes) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, action) for seat, action in json.loads(zlib.decompress(blob))]


Job = Callable[[sqlite3.Connection], Any]


class Store:
    """One writer connection on its own thread, fed by a group commit; one reader connection.

    Every write is a job (a function of a sqlite3 connection) queued for the writer. The writer
    takes all the jobs waiting at that moment and runs them on its thread in one transaction,
    each inside its own savepoint so that one refused job does not undo the others, and commits
    once: many tables committing together share one fsync and one thread hop instead of
    queueing behind each other's. Readers use their own connection and see committed data only.
    """

    def __init__(self, path: Path, reader: aiosqlite.Connection,
                 writer: sqlite3.Connection, executor: ThreadPoolExecutor) -> None:
        self.path = path
        self._reader = reader
        self._writer_db = writer
        self._executor = executor
        self._identity: tuple[int, int] | None = None
        self._queue: list[tuple[Job, asyncio.Future]] = []
        self._writer: asyncio.Task | None = None
        self._closed = False
        #: a cause from StoreFailure.CAUSES once the file was found deleted or replaced
        self.broken: str | None = None
        #: the clock for created/updated times (tests move it by hand)
        self.clock: Callable[[], float] = time.time
        #: rated games a day between the same people (more are played but not rated)
        self.rated_per_day = ratings.RATED_PER_DAY
        self.commits = 0
        self.batches = 0
        self._logged: dict[str, float] = {}

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> "Store":
        path = Path(path)
        from .config import check_database_path
        check_database_path(path)
        loop = asyncio.get_running_loop()
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabletop-store")
        try:
            writer = await loop.run_in_executor(executor, _connect_writer, path, synchronous)
        except sqlite3.Error as exc:
            executor.shutdown(wait=False)
            if classify(exc) == "locked":
                raise ConfigError(f"the database {path} is locked by another program (another "
                                  "copy of the bot, or a backup or editing tool): stop it and "
                                  "start again.") from None
            if "newer than this bot" in str(exc) or classify(exc) == "damaged" \
                    or isinstance(exc, sqlite3.DatabaseError):
                raise ConfigError(f"the database file {path} is damaged or not a SQLite "
                                  f"database ({exc}): restore a backup or move it away to start "
                                  "fresh.") from None
            raise ConfigError(f"cannot open the database {path}: {exc}") from None
        reader = await aiosqlite.connect(str(path), isolation_level=None)
        await reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        store = cls(path, reader, writer, executor)
        store._identity = store._stat()
        return store

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return st.st_dev, st.st_ino

    def check_file(self) -> str | None:
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

    async def run_on_writer(self, statement: str) -> None:
        """One statement on the writer connection, outside any job (tests, maintenance)."""
        await asyncio.get_running_loop().run_in_executor(
            self._executor, self._writer_db.execute, statement)

    async def close(self) -> None:
        """Close after the last queued write has been committed."""
        if self._closed:
            return
        if self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)
        self._closed = True
        await self._reader.close()
        await asyncio.get_running_loop().run_in_executor(self._executor, self._writer_db.close)
        self._executor.shutdown(wait=True)

    # -- the group commit -------------------------------------------------------------------

    async def write(self, job: Job) -> Any:
        """Run ``job(connection)`` inside a committed transaction; returns what it returned.
        Raises what the job raised (its changes undone), or StoreFailure."""
        if self._closed:
            raise StoreFailure("closed")
        future = asyncio.get_running_loop().create_future()
        self._queue.append((job, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._drain(), name="tabletop-store-writer")
        return await future

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            batch, self._queue = self._queue, []
            broken = self.check_file()
            if broken:
                self._fail(batch, StoreFailure(broken))
                continue
            outcomes, failed_at, error = await loop.run_in_executor(
                self._executor, self._run_batch, [job for job, _ in batch])
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

    def _run_batch(self, jobs: list[Job]) -> tuple[list[tuple[Any, BaseException | None]], int,
                                                    BaseException | None]:
        """On the writer thread: all ``jobs`` in one transaction. Returns each job's value or
        refusal, or (index, error) when the database itself failed."""
        db = self._writer_db
        outcomes: list[tuple[Any, BaseException | None]] = []
        index = -1
        try:
            db.execute("BEGIN IMMEDIATE")
            for index, job in enumerate(jobs):
                db.execute("SAVEPOINT job")
                try:
                    value = job(db)
                except (sqlite3.IntegrityError, StoreError, KeyError, TypeError) as exc:
                    # The job's own refusal (a rule of the schema, a stale version) or its own
                    # bug: undo that job alone, the others in the batch stand.
                    db.execute("ROLLBACK TO job")
                    db.execute("RELEASE job")
                    outcomes.append((None, exc))
                    continue
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

    def _failure(self, exc: BaseException) -> StoreFailure:
        cause = classify(exc)
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
        try:
            async with self._reader.execute(sql, tuple(params)) as cur:
                return list(await cur.fetchall())
        except (sqlite3.Error, ValueError) as exc:
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

        def job(db: sqlite3.Connection) -> int:
            row = db.execute("SELECT id FROM game_tables WHERE channel_id=? AND status='lobby'",
                             (channel_id,)).fetchone()
            if row:
                raise LobbyExists(row[0])
            cur = db.execute(
                "INSERT INTO game_tables (game, guild_id, channel_id, host_id, status, options, "
                "locale, rematch_of, invited_id, created_at, updated_at, rev, lobby_rev, "
                "board_version, turn_limit, timeout_policy) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,1,0,-1,?,?)",
                (game, guild_id, channel_id, host_id, "lobby", _dumps(options), locale,
                 rematch_of, invited_id, now, now, turn_limit, timeout_policy))
            table_id = cur.lastrowid
            db.executemany(
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
        rows = await self._fetchall(f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id=?",
                                    (table_id,))
        if not rows:
            return None
        table = _row_to_table(rows[0])
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
        columns = _TABLE_COLUMNS.replace(" state,", " NULL,")
        rows = await self._fetchall(
            f"SELECT {columns} FROM game_tables WHERE status IN ('lobby','playing')")
        tables = {r[0]: _row_to_table(r) for r in rows}
        seat_rows = await self._fetchall(
            "SELECT s.table_id, s.seat, s.user_id, s.name, s.dm_open, s.ai, s.ai_played, "
            "s.timed_out, s.locale FROM seats s JOIN game_tables t ON t.id = s.table_id "
            "WHERE t.status IN ('lobby','playing') ORDER BY s.table_id, s.seat")
        for table_id, seat, user_id, name, dm_open, ai, played, out, loc in seat_rows:
            tables[table_id].seats.append(SeatRow(seat, user_id, name, bool(dm_open), ai,
                                                  bool(played), bool(out), loc))
        return list(tables.values())

    async def tables_behind(self) -> list[int]:
        """Tables with a Discord surface behind the stored truth or messages still to post."""
        rows = await self._fetchall(
            "SELECT id FROM game_tables WHERE board_version < version OR lobby_rev < rev "
            "UNION SELECT table_id FROM outbox "
            "UNION SELECT id FROM game_tables WHERE status = 'playing' AND board_message_id IS NULL")
        return sorted(r[0] for r in rows)

    async def game_state(self, table_id: int) -> dict[str, Any] | None:
        rows = await self._fetchall("SELECT state FROM game_tables WHERE id=?", (table_id,))
        return json.loads(rows[0][0]) if rows and rows[0][0] else None

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
        def job(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM seats WHERE table_id=?", (table_id,))
            db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, dm_open, ai, ai_played, locale) "
                "VALUES (?,?,?,?,?,?,?,?)",
                [(table_id, s.seat, s.user_id, s.name, int(s.dm_open), s.ai, int(s.ai_played),
                  s.locale) for s in seats])
            db.execute("UPDATE game_tables SET rev=rev+1, updated_at=? WHERE id=?",
                             (self.clock(), table_id))

        await self.write(job)

    async def update_table(self, table_id: int, **fields: Any) -> None:
        """Change lobby-level fields; a status or host change is something the lobby shows."""
        allowed = {"status", "host_id", "closed_reason", "turn_limit", "timeout_policy"}
        if not fields or set(fields) - allowed:
            raise ValueError(f"cannot update {sorted(set(fields) - allowed)}")
        assignments = ", ".join(f"{k}=?" for k in fields)

        def job(db: sqlite3.Connection) -> None:
            db.execute(f"UPDATE game_tables SET {assignments}, rev=rev+1, updated_at=? "
                             "WHERE id=?", (*fields.values(), self.clock(), table_id))

        await self.write(job)

    async def set_surface(self, table_id: int, **fields: Any) -> None:
        """Record what a Discord surface now shows (message ids, thread, shown versions). Not
        a change of the table: its ``updated_at`` stays the time of the last real change."""
        allowed = {"thread_id", "lobby_message_id", "board_message_id", "lobby_rev",
                   "board_version"}
        if not fields or set(fields) - allowed:
            raise ValueError(f"cannot set {sorted(set(fields) - allowed)}")
        assignments = ", ".join(f"{k}=?" for k in fields)

        def job(db: sqlite3.Connection) -> None:
            db.execute(f"UPDATE game_tables SET {assignments} WHERE id=?",
                             (*fields.values(), table_id))

        await self.write(job)

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

        def job(db: sqlite3.Connection) -> bool:
            if expect is not None:
                cur = db.execute(
                    "UPDATE game_tables SET rev=rev+1, updated_at=? WHERE id=? AND version=? "
                    "AND deadline IS ? AND status='playing'", (now, table_id, *expect))
            else:
                cur = db.execute("UPDATE game_tables SET rev=rev+1, updated_at=? WHERE id=?",
                                 (now, table_id))
            if cur.rowcount != 1:
                return False
            db.execute("UPDATE seats SET ai=?, timed_out=max(timed_out, ?) "
                       "WHERE table_id=? AND seat=?", (ai, int(timed_out), table_id, seat))
            if clock is not None:
                db.execute("UPDATE game_tables SET deadline=?, deadline_seat=?, reminded=0 "
                           "WHERE id=?", (*clock, table_id))
            db.execute("DELETE FROM seat_votes WHERE table_id=?", (table_id,))
            self._queue_outbox(db, table_id, outbox, now)
            return True

        return await self.write(job)

    # -- turn clocks ------------------------------------------------------------------------

    async def deadlines(self) -> list[tuple[int, float, float | None, int, int | None]]:
        """(table, deadline, turn limit, reminders sent, seat) of every running clock."""
        return [tuple(r) for r in await self._fetchall(  # type: ignore[misc]
            "SELECT id, deadline, turn_limit, reminded, deadline_seat FROM game_tables "
            "WHERE deadline IS NOT NULL AND status='playing'")]

    async def set_clock(self, table_id: int, clock: tuple[float | None, int | None],
                        outbox: list[tuple[str, dict[str, Any]]] = ()) -> None:
        now = self.clock()

        def job(db: sqlite3.Connection) -> None:
            db.execute("UPDATE game_tables SET deadline=?, deadline_seat=?, reminded=0, "
                       "rev=rev+1 WHERE id=?", (*clock, table_id))
            self._queue_outbox(db, table_id, outbox, now)

        await self.write(job)

    async def mark_reminded(self, table_id: int, deadline: float, stage: int,
                            outbox: list[tuple[str, dict[str, Any]]]) -> bool:
        """Record that reminder ``stage`` of the turn ending at ``deadline`` went out (with its
        messages), once: False when it already had, or the turn is over."""
        now = self.clock()

        def job(db: sqlite3.Connection) -> bool:
            cur = db.execute("UPDATE game_tables SET reminded=? WHERE id=? AND deadline=? "
                             "AND reminded<? AND status='playing'",
                             (stage, table_id, deadline, stage))
            if cur.rowcount != 1:
                return False
            self._queue_outbox(db, table_id, outbox, now)
            return True

        return await self.write(job)

    async def beat(self) -> None:
        """The bot is up now (a restart gives back the time since the last beat)."""
        now = self.clock()

        def job(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO heartbeat (id, at) VALUES (1, ?) "
                       "ON CONFLICT(id) DO UPDATE SET at=excluded.at", (now,))

        await self.write(job)

    async def give_back_downtime(self) -> float:
        """At start-up: push every running deadline back by the time since the last heartbeat
        (the bot was down: nobody could play), then beat. Returns the seconds given back."""
        now = self.clock()

        def job(db: sqlite3.Connection) -> float:
            row = db.execute("SELECT at FROM heartbeat WHERE id=1").fetchone()
            down = max(0.0, now - row[0]) if row else 0.0
            if down:
                db.execute("UPDATE game_tables SET deadline=deadline+? "
                           "WHERE deadline IS NOT NULL", (down,))
            db.execute("INSERT INTO heartbeat (id, at) VALUES (1, ?) "
                       "ON CONFLICT(id) DO UPDATE SET at=excluded.at", (now,))
            return down

        return await self.write(job)

    async def vote_for_ai(self, table_id: int, seat: int, voter: int, version: int) -> int:
        """Record a vote to hand ``seat`` to an AI; returns the votes for it at ``version``."""
        def job(db: sqlite3.Connection) -> int:
            db.execute("INSERT OR REPLACE INTO seat_votes (table_id, seat, voter, version) "
                       "VALUES (?,?,?,?)", (table_id, seat, voter, version))
            return db.execute("SELECT COUNT(*) FROM seat_votes WHERE table_id=? AND seat=? "
                              "AND version=?", (table_id, seat, version)).fetchone()[0]

        return await self.write(job)

    async def guild_clock(self, guild_id: int | None, game: str) -> tuple[float | None, str | None] | None:
        """A server's default (turn limit, policy) for a game; None when it set none."""
        rows = await self._fetchall("SELECT turn_limit, timeout_policy FROM guild_settings "
                                    "WHERE guild_id=? AND game=?", (guild_id, game))
        return (rows[0][0], rows[0][1]) if rows else None

    async def set_guild_clock(self, guild_id: int, game: str, *, turn_limit: float | None = None,
                              set_limit: bool = False, policy: str | None = None) -> None:
        def job(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR IGNORE INTO guild_settings (guild_id, game, turn_limit, "
                       "timeout_policy) VALUES (?,?,?,NULL)", (guild_id, game, DEFAULT_TURN_LIMIT))
            if set_limit:
                db.execute("UPDATE guild_settings SET turn_limit=? WHERE guild_id=? AND game=?",
                           (turn_limit, guild_id, game))
            if policy is not None:
                db.execute("UPDATE guild_settings SET timeout_policy=? WHERE guild_id=? AND game=?",
                           (policy, guild_id, game))

        await self.write(job)

    async def guild_language(self, guild_id: int | None) -> str | None:
        """The language a server chose for public messages (None: its Discord setting)."""
        rows = await self._fetchall("SELECT locale FROM guild_language WHERE guild_id=?",
                                    (guild_id,))
        return rows[0][0] if rows else None

    async def set_guild_language(self, guild_id: int, locale: str | None) -> None:
        def job(db: sqlite3.Connection) -> None:
            if locale is None:
                db.execute("DELETE FROM guild_language WHERE guild_id=?", (guild_id,))
            else:
                db.execute("INSERT INTO guild_language (guild_id, locale) VALUES (?,?) "
                           "ON CONFLICT(guild_id) DO UPDATE SET locale=excluded.locale",
                           (guild_id, locale))

        await self.write(job)

    async def dm_reminders(self, user_id: int) -> bool:
        rows = await self._fetchall("SELECT dm_reminders FROM user_settings WHERE user_id=?",
                                    (user_id,))
        return bool(rows and rows[0][0])

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        def job(db: sqlite3.Connection) -> None:
            db.execute("INSERT INTO user_settings (user_id, dm_reminders) VALUES (?,?) "
                       "ON CONFLICT(user_id) DO UPDATE SET dm_reminders=excluded.dm_reminders",
                       (user_id, int(on)))

        await self.write(job)

    async def tables_with_ai(self) -> list[int]:
        """Running tables where an AI holds a seat (their AI turns resume after a restart)."""
        rows = await self._fetchall(
            "SELECT DISTINCT s.table_id FROM seats s JOIN game_tables t ON t.id = s.table_id "
            "WHERE s.ai IS NOT NULL AND t.status = 'playing' ORDER BY s.table_id")
        return [r[0] for r in rows]

    async def set_dm_open(self, table_id: int, seat: int, is_open: bool) -> None:
        def job(db: sqlite3.Connection) -> None:
            db.execute("UPDATE seats SET dm_open=? WHERE table_id=? AND seat=?",
                             (int(is_open), table_id, seat))

        await self.write(job)

    async def start_game(self, table_id: int, seed: int, state: dict[str, Any],
                         thread_id: int | None = None,
                         outbox: list[tuple[str, dict[str, Any]]] = (),
                         clock: tuple[float | None, int | None] = (None, None)) -> None:
        """Lobby → playing, with the start's remaining steps queued in the outbox and the
        first turn's ``clock`` (deadline, seat)."""
        now = self.clock()

        def job(db: sqlite3.Connection) -> None:
            cur = db.execute(
                "UPDATE game_tables SET status='playing', seed=?, state=?, version=0, "
                "board_version=-1, thread_id=?, rev=rev+1, updated_at=?, deadline=?, "
                "deadline_seat=?, reminded=0 WHERE id=? AND status='lobby'",
                (seed, _dumps(state), thread_id, now, *clock, table_id))
            if cur.rowcount != 1:
                raise StaleWrite(f"table {table_id} is no longer a lobby")
            self._queue_outbox(db, table_id, outbox, now)

        await self.write(job)

    def _queue_outbox(self, db: sqlite3.Connection, table_id: int,
                            items: Iterable[tuple[str, dict[str, Any]]], now: float) -> None:
        db.executemany(
            "INSERT INTO outbox (table_id, kind, payload, created_at) VALUES (?,?,?,?)",
            [(table_id, kind, _dumps(payload), now) for kind, payload in items])

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

        def job(db: sqlite3.Connection) -> None:
            db.executemany(
                "INSERT INTO actions (table_id, n, seat, user_id, action, at) VALUES (?,?,?,?,?,?)",
                [(table.id, first + i, seat, user_id, _dumps(action), now)
                 for i, (seat, action) in enumerate(actions)])
            if result is None:
                cur = db.execute(
                    "UPDATE game_tables SET state=?, version=?, updated_at=? "
                    "WHERE id=? AND version=? AND status='playing'",
                    (_dumps(state), table.version, now, table.id, first - 1))
            else:
                full_log = [(seat, json.loads(a)) for seat, a in db.execute(
                    "SELECT seat, action FROM actions WHERE table_id=? ORDER BY n",
                    (table.id,)).fetchall()]
                cur = db.execute(
                    "UPDATE game_tables SET state=NULL, packed_log=?, version=?, "
                    "status='finished', rev=rev+1, updated_at=? "
                    "WHERE id=? AND version=? AND status='playing'",
                    (pack_log(full_log), table.version, now, table.id, first - 1))
            if cur.rowcount != 1:
                raise StaleWrite(f"table {table.id} moved on")
            if ai_seat is not None:
                db.execute("UPDATE seats SET ai_played=1 WHERE table_id=? AND seat=? "
                           "AND ai_played=0", (table.id, ai_seat))
            if timed_out_seat is not None:
                db.execute("UPDATE seats SET timed_out=1 WHERE table_id=? AND seat=?",
                           (table.id, timed_out_seat))
            if clock is not None:
                # A new turn: its deadline, reminders to come, and no votes about the last one.
                db.execute("UPDATE game_tables SET deadline=?, deadline_seat=?, reminded=0 "
                           "WHERE id=?", (*clock, table.id))
                db.execute("DELETE FROM seat_votes WHERE table_id=?", (table.id,))
            elif result is not None:
                db.execute("UPDATE game_tables SET deadline=NULL WHERE id=?", (table.id,))
            if result is not None:
                self._insert_result(db, table, result, outcomes or [], now)
                # In the same transaction as the end: a game is rated once, or never.
                self._rate(db, table, result, cooperative, now)
                db.execute("DELETE FROM actions WHERE table_id=?", (table.id,))
                db.execute("DELETE FROM questions WHERE table_id=?", (table.id,))
            self._queue_outbox(db, table.id, outbox, now)

        await self.write(job)

    async def record_action(self, table: TableRow, *, seat: int, user_id: int,
                            action: dict[str, Any], state: dict[str, Any],
                            result: dict[str, Any] | None = None,
                            outcomes: list[tuple[int, int, str]] | None = None) -> None:
        await self.record_actions(table, user_id=user_id, actions=[(seat, action)], state=state,
                                  result=result, outcomes=outcomes)

    def _insert_result(self, db: sqlite3.Connection, table: TableRow,
                             result: dict[str, Any], outcomes: list[tuple[int, int, str, bool]],
                             now: float) -> None:
        db.execute(
            "INSERT INTO results (table_id, game, guild_id, result, finished_at) VALUES (?,?,?,?,?)",
            (table.id, table.game, table.guild_id, _dumps(result), now))
        db.executemany(
            "INSERT INTO result_seats (table_id, seat, user_id, outcome, ai_played, timed_out) "
            "SELECT ?,?,?,?,?, coalesce((SELECT timed_out FROM seats WHERE table_id=? AND seat=?), 0)",
            [(table.id, seat, uid, outcome, int(ai), table.id, seat)
             for seat, uid, outcome, ai in outcomes])

    def _rate(self, db: sqlite3.Connection, table: TableRow, result: dict[str, Any],
              cooperative: bool, now: float) -> None:
        seats = [{"seat": r[0], "user_id": r[1], "ai": r[2], "ai_played": r[3], "timed_out": r[4]}
                 for r in db.execute("SELECT seat, user_id, ai, ai_played, timed_out FROM seats "
                                     "WHERE table_id=? ORDER BY seat", (table.id,))]
        people = {s["user_id"] for s in seats}
        same_today = 0
        for (other,) in db.execute(
                "SELECT table_id FROM results WHERE guild_id IS ? AND game=? AND unrated IS NULL "
                "AND finished_at > ? AND table_id != ?",
                (table.guild_id, table.game, now - ratings.DAY, table.id)).fetchall():
            users = {u for (u,) in db.execute(
                "SELECT user_id FROM result_seats WHERE table_id=?", (other,))}
            same_today += users == people
        why = ratings.unrated_reason(cooperative=cooperative, result=result, seats=seats,
                                     same_players_today=same_today,
                                     per_day=self.rated_per_day)
        if why is not None:
            db.execute("UPDATE results SET unrated=? WHERE table_id=?", (why, table.id))
            return
        before = []
        for s in seats:
            row = db.execute("SELECT mu, sigma, games FROM ratings WHERE guild_id IS ? AND game=? "
                             "AND user_id=?", (table.guild_id, table.game, s["user_id"])).fetchone()
            before.append(ratings.Rating(*row) if row else ratings.new_rating())
        after = ratings.rate(before, ratings.ranks(result, len(seats)))
        for s, old, new in zip(seats, before, after):
            db.execute("DELETE FROM ratings WHERE guild_id IS ? AND game=? AND user_id=?",
                       (table.guild_id, table.game, s["user_id"]))
            db.execute("INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, "
                       "updated_at) VALUES (?,?,?,?,?,?,?)",
                       (table.guild_id, table.game, s["user_id"], new.mu, new.sigma, new.games,
                        now))
            db.execute("INSERT INTO rating_changes (table_id, user_id, before, after) "
                       "VALUES (?,?,?,?)", (table.id, s["user_id"], old.shown, new.shown))

    async def set_par(self, table_id: int, par: int) -> None:
        def job(db: sqlite3.Connection) -> None:
            db.execute("UPDATE results SET par=? WHERE table_id=?", (par, table_id))

        await self.write(job)

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
            out.append({"result": json.loads(result), "par": par, "players": len(team),
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
        return [(seat, json.loads(action)) for seat, action in rows]

    # -- the outbox -----------------------------------------------------------------------

    async def outbox(self, table_id: int) -> list[tuple[int, str, dict[str, Any]]]:
        rows = await self._fetchall(
            "SELECT id, kind, payload FROM outbox WHERE table_id=? ORDER BY id", (table_id,))
        return [(i, kind, json.loads(payload)) for i, kind, payload in rows]

    async def outbox_done(self, item_id: int) -> None:
        def job(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM outbox WHERE id=?", (item_id,))

        await self.write(job)

    async def queue_outbox(self, table_id: int, items: list[tuple[str, dict[str, Any]]]) -> None:
        def job(db: sqlite3.Connection) -> None:
            self._queue_outbox(db, table_id, items, self.clock())

        await self.write(job)

    # -- questions (Narabi's asking; not part of the rules state) -------------------------

    async def add_question(self, table_id: int, turn: int, asker: int, asked: int,
                           payload: dict[str, Any], answer: bool | None = None) -> int:
        """Record a question (answered already when an AI was asked) and queue its post in the
        thread, in one transaction."""
        now = self.clock()

        def job(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO questions (table_id, turn, asker, asked, payload, answer, created_at) "
                "VALUES (?,?,?,?,?,?,?)", (table_id, turn, asker, asked, _dumps(payload),
                                           None if answer is None else int(answer), now))
            question_id = cur.lastrowid
            self._queue_outbox(db, table_id, [("question", {"id": question_id})], now)
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
                "payload": json.loads(payload), "answer": None if answer is None else bool(answer)}

    async def questions_of(self, table_id: int) -> list[dict[str, Any]]:
        """Every question of a running table, oldest first, as the table saw them (public)."""
        rows = await self._fetchall(
            "SELECT turn, asker, asked, payload, answer, created_at FROM questions "
            "WHERE table_id=? ORDER BY id", (table_id,))
        out = []
        for turn, asker, asked, payload, answer, created_at in rows:
            question = json.loads(payload)
            out.append({"turn": turn, "asker": asker, "asked": asked,
                        "card": question.get("card"), "other": question.get("other"),
                        "answer": None if answer is None else bool(answer), "at": created_at})
        return out

    async def answer_question(self, question_id: int, answer: bool) -> bool:
        """Record the answer once; False when it was already answered."""
        def job(db: sqlite3.Connection) -> bool:
            cur = db.execute("UPDATE questions SET answer=? WHERE id=? AND answer IS NULL",
                                   (int(answer), question_id))
            return cur.rowcount == 1

        return await self.write(job)

    # -- data lifecycle ---------------------------------------------------------------------

    async def stale_lobbies(self, idle_since: float) -> list[int]:
        """Lobbies nobody joined, left or started since ``idle_since``."""
        rows = await self._fetchall(
            "SELECT id FROM game_tables WHERE status='lobby' AND updated_at < ?", (idle_since,))
        return [r[0] for r in rows]

    async def purge_closed(self, before: float) -> int:
        """Delete finished and cancelled tables (with their seats, results and logs) whose
        last change is older than ``before``; returns how many."""
        def job(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "DELETE FROM game_tables WHERE status IN ('finished','cancelled') "
                "AND updated_at < ? AND id NOT IN (SELECT table_id FROM outbox)", (before,))
            return cur.rowcount

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
            out.append({"table_id": table_id, "game": game_key, "result": json.loads(result),
                        "finished_at": finished_at, "seats": seats,
                        "channel_id": thread_id or channel_id})
        return out, total
