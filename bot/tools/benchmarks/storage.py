"""What the database costs: bytes kept per finished game, and the start-up restore of many
unfinished tables with their turn clocks.
"""
from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .clicks import pct


def bench_finished_size(games: int) -> dict[str, float]:
    """Bytes the database grows by per finished game (seats, result, packed log, indexes),
    measured on the file after VACUUM over ``games`` games of each kind."""
    return {key: asyncio.run(_finished_size(key, seats, games))
            for key, seats in (("narabi", 5), ("sensei", 2), ("sarena", 4))}


async def _finished_size(key: str, seats: int, games: int) -> float:
    import sqlite3

    from ...store import Store
    from ...domain.tables import TableService

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "size.sqlite3"

        def size() -> int:
            db = sqlite3.connect(path, isolation_level=None)
            try:
                db.execute("DELETE FROM outbox")  # delivered by the reconciler in real life
                # Small pages, so that a few games are not lost in one page's slack.
                db.execute("PRAGMA journal_mode=DELETE")
                db.execute("PRAGMA page_size=512")
                db.execute("VACUUM")
                used = (db.execute("PRAGMA page_count").fetchone()[0]
                        * db.execute("PRAGMA page_size").fetchone()[0])
                db.execute("PRAGMA journal_mode=WAL")
                return used
            finally:
                db.close()

        await (await Store.open(path)).close()
        base = size()
        store = await Store.open(path)
        service = TableService(store)
        rng = random.Random(5)
        for n in range(games):
            host = 1_000 + n * 10
            live = await service.open_lobby(key, guild_id=1, channel_id=50_000 + n, host_id=host,
                                            host_name=f"Player {host}", options=None,
                                            locale="en-US")
            for s in range(1, seats):
                await service.join(live.id, host + s, f"Player {host + s}")
            live = await service.start(live.id, host, use_thread=False)
            while live.game.result() is None:
                seat = live.game.to_move
                if key == "sensei" and live.game.turn > 60:
                    action = {"type": "resign"}  # a 60-turn game, as people play them
                else:
                    action = rng.choice(live.game.legal_actions(seat))
                outcome = await service.act(live.id, host + seat, action)
                live = outcome.table
        await store.close()
        return round((size() - base) / games)


#: the columns of an unfinished table of the restore benches
UNFINISHED_COLUMNS = ("id, game, guild_id, channel_id, host_id, status, options, locale, seed, "
                      "version, state, thread_id, board_message_id, created_at, updated_at, "
                      "turn_limit, deadline, deadline_seat")
SEAT_INSERT = "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?,?,?,?)"


def narabi_states() -> list[str]:
    """Fifty dealt 4-player Narabi games, stored form."""
    from ...games import game_class

    cls = game_class("narabi")
    return [json.dumps(cls.new(4, {"advanced": False}, seed).to_json()) for seed in range(50)]


def unfinished_rows(ids: range, count: int, states: list[str],
                    now: float) -> tuple[list[tuple], list[tuple]]:
    """The rows (``UNFINISHED_COLUMNS``, then seats) of tables ``ids`` of ``count`` running
    4-player Narabi games, each in its thread, their day-long clocks falling due one by one."""
    tables = [(i, "narabi", 1, 10_000 + i, 1, "playing", '{"advanced":false}', "en-US", i, 0,
               states[i % len(states)], 20_000 + i, 30_000 + i, now, now, 86_400.0,
               now + 86_400.0 * (0.6 + i / count), 0) for i in ids]
    return tables, [(i, s, 100 + s, f"p{s}") for i in ids for s in range(4)]


async def bench_restore(count: int) -> dict[str, Any]:
    """Start-up restore of ``count`` unfinished tables from a fresh process's point of view."""
    import sqlite3

    from ...store import Store
    from ...domain.tables import TableService

    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "restore.sqlite3"
        store = await Store.open(db_path)
        await store.close()
        now = time.time()
        tables, seats = unfinished_rows(range(1, count + 1), count, narabi_states(), now)
        with sqlite3.connect(db_path) as db:
            db.executemany(f"INSERT INTO game_tables ({UNFINISHED_COLUMNS}) "
                           f"VALUES ({','.join('?' * 18)})", tables)
            db.executemany(SEAT_INSERT, seats)
        from ...runtime.turnclock import TurnClock

        started = time.perf_counter()
        store = await Store.open(db_path)
        service = TableService(store)
        restored = await service.restore()
        turnclock = TurnClock(service, on_change=lambda _: None)
        started_clock = time.perf_counter()
        clocks = await turnclock.load()
        clock_load = time.perf_counter() - started_clock
        elapsed = time.perf_counter() - started
        # The scheduler's round when nothing is due, and its memory: one heap over all clocks.
        ticks = []
        for _ in range(200):
            tick = time.perf_counter()
            await turnclock.run_due()
            ticks.append(time.perf_counter() - tick)
        heap_bytes = sys.getsizeof(turnclock._heap) + sum(
            sys.getsizeof(e) for e in turnclock._heap)
        # Half-time reminders falling due for a tenth of the tables at once (each a guarded
        # write with its message).
        store.clock = lambda: now + 86_400.0 * 0.2 + 1  # type: ignore[assignment]
        due_started = time.perf_counter()
        handled = await turnclock.run_due()
        due_seconds = time.perf_counter() - due_started
        # What lazy loading defers: every game state parsed, as if every table were clicked.
        started = time.perf_counter()
        for table_id in range(1, count + 1):
            await service.get(table_id)
        parse_all = time.perf_counter() - started
        await store.close()
    return {"tables": restored, "seconds": round(elapsed, 3),
            "all_states_loaded_seconds": round(parse_all, 3),
            "clock": {"clocks": clocks, "load_seconds": round(clock_load, 3),
                      "entries": len(turnclock._heap) + handled,
                      "heap_kb": round(heap_bytes / 1024, 1),
                      "idle_tick_us": round(pct(ticks, 50) * 1e6, 1),
                      "due_entries": handled, "due_seconds": round(due_seconds, 3),
                      "reminders_sent": turnclock.fired["reminders"]}}
