"""SQLite persistence (aiosqlite, WAL): tables, seats, game state, action log, results.

Everything a click changes is written in one transaction and committed before the click is
answered, so a crash never loses an acknowledged move.
"""
from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Iterable

import aiosqlite

from .config import ConfigError

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
)

UNFINISHED = ("lobby", "playing")


class StoreError(Exception):
    pass


class LobbyExists(StoreError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"channel already has lobby {table_id}")
        self.table_id = table_id


@dataclass
class SeatRow:
    seat: int
    user_id: int
    name: str
    dm_open: bool = True


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


_TABLE_COLUMNS = ("id, game, guild_id, channel_id, host_id, status, options, locale, thread_id, "
                  "lobby_message_id, board_message_id, seed, version, state, rematch_of, invited_id")


def _row_to_table(row: sqlite3.Row | tuple) -> TableRow:
    (id_, game, guild_id, channel_id, host_id, status, options, locale, thread_id, lobby_id,
     board_id, seed, version, state, rematch_of, invited_id) = row
    return TableRow(id=id_, game=game, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                    status=status, options=json.loads(options), locale=locale,
                    thread_id=thread_id, lobby_message_id=lobby_id, board_message_id=board_id,
                    seed=seed, version=version, state=json.loads(state) if state else None,
                    rematch_of=rematch_of, invited_id=invited_id)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


class Store:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # One connection is shared by every coroutine: transactions must not interleave.
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> "Store":
        path = Path(path)
        if str(path) != ":memory:":
            from .config import check_database_path
            check_database_path(path)
        try:
            db = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as exc:
            raise ConfigError(f"cannot open the database {path}: {exc}") from None
        store = cls(db)
        try:
            await store._prepare(synchronous)
        except sqlite3.DatabaseError as exc:
            await db.close()
            raise ConfigError(f"the database file {path} is damaged or not a SQLite database "
                              f"({exc}): restore a backup or move it away to start fresh.") from None
        return store

    async def _prepare(self, synchronous: str) -> None:
        db = self._db
        async with db.execute("PRAGMA quick_check") as cur:
            verdict = (await cur.fetchone())[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(verdict)
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute(f"PRAGMA synchronous={synchronous}")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        await self.migrate()

    async def migrate(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cur:
            current = (await cur.fetchone())[0]
        if current > len(MIGRATIONS):
            raise sqlite3.DatabaseError(
                f"schema version {current} is newer than this bot ({len(MIGRATIONS)})")
        for version in range(current, len(MIGRATIONS)):
            async with self.transaction() as db:
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        await db.execute(statement)
                await db.execute(f"PRAGMA user_version={version + 1}")
        return len(MIGRATIONS)

    async def close(self) -> None:
        await self._db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            else:
                await self._db.execute("COMMIT")

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        async with self._db.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())

    # -- tables ---------------------------------------------------------------------------

    async def create_table(self, *, game: str, guild_id: int | None, channel_id: int,
                           host_id: int, host_name: str, options: dict[str, Any], locale: str,
                           rematch_of: int | None = None,
                           seats: list[tuple[int, str]] | None = None,
                           invited_id: int | None = None) -> TableRow:
        """A new lobby; raises LobbyExists when the channel already has one."""
        now = time.time()
        seat_list = seats or [(host_id, host_name)]
        async with self.transaction() as db:
            rows = await self._fetchall(
                "SELECT id FROM game_tables WHERE channel_id=? AND status='lobby'", (channel_id,))
            if rows:
                raise LobbyExists(rows[0][0])
            cur = await db.execute(
                "INSERT INTO game_tables (game, guild_id, channel_id, host_id, status, options, "
                "locale, rematch_of, invited_id, created_at, updated_at) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (game, guild_id, channel_id, host_id, "lobby", _dumps(options), locale,
                 rematch_of, invited_id, now, now))
            table_id = cur.lastrowid
            await db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?,?,?,?)",
                [(table_id, i, uid, name) for i, (uid, name) in enumerate(seat_list)])
        table = TableRow(id=table_id, game=game, guild_id=guild_id, channel_id=channel_id,
                         host_id=host_id, status="lobby", options=dict(options), locale=locale,
                         rematch_of=rematch_of, invited_id=invited_id)
        table.seats = [SeatRow(i, uid, name) for i, (uid, name) in enumerate(seat_list)]
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
            "SELECT seat, user_id, name, dm_open FROM seats WHERE table_id=? ORDER BY seat",
            (table_id,))
        return [SeatRow(s, u, n, bool(d)) for s, u, n, d in rows]

    async def unfinished_tables(self) -> list[TableRow]:
        """Every lobby and running game with its seats, without game states (those are loaded
        on first use): what a restart must bring back before it can route clicks."""
        columns = _TABLE_COLUMNS.replace(" state,", " NULL,")
        rows = await self._fetchall(
            f"SELECT {columns} FROM game_tables WHERE status IN ('lobby','playing')")
        tables = {r[0]: _row_to_table(r) for r in rows}
        seat_rows = await self._fetchall(
            "SELECT s.table_id, s.seat, s.user_id, s.name, s.dm_open FROM seats s "
            "JOIN game_tables t ON t.id = s.table_id WHERE t.status IN ('lobby','playing') "
            "ORDER BY s.table_id, s.seat")
        for table_id, seat, user_id, name, dm_open in seat_rows:
            tables[table_id].seats.append(SeatRow(seat, user_id, name, bool(dm_open)))
        return list(tables.values())

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

    async def set_seats(self, table_id: int, seats: list[SeatRow]) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM seats WHERE table_id=?", (table_id,))
            await db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, dm_open) VALUES (?,?,?,?,?)",
                [(table_id, s.seat, s.user_id, s.name, int(s.dm_open)) for s in seats])
            await db.execute("UPDATE game_tables SET updated_at=? WHERE id=?",
                             (time.time(), table_id))

    async def update_table(self, table_id: int, **fields: Any) -> None:
        allowed = {"thread_id", "lobby_message_id", "board_message_id", "status", "host_id"}
        if not fields or set(fields) - allowed:
            raise ValueError(f"cannot update {sorted(set(fields) - allowed)}")
        assignments = ", ".join(f"{k}=?" for k in fields)
        async with self.transaction() as db:
            await db.execute(f"UPDATE game_tables SET {assignments}, updated_at=? WHERE id=?",
                             (*fields.values(), time.time(), table_id))

    async def set_dm_open(self, table_id: int, seat: int, is_open: bool) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE seats SET dm_open=? WHERE table_id=? AND seat=?",
                             (int(is_open), table_id, seat))

    async def start_game(self, table_id: int, seed: int, state: dict[str, Any],
                         thread_id: int | None) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET status='playing', seed=?, state=?, version=0, "
                "thread_id=?, updated_at=? WHERE id=? AND status='lobby'",
                (seed, _dumps(state), thread_id, time.time(), table_id))

    async def record_actions(self, table: TableRow, *, user_id: int,
                             actions: list[tuple[int, dict[str, Any]]], state: dict[str, Any],
                             result: dict[str, Any] | None = None,
                             outcomes: list[tuple[int, int, str]] | None = None) -> None:
        """Append accepted actions (seat, action) and the state they produced (and the result if
        the game ended) in one transaction. ``table.version`` is the number of the last action."""
        now = time.time()
        status = "finished" if result is not None else "playing"
        first = table.version - len(actions) + 1
        async with self.transaction() as db:
            await db.executemany(
                "INSERT INTO actions (table_id, n, seat, user_id, action, at) VALUES (?,?,?,?,?,?)",
                [(table.id, first + i, seat, user_id, _dumps(action), now)
                 for i, (seat, action) in enumerate(actions)])
            await db.execute(
                "UPDATE game_tables SET state=?, version=?, status=?, updated_at=? WHERE id=?",
                (_dumps(state), table.version, status, now, table.id))
            if result is not None:
                await self._insert_result(db, table, result, outcomes or [], now)

    async def record_action(self, table: TableRow, *, seat: int, user_id: int,
                            action: dict[str, Any], state: dict[str, Any],
                            result: dict[str, Any] | None = None,
                            outcomes: list[tuple[int, int, str]] | None = None) -> None:
        await self.record_actions(table, user_id=user_id, actions=[(seat, action)], state=state,
                                  result=result, outcomes=outcomes)

    async def _insert_result(self, db: aiosqlite.Connection, table: TableRow,
                             result: dict[str, Any], outcomes: list[tuple[int, int, str]],
                             now: float) -> None:
        await db.execute(
            "INSERT INTO results (table_id, game, guild_id, result, finished_at) VALUES (?,?,?,?,?)",
            (table.id, table.game, table.guild_id, _dumps(result), now))
        await db.executemany(
            "INSERT INTO result_seats (table_id, seat, user_id, outcome) VALUES (?,?,?,?)",
            [(table.id, seat, uid, outcome) for seat, uid, outcome in outcomes])

    async def actions(self, table_id: int) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._fetchall(
            "SELECT seat, action FROM actions WHERE table_id=? ORDER BY n", (table_id,))
        return [(seat, json.loads(action)) for seat, action in rows]

    # -- questions (Narabi's asking; not part of the rules state) -------------------------

    async def add_question(self, table_id: int, turn: int, asker: int, asked: int,
                           payload: dict[str, Any]) -> int:
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO questions (table_id, turn, asker, asked, payload, created_at) "
                "VALUES (?,?,?,?,?,?)", (table_id, turn, asker, asked, _dumps(payload), time.time()))
            return cur.lastrowid

    async def get_question(self, question_id: int) -> dict[str, Any] | None:
        rows = await self._fetchall(
            "SELECT id, table_id, turn, asker, asked, payload, answer FROM questions WHERE id=?",
            (question_id,))
        if not rows:
            return None
        qid, table_id, turn, asker, asked, payload, answer = rows[0]
        return {"id": qid, "table_id": table_id, "turn": turn, "asker": asker, "asked": asked,
                "payload": json.loads(payload), "answer": None if answer is None else bool(answer)}

    async def answer_question(self, question_id: int, answer: bool) -> bool:
        """Record the answer once; False when it was already answered."""
        async with self.transaction() as db:
            cur = await db.execute("UPDATE questions SET answer=? WHERE id=? AND answer IS NULL",
                                   (int(answer), question_id))
            return cur.rowcount == 1

    # -- history and stats ----------------------------------------------------------------

    async def user_stats(self, guild_id: int | None, user_id: int) -> dict[str, dict[str, int]]:
        rows = await self._fetchall(
            "SELECT r.game, rs.outcome, COUNT(*) FROM result_seats rs JOIN results r "
            "ON r.table_id = rs.table_id WHERE rs.user_id=? AND r.guild_id IS ? "
            "GROUP BY r.game, rs.outcome", (user_id, guild_id))
        stats: dict[str, dict[str, int]] = {}
        for game, outcome, count in rows:
            stats.setdefault(game, {"win": 0, "loss": 0, "draw": 0})[outcome] = count
        return stats

    async def guild_stats(self, guild_id: int | None) -> dict[str, dict[str, int]]:
        rows = await self._fetchall(
            "SELECT r.game, COUNT(*), COUNT(DISTINCT rs.user_id) FROM results r "
            "JOIN result_seats rs ON rs.table_id = r.table_id WHERE r.guild_id IS ? "
            "GROUP BY r.game", (guild_id,))
        games = await self._fetchall(
            "SELECT game, COUNT(*) FROM results WHERE guild_id IS ? GROUP BY game", (guild_id,))
        players = {g: p for g, _, p in rows}
        return {g: {"games": n, "players": players.get(g, 0)} for g, n in games}

    async def recent_results(self, guild_id: int | None, limit: int = 10) -> list[dict[str, Any]]:
        rows = await self._fetchall(
            "SELECT r.table_id, r.game, r.result, r.finished_at FROM results r "
            "WHERE r.guild_id IS ? ORDER BY r.finished_at DESC LIMIT ?", (guild_id, limit))
        out = []
        for table_id, game, result, finished_at in rows:
            seats = await self._seats(table_id)
            out.append({"table_id": table_id, "game": game, "result": json.loads(result),
                        "finished_at": finished_at, "seats": seats})
        return out
