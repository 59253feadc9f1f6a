"""``python -m bot migrate-db``: copy a whole database to another backend (SQLite to PostgreSQL
when a bot outgrows one process, or back for a local copy).

Rows are copied table by table in key order, in chunks, each chunk in one transaction with
``ON CONFLICT DO NOTHING``: a copy that was interrupted, or run again after the bot was finally
stopped, copies only what is missing and never a row twice.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, TextIO

from .core import backend_kind
from .schema import IDENTITY_TABLES
from .store import Store

#: every table, parents before children (foreign keys hold at each step)
TABLES: tuple[tuple[str, str], ...] = (
    ("game_tables", "id"),
    ("seats", "table_id, seat"),
    ("actions", "table_id, n"),
    ("results", "table_id"),
    ("result_seats", "table_id, seat"),
    ("rating_changes", "table_id, user_id"),
    ("questions", "id"),
    ("outbox", "id"),
    ("seat_votes", "table_id, seat, voter"),
    ("ratings", "guild_id, game, user_id"),
    ("guild_settings", "guild_id, game"),
    ("guild_language", "guild_id"),
    ("user_settings", "user_id"),
    ("heartbeat", "id"),
    ("shard_heartbeat", "shard"),
    ("reviews", "table_id"),
    ("tournaments", "id"),
    ("tournament_entrants", "tournament_id, user_id"),
    ("tournament_rounds", "tournament_id, number"),
    ("tournament_games", "tournament_id, round, board"),
    ("tournament_events", "id"),
    ("lessons", "user_id, game"),
    ("puzzle_attempts", "id"),
    ("puzzle_ratings", "user_id, game"),
    ("game_puzzles", "puzzle_id"),
)
CHUNK = 500


@dataclass
class Counts:
    table: str
    source: int = 0
    copied: int = 0
    already: int = 0
    skipped: int = 0


async def _columns(store: Store, table: str) -> list[str]:
    if store.kind == "sqlite":
        return [r[1] for r in await store._fetchall(f"PRAGMA table_info({table})")]
    return [r[0] for r in await store._fetchall(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
        "AND table_schema = current_schema() ORDER BY ordinal_position", (table,))]


async def _count(store: Store, table: str) -> int:
    return (await store._fetchall(f"SELECT COUNT(*) FROM {table}"))[0][0]


async def copy(source: Store, target: Store, *, progress: bool = True,
               out: TextIO = sys.stderr) -> list[Counts]:
    """Copy every row of ``source`` missing from ``target``; returns the counts per table."""
    from tqdm import tqdm

    totals = {name: await _count(source, name) for name, _ in TABLES}
    bar = tqdm(total=sum(totals.values()), unit="row", file=out, disable=not progress,
               mininterval=0.25, dynamic_ncols=True)
    counts: list[Counts] = []
    try:
        for name, key in TABLES:
            columns = await _columns(source, name)
            wanted = set(await _columns(target, name))
            columns = [c for c in columns if c in wanted]
            count = Counts(name, source=totals[name])
            before = await _count(target, name)
            listed = ", ".join(columns)
            insert = (f"INSERT INTO {name} ({listed}) VALUES ({', '.join('?' * len(columns))}) "
                      "ON CONFLICT DO NOTHING")
            bar.set_description(name)
            offset = 0
            while True:
                rows = await source._fetchall(
                    f"SELECT {listed} FROM {name} ORDER BY {key} LIMIT ? OFFSET ?",
                    (CHUNK, offset))
                if not rows:
                    break
                offset += len(rows)
                # A primary key PostgreSQL cannot hold (a rating from a game outside any
                # server, which SQLite's looser keys allowed) is left out and counted.
                keys = [columns.index(k.strip()) for k in key.split(",")]
                kept = [r for r in rows if all(r[i] is not None for i in keys)]
                count.skipped += len(rows) - len(kept)

                async def job(tx: Any, kept: list = kept) -> None:
                    await tx.executemany(insert, kept)

                if kept:
                    await target.write(job)
                bar.update(len(rows))
            count.copied = await _count(target, name) - before
            count.already = count.source - count.skipped - count.copied
            counts.append(count)
    finally:
        bar.close()
    if target.kind == "postgresql":
        # New rows must not take ids the copied ones already have.
        async def follow(tx: Any) -> None:
            for name in IDENTITY_TABLES:
                await tx.execute(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                 f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {name}), false)")

        await target.write(follow)
    return counts


def report(counts: list[Counts]) -> str:
    width = max(len(c.table) for c in counts)
    lines = [f"{'table'.ljust(width)}  {'in source':>9}  {'copied':>7}  {'already there':>13}"
             + ("  skipped" if any(c.skipped for c in counts) else "")]
    for c in counts:
        lines.append(f"{c.table.ljust(width)}  {c.source:>9}  {c.copied:>7}  {c.already:>13}"
                     + (f"  {c.skipped:>7}" if any(x.skipped for x in counts) else ""))
    lines.append(f"{'total'.ljust(width)}  {sum(c.source for c in counts):>9}  "
                 f"{sum(c.copied for c in counts):>7}  {sum(c.already for c in counts):>13}")
    return "\n".join(lines)


async def migrate_db(source_url: str, target_url: str, *, progress: bool = True,
                     out: TextIO = sys.stderr) -> list[Counts]:
    """Open both (each migrated to this bot's schema), copy, close."""
    from ..errors import ConfigError
    if source_url.strip() == target_url.strip():
        raise ConfigError("--from and --to are the same database.")
    for url, flag in ((source_url, "--from"), (target_url, "--to")):
        if not url.startswith(("sqlite:///", "postgresql://", "postgres://")):
            raise ConfigError(f"{flag} must be sqlite:///path or postgresql://…, got {url!r}.")
    if backend_kind(source_url) == "sqlite":
        from pathlib import Path
        path = Path(source_url[len("sqlite:///"):])
        if not path.is_file():
            raise ConfigError(f"--from: there is no database file at {path}.")
    source = await Store.open(source_url)
    try:
        target = await Store.open(target_url)
        try:
            return await copy(source, target, progress=progress, out=out)
        finally:
            await target.close()
    finally:
        await source.close()
