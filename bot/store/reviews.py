"""Stored game reviews: one row per finished game, written once after its end (see
``bot.runtime.reviews``), read by the review viewer. A mixin of ``Store``."""
from __future__ import annotations

from typing import Any, Iterable

from .rows import dumps, loads
from .tx import Tx


class ReviewQueries:
    """The queries on ``reviews``; the backend plumbing (``write``, ``_fetchall``, ``scope``,
    ``clock``) is the Store's."""

    async def save_review(self, table_id: int, body: dict[str, Any]) -> bool:
        """Store a finished game's review unless one of the same or a newer version is stored
        (a review is never recomputed, and two processes never overwrite each other). Returns
        whether this one was stored; False too when the game is gone (purged meanwhile)."""
        version = int(body.get("version", 0))

        async def job(tx: Tx) -> bool:
            exists = await tx.fetchval("SELECT 1 FROM game_tables WHERE id=?", (table_id,))
            if exists is None:
                return False
            changed = await tx.execute(
                "INSERT INTO reviews (table_id, version, body, created_at) VALUES (?,?,?,?) "
                "ON CONFLICT (table_id) DO UPDATE SET version=excluded.version, "
                "body=excluded.body, created_at=excluded.created_at "
                "WHERE reviews.version < excluded.version",
                (table_id, version, dumps(body), self.clock()))  # type: ignore[attr-defined]
            return changed > 0

        return await self.write(job)  # type: ignore[attr-defined]

    async def review(self, table_id: int) -> dict[str, Any] | None:
        """The stored review of a game, or None."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT body FROM reviews WHERE table_id=?", (table_id,))
        return loads(rows[0][0]) if rows else None

    async def review_version(self, table_id: int) -> int | None:
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT version FROM reviews WHERE table_id=?", (table_id,))
        return int(rows[0][0]) if rows else None

    async def unreviewed(self, games: Iterable[str], version: int) -> list[int]:
        """This process's finished games of ``games`` with no review of ``version`` or newer,
        oldest first."""
        names = sorted(set(games))
        if not names:
            return []
        marks = ",".join("?" for _ in names)
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT g.id FROM game_tables g WHERE g.status='finished' AND g.seed IS NOT NULL "
            f"AND g.game IN ({marks}) AND {self.scope.sql('g.guild_id')} "  # type: ignore[attr-defined]
            "AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.table_id = g.id AND r.version >= ?) "
            "ORDER BY g.id", (*names, version))
        return [int(r[0]) for r in rows]
