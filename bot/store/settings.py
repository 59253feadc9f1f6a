"""The store's clocks and settings: running turn clocks and their reminders, the heartbeat that
gives back a restart's downtime, and what servers and members chose (turn limits, language,
reminders by direct message).
"""
from __future__ import annotations

from typing import Any

from .core import DEFAULT_TURN_LIMIT, ShardScope, StoreCore
from .tx import Tx


class SettingQueries(StoreCore):
    """Turn clocks, the heartbeat, and server and member settings."""

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

    # -- settings ---------------------------------------------------------------------------

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
