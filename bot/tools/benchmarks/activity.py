"""The Activity: launch → live board (code exchange, session, first state, live socket), a
move → every open board with 200 boards open on 100 tables (the boards in a process of their
own), the server's memory per open board, and Discord's counted calls per move with boards
open. The real bot and Activity server against the stand-in; pictures swapped out."""
from __future__ import annotations

import asyncio
import gc
import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from .clicks import pct

#: seconds between two moves sent (20 moves a second across the tables)
MOVE_GAP = 0.05


def _rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def _tables(h, count: int) -> list[tuple[int, Any, list[Any]]]:
    """``count`` two-player tables (Sàréná and Sensei in turn), started through the domain,
    each in a channel of its own: (table id, channel, players)."""
    from ...store import SeatRow
    from ...testing.fake_discord import Member, snowflake

    made = []
    for i in range(count):
        game = ("sarena", "sensei")[i % 2]
        channel = snowflake()
        members = [Member(50_000 + 2 * i + k, f"b{i}-{k}") for k in range(2)]
        live = await h.bot.tables.open_lobby(
            game, guild_id=h.fake.guild_id, channel_id=channel, host_id=members[0].id,
            host_name=members[0].name, options=None, locale="en",
            seats=[SeatRow(k, m.id, m.name) for k, m in enumerate(members)])
        await h.bot.tables.start(live.id, members[0].id, use_thread=False, seed=i)
        made.append((live.id, channel, members))
    return made


async def _launch(h, http, member, channel, table_id, instance) -> tuple[float, str, str]:
    """One launch, as the page does it after Discord's ``authorize``: (seconds to a live
    board, the session, the instance)."""
    from ...testing.activity_kit import Page, code_for

    code, instance = code_for(h, member, channel, instance)
    started = time.perf_counter()
    page = Page(h, http)
    await page.sign_in(code, instance)
    await page.state(table_id)
    await page.open_live([table_id])
    await page.state_at(table_id, 0)
    elapsed = time.perf_counter() - started
    await page.close()
    assert page.session is not None
    return elapsed, page.session, instance


async def _counted_per_move(h, http, sessions, tables, moves: int) -> dict[str, Any]:
    """Counted calls per Activity move and per button move, with every board open."""
    from ...testing.activity_kit import Page
    from ...testing.flows import Table, board, random_move, sarena_path, tap_through

    rng = random.Random(5)
    activity, buttons = [], []
    sarena = [t for t in tables if (await h.bot.tables.get(t[0])).row.game == "sarena"]
    for k in range(moves):
        table_id, channel, members = sarena[k % len(sarena)]
        live = await h.bot.tables.get(table_id)
        if live.game is None or live.game.result() is not None:
            continue
        await h.settle()
        since = len(h.fake.requests)
        seat = live.game.to_move
        if k % 2 == 0:
            page = Page(h, http)
            page.session = sessions[(table_id, seat)]
            await page.act(table_id, live.row.version, [rng.choice(live.game.legal_actions(seat))])
            target = activity
        else:
            table = Table(table_id, {}, live.row.game_channel_id, members)
            _, action = await random_move(h, table, rng)
            await tap_through(h, members[seat], board(h, table), sarena_path(board(h, table),
                                                                             action))
            target = buttons
        await h.settle()
        target.append(len([r for r in h.fake.counted(since) if not _dm(h, r.path)]))
    return {"activity_move": _spread(activity), "button_move": _spread(buttons)}


def _dm(h, path: str) -> bool:
    """A call that tells someone privately (opening their DM channel, or posting in it)."""
    parts = path.split("/")
    return path.startswith("/users/@me/channels") or (
        parts[1] == "channels" and parts[2].isdigit() and int(parts[2]) in h.fake.dm_channels)


def _spread(values: list[int]) -> dict[str, Any]:
    return {"min": min(values), "max": max(values), "mean": round(sum(values) / len(values), 2),
            "n": len(values)} if values else {}


async def bench_activity(quick: bool = False) -> dict[str, Any]:
    import aiohttp

    from ...testing.activity_kit import Page, start_activity_bot
    from ...testing.fake_discord import FakeDiscord

    table_count = 20 if quick else 100
    move_count = 60 if quick else 300
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-activity-") as folder:
        # 200 launches from one loopback address in a few seconds: the sign-in throttle (which
        # the door's tests measure) would rightly refuse most, so it is opened wide here.
        h = await start_activity_bot(Path(folder) / "bench.sqlite3", FakeDiscord(time_scale=20.0),
                                     activity_signin_per_address=100_000,
                                     activity_signin_per_minute=100_000,
                                     activity_signin_in_flight=1_000)
        for cog in h.bot.cogs.values():
            if hasattr(cog, "render"):  # the bot's own work, not Pillow's
                cog.render = lambda view, names, locale="en": b"\x89PNG"  # type: ignore[method-assign]
        server = h.bot.activity_server
        try:
            tables = await _tables(h, table_count)
            sessions: dict[tuple[int, int], str] = {}
            launches = []
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
                for table_id, channel, members in tables:
                    instance = None
                    for seat, member in enumerate(members):
                        seconds, session, instance = await _launch(h, http, member, channel,
                                                                   table_id, instance)
                        launches.append(seconds)
                        sessions[(table_id, seat)] = session
                boards = [[session, table_id] for (table_id, _), session in sessions.items()]
                gc.collect()
                tracemalloc.start()
                rss_before = _rss_kb()
                before = tracemalloc.take_snapshot()
                child = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot.tools.benchmarks.activity_clients",
                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
                assert child.stdin is not None and child.stdout is not None
                child.stdin.write(json.dumps({"url": server.url, "boards": boards}).encode()
                                  + b"\n")
                await child.stdin.drain()
                assert (await child.stdout.readline()).strip() == b"ready"
                gc.collect()
                after = tracemalloc.take_snapshot()
                rss_after = _rss_kb()
                tracemalloc.stop()
                grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
                memory = {"tracemalloc_kb_per_board": round(grown / len(boards) / 1024, 1),
                          "rss_kb_per_board": round((rss_after - rss_before) / len(boards), 1),
                          "boards": len(boards)}

                sent: dict[tuple[int, int], float] = {}
                #: board -> [(version, when)] as pushed (a board is sent the newest version:
                #: two moves in quick succession may arrive as one state)
                received: dict[int, list[tuple[int, float]]] = {}

                async def read() -> None:
                    while True:
                        line = (await child.stdout.readline()).decode().strip()
                        if not line or line == "done":
                            return
                        index, _, version, at = line.split()
                        received.setdefault(int(index), []).append((int(version), float(at)))

                reader = asyncio.ensure_future(read())
                rng = random.Random(11)
                pending: set[asyncio.Task[Any]] = set()

                async def move(table_id: int, sent: dict[tuple[int, int], float] = sent) -> None:
                    live = await h.bot.tables.get(table_id)
                    if live.game is None or live.game.result() is not None:
                        return
                    seat = live.game.to_move
                    legal = live.game.legal_actions(seat)
                    page = Page(h, http)
                    page.session = sessions[(table_id, seat)]
                    version = live.row.version
                    at = time.monotonic()
                    status, _ = await page.act(table_id, version, [rng.choice(legal)])
                    if status == 200:
                        sent[(table_id, version + 1)] = at

                busy: set[int] = set()
                for _ in range(move_count):
                    free = [t[0] for t in tables if t[0] not in busy]
                    table_id = rng.choice(free)
                    busy.add(table_id)
                    task = asyncio.ensure_future(move(table_id))
                    task.add_done_callback(lambda _t, tid=table_id: busy.discard(tid))
                    pending.add(task)
                    await asyncio.sleep(MOVE_GAP)
                await asyncio.gather(*pending)
                await asyncio.sleep(1.0)
                # Then every table at once: one move each, sent together.
                burst: dict[tuple[int, int], float] = {}
                await asyncio.gather(*(move(t[0], burst) for t in tables))
                await asyncio.sleep(1.0)
                child.stdin.close()
                await reader
                await child.wait()
                watchers: dict[int, list[int]] = {}
                for index, (_, table_id) in enumerate(boards):
                    watchers.setdefault(int(table_id), []).append(index)

                def delays(moves: dict[tuple[int, int], float]) -> tuple[list[float], int]:
                    """Per move, until its last board had it; and the moves never seen."""
                    out, lost = [], 0
                    for (table_id, version), at in moves.items():
                        arrivals = [min((when for v, when in received.get(index, ())
                                         if v >= version), default=None)
                                    for index in watchers[table_id]]
                        if None in arrivals:
                            lost += 1
                        else:
                            out.append(max(arrivals) - at)  # type: ignore[type-var]
                    return out, lost

                fanout, missed = delays(sent)
                burst_fanout, burst_missed = delays(burst)
                await h.settle()
                counted = await _counted_per_move(h, http, sessions, tables, 8 if quick else 20)
        finally:
            await h.bot.close()
    return {
        "tables": table_count, "open_boards": table_count * 2,
        "launch_to_live_ms": {"p50": round(pct(launches, 50) * 1000, 1),
                              "p95": round(pct(launches, 95) * 1000, 1), "n": len(launches)},
        "move_to_every_board_ms": {"p50": round(pct(fanout, 50) * 1000, 1),
                                   "p99": round(pct(fanout, 99) * 1000, 1), "n": len(fanout),
                                   "moves_per_s": round(1 / MOVE_GAP), "missed": missed},
        "all_tables_at_once_ms": {"p50": round(pct(burst_fanout, 50) * 1000, 1),
                                  "p99": round(pct(burst_fanout, 99) * 1000, 1),
                                  "n": len(burst_fanout), "missed": burst_missed},
        "memory_per_open_board": memory,
        "counted_calls_per_move": counted,
        "pushes": server.hub.pushed if server is not None else 0,
    }


def print_activity(a: dict[str, Any]) -> None:
    lt, mv, mem, cc = (a["launch_to_live_ms"], a["move_to_every_board_ms"],
                       a["memory_per_open_board"], a["counted_calls_per_move"])
    print(f"activity: launch → live board p50 {lt['p50']} ms p95 {lt['p95']} ms (n={lt['n']}, "
          f"loopback; target p95 ≤ 1.5 s)")
    print(f"  move → every open board ({a['open_boards']} boards on {a['tables']} tables, "
          f"{mv['moves_per_s']} moves/s): p50 {mv['p50']} ms p99 {mv['p99']} ms "
          f"(n={mv['n']}, {mv['missed']} missed; target p99 ≤ 300 ms)")
    b = a["all_tables_at_once_ms"]
    print(f"  every table moving at once ({b['n']} moves sent together): p50 {b['p50']} ms "
          f"p99 {b['p99']} ms ({b['missed']} missed)")
    print(f"  server memory per open board: {mem['tracemalloc_kb_per_board']} KB allocated "
          f"(resident: {mem['rss_kb_per_board']} KB, tracemalloc's own bookkeeping included; "
          f"target ≤ 100 KB)")
    print(f"  counted calls per move with boards open: by button {cc['button_move']}, "
          f"from the Activity {cc['activity_move']} (target: button unchanged at 1)")


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.tools.benchmarks.activity [--quick] [--json]``: this key of
    ``python -m bot bench`` alone."""
    import argparse
    import logging

    parser = argparse.ArgumentParser(prog="python -m bot.tools.benchmarks.activity")
    parser.add_argument("--quick", action="store_true", help="20 tables and 60 moves")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord.client").setLevel(logging.ERROR)
    figures = asyncio.run(bench_activity(args.quick))
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_activity(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
