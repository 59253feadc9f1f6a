"""The store's tables and seats: lobbies, who sits where, what Discord shows of a table, and
when a lobby starts, goes stale or a closed table is purged.
"""
from __future__ import annotations

from typing import Any

from .core import StoreCore
from .errors import LobbyExists, StaleWrite
from .rows import SeatRow, TableRow, TABLE_COLUMNS, dumps, loads, row_to_table
from .tx import Tx


class TableQueries(StoreCore):
    """Tables and their seats, from the lobby to the purge."""

    async def create_table(self, *, game: str, guild_id: int | None, channel_id: int,
                           host_id: int, host_name: str, options: dict[str, Any], locale: str,
                           rematch_of: int | None = None,
                           seats: list[SeatRow] | None = None,
                           invited_id: int | None = None, turn_limit: float | None = None,
                           timeout_policy: str = "ai", surface: str | None = None) -> TableRow:
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
                "board_version, turn_limit, timeout_policy, surface) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,1,0,-1,?,?,?) RETURNING id",
                (game, guild_id, channel_id, host_id, "lobby", dumps(options), locale,
                 rematch_of, invited_id, now, now, turn_limit, timeout_policy, surface))
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
                         timeout_policy=timeout_policy, surface=surface)
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

    async def table_of_thread(self, thread_id: int) -> tuple[int, int] | None:
        """The newest table played in the thread ``thread_id``, and the channel it hangs from."""
        rows = await self._fetchall(
            "SELECT id, channel_id FROM game_tables WHERE thread_id=? ORDER BY id DESC LIMIT 1",
            (thread_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    async def tables_in_channel(self, channel_id: int, finished_since: float,
                                limit: int = 25) -> list[int]:
        """Lobbies and running games posted in ``channel_id`` or played in it (a thread), and
        games there finished since ``finished_since``, newest first (the Activity's list)."""
        rows = await self._fetchall(
            "SELECT id FROM game_tables WHERE (channel_id=? OR thread_id=?) AND "
            "(status IN ('lobby','playing') OR (status='finished' AND updated_at>=?)) "
            "ORDER BY id DESC LIMIT ?", (channel_id, channel_id, finished_since, limit))
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

    # -- data lifecycle ---------------------------------------------------------------------

    async def stale_lobbies(self, idle_since: float) -> list[int]:
        """Lobbies nobody joined, left or started since ``idle_since``."""
        rows = await self._fetchall(
            f"SELECT id FROM game_tables WHERE status='lobby' AND updated_at < ? "
            f"AND {self.scope.sql()}", (idle_since,))
        return [r[0] for r in rows]

    async def discard_lobby(self, table_id: int) -> bool:
        """Delete a lobby whose message could not be posted (nothing shows it, nobody joined
        it): no table is left that no message holds. False when it is no longer a lobby."""
        async def job(tx: Tx) -> bool:
            await tx.execute("DELETE FROM seats WHERE table_id=? AND table_id IN "
                             "(SELECT id FROM game_tables WHERE id=? AND status='lobby')",
                             (table_id, table_id))
            return bool(await tx.execute("DELETE FROM game_tables WHERE id=? AND status='lobby'",
                                         (table_id,)))

        return await self.write(job)

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
