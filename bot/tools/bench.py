"""`python -m bot bench`: the figures the issues set targets for, measured on this machine.

Interaction handling runs the real bot (cogs, routing, store on a temporary SQLite file)
against the recorded fake Discord, with image rendering swapped out so the figure is the
bot's own work; rendering is measured per game separately.
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

from ..config import Settings


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _ms(values: list[float]) -> dict[str, float]:
    return {"p50_ms": round(_pct(values, 50) * 1000, 3), "p99_ms": round(_pct(values, 99) * 1000, 3),
            "n": len(values)}


async def _bot(db: Path | str):
    from ..client import TabletopBot
    from ..store import Store
    from ..testing.fake_discord import FakeDiscord, Harness

    store = await Store.open(db)
    url = db if isinstance(db, str) and "://" in db else None
    bot = TabletopBot(Settings("", Path("unused") if url else Path(db), None, "WARNING",
                               database_url=url), store, manage_heap=True)
    # Discord's counts, its rate-limit windows passing 20 times faster (as in the test suite):
    # these figures are the bot's own speed; the "discord" figures run at Discord's pace.
    harness = await Harness.start(bot, FakeDiscord(time_scale=20.0))
    for cog in bot.cogs.values():
        if hasattr(cog, "render"):
            cog.render = lambda view, names, locale="en": b"\x89PNG"  # type: ignore[method-assign]
    return harness


async def _narabi_lobbies(h, count: int) -> list[tuple[int, list, dict]]:
    """Open ``count`` full Narabi lobbies of 3 through the real command and Join buttons."""
    from ..testing.fake_discord import Member, find_component, snowflake

    lobbies = []
    for i in range(count):
        channel = snowflake()
        members = [Member(10_000 + 3 * i + k, f"p{i}-{k}") for k in range(3)]
        await h.command(members[0], "narabi", "start", channel_id=channel)
        lobby = h.fake.channel_messages(channel)[-1]
        table_id = int(find_component(lobby, "start")["custom_id"].split(":")[1])
        for m in members[1:]:
            await h.click(m, lobby, find_component(lobby, "join")["custom_id"])
        lobbies.append((table_id, members, lobby))
    return lobbies


async def _narabi_tables(h, count: int) -> list[tuple[int, list]]:
    """Open and start ``count`` Narabi tables of 3 through the real commands and buttons."""
    from ..testing.fake_discord import find_component

    tables = []
    for table_id, members, lobby in await _narabi_lobbies(h, count):
        await h.click(members[0], lobby, find_component(lobby, "start")["custom_id"])
        tables.append((table_id, members))
    return tables


async def _switch_click(h, table_id: int, members) -> tuple[str, float] | None:
    """One full switch confirmation (the click that changes the game) for the player to move."""
    prepared = await _prepare_switch(h, table_id, members)
    return None if prepared is None else await _send_click(h, prepared)


async def _prepare_switch(h, table_id: int, members) -> tuple[Any, dict, str] | None:
    """Who clicks what to confirm a switch at ``table_id``: the fake's side of a click, kept
    apart so that a burst measures the bot's work, not the senders'."""
    from ..testing.fake_discord import snowflake

    live = await h.bot.tables.get(table_id)
    if live is None or live.game is None or live.game.result() is not None:
        return None
    seat = live.game.to_move
    legal = live.game.legal_actions(seat)
    if not legal:
        return None
    action = random.Random(table_id * 7919 + live.row.version).choice(legal)
    custom_id = f"narabi:{table_id}:confirm:{live.row.version}.{action['card']}.{action['target']}"
    message = {"id": str(snowflake()), "channel_id": str(live.row.game_channel_id),
               "flags": 64, "content": "", "components": [
                   {"type": 1, "components": [{"type": 2, "style": 3, "label": "Confirm",
                                               "custom_id": custom_id}]}]}
    h.fake._message(int(message["channel_id"]), message, [], message_id=int(message["id"]),
                    flags=64)
    return members[seat], h.fake.messages[int(message["id"])], custom_id


async def _send_click(h, prepared: tuple[Any, dict, str]) -> tuple[str, float]:
    member, message, custom_id = prepared
    token = await h.click(member, message, custom_id, settle=False)
    return token, h.fake.clicked_at[token]


def _settled_heap(h) -> None:
    """The tables have been open a while: the quiet collector's round (every 10 minutes, see
    bot/heap.py) has frozen them, as it would have before any real burst."""
    if h.bot.heap is not None:
        h.bot.heap.run_once()


async def _burst(h, opened) -> tuple[list[float], int]:
    """Every table's player clicks at the same instant: the worst queueing case. The events
    arrive back to back; like the gateway reader, the loop may run between two. Returns the
    answer times and the number of clicks sent."""
    prepared = [await _prepare_switch(h, tid, m) for tid, m in opened]
    sent = []
    for click in filter(None, prepared):
        sent.append(await _send_click(h, click))
        await asyncio.sleep(0)
    await h.settle()
    return [h.fake.acked_at[token] - at for token, at in sent if token in h.fake.acked_at], len(sent)


async def bench_interactions(tables: int, rounds: int, load_rate: float = 100.0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        h = await _bot(Path(tmp) / "bench.sqlite3")
        try:
            opened = await _narabi_tables(h, tables)
            sequential: list[float] = []
            for _ in range(rounds):
                for table_id, members in opened:
                    got = await _switch_click(h, table_id, members)
                    if got is None:
                        continue
                    await h.settle()
                    token, started = got
                    sequential.append(h.fake.acked_at[token] - started)
            load = await _open_loop(h, opened, rate=load_rate, count=len(opened) * 2,
                                    rng=random.Random(11))
            _settled_heap(h)
            burst, sent = await _burst(h, opened)
            commit = await _bench_commit(h)
            contention = await _bench_contention(h, 100)
        finally:
            await h.bot.close()
    return {"tables": tables, "sequential": _ms(sequential),
            "load": dict(_ms(load), clicks_per_s=load_rate),
            "burst_all_tables": dict(_ms(burst), answered=len(burst), sent=sent),
            "store_commit": commit, "contention": contention}


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
    return dict(_ms(list(durations)), transactions=store.batches - batches)


async def bench_starts(count: int, latency: float) -> dict[str, Any]:
    """``count`` hosts press Start at the same instant while every Discord call takes
    ``latency`` seconds: how long until each click is answered (Discord allows 3 s)."""
    from ..testing.fake_discord import find_component

    with tempfile.TemporaryDirectory() as tmp:
        h = await _bot(Path(tmp) / "starts.sqlite3")
        try:
            lobbies = await _narabi_lobbies(h, count)
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
    return dict(_ms(waits), starts=count, answered_in_3s=sum(w <= 3.0 for w in waits),
                fully_started=started, discord_latency_ms=latency * 1000)


def bench_finished_size(games: int) -> dict[str, float]:
    """Bytes the database grows by per finished game (seats, result, packed log, indexes),
    measured on the file after VACUUM over ``games`` games of each kind."""
    return {key: asyncio.run(_finished_size(key, seats, games))
            for key, seats in (("narabi", 5), ("sensei", 2), ("sarena", 4))}


async def _finished_size(key: str, seats: int, games: int) -> float:
    import sqlite3

    from ..store import Store
    from ..domain.tables import TableService

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


async def _open_loop(h, opened, *, rate: float, count: int, rng: random.Random,
                     settle: bool = True) -> list[float]:
    """Clicks arriving at random (Poisson) times across all tables, whatever the bot is doing:
    each one's time to acknowledgement includes waiting behind the others. ``settle=False``
    waits only for the acknowledgements (other work, e.g. AI tables, may never end)."""
    loop = asyncio.get_running_loop()
    start, at = loop.time(), 0.0
    started = []
    for _ in range(count):
        at += rng.expovariate(rate)
        delay = start + at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        table_id, members = opened[rng.randrange(len(opened))]
        got = await _switch_click(h, table_id, members)
        if got is not None:
            started.append(got)
    if settle:
        await h.settle()
    else:
        for _ in range(3000):
            if all(token in h.fake.acked_at for token, _ in started):
                break
            await asyncio.sleep(0.01)
    return [h.fake.acked_at[token] - t0 for token, t0 in started if token in h.fake.acked_at]


async def _clicks_beside(tables: int, rate: float, start_load, stop_load) -> dict[str, Any]:
    """Human clicks at ``rate`` per second across ``tables`` Narabi tables: alone, then while a
    load runs (``start_load(h)`` returns once it is under way; ``stop_load(h)`` ends it), then
    alone again. The two alone phases bracket the loaded one, so drift over the run (a growing
    database, the collector) does not pass for the load's cost."""
    with tempfile.TemporaryDirectory() as tmp:
        h = await _bot(Path(tmp) / "bench.sqlite3")
        try:
            opened = await _narabi_tables(h, tables)
            await _open_loop(h, opened, rate=rate, count=tables, rng=random.Random(5))  # warm up
            clicks = max(600, tables * 3)  # a p99 needs a few hundred samples to mean anything
            alone = await _open_loop(h, opened, rate=rate, count=clicks, rng=random.Random(7))
            await start_load(h)
            loaded = await _open_loop(h, opened, rate=rate, count=clicks, rng=random.Random(7),
                                      settle=False)
            await stop_load(h)
            alone += await _open_loop(h, opened, rate=rate, count=clicks, rng=random.Random(9))
        finally:
            await h.bot.close()
    ratio = _pct(loaded, 99) / _pct(alone, 99) if alone and loaded else float("nan")
    return {"human_tables": tables, "workers": h.bot.settings.ai_workers, "alone": _ms(alone),
            "loaded": _ms(loaded), "p99_ratio": round(ratio, 2)}


async def bench_ai_load(tables: int, ai_tables: int, rate: float = 100.0) -> dict[str, Any]:
    """Clicks beside ``ai_tables`` Sensei tables of two hard AIs playing without pause (their
    searches in the worker pool, their boards published like any other)."""
    from ..store import SeatRow
    from ..testing.fake_discord import snowflake

    moves: dict[str, Any] = {}

    async def start_ais(h) -> None:
        h.bot.autoplayer.pause = 0.0
        for _ in range(ai_tables):
            seats = [SeatRow(0, -1, "AI · Hard", ai="hard"), SeatRow(1, -2, "AI · Hard", ai="hard")]
            live = await h.bot.tables.open_lobby(
                "sensei", guild_id=1, channel_id=snowflake(), host_id=-1, host_name="AI",
                options=None, locale="en-US", seats=seats)
            await h.bot.tables.start(live.id, -1, use_thread=False)
        # Until every worker is searching and the AI tables are under way.
        for _ in range(500):
            if h.bot.pool.busy >= h.bot.settings.ai_workers and h.bot.autoplayer.moves >= 1:
                break
            await asyncio.sleep(0.02)
        moves.update(before=h.bot.autoplayer.moves, started=time.perf_counter())

    async def stop_ais(h) -> None:
        moves.update(per_s=(h.bot.autoplayer.moves - moves["before"])
                     / (time.perf_counter() - moves["started"]),
                     thinking=h.bot.autoplayer.active)
        await h.bot.autoplayer.stop()

    figures = await _clicks_beside(tables, rate, start_ais, stop_ais)
    return dict(figures, ai_tables=ai_tables, ai_moves_per_s=round(moves["per_s"], 1),
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
    from ..games.narabi import Narabi

    return Narabi.new(seats, {"advanced": index % 2 == 1}, index).to_json()


def bench_par(deals: int) -> dict[str, Any]:
    """Time to compute the par of ``deals`` fixed deals per table size, in this process (the
    bot runs it in a worker process, at a lower priority)."""
    from ..games.narabi.solver import par

    out = {}
    for seats in (3, 4, 5):
        times, unknown = [], 0
        for index in range(deals):
            state = _bench_deal(seats, index)
            started = time.perf_counter()
            unknown += par(state)["status"] == "unknown"
            times.append(time.perf_counter() - started)
        out[seats] = {"deals": deals, "unknown": unknown, "p50_ms": round(_pct(times, 50) * 1000, 1),
                      "p95_ms": round(_pct(times, 95) * 1000, 1), "max_ms": round(max(times) * 1000, 1)}
    return out


async def bench_par_load(tables: int, searches: int, rate: float = 100.0) -> dict[str, Any]:
    """Clicks beside ``searches`` par computations of hard 5-player deals running back to back
    in the worker pool (as when games end at many tables at once)."""
    from ..games.narabi import Narabi

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

    figures = await _clicks_beside(tables, rate, start_searches, stop_searches)
    return dict(figures, searches=searches, pars_computed=solved[0])


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
    return _ms(durations)


async def bench_restore(count: int) -> dict[str, Any]:
    """Start-up restore of ``count`` unfinished tables from a fresh process's point of view."""
    import sqlite3

    from ..games import game_class
    from ..store import Store
    from ..domain.tables import TableService

    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "restore.sqlite3"
        store = await Store.open(db_path)
        await store.close()
        cls = game_class("narabi")
        states = [json.dumps(cls.new(4, {"advanced": False}, seed).to_json()) for seed in range(50)]
        now = time.time()
        with sqlite3.connect(db_path) as db:
            db.executemany(
                "INSERT INTO game_tables (id, game, guild_id, channel_id, host_id, status, options, "
                "locale, seed, version, state, thread_id, board_message_id, created_at, updated_at, "
                "turn_limit, deadline, deadline_seat) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(i, "narabi", 1, 10_000 + i, 1, "playing", '{"advanced":false}', "en-US", i, 0,
                  states[i % len(states)], 20_000 + i, 30_000 + i, now, now, 86_400.0,
                  now + 86_400.0 * (0.6 + i / count), 0)
                 for i in range(1, count + 1)])
            db.executemany("INSERT INTO seats (table_id, seat, user_id, name) VALUES (?,?,?,?)",
                           [(i, s, 100 + s, f"p{s}") for i in range(1, count + 1) for s in range(4)])
        from ..runtime.turnclock import TurnClock

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
                      "idle_tick_us": round(_pct(ticks, 50) * 1e6, 1),
                      "due_entries": handled, "due_seconds": round(due_seconds, 3),
                      "reminders_sent": turnclock.fired["reminders"]}}


def bench_replay(turns: int = 60) -> dict[str, Any]:
    """The replay download of a seeded Sensei game of ``turns`` turns: the animated picture's
    size and the time to build it (frames drawn and encoded), as the viewer's Download does."""
    from ..games import game_class
    from ..games.sensei import legal_turns
    from render.animation import animate
    from render.sensei import render

    cls = game_class("sensei")
    game = cls.new(2, {"version": "arashi", "setup": "standard", "board": "storm"}, 7)
    rng = random.Random(3)
    views = [game.public_view()]
    played = 0
    while game.result() is None and played < turns:
        seat = game.to_move
        for action in rng.choice(legal_turns(game)):
            game.apply(seat, action)
        views.append(game.public_view())
        played += 1
    started = time.perf_counter()
    gif = animate(views, ["Ana", "Ben"], "en", render)
    return {"turns": played, "frames": len(views), "bytes": len(gif),
            "seconds": round(time.perf_counter() - started, 2)}


def bench_games(quick: bool) -> dict[str, Any]:
    """The figures of every game that has a ``bot/benchmarks/<key>.py``."""
    import importlib
    import importlib.util

    from ..games.registry import keys

    out = {}
    for name in keys():
        if importlib.util.find_spec(f"{__package__}.benchmarks.{name}") is None:
            continue
        module = importlib.import_module(f"{__package__}.benchmarks.{name}")
        out[name] = module.bench(quick=quick) if "quick" in module.bench.__code__.co_varnames \
            else module.bench()
    return out


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
            from ..testing.pgserver import TempPostgres
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
    h = await _bot(db)
    try:
        opened = await _narabi_tables(h, tables)
        for table_id, members in opened:  # warm up: every game state loaded, statements cached
            await _switch_click(h, table_id, members)
        await h.settle()
        _settled_heap(h)
        burst: list[float] = []
        for _ in range(bursts):
            burst += (await _burst(h, opened))[0]
    finally:
        await h.bot.close()
    return _ms(burst)


async def _backend_commits(db: Path | str, seconds: float, writers: int = 64) -> dict[str, Any]:
    """Commits per second sustained: ``writers`` tables each saving a move (its state, its
    action row, its version guard) as fast as the store takes them."""
    from ..store import SeatRow, Store

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
        return dict(_ms(durations), commits_per_s=round((store.commits - before) / elapsed),
                    writers=writers, transactions=store.batches)
    finally:
        await store.close()


async def _backend_restore(db: Path | str, count: int) -> dict[str, Any]:
    """Restore of ``count`` unfinished tables (with their clocks) by a fresh process."""
    from ..games import game_class
    from ..store import Store
    from ..domain.tables import TableService
    from ..runtime.turnclock import TurnClock

    store = await Store.open(db)
    cls = game_class("narabi")
    states = [json.dumps(cls.new(4, {"advanced": False}, seed).to_json()) for seed in range(50)]
    now = time.time()

    async def fill(tx, first: int, last: int) -> None:
        await tx.executemany(
            "INSERT INTO game_tables (id, game, guild_id, channel_id, host_id, status, options, "
            "locale, seed, version, state, thread_id, board_message_id, created_at, updated_at, "
            "turn_limit, deadline, deadline_seat, board_version) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)",
            [(i, "narabi", 1, 10_000 + i, 1, "playing", '{"advanced":false}', "en-US", i, 0,
              states[i % len(states)], 20_000 + i, 30_000 + i, now, now, 86_400.0,
              now + 86_400.0 * (0.6 + i / count), 0) for i in range(first, last)])
        await tx.executemany("INSERT INTO seats (table_id, seat, user_id, name) VALUES (?,?,?,?)",
                             [(i, s, 100 + s, f"p{s}") for i in range(first, last)
                              for s in range(4)])

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
            from ..testing.pgserver import Unavailable
            if not isinstance(exc, Unavailable):
                raise
            out[kind] = {"unavailable": str(exc)}
    return out


def _print_backends(backends: dict[str, Any]) -> None:
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


def _print_par(times: dict[int, Any], load: dict[str, Any]) -> None:
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


def main(*, json_output: bool = False, quick: bool = False, db: str = "both") -> int:
    import logging

    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # voice support is not used
    from .benchmarks import discord_budget

    figures = {
        "discord": discord_budget.bench(quick),
        "interactions": asyncio.run(bench_interactions(40 if quick else 200, 1 if quick else 3)),
        "starts": asyncio.run(bench_starts(40 if quick else 200, 0.05)),
        "finished_game_bytes": bench_finished_size(10 if quick else 50),
        "restore": asyncio.run(bench_restore(1_000 if quick else 10_000)),
        "ai_load": asyncio.run(bench_ai_load(40 if quick else 200, 10)),
        "par": bench_par(20 if quick else 100),
        "par_load": asyncio.run(bench_par_load(40 if quick else 200, 2)),
        "replay": bench_replay(60),
        "games": bench_games(quick),
        "backends": bench_backends(["sqlite", "postgres"] if db == "both" else [db], quick),
    }
    if json_output:
        json.dump(figures, sys.stdout, indent=2)
        print()
        return 0
    discord_budget.print_figures(figures["discord"])
    i = figures["interactions"]
    print(f"interactions ({i['tables']} concurrent tables, rendering excluded)")
    print(f"  one at a time      p50 {i['sequential']['p50_ms']:.2f} ms  p99 {i['sequential']['p99_ms']:.2f} ms  (n={i['sequential']['n']})")
    print(f"  {i['load']['clicks_per_s']:.0f} clicks/s at random times p50 {i['load']['p50_ms']:.2f} ms  p99 {i['load']['p99_ms']:.2f} ms  (n={i['load']['n']})")
    b = i["burst_all_tables"]
    print(f"  all tables at once p50 {b['p50_ms']:.2f} ms  p99 {b['p99_ms']:.2f} ms  "
          f"({b['answered']}/{b['sent']} answered; target p99 ≤ 150 ms; before group commit and "
          f"background publishing: p99 391 ms in the issue, 505 ms measured here; before answers "
          f"came ahead of board repairs and the collector was kept out of bursts: 260–425 ms)")
    print(f"  store commit       p50 {i['store_commit']['p50_ms']:.2f} ms  p99 {i['store_commit']['p99_ms']:.2f} ms")
    c = i["contention"]
    print(f"  {c['n']} tables committing at once: p50 {c['p50_ms']:.2f} ms  p99 {c['p99_ms']:.2f} ms "
          f"in {c['transactions']} transactions (before group commit: p50 824 ms, p99 1.4 s)")
    st = figures["starts"]
    print(f"starts: {st['starts']} Start clicks at once, Discord answering in {st['discord_latency_ms']:.0f} ms: "
          f"{st['answered_in_3s']}/{st['starts']} answered within 3 s (p50 {st['p50_ms']:.1f} ms, "
          f"p99 {st['p99_ms']:.1f} ms), {st['fully_started']} fully started "
          f"(before: 142 of 200 missed the deadline)")
    fb = figures["finished_game_bytes"]
    print("finished game kept in " + ", ".join(f"{k} {v} B" for k, v in fb.items())
          + " (target ≤ 2048 B; before: narabi 11.5 KB, sensei 35 KB)")
    r = figures["restore"]
    print(f"restore: {r['tables']} unfinished tables ready in {r['seconds']:.3f} s, turn clocks "
          f"included (game states load on first use: all of them would take "
          f"{r['all_states_loaded_seconds']:.2f} s; target ≤ 0.5 s)")
    ck = r["clock"]
    print(f"turn clocks: {ck['clocks']} running, scheduled in {ck['load_seconds']:.3f} s "
          f"({ck['entries']} heap entries, {ck['heap_kb']} KB); a round with nothing due "
          f"{ck['idle_tick_us']} µs; {ck['due_entries']} entries due at once handled in "
          f"{ck['due_seconds']:.2f} s ({ck['reminders_sent']} reminders sent)")
    a = figures["ai_load"]
    print(f"AI load: {a['ai_tables']} tables of two hard AIs playing on {a['workers']} worker "
          f"process(es) ({a['ai_moves_per_s']} AI moves/s): human clicks at 100/s on "
          f"{a['human_tables']} tables p99 {a['alone']['p99_ms']:.2f} ms alone → "
          f"{a['loaded']['p99_ms']:.2f} ms beside them = ×{a['p99_ratio']} (target ≤ ×1.5)")
    _print_par(figures["par"], figures["par_load"])
    rp = figures["replay"]
    print(f"replay download: a {rp['turns']}-turn Sensei game, {rp['frames']} frames, "
          f"{rp['bytes'] / 1e6:.2f} MB built in {rp['seconds']:.2f} s (target ≤ 4 MB, ≤ 3 s)")
    for game, numbers in figures["games"].items():
        shown = "  ".join(f"{k} {round(v, 2) if isinstance(v, float) else v}"
                          for k, v in numbers.items())
        print(f"{game}: {shown}")
    _print_backends(figures["backends"])
    return 0
