"""The store's results and ratings: a finished game's result and rating (written with the
game's last move), cooperative records, leaderboards, history and stats.
"""
from __future__ import annotations

from typing import Any

from . import ratings
from .core import StoreCore
from .rows import TableRow, dumps, loads
from .tournaments import tournament_rated
from .tx import Tx


async def insert_result(tx: Tx, table: TableRow,
                        result: dict[str, Any], outcomes: list[tuple[int, int, str, bool]],
                        now: float) -> None:
    """The result of a game that just ended, per seat too (in the transaction of its last move)."""
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


async def rate_result(tx: Tx, table: TableRow, result: dict[str, Any],
                      cooperative: bool, now: float, per_day: int) -> None:
    """Rate the game that just ended, or record why it is unrated (``per_day``: rated games a
    day between the same people)."""
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
                                 same_players_today=same_today, per_day=per_day)
    if why is None and table.guild_id is None:
        why = "no_server"  # a group DM's or a DM's game: ratings are a server's
    if why is None and await tournament_rated(tx, table.id) is False:
        why = "tournament"  # an unrated tournament's games leave the ratings alone
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


class ResultQueries(StoreCore):
    """What finished games left: results, ratings, records and stats."""

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

    # -- history and stats ------------------------------------------------------------------

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
