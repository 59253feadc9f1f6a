"""Human clicks beside background work: tables of hard AIs playing, and Narabi's par searches
(solved in the worker pool), against the same clicks alone. Par itself, timed in this process.
"""
from __future__ import annotations

import asyncio
import time
from typing import Any

from .clicks import clicks_beside, pct


async def bench_ai_load(tables: int, ai_tables: int, rate: float = 100.0) -> dict[str, Any]:
    """Clicks beside ``ai_tables`` Sensei tables of two hard AIs playing without pause (their
    searches in the worker pool, their boards published like any other)."""
    from ...store import SeatRow
    from ...testing.fake_discord import snowflake

    moves = {"played": 0, "seconds": 0.0}

    async def start_ais(h) -> None:
        h.bot.autoplayer.pause = 0.0
        still_playing = await h.bot.autoplayer.start_again()  # from the last loaded phase
        for _ in range(ai_tables - still_playing):
            seats = [SeatRow(0, -1, "AI · Hard", ai="hard"), SeatRow(1, -2, "AI · Hard", ai="hard")]
            live = await h.bot.tables.open_lobby(
                "sensei", guild_id=1, channel_id=snowflake(), host_id=-1, host_name="AI",
                options=None, locale="en-US", seats=seats)
            await h.bot.tables.start(live.id, -1, use_thread=False)
        # Until every worker is searching and the AI tables are under way.
        before = h.bot.autoplayer.moves
        for _ in range(500):
            if h.bot.pool.busy >= h.bot.settings.ai_workers and h.bot.autoplayer.moves > before:
                break
            await asyncio.sleep(0.02)
        moves.update(before=h.bot.autoplayer.moves, started=time.perf_counter())

    async def stop_ais(h) -> None:
        moves["played"] += h.bot.autoplayer.moves - moves["before"]
        moves["seconds"] += time.perf_counter() - moves["started"]
        moves["thinking"] = h.bot.autoplayer.active
        await h.bot.autoplayer.stop()

    figures = await clicks_beside(tables, rate, start_ais, stop_ais)
    return dict(figures, ai_tables=ai_tables,
                ai_moves_per_s=round(moves["played"] / moves["seconds"], 1),
                ai_tables_active=moves["thinking"])


#: Par before the exact search (breadth-first layers under a 20,000-node budget) on the same
#: 100 deals per size as ``bench_par``: the median of three runs on the 2-core development
#: machine.
PAR_BEFORE = {3: "p50 180 ms, p95 785 ms, max 1.82 s, 4/100 unknown",
              4: "p50 89 ms, p95 925 ms, max 1.39 s, 3/100 unknown",
              5: "p50 930 ms, p95 1.70 s, max 2.34 s, 47/100 unknown"}


#: Two of the hardest 5-player deals (basic mode) among seeds 0-999, for the load test.
HARD_PAR_SEEDS = (19, 378)


def _bench_deal(seats: int, index: int) -> dict[str, Any]:
    """Deal ``index`` of the par bench: seeded, every other one in advanced mode."""
    from ...games.narabi import Narabi

    return Narabi.new(seats, {"advanced": index % 2 == 1}, index).to_json()


def bench_par(deals: int) -> dict[str, Any]:
    """Time to compute the par of ``deals`` fixed deals per table size, in this process (the
    bot runs it in a worker process, at a lower priority)."""
    from ...games.narabi.solver import par

    out = {}
    for seats in (3, 4, 5):
        times, unknown = [], 0
        for index in range(deals):
            state = _bench_deal(seats, index)
            started = time.perf_counter()
            unknown += par(state)["status"] == "unknown"
            times.append(time.perf_counter() - started)
        out[seats] = {"deals": deals, "unknown": unknown, "p50_ms": round(pct(times, 50) * 1000, 1),
                      "p95_ms": round(pct(times, 95) * 1000, 1), "max_ms": round(max(times) * 1000, 1)}
    return out


async def bench_par_load(tables: int, searches: int, rate: float = 100.0) -> dict[str, Any]:
    """Clicks beside ``searches`` par computations of hard 5-player deals running back to back
    in the worker pool (as when games end at many tables at once)."""
    from ...games.narabi import Narabi

    states = [Narabi.new(5, {}, HARD_PAR_SEEDS[i % len(HARD_PAR_SEEDS)]).to_json()
              for i in range(searches)]
    running: list[asyncio.Task] = []
    solved = [0]

    async def keep_solving(h, state: dict[str, Any]) -> None:
        while True:
            await h.bot.pool.call("bot.games.narabi.solver:par", state)
            solved[0] += 1

    async def start_searches(h) -> None:
        running.extend(asyncio.create_task(keep_solving(h, s)) for s in states)
        for _ in range(500):
            if h.bot.pool.busy >= min(searches, h.bot.settings.ai_workers):
                break
            await asyncio.sleep(0.02)

    async def stop_searches(h) -> None:
        for task in running:
            task.cancel()  # the pool kills a worker whose call is cancelled
        await asyncio.gather(*running, return_exceptions=True)
        running.clear()

    figures = await clicks_beside(tables, rate, start_searches, stop_searches)
    return dict(figures, searches=searches, pars_computed=solved[0])


def print_par(times: dict[int, Any], load: dict[str, Any]) -> None:
    deals = times[5]["deals"]
    print(f"par (exact; {deals} seeded deals per table size, every other one in advanced mode, "
          f"solved in this process; target 5 players p95 ≤ 2.5 s, no unknown)")
    for seats, t in times.items():
        print(f"  {seats} players  p50 {t['p50_ms']:.0f} ms  p95 {t['p95_ms']:.0f} ms  "
              f"max {t['max_ms']:.0f} ms  {t['unknown']}/{t['deals']} unknown  "
              f"(before, deals 0-99: {PAR_BEFORE[seats]})")
    print(f"  beside it: {load['searches']} par searches of hard 5-player deals back to back on "
          f"{load['workers']} worker process(es) ({load['pars_computed']} computed): human clicks "
          f"at 100/s on {load['human_tables']} tables p99 {load['alone']['p99_ms']:.2f} ms alone "
          f"→ {load['loaded']['p99_ms']:.2f} ms beside them = ×{load['p99_ratio']} "
          f"(target ≤ ×1.5; before the worker pool: ×7)")
