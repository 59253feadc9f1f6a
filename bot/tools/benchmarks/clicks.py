"""The bench's bot and its players: the real bot (cogs, routing, store) against the
recorded fake Discord with image rendering swapped out, Narabi tables opened through the real
commands, and clicks sent one at a time, all at once, at random times, or beside a load.
"""
from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

from ...config import Settings


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def ms(values: list[float]) -> dict[str, float]:
    return {"p50_ms": round(pct(values, 50) * 1000, 3), "p99_ms": round(pct(values, 99) * 1000, 3),
            "n": len(values)}


async def bench_bot(db: Path | str, *, metrics: bool = True, manage_heap: bool = True):
    from ...client import TabletopBot
    from ...store import Store
    from ...testing.fake_discord import FakeDiscord
    from ...testing.harness import Harness

    store = await Store.open(db)
    url = db if isinstance(db, str) and "://" in db else None
    # With the operator's metrics on (any free port): the figures include their hooks' cost.
    bot = TabletopBot(Settings("", Path("unused") if url else Path(db), None, "WARNING",
                               database_url=url, metrics_port=0 if metrics else None),
                      store, manage_heap=manage_heap)
    # Discord's counts, its rate-limit windows passing 20 times faster (as in the test suite):
    # these figures are the bot's own speed; the "discord" figures run at Discord's pace.
    harness = await Harness.start(bot, FakeDiscord(time_scale=20.0))
    for cog in bot.cogs.values():
        if hasattr(cog, "render"):
            cog.render = lambda view, names, locale="en": b"\x89PNG"  # type: ignore[method-assign]
    return harness


def people(i: int) -> list:
    """The three players of the ``i``-th Narabi table the bench opens (new people each)."""
    from ...testing.fake_discord import Member

    return [Member(10_000 + 3 * i + k, f"p{i}-{k}") for k in range(3)]


async def narabi_lobbies(h, count: int, first: int = 0) -> list[tuple[int, list, dict]]:
    """Open ``count`` full Narabi lobbies of 3 through the real command and Join buttons,
    their players new people from the ``first``-th lobby's on."""
    from ...testing.fake_discord import find_component, snowflake

    lobbies = []
    for i in range(first, first + count):
        channel = snowflake()
        members = people(i)
        await h.command(members[0], "narabi", "start", channel_id=channel)
        lobby = h.fake.channel_messages(channel)[-1]
        table_id = int(find_component(lobby, "start")["custom_id"].split(":")[1])
        for m in members[1:]:
            await h.click(m, lobby, find_component(lobby, "join")["custom_id"])
        lobbies.append((table_id, members, lobby))
    return lobbies


async def narabi_tables(h, count: int, first: int = 0) -> list[tuple[int, list]]:
    """Open and start ``count`` Narabi tables of 3 through the real commands and buttons."""
    from ...testing.fake_discord import find_component

    tables = []
    for table_id, members, lobby in await narabi_lobbies(h, count, first):
        await h.click(members[0], lobby, find_component(lobby, "start")["custom_id"])
        tables.append((table_id, members))
    return tables


async def switch_click(h, table_id: int, members) -> tuple[str, float] | None:
    """One full switch confirmation (the click that changes the game) for the player to move."""
    prepared = await prepare_switch(h, table_id, members)
    return None if prepared is None else await send_click(h, prepared)


async def prepare_switch(h, table_id: int, members) -> tuple[Any, dict, str] | None:
    """Who clicks what to confirm a switch at ``table_id``: the fake's side of a click, kept
    apart so that a burst measures the bot's work, not the senders'."""
    from ...testing.fake_discord import snowflake

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


async def send_click(h, prepared: tuple[Any, dict, str]) -> tuple[str, float]:
    member, message, custom_id = prepared
    token = await h.click(member, message, custom_id, settle=False)
    return token, h.fake.clicked_at[token]


def settled_heap(h) -> None:
    """The tables have been open a while: the quiet collector's round (every 10 minutes, see
    bot/heap.py) has frozen them, as it would have before any real burst."""
    if h.bot.heap is not None:
        h.bot.heap.run_once()


async def burst_clicks(h, opened) -> tuple[list[float], int]:
    """Every table's player clicks at the same instant: the worst queueing case. The events
    arrive back to back; like the gateway reader, the loop may run between two. Returns the
    answer times and the number of clicks sent."""
    prepared = [await prepare_switch(h, tid, m) for tid, m in opened]
    sent = []
    for click in filter(None, prepared):
        sent.append(await send_click(h, click))
        await asyncio.sleep(0)
    await h.settle()
    return [h.fake.acked_at[token] - at for token, at in sent if token in h.fake.acked_at], len(sent)


async def open_loop(h, opened, *, rate: float, count: int, rng: random.Random,
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
        for _ in range(len(opened)):  # a table whose game just ended passes the click on
            table_id, members = opened[rng.randrange(len(opened))]
            got = await switch_click(h, table_id, members)
            if got is not None:
                started.append(got)
                break
    if settle:
        await h.settle()
    else:
        for _ in range(3000):
            if all(token in h.fake.acked_at for token, _ in started):
                break
            await asyncio.sleep(0.01)
    return [h.fake.acked_at[token] - t0 for token, t0 in started if token in h.fake.acked_at]


async def replace_finished(h, opened: list[tuple[int, list]], made: int) -> int:
    """Tables whose game has ended give their place to new ones, seated and started straight
    through the table service (a click at an ended table is no click at all; the commands and
    buttons would take longer than the phases they sit between). Returns how many tables have
    been opened in all."""
    from ...store import SeatRow
    from ...testing.fake_discord import snowflake

    for i, (table_id, _) in enumerate(opened):
        live = await h.bot.tables.get(table_id)
        if live is not None and live.game is not None and live.game.result() is None:
            continue
        members = people(made)
        made += 1
        seats = [SeatRow(k, m.id, m.name) for k, m in enumerate(members)]
        live = await h.bot.tables.open_lobby(
            "narabi", guild_id=h.fake.guild_id, channel_id=snowflake(), host_id=members[0].id,
            host_name=members[0].name, options=None, locale="en-US", seats=seats)
        await h.bot.tables.start(live.id, members[0].id, use_thread=False)
        opened[i] = (live.id, members)
    await h.settle()
    return made


#: quiet and loaded phases alternate this many times, so a change in the machine's own speed
#: over the run (another program, the collector, a growing database) falls on both alike
ROUNDS = 3


async def clicks_beside(tables: int, rate: float, start_load, stop_load) -> dict[str, Any]:
    """Human clicks at ``rate`` per second across ``tables`` Narabi tables, in phases: alone,
    then while a load runs (``start_load(h)`` returns once it is under way; ``stop_load(h)``
    ends it), :data:`ROUNDS` times, then alone once more. The quiet phases bracket the loaded
    ones; each side's p99 is taken over all its phases' clicks."""
    with tempfile.TemporaryDirectory() as tmp:
        h = await bench_bot(Path(tmp) / "bench.sqlite3")
        try:
            opened = await narabi_tables(h, tables)
            made = tables
            await open_loop(h, opened, rate=rate, count=tables, rng=random.Random(5))  # warm up
            # a p99 needs a few hundred samples a side to mean anything
            per_phase = max(600, tables * 3) // ROUNDS
            alone: list[float] = []
            loaded: list[float] = []
            for round_ in range(ROUNDS + 1):
                made = await replace_finished(h, opened, made)
                alone += await open_loop(h, opened, rate=rate, count=per_phase,
                                         rng=random.Random(7 + 2 * round_))
                if round_ == ROUNDS:
                    break
                made = await replace_finished(h, opened, made)
                await start_load(h)
                loaded += await open_loop(h, opened, rate=rate, count=per_phase,
                                          rng=random.Random(8 + 2 * round_), settle=False)
                await stop_load(h)
        finally:
            await h.bot.close()
    ratio = pct(loaded, 99) / pct(alone, 99) if alone and loaded else float("nan")
    return {"human_tables": tables, "workers": h.bot.settings.ai_workers, "alone": ms(alone),
            "loaded": ms(loaded), "p99_ratio": round(ratio, 2), "rounds": ROUNDS}
