"""The store's tournaments: the event, its entrants, its rounds and their games, and the
announcements it queues. A round and its tables are written by one transaction, guarded by the
tournament's version and the round's primary key, so no round is ever paired twice; a game's
points are written by the transaction that ends its table (``report_to_tournament``), once.
"""
from __future__ import annotations

from typing import Any, Sequence

from .core import StoreCore
from .errors import StaleWrite
from .rows import dumps, loads
from .tournament_ends import (maybe_end_round, queue_event, report_to_tournament,
                              tournament_rated)
from .tournament_rows import (TOURNAMENT_COLUMNS, EntrantRow, GameRow, NewTable,
                              TournamentRow)
from .tx import Tx

__all__ = ["TournamentQueries", "TournamentRow", "EntrantRow", "GameRow", "NewTable",
           "report_to_tournament", "tournament_rated"]

class TournamentQueries(StoreCore):
    """Tournaments, their entrants, rounds, games and announcements."""

    async def create_tournament(self, *, guild_id: int | None, channel_id: int,
                                organizer_id: int, name: str, game: str,
                                options: dict[str, Any], format: str, rounds: int,
                                per_table: int, turn_limit: float | None, timeout_policy: str,
                                rated: bool, starts_at: float, checkin: float | None,
                                round_every: float | None, seed: int, locale: str) -> int:
        now = self.clock()
        # Due at the check-in's opening, else at the start.
        first = starts_at - checkin if checkin else starts_at

        async def job(tx: Tx) -> int:
            tid = await tx.fetchval(
                "INSERT INTO tournaments (guild_id, channel_id, organizer_id, name, game, "
                "options, format, rounds, per_table, turn_limit, timeout_policy, rated, "
                "starts_at, checkin, round_every, status, seed, locale, next_at, created_at, "
                "updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'open',?,?,?,?,?) RETURNING id",
                (guild_id, channel_id, organizer_id, name, game, dumps(options), format, rounds,
                 per_table, turn_limit, timeout_policy, int(rated), starts_at, checkin,
                 round_every, seed, locale, first, now, now))
            await queue_event(tx, tid, "created", {"by": organizer_id}, now)
            return tid

        return await self.write(job)

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self._fetchall(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id=?",
                                    (tournament_id,))
        return TournamentRow.of(rows[0]) if rows else None

    async def tournaments_of(self, guild_id: int | None,
                             statuses: Sequence[str] = ("open", "running", "paused"),
                             limit: int = 25) -> list[TournamentRow]:
        marks = ",".join("?" for _ in statuses)
        rows = await self._fetchall(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id IS ? "
            f"AND status IN ({marks}) ORDER BY id DESC LIMIT ?", (guild_id, *statuses, limit))
        return [TournamentRow.of(r) for r in rows]

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await self._fetchall(
            "SELECT user_id, name, rank, ai, locale, checked_in, dropped FROM tournament_entrants "
            "WHERE tournament_id=? ORDER BY rank", (tournament_id,))
        return [EntrantRow(u, n, r, ai, loc, bool(c), d) for u, n, r, ai, loc, c, d in rows]

    async def tournament_games(self, tournament_id: int) -> list[GameRow]:
        rows = await self._fetchall(
            "SELECT round, board, table_id, seats, points, detail, manual, replay_of "
            "FROM tournament_games WHERE tournament_id=? ORDER BY round, board",
            (tournament_id,))
        return [GameRow(r, b, tid, tuple(loads(s)), None if p is None else tuple(loads(p)),
                        None if d is None else loads(d), bool(m), rep)
                for r, b, tid, s, p, d, m, rep in rows]

    async def tournament_of_table(self, table_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, board) of a tournament's table."""
        rows = await self._fetchall("SELECT tournament_id, round, board FROM tournament_games "
                                    "WHERE table_id=?", (table_id,))
        return tuple(rows[0]) if rows else None  # type: ignore[return-value]

    async def round_threads(self, table_ids: Sequence[int]) -> tuple[dict[int, int], int]:
        """The threads of a round's tables (table → thread, for those that have one) and how
        many tables still wait for theirs (a ``thread`` step in their outbox)."""
        if not table_ids:
            return {}, 0
        marks = ",".join("?" for _ in table_ids)
        # One statement, one snapshot: read apart, a thread delivered between the two reads
        # (its id recorded, then its step done) showed its table as neither waiting nor
        # threaded, and the round's message said it played in the channel.
        rows = await self._fetchall(
            "SELECT t.id, t.thread_id, EXISTS (SELECT 1 FROM outbox o WHERE o.table_id = t.id "
            f"AND o.kind = 'thread') FROM game_tables t WHERE t.id IN ({marks})",
            tuple(table_ids))
        threads = {int(i): int(th) for i, th, _ in rows if th is not None}
        return threads, sum(1 for _, _, pending in rows if pending)

    # -- entrants -------------------------------------------------------------------------

    async def add_entrant(self, tournament_id: int, user_id: int, name: str,
                          locale: str | None = None, ai: str | None = None) -> bool:
        """Join while the tournament is open; False when it is not (or already joined)."""
        return await self._enter(tournament_id, user_id, name, locale, ai)

    async def add_ai_entrant(self, tournament_id: int, name: str, level: str) -> bool:
        """Enter an AI player named ``name`` and its number among the AI players, with the
        next free negative id. Numbered inside the write, so two entered at once differ."""
        return await self._enter(tournament_id, None, name, None, level)

    async def _enter(self, tournament_id: int, user_id: int | None, name: str,
                     locale: str | None, ai: str | None) -> bool:
        now = self.clock()

        async def job(tx: Tx) -> bool:
            changed = await tx.execute("UPDATE tournaments SET rev=rev+1, updated_at=? "
                                       "WHERE id=? AND status='open'", (now, tournament_id))
            if changed != 1:
                return False
            lowest, count, rank = await tx.fetchrow(
                "SELECT COALESCE(MIN(user_id), 0), COUNT(ai), COALESCE(MAX(rank), 0) "
                "FROM tournament_entrants WHERE tournament_id=?", (tournament_id,))
            if user_id is None:
                uid, shown = min(0, lowest) - 1, f"{name} {count + 1}"
            elif await tx.fetchrow("SELECT 1 FROM tournament_entrants WHERE tournament_id=? "
                                   "AND user_id=?", (tournament_id, user_id)):
                raise StaleWrite("already joined")
            else:
                uid, shown = user_id, name
            await tx.execute("INSERT INTO tournament_entrants (tournament_id, user_id, name, rank, "
                             "ai, locale) VALUES (?,?,?,?,?,?)",
                             (tournament_id, uid, shown, rank + 1, ai, locale))
            return True

        try:
            return await self.write(job)
        except StaleWrite:
            return False

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        now = self.clock()

        async def job(tx: Tx) -> bool:
            changed = await tx.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id=? AND user_id=? AND "
                "tournament_id IN (SELECT id FROM tournaments WHERE status='open')",
                (tournament_id, user_id))
            if changed:
                await tx.execute("UPDATE tournaments SET rev=rev+1, updated_at=? WHERE id=?",
                                 (now, tournament_id))
            return changed == 1

        return await self.write(job)

    async def check_in(self, tournament_id: int, user_id: int) -> bool:
        now = self.clock()

        async def job(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE tournament_entrants SET checked_in=1 WHERE tournament_id=? AND user_id=? "
                "AND checked_in=0 AND tournament_id IN (SELECT id FROM tournaments "
                "WHERE status='open')", (tournament_id, user_id))
            if changed:
                await tx.execute("UPDATE tournaments SET rev=rev+1, updated_at=? WHERE id=?",
                                 (now, tournament_id))
            return changed == 1

        return await self.write(job)

    async def drop_entrant(self, tournament_id: int, user_id: int, by: int) -> bool:
        """The organizer drops a player from the next rounds (logged and announced)."""
        now = self.clock()

        async def job(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE tournament_entrants SET dropped=(SELECT round FROM tournaments WHERE id=?) "
                "WHERE tournament_id=? AND user_id=? AND dropped IS NULL",
                (tournament_id, tournament_id, user_id))
            if changed != 1:
                return False
            await tx.execute("UPDATE tournaments SET rev=rev+1, updated_at=? WHERE id=?",
                             (now, tournament_id))
            await queue_event(tx, tournament_id, "dropped", {"player": user_id, "by": by}, now)
            return True

        return await self.write(job)

    # -- the life of a tournament -------------------------------------------------------

    async def open_round(self, t: TournamentRow, round_no: int, round_seed: int,
                         tables: list[NewTable], byes: list[tuple[int, int]],
                         entrants_left: list[int] | None = None,
                         rounds: int | None = None) -> list[int]:
        """Round ``round_no`` with its tables (each a running game, dealt) and byes (board,
        entrant), in one transaction guarded by the tournament's version: refused
        (StaleWrite) when another process or an earlier attempt paired it already.
        ``entrants_left``: at round 1, who plays (the checked in), in seeding order; the
        others are removed."""
        now = self.clock()

        async def job(tx: Tx) -> list[int]:
            changed = await tx.execute(
                "UPDATE tournaments SET round=?, rounds=COALESCE(?, rounds), version=version+1, "
                "status='running', next_at=NULL, rev=rev+1, updated_at=? WHERE id=? "
                "AND version=? AND round=? AND status IN ('open','running')",
                (round_no, rounds, now, t.id, t.version, round_no - 1))
            if changed != 1:
                raise StaleWrite(f"tournament {t.id} moved on")
            await tx.execute("INSERT INTO tournament_rounds (tournament_id, number, seed, "
                             "started_at) VALUES (?,?,?,?)", (t.id, round_no, round_seed, now))
            if entrants_left is not None:
                # Who plays, in their seeding order (the others did not check in).
                kept = {int(u): rank for rank, u in enumerate(entrants_left, start=1)}
                for (uid,) in await tx.fetch("SELECT user_id FROM tournament_entrants "
                                             "WHERE tournament_id=?", (t.id,)):
                    if uid not in kept:
                        await tx.execute("DELETE FROM tournament_entrants WHERE tournament_id=? "
                                         "AND user_id=?", (t.id, uid))
                    else:
                        await tx.execute("UPDATE tournament_entrants SET rank=? "
                                         "WHERE tournament_id=? AND user_id=?",
                                         (kept[uid], t.id, uid))
            ids = await self._insert_tables(tx, t, round_no, tables, now)
            for board, uid in byes:
                await tx.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, table_id, seats, "
                    "points, detail) VALUES (?,?,?,NULL,?,?,?)",
                    (t.id, round_no, board, dumps([uid]), dumps([1.0]), dumps({"reason": "bye"})))
            await queue_event(tx, t.id, "round", {"round": round_no}, now)
            if not tables:
                await maybe_end_round(tx, t.id, round_no, now)
            return ids

        return await self.write(job)

    async def _insert_tables(self, tx: Tx, t: TournamentRow, round_no: int,
                             tables: list[NewTable], now: float) -> list[int]:
        """A round's running tables, their seats, their games in the round and their first
        outbox steps."""
        ids = []
        for table in tables:
            table_id = await tx.fetchval(
                "INSERT INTO game_tables (game, guild_id, channel_id, host_id, status, "
                "options, locale, seed, state, version, created_at, updated_at, rev, "
                "lobby_rev, board_version, turn_limit, timeout_policy, deadline, "
                "deadline_seat, reminded) VALUES (?,?,?,?,'playing',?,?,?,?,0,?,?,1,0,-1,?,?,?,?,0) "
                "RETURNING id",
                (t.game, t.guild_id, t.channel_id, t.organizer_id, dumps(t.options),
                 t.locale, table.seed, dumps(table.state), now, now, t.turn_limit,
                 t.timeout_policy, *table.clock))
            await tx.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, ai, locale) "
                "VALUES (?,?,?,?,?,?)",
                [(table_id, s.seat, s.user_id, s.name, s.ai, s.locale) for s in table.seats])
            await tx.execute(
                "INSERT INTO tournament_games (tournament_id, round, board, table_id, seats, "
                "replay_of) VALUES (?,?,?,?,?,?)",
                (t.id, round_no, table.board, table_id, dumps([s.user_id for s in table.seats]),
                 table.replay_of))
            await self._queue_outbox(tx, table_id, table.outbox, now)
            ids.append(table_id)
        return ids

    async def open_replays(self, t: TournamentRow, round_no: int, tables: list[NewTable],
                           walkovers: Sequence[tuple[int, int, int]] = ()) -> list[int]:
        """Knockout games played again after a draw, in the round they belong to, in one
        transaction guarded by the tournament's version (opened once, like a round).
        ``walkovers``: (board, entrant, match) for a replay whose opponent dropped."""
        now = self.clock()

        async def job(tx: Tx) -> list[int]:
            changed = await tx.execute(
                "UPDATE tournaments SET version=version+1, next_at=NULL, rev=rev+1, "
                "updated_at=? WHERE id=? AND version=? AND round=? AND status='running'",
                (now, t.id, t.version, round_no))
            if changed != 1:
                raise StaleWrite(f"tournament {t.id} moved on")
            ids = await self._insert_tables(tx, t, round_no, tables, now)
            for board, uid, match in walkovers:
                await tx.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, table_id, seats, "
                    "points, detail, replay_of) VALUES (?,?,?,NULL,?,?,?,?)",
                    (t.id, round_no, board, dumps([uid]), dumps([1.0]),
                     dumps({"reason": "walkover"}), match))
            await queue_event(tx, t.id, "replays", {"round": round_no,
                                               "boards": [x.board for x in tables]}, now)
            if not tables:
                await maybe_end_round(tx, t.id, round_no, now)
            return ids

        return await self.write(job)

    async def finish_tournament(self, t: TournamentRow, winner_id: int | None) -> bool:
        now = self.clock()

        async def job(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE tournaments SET status='finished', winner_id=?, next_at=NULL, "
                "version=version+1, rev=rev+1, updated_at=? WHERE id=? AND version=? "
                "AND status='running'", (winner_id, now, t.id, t.version))
            if changed == 1:
                await queue_event(tx, t.id, "finished", {"winner": winner_id}, now)
            return changed == 1

        return await self.write(job)

    async def set_tournament_status(self, tournament_id: int, status: str, by: int,
                                    allowed_from: Sequence[str]) -> bool:
        """Pause, resume or cancel (logged and announced). Cancelling stops the tables still
        being played; resuming makes the tournament due again."""
        now = self.clock()

        async def job(tx: Tx) -> bool:
            marks = ",".join("?" for _ in allowed_from)
            next_at = "next_at=?," if status == "running" else ""
            params: list[Any] = [status]
            if status == "running":
                params.append(now)
            changed = await tx.execute(
                f"UPDATE tournaments SET status=?, {next_at} version=version+1, rev=rev+1, "
                f"updated_at=? WHERE id=? AND status IN ({marks})",
                (*params, now, tournament_id, *allowed_from))
            if changed != 1:
                return False
            if status == "cancelled":
                await tx.execute("UPDATE tournaments SET next_at=NULL WHERE id=?", (tournament_id,))
                await tx.execute(
                    "UPDATE game_tables SET status='cancelled', closed_reason='tournament', "
                    "state=NULL, deadline=NULL, deadline_seat=NULL, rev=rev+1, updated_at=? "
                    "WHERE status='playing' AND id IN (SELECT table_id FROM tournament_games "
                    "WHERE tournament_id=? AND points IS NULL)", (now, tournament_id))
            await queue_event(tx, tournament_id, status, {"by": by}, now)
            return True

        return await self.write(job)

    async def set_game_points(self, tournament_id: int, round_no: int, board: int,
                              points: list[float], by: int) -> int | None:
        """An organizer's result for a game (logged and announced). A table still being played
        is closed. Returns the table's id (None for none), raises StaleWrite when there is no
        such game or the tournament is over."""
        now = self.clock()

        async def job(tx: Tx) -> int | None:
            # The tournament's row first (see report_to_tournament).
            await tx.execute("UPDATE tournaments SET rev=rev+1, updated_at=? WHERE id=?",
                             (now, tournament_id))
            row = await tx.fetchrow(
                "SELECT g.table_id, g.seats, g.points, g.replay_of FROM tournament_games g "
                "JOIN tournaments t "
                "ON t.id = g.tournament_id WHERE g.tournament_id=? AND g.round=? AND g.board=? "
                "AND t.status IN ('running','paused')", (tournament_id, round_no, board))
            if row is None:
                raise StaleWrite("no such game")
            table_id, seats, before, replay_of = row
            if len(loads(seats)) != len(points):
                raise StaleWrite("wrong number of scores")
            await tx.execute("UPDATE tournament_games SET points=?, manual=1, detail=? "
                             "WHERE tournament_id=? AND round=? AND board=?",
                             (dumps(points), dumps({"reason": "manual"}), tournament_id,
                              round_no, board))
            if table_id is not None:
                await tx.execute(
                    "UPDATE game_tables SET status='cancelled', closed_reason='tournament', "
                    "state=NULL, deadline=NULL, deadline_seat=NULL, rev=rev+1, updated_at=? "
                    "WHERE id=? AND status='playing'", (now, table_id))
            # Announced by the board people know it by (a play-off's is its first game's).
            await queue_event(tx, tournament_id, "manual", {
                "round": round_no, "board": replay_of or board, "points": points, "by": by,
                "before": None if before is None else loads(before), "seats": loads(seats)}, now)
            if before is None:
                await maybe_end_round(tx, tournament_id, round_no, now)
            return table_id

        return await self.write(job)

    async def due_tournaments(self, now: float) -> list[int]:
        rows = await self._fetchall(
            f"SELECT id FROM tournaments WHERE next_at IS NOT NULL AND next_at <= ? "
            f"AND status IN ('open','running') AND {self.scope.sql()} ORDER BY next_at", (now,))
        return [r[0] for r in rows]

    async def wake_stalled_tournaments(self) -> int:
        """Running tournaments whose current round has no game left to play but that nobody
        made due (a safety net: the round's end normally does it in its transaction)."""
        now = self.clock()
        return await self._statement(
            "UPDATE tournaments SET next_at=? WHERE status='running' AND next_at IS NULL "
            f"AND {self.scope.sql()} AND NOT EXISTS (SELECT 1 FROM tournament_games g "
            "WHERE g.tournament_id = tournaments.id AND g.round = tournaments.round "
            "AND g.points IS NULL)", (now,))

    async def next_tournament_due(self) -> float | None:
        rows = await self._fetchall(
            f"SELECT MIN(next_at) FROM tournaments WHERE next_at IS NOT NULL "
            f"AND status IN ('open','running') AND {self.scope.sql()}")
        return rows[0][0] if rows else None

    async def postpone_tournament(self, tournament_id: int, when: float | None,
                                  event: tuple[str, dict[str, Any]] | None = None) -> None:
        """Look again at ``when`` (None: only when a game ends), with an announcement."""
        now = self.clock()

        async def job(tx: Tx) -> None:
            await tx.execute("UPDATE tournaments SET next_at=?, rev=rev+1, updated_at=? WHERE id=?",
                             (when, now, tournament_id))
            if event is not None:
                await queue_event(tx, tournament_id, event[0], event[1], now)

        await self.write(job)

    # -- what the channel is told ---------------------------------------------------------

    async def tournament_events(self, tournament_id: int,
                                undelivered: bool = True) -> list[tuple[int, str, dict[str, Any], float]]:
        where = " AND delivered=0" if undelivered else ""
        rows = await self._fetchall(
            f"SELECT id, kind, payload, at FROM tournament_events WHERE tournament_id=?{where} "
            "ORDER BY id", (tournament_id,))
        return [(i, k, loads(p), at) for i, k, p, at in rows]

    async def tournaments_behind(self) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM tournaments WHERE (shown_rev < rev OR id IN (SELECT tournament_id "
            f"FROM tournament_events WHERE delivered=0)) AND {self.scope.sql()} ORDER BY id")
        return [r[0] for r in rows]

    async def event_delivered(self, event_id: int) -> None:
        await self._statement("UPDATE tournament_events SET delivered=1 WHERE id=?", (event_id,))

    async def set_tournament_message(self, tournament_id: int, message_id: int | None,
                                     shown_rev: int) -> None:
        await self._statement("UPDATE tournaments SET message_id=?, shown_rev=? WHERE id=?",
                              (message_id, shown_rev, tournament_id))

    async def event_stats(self, guild_id: int | None, user_id: int) -> tuple[int, int]:
        """Finished tournaments a member played here, and how many they won."""
        rows = await self._fetchall(
            "SELECT COUNT(*), SUM(CASE WHEN t.winner_id = e.user_id THEN 1 ELSE 0 END) "
            "FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id "
            "WHERE e.user_id=? AND t.guild_id IS ? AND t.status='finished'", (user_id, guild_id))
        played, won = rows[0] if rows else (0, 0)
        return int(played or 0), int(won or 0)
