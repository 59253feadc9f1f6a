"""The same figures on SQLite and PostgreSQL in one run: a burst of clicks on every table at
once, commits per second sustained, and the restore of many unfinished tables.
"""
from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from .clicks import bench_bot, burst_clicks, ms, narabi_tables, settled_heap, switch_click
from .storage import SEAT_INSERT, UNFINISHED_COLUMNS, narabi_states, unfinished_rows


class _Databases:
    """Fresh databases for one backend: files in a temporary folder, or databases on a
    throwaway PostgreSQL server (fsync on, as SQLite's synchronous=FULL)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.server = None
        self.folder = tempfile.TemporaryDirectory()
        self.made = 0

    def __enter__(self) -> "_Databases":
        if self.kind == "postgres":
            from ...testing.pgserver import TempPostgres
            self.server = TempPostgres(durable=True).start()
        return self

    def new(self) -> Path | str:
        self.made += 1
        if self.server is None:
            return Path(self.folder.name) / f"db{self.made}.sqlite3"
        return self.server.new_database()

    def __exit__(self, *exc: object) -> None:
        if self.server is not None:
            self.server.stop()
        self.folder.cleanup()


async def _backend_clicks(db: Path | str, tables: int, bursts: int) -> dict[str, Any]:
    """Every table's player clicks at the same instant, ``bursts`` times over."""
    h = await bench_bot(db)
    try:
        opened = await narabi_tables(h, tables)
        for table_id, members in opened:  # warm up: every game state loaded, statements cached
            await switch_click(h, table_id, members)
        await h.settle()
        settled_heap(h)
        burst: list[float] = []
        for _ in range(bursts):
            burst += (await burst_clicks(h, opened))[0]
    finally:
        await h.bot.close()
    return ms(burst)


async def _backend_commits(db: Path | str, seconds: float, writers: int = 64) -> dict[str, Any]:
    """Commits per second sustained: ``writers`` tables each saving a move (its state, its
    action row, its version guard) as fast as the store takes them."""
    from ...store import SeatRow, Store

    store = await Store.open(db)
    try:
        rows = []
        for i in range(writers):
            table = await store.create_table(game="narabi", guild_id=1, channel_id=70_000 + i,
                                             host_id=1, host_name="p", options={}, locale="en")
            await store.set_seats(table.id, [SeatRow(0, 1, "p"), SeatRow(1, 2, "q")])
            await store.start_game(table.id, 1, {"n": 0}, None)
            rows.append(await store.get_table(table.id))
        state = {"cards": list(range(40)), "turn": 0}
        loop = asyncio.get_running_loop()
        stop_at = loop.time() + seconds
        durations: list[float] = []

        async def writer(row) -> None:
            while loop.time() < stop_at:
                row.version += 1
                started = time.perf_counter()
                await store.record_action(row, seat=0, user_id=1, action={"card": row.version},
                                          state=state)
                durations.append(time.perf_counter() - started)

        before, started = store.commits, time.perf_counter()
        await asyncio.gather(*(writer(r) for r in rows))
        elapsed = time.perf_counter() - started
        return dict(ms(durations), commits_per_s=round((store.commits - before) / elapsed),
                    writers=writers, transactions=store.batches)
    finally:
        await store.close()


async def _backend_restore(db: Path | str, count: int) -> dict[str, Any]:
    """Restore of ``count`` unfinished tables (with their clocks) by a fresh process."""
    from ...store import Store
    from ...domain.tables import TableService
    from ...runtime.turnclock import TurnClock

    store = await Store.open(db)
    states = narabi_states()
    now = time.time()

    async def fill(tx, first: int, last: int) -> None:
        tables, seats = unfinished_rows(range(first, last), count, states, now)
        await tx.executemany(f"INSERT INTO game_tables ({UNFINISHED_COLUMNS}, board_version) "
                             f"VALUES ({','.join('?' * 18)},0)", tables)
        await tx.executemany(SEAT_INSERT, seats)

    for first in range(1, count + 1, 2000):
        await store.write(lambda tx, f=first: fill(tx, f, min(count + 1, f + 2000)))
    # The bot was last up a minute ago: the restart gives those 60 s back to every clock, as a
    # real restart does.
    store.clock = lambda: now - 60.0
    await store.beat()
    await store.close()
    started = time.perf_counter()
    store = await Store.open(db)
    service = TableService(store)
    restored = 0

    async def restore() -> None:
        nonlocal restored
        restored = await service.restore()

    turnclock = TurnClock(service, on_change=lambda _: None)
    clocks = await turnclock.load(restore())  # as the bot starts
    elapsed = time.perf_counter() - started
    await store.close()
    return {"tables": restored, "clocks": clocks, "seconds": round(elapsed, 3),
            "downtime_given_back_s": round(turnclock.downtime)}


def bench_backends(kinds: list[str], quick: bool) -> dict[str, Any]:
    """The same figures on each backend, in the same run: a burst of clicks on every table
    at once, commits per second sustained, and the restore of many unfinished tables."""
    tables, bursts = (40, 2) if quick else (200, 3)
    restore = 1_000 if quick else 10_000
    out: dict[str, Any] = {}
    for kind in kinds:
        try:
            with _Databases(kind) as dbs:
                out[kind] = {
                    "bursts": bursts,
                    "clicks": asyncio.run(_backend_clicks(dbs.new(), tables, bursts)),
                    "commits": asyncio.run(_backend_commits(dbs.new(), 1.0 if quick else 3.0)),
                    "restore": asyncio.run(_backend_restore(dbs.new(), restore)),
                }
        except Exception as exc:  # a backend that cannot run here is reported, not fatal
            from ...testing.pgserver import Unavailable
            if not isinstance(exc, Unavailable):
                raise
            out[kind] = {"unavailable": str(exc)}
    return out


def print_backends(backends: dict[str, Any]) -> None:
    kinds = list(backends)
    ready = [k for k in kinds if "unavailable" not in backends[k]]
    for kind in kinds:
        if kind not in ready:
            print(f"database {kind}: not measured ({backends[kind]['unavailable']})")
    if not ready:
        return
    width = 14
    first = backends[ready[0]]
    print("databases, same run".ljust(46) + "".join(k.rjust(width) for k in ready))
    rows = [
        (f"{first['clicks']['n']} clicks, every table at once: p50",
         lambda b: f"{b['clicks']['p50_ms']:.1f} ms"),
        ("  p99", lambda b: f"{b['clicks']['p99_ms']:.1f} ms"),
        (f"commits/s sustained ({first['commits']['writers']} tables saving moves)",
         lambda b: f"{b['commits']['commits_per_s']}"),
        ("  one move saved: p99", lambda b: f"{b['commits']['p99_ms']:.1f} ms"),
        (f"restore {first['restore']['tables']} tables + clocks (60 s downtime)",
         lambda b: f"{b['restore']['seconds']:.3f} s"),
    ]
    for label, cell in rows:
        print(label.ljust(46) + "".join(cell(backends[k]).rjust(width) for k in ready))
    if "sqlite" in ready and "postgres" in ready:
        ratio = backends["postgres"]["clicks"]["p99_ms"] / backends["sqlite"]["clicks"]["p99_ms"]
        tables = backends["sqlite"]["clicks"]["n"] // backends["sqlite"].get("bursts", 1)
        print(f"  PostgreSQL click p99 = ×{ratio:.2f} SQLite's on {tables} tables (target ≤ ×1.5 "
              f"on 200 tables; the --quick sizes vary ×0.5–2.5 from run to run); restore target "
              f"≤ 1 s for 10,000 tables on either")
