"""Learning: each person's place in a game's lesson, their puzzle attempts and puzzle ratings,
and the puzzles cut from this server's finished games. A mixin of ``Store``.

A puzzle attempt stores the puzzle itself (its JSON), so a puzzle from a game is answered
from what was shown even if the set changes, and an open attempt survives a restart. A second
try after a wrong answer is an attempt of its own whose stored puzzle names the first one
(``retry_of``): it is answered like any other but never moves the rating, which counts the
first answer only."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rows import dumps, loads
from .tx import Tx


@dataclass(frozen=True)
class PuzzleRating:
    mu: float
    sigma: float
    solved: int = 0
    failed: int = 0
    streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True)
class Attempt:
    id: int
    user_id: int
    game: str
    puzzle_id: str
    puzzle: dict[str, Any]
    status: str
    hinted: bool

    @property
    def retry_of(self) -> int | None:
        """The first attempt, when this one is the second try (its answer is not rated)."""
        first = self.puzzle.get("retry_of")
        return int(first) if first is not None else None


class LearningQueries:
    # == lessons ===========================================================================

    async def lesson_step(self, user_id: int, game: str) -> tuple[int, bool] | None:
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT step, finished FROM lessons WHERE user_id=? AND game=?", (user_id, game))
        return (int(rows[0][0]), bool(rows[0][1])) if rows else None

    async def set_lesson_step(self, user_id: int, game: str, step: int, *,
                              expected: int | None = None, finished: bool = False) -> bool:
        """Move a lesson to ``step``; with ``expected``, only from that step (a second click
        on the same button changes nothing). Returns whether it moved."""
        now = self.clock()  # type: ignore[attr-defined]

        async def job(tx: Tx) -> bool:
            if expected is None:
                changed = await tx.execute(
                    "INSERT INTO lessons (user_id, game, step, finished, updated_at) "
                    "VALUES (?,?,?,?,?) ON CONFLICT (user_id, game) DO UPDATE SET "
                    "step=excluded.step, finished=excluded.finished, "
                    "updated_at=excluded.updated_at",
                    (user_id, game, step, int(finished), now))
            else:
                changed = await tx.execute(
                    "UPDATE lessons SET step=?, finished=?, updated_at=? "
                    "WHERE user_id=? AND game=? AND step=?",
                    (step, int(finished), now, user_id, game, expected))
            return changed > 0

        return await self.write(job)  # type: ignore[attr-defined]

    # == puzzle attempts ===================================================================

    async def open_attempt(self, user_id: int, game: str, puzzle: dict[str, Any],
                           retry_of: int | None = None) -> int:
        now = self.clock()  # type: ignore[attr-defined]
        body = dict(puzzle, retry_of=retry_of) if retry_of is not None else puzzle

        async def job(tx: Tx) -> int:
            return int(await tx.fetchval(
                "INSERT INTO puzzle_attempts (user_id, game, puzzle_id, puzzle, status, "
                "created_at) VALUES (?,?,?,?,?,?) RETURNING id",
                (user_id, game, puzzle["id"], dumps(body), "open", now)))

        return await self.write(job)  # type: ignore[attr-defined]

    async def attempt(self, attempt_id: int) -> Attempt | None:
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id, user_id, game, puzzle_id, puzzle, status, hinted FROM puzzle_attempts "
            "WHERE id=?", (attempt_id,))
        if not rows:
            return None
        r = rows[0]
        return Attempt(int(r[0]), int(r[1]), r[2], r[3], loads(r[4]), r[5], bool(r[6]))

    async def open_attempt_of(self, user_id: int) -> Attempt | None:
        """The person's newest puzzle still open (what a typed answer answers)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id FROM puzzle_attempts WHERE user_id=? AND status='open' "
            "ORDER BY id DESC LIMIT 1", (user_id,))
        return await self.attempt(int(rows[0][0])) if rows else None

    async def mark_hinted(self, attempt_id: int) -> None:
        await self._statement(  # type: ignore[attr-defined]
            "UPDATE puzzle_attempts SET hinted=1 WHERE id=? AND status='open'", (attempt_id,))

    async def tried_puzzles(self, user_id: int, game: str) -> set[str]:
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE user_id=? AND game=? "
            "AND status <> 'open'", (user_id, game))
        return {r[0] for r in rows}

    async def finish_attempt(self, attempt_id: int, solved: bool,
                             rate: Any) -> tuple[PuzzleRating | None, PuzzleRating] | None:
        """Close an open attempt and move the person's puzzle rating, in one transaction:
        ``rate(before, solved, hinted) -> after``; returns (before, after), before None for a
        first puzzle. None when the attempt was already closed (a double click): nothing
        moves twice."""
        now = self.clock()  # type: ignore[attr-defined]

        async def job(tx: Tx) -> tuple[PuzzleRating | None, PuzzleRating] | None:
            row = await tx.fetchrow(
                "SELECT user_id, game, hinted FROM puzzle_attempts WHERE id=? AND status='open'",
                (attempt_id,))
            if row is None:
                return None
            user_id, game, hinted = int(row[0]), row[1], bool(row[2])
            old = await tx.fetchrow(
                "SELECT mu, sigma, solved, failed, streak, best_streak FROM puzzle_ratings "
                "WHERE user_id=? AND game=?", (user_id, game))
            before = PuzzleRating(*old) if old else None
            after: PuzzleRating = rate(before, solved, hinted)
            await tx.execute(
                "INSERT INTO puzzle_ratings (user_id, game, mu, sigma, solved, failed, streak, "
                "best_streak, updated_at) VALUES (?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT (user_id, game) DO UPDATE SET mu=excluded.mu, "
                "sigma=excluded.sigma, solved=excluded.solved, failed=excluded.failed, "
                "streak=excluded.streak, best_streak=excluded.best_streak, "
                "updated_at=excluded.updated_at",
                (user_id, game, after.mu, after.sigma, after.solved, after.failed,
                 after.streak, after.best_streak, now))
            await tx.execute(
                "UPDATE puzzle_attempts SET status=?, rating_after=?, finished_at=? WHERE id=?",
                ("solved" if solved else "failed", after.mu - 3 * after.sigma, now, attempt_id))
            return before, after

        return await self.write(job)  # type: ignore[attr-defined]

    async def close_unrated(self, attempt_id: int, solved: bool) -> bool:
        """Close an open second try: the rating stays as the first answer left it. Returns
        whether it closed (False after a double click)."""
        now = self.clock()  # type: ignore[attr-defined]

        async def job(tx: Tx) -> bool:
            return await tx.execute(
                "UPDATE puzzle_attempts SET status=?, finished_at=? WHERE id=? AND status='open'",
                ("solved" if solved else "failed", now, attempt_id)) > 0

        return await self.write(job)  # type: ignore[attr-defined]

    async def puzzle_rating(self, user_id: int, game: str) -> PuzzleRating | None:
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT mu, sigma, solved, failed, streak, best_streak FROM puzzle_ratings "
            "WHERE user_id=? AND game=?", (user_id, game))
        return PuzzleRating(*rows[0]) if rows else None

    async def puzzle_history(self, user_id: int, game: str, limit: int = 100) -> list[float]:
        """The shown rating after each finished attempt, oldest first (the last ``limit``)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT rating_after FROM puzzle_attempts WHERE user_id=? AND game=? "
            "AND status <> 'open' AND rating_after IS NOT NULL ORDER BY id DESC LIMIT ?",
            (user_id, game, limit))
        return [float(r[0]) for r in reversed(rows)]

    # == puzzles cut from finished games ===================================================

    async def save_game_puzzles(self, guild_id: int | None, table_id: int,
                                found: list[tuple[str, str, int, dict[str, Any]]]) -> int:
        """Store ``(puzzle_id, game, missed_by user id, body)`` rows once each."""
        now = self.clock()  # type: ignore[attr-defined]

        async def job(tx: Tx) -> int:
            stored = 0
            for puzzle_id, game, missed_by, body in found:
                stored += await tx.execute(
                    "INSERT INTO game_puzzles (puzzle_id, game, guild_id, table_id, missed_by, "
                    "body, created_at) VALUES (?,?,?,?,?,?,?) ON CONFLICT (puzzle_id) DO NOTHING",
                    (puzzle_id, game, guild_id, table_id, missed_by, dumps(body), now))
            return stored

        return await self.write(job)  # type: ignore[attr-defined]

    async def game_puzzles(self, guild_id: int | None, game: str, user_id: int,
                           exclude: set[str], limit: int = 50) -> list[dict[str, Any]]:
        """This server's puzzles of ``game`` not yet tried, the person's own missed wins
        first, newest first within each."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT puzzle_id, body FROM game_puzzles WHERE guild_id IS ? AND game=? "
            "ORDER BY CASE WHEN missed_by=? THEN 0 ELSE 1 END, created_at DESC LIMIT ?",
            (guild_id, game, user_id, limit + len(exclude)))
        return [loads(body) for pid, body in rows if pid not in exclude][:limit]
