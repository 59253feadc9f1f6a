"""What the operator's metrics cost a click: two bots in this process, one with METRICS_PORT
and one without, their clicks interleaved one for one (each pair meets the machine in the
same state, whatever else runs on it), the metrics side scraped over HTTP every second
meanwhile (Prometheus scrapes every 15 s or so)."""
from __future__ import annotations

import asyncio
import gc
import tempfile
from pathlib import Path
from typing import Any

from .clicks import bench_bot, burst_clicks, ms, narabi_tables, pct, switch_click

SCRAPE_EVERY = 1.0


async def bench_metrics_cost(tables: int, rounds: int) -> dict[str, Any]:
    import aiohttp

    with tempfile.TemporaryDirectory() as tmp:
        # Neither bot manages the process's collector: two would fight over it.
        off = await bench_bot(Path(tmp) / "off.sqlite3", metrics=False, manage_heap=False)
        on = await bench_bot(Path(tmp) / "on.sqlite3", metrics=True, manage_heap=False)
        scrapes = 0
        stop = asyncio.Event()

        async def scrape() -> None:
            nonlocal scrapes
            url = f"http://127.0.0.1:{on.bot.console.port}/metrics"
            async with aiohttp.ClientSession() as session:
                while not stop.is_set():
                    async with session.get(url) as response:
                        await response.read()
                    scrapes += 1
                    try:
                        await asyncio.wait_for(stop.wait(), SCRAPE_EVERY)
                    except asyncio.TimeoutError:
                        pass

        try:
            opened = {"off": await narabi_tables(off, tables),
                      "on": await narabi_tables(on, tables)}
            harness = {"off": off, "on": on}
            times: dict[str, list[float]] = {"off": [], "on": []}
            bursts: dict[str, list[float]] = {"off": [], "on": []}
            scraper = asyncio.create_task(scrape())
            # The collector's pauses (tens of milliseconds with two bots' tables in memory)
            # would fall on whichever side happened to be clicking: kept out of the phases.
            gc.disable()
            for round_ in range(rounds):
                gc.collect()
                order = ("off", "on") if round_ % 2 == 0 else ("on", "off")
                for i in range(tables):
                    for side in order:
                        h = harness[side]
                        got = await switch_click(h, *opened[side][i])
                        if got is None:
                            continue
                        await h.settle()
                        token, started = got
                        times[side].append(h.fake.acked_at[token] - started)
                for side in order:
                    bursts[side] += (await burst_clicks(harness[side], opened[side]))[0]
            stop.set()
            await scraper
        finally:
            gc.enable()
            await off.bot.close()
            await on.bot.close()
    return {"tables": tables, "off": ms(times["off"]), "on": ms(times["on"]),
            "p99_ratio": round(pct(times["on"], 99) / pct(times["off"], 99), 2),
            "burst_off": ms(bursts["off"]), "burst_on": ms(bursts["on"]),
            "burst_p99_ratio": round(pct(bursts["on"], 99) / pct(bursts["off"], 99), 2),
            "scrapes": scrapes}
