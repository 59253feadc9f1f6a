"""Interaction handling: a click's time to its answer one at a time, at random times and all
tables at once; a store commit alone and many at once; many Start clicks while Discord is slow.
"""
from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from .clicks import (bench_bot, burst_clicks, ms, narabi_lobbies, narabi_tables, open_loop,
                      settled_heap, switch_click)


async def bench_interactions(tables: int, rounds: int, load_rate: float = 100.0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        h = await bench_bot(Path(tmp) / "bench.sqlite3")
        try:
            opened = await narabi_tables(h, tables)
            sequential: list[float] = []
            for _ in range(rounds):
                for table_id, members in opened:
                    got = await switch_click(h, table_id, members)
                    if got is None:
                        continue
                    await h.settle()
                    token, started = got
                    sequential.append(h.fake.acked_at[token] - started)
            load = await open_loop(h, opened, rate=load_rate, count=len(opened) * 2,
                                    rng=random.Random(11))
            settled_heap(h)
            burst, sent = await burst_clicks(h, opened)
            commit = await _bench_commit(h)
            contention = await _bench_contention(h, 100)
            scrape = _bench_scrape(h)
        finally:
            await h.bot.close()
    return {"tables": tables, "sequential": ms(sequential),
            "load": dict(ms(load), clicks_per_s=load_rate),
            "burst_all_tables": dict(ms(burst), answered=len(burst), sent=sent),
            "store_commit": commit, "contention": contention, "metrics_scrape": scrape}


def _bench_scrape(h) -> dict[str, Any]:
    """One ``/metrics`` answer built, with every table of the bench open: the time it holds
    the event loop, its size and its series."""
    from prometheus_client import generate_latest

    metrics = h.bot.console.metrics
    durations = []
    for _ in range(50):
        started = time.perf_counter()
        body = generate_latest(metrics)
        durations.append(time.perf_counter() - started)
    series = sum(1 for line in body.splitlines() if line and not line.startswith(b"#"))
    return dict(ms(durations), bytes=len(body), series=series)


async def _bench_contention(h, count: int) -> dict[str, Any]:
    """``count`` tables committing at the same moment (one write each, as a click makes)."""
    store = h.bot.store
    ids = list(h.bot.tables._cache)[:count]
    batches = store.batches

    async def one(table_id: int) -> float:
        started = time.perf_counter()
        await store.set_dm_open(table_id, 0, True)
        return time.perf_counter() - started

    durations = await asyncio.gather(*(one(i) for i in ids))
    return dict(ms(list(durations)), transactions=store.batches - batches)


async def _bench_commit(h) -> dict[str, float]:
    store = h.bot.store
    live = next(iter(h.bot.tables._cache.values()))
    durations = []
    async def touch(tx) -> None:
        await tx.execute("UPDATE game_tables SET updated_at=? WHERE id=?", (time.time(), live.id))

    for _ in range(200):
        started = time.perf_counter()
        await store.write(touch)
        durations.append(time.perf_counter() - started)
    return ms(durations)


async def bench_starts(count: int, latency: float) -> dict[str, Any]:
    """``count`` hosts press Start at the same instant while every Discord call takes
    ``latency`` seconds: how long until each click is answered (Discord allows 3 s)."""
    from ...testing.fake_discord import find_component

    with tempfile.TemporaryDirectory() as tmp:
        h = await bench_bot(Path(tmp) / "starts.sqlite3")
        try:
            lobbies = await narabi_lobbies(h, count)
            h.fake.latency = latency
            clicked = []
            for table_id, members, lobby in lobbies:
                token = await h.click(members[0], lobby, find_component(lobby, "start")["custom_id"],
                                      settle=False)
                clicked.append((token, h.fake.clicked_at[token]))
                await asyncio.sleep(0)
            await h.settle()
            waits = [h.fake.acked_at[tok] - t0 for tok, t0 in clicked if tok in h.fake.acked_at]
            started = 0
            for table_id, _, _ in lobbies:
                live = await h.bot.tables.get(table_id)
                started += bool(live.row.board_message_id) and live.row.status == "playing"
        finally:
            await h.bot.close()
    return dict(ms(waits), starts=count, answered_in_3s=sum(w <= 3.0 for w in waits),
                fully_started=started, discord_latency_ms=latency * 1000)
