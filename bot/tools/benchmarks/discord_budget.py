"""Discord's budget: counted calls per move in every way of playing, a long run of many
tables under Discord's real limits, and two processes sharing one token.

Everything runs the real bot against the strict stand-in (``bot/testing``) at Discord's own
pace: 50 counted calls a second per token, 5 edits per 5 s per channel, 3 s to answer.
"""
from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

#: what a Discord call takes on the way there and back (the stand-in sleeps this long)
LATENCY = 0.05


async def _bot(db: Path, fake, ai_priority: str = "idle"):
    from ...client import TabletopBot
    from ...config import Settings
    from ...store import Store
    from ...testing.harness import Harness

    store = await Store.open(db)
    settings = Settings("", db, None, "WARNING", ai_workers=1, ai_pause_seconds=0.0,
                        ai_priority=ai_priority, render_workers=0,
                        metrics_port=0)  # the operator's metrics on
    bot = TabletopBot(settings, store)
    harness = await Harness.start(bot, fake)
    for cog in bot.cogs.values():
        if hasattr(cog, "render"):  # the bot's own work, not Pillow's
            cog.render = lambda view, names, locale="en": b"\x89PNG"  # type: ignore[method-assign]
    return harness


# -- counted calls per move ---------------------------------------------------------------------

async def rest_per_move(moves: int = 12) -> dict[str, Any]:
    """Per game and way of playing: counted calls per move (DMs aside), DMs to the mover and
    DMs to other people whose hand changed, over ``moves`` moves spread over a few tables."""
    from ...testing.fake_discord import FakeDiscord

    out: dict[str, Any] = {}
    for game, seats, ways in (("narabi", 3, ("buttons",)), ("sensei", 2, ("buttons", "typed", "ai")),
                              ("sarena", 2, ("buttons", "typed", "ai", "mixed"))):
        for way in ways:
            with tempfile.TemporaryDirectory() as tmp:
                fake = FakeDiscord(time_scale=1.0)
                h = await _bot(Path(tmp) / "rest.sqlite3", fake)
                try:
                    out.setdefault(game, {})[way] = await _count_flow(h, game, seats, way, moves)
                finally:
                    await h.bot.close()
    return out


async def _count_flow(h, game: str, seats: int, way: str, moves: int) -> dict[str, Any]:
    from ...testing.fake_discord import Member, find_component, snowflake
    from ...testing.flows import Table, board, narabi_path, sarena_path, sensei_path, start_table, \
        tap_through

    rng = random.Random(f"{game}-{way}")
    people = [Member(500 + i, f"P{i}") for i in range(seats)]
    tables = []
    for _ in range(4):  # a few tables, so one thread's edit bucket does not pace the count
        channel = snowflake()
        if way == "ai":
            await h.command(people[0], game, "start", channel_id=channel, ai="easy")
            lobby = next(m for m in reversed(h.fake.channel_messages(channel)) if m["embeds"])
            table_id = int(lobby["embeds"][0]["title"].rsplit("#", 1)[1])
            live = await h.bot.tables.get(table_id)
            tables.append(Table(table_id, lobby, live.row.game_channel_id, [people[0]]))
        elif way == "mixed":  # two people and an AI: its moves hand the turn to someone away
            await h.command(people[0], game, "start", channel_id=channel)
            lobby = h.fake.channel_messages(channel)[-1]
            table_id = int(find_component(lobby, "join")["custom_id"].split(":")[1])
            await h.click(people[1], lobby, f"{game}:{table_id}:join")
            await h.click(people[0], h.fake.messages[int(lobby["id"])], f"{game}:{table_id}:addai",
                          values=["easy"])
            await h.click(people[0], h.fake.messages[int(lobby["id"])], f"{game}:{table_id}:start")
            live = await h.bot.tables.get(table_id)
            tables.append(Table(table_id, lobby, live.row.game_channel_id, people[:2]))
        else:
            tables.append(await start_table(h, game, people, channel))
    await h.settle()
    texts = _TextsShown({t.thread for t in tables})
    h.fake.listeners.append(texts)
    counted = mine = others = done = lobby = 0
    lobbies = {f"/messages/{t.lobby['id']}" for t in tables}
    while done < moves:
        table = tables[done % len(tables)]
        live = await h.bot.tables.get(table.id)
        if live.game.result() is not None:
            break
        seat = live.game.to_move
        if live.row.seats[seat].ai is not None:  # it moves by itself
            await h.settle()
            continue
        player = table.players[seat]
        since, before, lines = len(h.fake.requests), live.row.version, texts.count
        if game == "sensei":
            from ...games.sensei import legal_turns
            from ...games.sensei.notation import format_turn
            turn = rng.choice(legal_turns(live.game))
            if way == "typed":
                await h.command(player, "sensei", "move", channel_id=table.thread,
                                notation=format_turn(turn))
            else:
                await tap_through(h, player, board(h, table), sensei_path(turn))
        else:
            action = rng.choice(live.game.legal_actions(seat))
            if way == "typed":
                await h.command(player, "sarena", "move", channel_id=table.thread,
                                move=f"{action['from']}-{action['to']}")
            else:
                path = (narabi_path if game == "narabi" else sarena_path)(board(h, table), action)
                await tap_through(h, player, board(h, table), path)
        await h.settle()
        # a move is what the table is told of as one: one turn line, a message of its own or
        # the board's new text (an AI's Sensei turn of several moves is shown once, whole)
        commits = texts.count - lines
        for r in h.fake.counted(since):
            dm_user = h.fake.dm_channels.get(int(r.path.split("/")[2])) \
                if r.path.startswith("/channels/") else None
            if dm_user is None and r.path.endswith(tuple(lobbies)):
                lobby += 1  # the lobby shows the table's end: once a game, not a move's
            elif dm_user is None:
                counted += 1
            elif dm_user == player.id:
                mine += 1
            else:
                others += 1
        done += commits
        assert live.row.version > before
    ended = [(await h.bot.tables.get(t.id)).row.status == "finished" for t in tables]
    return {"moves": done, "rest_per_move": round(counted / done, 3),
            "dm_mover_per_move": round(mine / done, 3),
            "dm_others_per_move": round(others / done, 3), "lobby_edits": lobby,
            "games_ended": sum(ended)}


class _TextsShown:
    """Counts the texts the tables' threads show: each new public line, and each new text of
    a board message (where an AI's turn line is told, in the bot's own name)."""

    def __init__(self, threads: set[int]) -> None:
        self.threads, self.count = threads, 0
        self._last: dict[str, str] = {}

    def __call__(self, event: str, message: dict[str, Any]) -> None:
        content = message.get("content") or ""
        if (event == "delete" or int(message["channel_id"]) not in self.threads
                or message.get("flags", 0) & 64):
            return
        if content and self._last.get(message["id"]) != content:
            self.count += 1
        self._last[message["id"]] = content


# -- many tables under the limits ----------------------------------------------------------------

async def load(tables: int, rate: float, seconds: float) -> dict[str, Any]:
    """``tables`` Sensei and Sàréná tables of two people; moves arrive at ``rate`` a second
    in all (Poisson), each a click on the button that sends a turn, for ``seconds``. Tables
    are set up with the limits off (started over the hour before), then measured under them."""
    from ...testing.fake_discord import FakeDiscord

    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(time_scale=1.0)
        h = await _bot(Path(tmp) / "load.sqlite3", fake)
        try:
            return await _load(h, tables, rate, seconds)
        finally:
            await h.bot.close()


async def _load(h, count: int, rate: float, seconds: float) -> dict[str, Any]:
    from ...testing.fake_discord import Member, find_component, snowflake
    from ...testing.flows import start_table

    fake, bot = h.fake, h.bot
    fake.limits.enabled = False
    share = bot.budget.per_second
    bot.budget.per_second = 100_000.0
    started = time.perf_counter()
    tables = []
    for i in range(count):
        game = "sensei" if i % 2 else "sarena"
        people = [Member(1_000_000 + 2 * i, f"a{i}"), Member(1_000_001 + 2 * i, f"b{i}")]
        tables.append(await start_table(h, game, people, snowflake()))
    await h.settle()
    setup = time.perf_counter() - started
    fake.limits.enabled, bot.budget.per_second, fake.latency = True, share, LATENCY
    mark = len(fake.requests)

    committed: dict[tuple[int, int], float] = {}
    shown: dict[int, int] = {}
    lags: list[float] = []

    def on_board(event: str, message: dict[str, Any]) -> None:
        if event != "edit" or not message.get("attachments"):
            return
        versions = [(int(p[1]), int(p[3].split(".")[0])) for c in _components(message)
                    if len(p := c.get("custom_id", "").split(":")) > 3
                    and p[3].split(".")[0].isdigit()]
        if not versions:
            return
        table_id, version = max(versions)
        now = time.perf_counter()
        for v in range(shown.get(table_id, -1) + 1, version + 1):
            at = committed.pop((table_id, v), None)
            if at is not None:
                lags.append(now - at)
        shown[table_id] = max(shown.get(table_id, -1), version)
    fake.listeners.append(on_board)

    rng = random.Random(21)
    busy: set[int] = set()
    clicks: list[tuple[str, float]] = []
    moves = 0
    deadline = time.perf_counter() + seconds
    next_at = time.perf_counter()
    pending: list[asyncio.Task] = []
    while time.perf_counter() < deadline:
        next_at += rng.expovariate(rate)
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        table = rng.choice(tables)
        if table.id in busy:
            continue
        busy.add(table.id)
        pending.append(asyncio.create_task(_move(h, table, rng, clicks, committed, busy)))
        moves += 1
    await asyncio.gather(*pending)
    await h.settle()
    fake.listeners.remove(on_board)
    answered = [fake.acked_at[token] - at for token, at in clicks if token in fake.acked_at]
    within = sum(1 for w in answered if w <= 3.0) - len(fake.late_answers)
    counted = fake.counted(mark)
    return {"tables": count, "rate_per_s": rate, "seconds": seconds, "setup_s": round(setup, 1),
            "moves": len(clicks), "answered_within_3s_pct": round(100 * within / max(1, len(clicks)), 2),
            "answer_ms": _ms(answered), "board_lag_ms": _ms(lags),
            "boards_behind_at_end": len(committed),
            "counted_calls": len(counted),
            "counted_per_move": round(len(counted) / max(1, len(clicks)), 3),
            "max_counted_in_any_second": fake.limits.max_in_any_second(fake.requests[mark].at
                                                                      if counted else 0.0),
            "global_429": len(fake.limits.throttles("global")),
            "route_429": len(fake.limits.throttles("user")),
            "invalid_requests": fake.limits.invalid_total}


async def _move(h, table, rng: random.Random, clicks: list, committed: dict, busy: set) -> None:
    """The player to move sends a turn: the last click of the turn's private menu."""
    try:
        live = await h.bot.tables.get(table.id)
        seat = live.game.to_move
        if seat is None:
            return
        version = live.row.version
        if live.row.game == "sensei":
            from cogs.sensei.cog import encode_plan
            custom_id = f"sensei:{table.id}:send:{version}.{encode_plan(_sensei_plan(live.game, rng))}"
        else:
            action = rng.choice(live.game.legal_actions(seat))
            custom_id = f"sarena:{table.id}:go:{version}.{action['from']}.{action['to']}"
        message = h.fake._message(table.thread, {"flags": 64, "content": "", "components": [
            {"type": 1, "components": [{"type": 2, "style": 3, "label": "Go",
                                        "custom_id": custom_id}]}]}, [], flags=64)
        token = await h.click(table.players[seat], message, custom_id, settle=False)
        clicks.append((token, h.fake.clicked_at[token]))
        while token not in h.fake.acked_at and token not in h.fake.late_answers:
            await asyncio.sleep(0.01)
        if live.row.version > version:
            committed[(table.id, live.row.version)] = h.fake.acked_at.get(token, time.perf_counter())
    finally:
        busy.discard(table.id)


def _sensei_plan(game, rng: random.Random) -> list[dict[str, Any]]:
    """One or two random moves of the player to move (cheap: listing every whole turn takes
    long enough to hold up the bot under test)."""
    trial, plan = game.copy(), []
    for _ in range(rng.choice((1, 2))):
        seat = trial.to_move
        moves = [a for a in trial.legal_actions(seat) if a["type"] != "end_turn"]
        if not moves or trial.to_move != game.to_move:
            break
        action = rng.choice(moves)
        trial.apply(seat, action)
        plan.append(action)
    return plan


def _components(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


def _ms(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50_ms": 0.0, "p99_ms": 0.0, "n": 0}
    ordered = sorted(values)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]
    return {"p50_ms": round(pct(50) * 1000, 1), "p99_ms": round(pct(99) * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1), "n": len(values)}


# -- everything ----------------------------------------------------------------------------------

def bench(quick: bool) -> dict[str, Any]:
    from ...testing.shared_budget import run_processes

    runs: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("rest_per_move", lambda: rest_per_move(6 if quick else 12)),
        ("load", lambda: load(100, 20.0, 10.0) if quick else load(1000, 40.0, 60.0)),
        ("two_processes", lambda: run_processes(60 if quick else 300, 2)),
    ]
    return {name: asyncio.run(run()) for name, run in runs}


def print_figures(d: dict[str, Any]) -> None:
    print("Discord's budget (the strict stand-in: 50 counted calls/s per token, buckets, 429s):")
    for game, ways in d["rest_per_move"].items():
        for way, f in ways.items():
            print(f"  rest_per_move {game:7s} {way:8s} {f['rest_per_move']:.2f} counted calls "
                  f"per move (+ DMs to others {f['dm_others_per_move']:.2f}, to the mover "
                  f"{f['dm_mover_per_move']:.2f}; {f['moves']} moves; the lobby's edit at a "
                  f"game's end {f.get('lobby_edits', 0)}) — target ≤ 1.0, before 2–4")
    lo = d["load"]
    print(f"  {lo['tables']} tables, {lo['rate_per_s']:g} moves/s for {lo['seconds']:g} s "
          f"(set up in {lo['setup_s']} s): {lo['moves']} moves, answered within 3 s "
          f"{lo['answered_within_3s_pct']} % (target 100 %), answer p50/p99 "
          f"{lo['answer_ms']['p50_ms']}/{lo['answer_ms']['p99_ms']} ms")
    print(f"    board lag commit→edited board p50 {lo['board_lag_ms']['p50_ms']} ms, p99 "
          f"{lo['board_lag_ms']['p99_ms']} ms (target ≤ 300 / ≤ 2000), boards behind at the "
          f"end {lo['boards_behind_at_end']}; counted calls {lo['counted_calls']} "
          f"({lo['counted_per_move']}/move), most in any second {lo['max_counted_in_any_second']}")
    print(f"    global 429s {lo['global_429']} (target 0), route 429s {lo['route_429']}, "
          f"invalid requests {lo['invalid_requests']} (target ≤ 100)")
    tp = d["two_processes"]
    print(f"  two processes, one token, {tp['calls_per_process']} calls each: most counted calls "
          f"in any second {tp['max_counted_in_any_second']} (target ≤ 50), global 429s "
          f"{tp['global_429']}, delivered {tp['delivered']} in {tp['seconds']} s")
