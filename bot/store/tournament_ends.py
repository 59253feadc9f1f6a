"""A tournament's games ending: the points written with the table's end, the round's end (or
a drawn knockout game's play-off) and the announcements queued with them, in the same
transaction."""
from __future__ import annotations

from typing import Any

from ..tournaments.knockout import replays_due
from ..tournaments.pairing import Played, table_points
from .rows import dumps, loads
from .tx import Tx


async def report_to_tournament(tx: Tx, table_id: int, result: dict[str, Any],
                               now: float, *, no_show: bool = False) -> None:
    """The end of a tournament's table, written with the table's end: the game's points (once:
    only while they are unset), and when it was the round's last game, the round's end and
    the tournament due for its next step. ``no_show``: the loser lost on time without having
    made a move (a forfeit)."""
    row = await tx.fetchrow("SELECT tournament_id, round, seats FROM tournament_games "
                            "WHERE table_id=? AND points IS NULL", (table_id,))
    if row is None:
        return
    tournament_id, round_no, seats = row
    # The tournament's row first: two tables of a round ending at once in two transactions
    # (PostgreSQL runs them side by side) take turns here, so the second one's count below
    # sees the first one's points and exactly one of them ends the round.
    await tx.execute("UPDATE tournaments SET updated_at=? WHERE id=?", (now, tournament_id))
    points = table_points(len(loads(seats)), result.get("winners") or (), bool(result.get("draw")))
    details = result.get("details") or {}
    detail: dict[str, Any] = {"reason": result.get("reason"), "turns": details.get("turns")}
    if no_show:
        # Not played, by the Swiss rules: the two may meet again, and the winner's point is
        # like a bye's (FIDE C.04.1).
        detail["forfeit"] = True
    changed = await tx.execute(
        "UPDATE tournament_games SET points=?, detail=? WHERE table_id=? AND points IS NULL",
        (dumps(list(points)), dumps(detail), table_id))
    if changed == 1:
        await maybe_end_round(tx, tournament_id, round_no, now)


async def maybe_end_round(tx: Tx, tournament_id: int, round_no: int, now: float) -> None:
    left = await tx.fetchval("SELECT COUNT(*) FROM tournament_games WHERE tournament_id=? "
                             "AND round=? AND points IS NULL", (tournament_id, round_no))
    if left:
        return
    if await _replays_due(tx, tournament_id, round_no):
        # A drawn knockout match is played again in this round: due now, not ended.
        await tx.execute("UPDATE tournaments SET next_at=?, rev=rev+1, updated_at=? WHERE id=? "
                         "AND status IN ('running','paused')", (now, now, tournament_id))
        return
    ended = await tx.execute("UPDATE tournament_rounds SET ended_at=? WHERE tournament_id=? "
                             "AND number=? AND ended_at IS NULL", (now, tournament_id, round_no))
    if ended != 1:
        return
    row = await tx.fetchrow("SELECT starts_at, round_every, round FROM tournaments WHERE id=?",
                            (tournament_id,))
    if row is None or row[2] != round_no:
        return
    starts_at, every, _ = row
    due = max(now, starts_at + round_no * every) if every else now
    await tx.execute("UPDATE tournaments SET next_at=?, rev=rev+1, updated_at=? WHERE id=? "
                     "AND status IN ('running','paused')", (due, now, tournament_id))
    await queue_event(tx, tournament_id, "round_end", {"round": round_no}, now)


async def _replays_due(tx: Tx, tournament_id: int, round_no: int) -> bool:
    fmt = await tx.fetchval("SELECT format FROM tournaments WHERE id=?", (tournament_id,))
    if fmt != "knockout":
        return False
    rows = await tx.fetch("SELECT board, seats, points, replay_of FROM tournament_games "
                          "WHERE tournament_id=? AND round=?", (tournament_id, round_no))
    played = [Played(round_no, b, tuple(loads(s)), None if p is None else tuple(loads(p)),
                     replay_of=rep)
              for b, s, p, rep in rows]
    rank = {uid: r for uid, r in await tx.fetch(
        "SELECT user_id, rank FROM tournament_entrants WHERE tournament_id=?", (tournament_id,))}
    return bool(replays_due(played, round_no, rank))


async def tournament_rated(tx: Tx, table_id: int) -> bool | None:
    """Whether the tournament a table belongs to is rated (None: not a tournament table)."""
    row = await tx.fetchrow("SELECT t.rated FROM tournament_games g JOIN tournaments t "
                            "ON t.id = g.tournament_id WHERE g.table_id=?", (table_id,))
    return None if row is None else bool(row[0])


async def queue_event(tx: Tx, tournament_id: int, kind: str, payload: dict[str, Any],
                 now: float) -> None:
    await tx.execute("INSERT INTO tournament_events (tournament_id, kind, payload, at) "
                     "VALUES (?,?,?,?)", (tournament_id, kind, dumps(payload), now))
