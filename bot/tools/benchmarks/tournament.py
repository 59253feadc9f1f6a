"""Tournaments: a Swiss of AI players played end to end through the stand-in (64 players, 6
rounds in the full bench), pairing a round of 1,000 players, the bot killed mid-round at ten
random moments, and the Discord calls of a round's start against Discord's real limits.

The Swiss runs the real bot (cogs, scheduler, store, reconciler, AI seats in the worker pool)
against the strict stand-in at Discord's own pace; board pictures are swapped out so that the
figure is the bot's own work.
"""
from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from ...tournaments import Entrant, Played, swiss_round, table_points


async def swiss_standin(db: Path | str, players: int, rounds: int, *, time_scale: float = 1.0,
                        game: str = "sensei", level: str = "easy",
                        ai_priority: str = "idle") -> dict[str, Any]:
    """A whole Swiss of ``players`` AI seats through the stand-in; the figures, and what the
    store kept audited (rematches, byes, results against standings). The test suite passes
    ``ai_priority="normal"``: at the bot's idle priority its searches would wait for the CPU the
    suite's other workers keep busy, each until its think limit."""
    from ...testing.fake_discord import FakeDiscord
    from ..tournament_kills import audit
    from .discord_budget import _bot

    fake = FakeDiscord(time_scale=time_scale)
    h = await _bot(Path(db) if not str(db).startswith("postgres") else db, fake, ai_priority)
    cog = h.bot.get_cog("Tournaments")
    store = h.bot.store
    await cog.clock.stop()  # its steps are taken here, one at a time, to measure each start
    try:
        t = await cog.service.create(
            guild_id=fake.guild_id, channel_id=5_000, organizer_id=7, name="Bench Swiss",
            game=game, options={}, fmt="swiss", rounds=rounds, per_table=2, turn_limit=None,
            rated=True, starts_at=store.clock(), checkin=None, round_every=None,
            locale="en-US", seed=2026)
        for _ in range(players):
            await cog.service.add_ai(t.id, 7, level, "AI")
        began = time.perf_counter()
        starts: list[dict[str, Any]] = []
        for _ in range(rounds * 20):
            first_request = len(fake.requests)
            opened_at = fake.now()
            await cog.clock.run_due()
            tour = await store.get_tournament(t.id)
            if tour.status == "finished":
                break
            games = [g for g in await store.tournament_games(t.id) if g.round == tour.round]
            if len(starts) < tour.round:
                # The round's start: every table's card, thread, first pings and board.
                tables = [g.table_id for g in games if g.table_id is not None]
                while True:
                    rows = [await store.get_table(tid) for tid in tables]
                    if all(r.board_message_id is not None for r in rows):
                        break
                    await asyncio.sleep(0.02)
                window = [r for r in fake.requests[first_request:] if r.counted]
                seconds = max(fake.now() - opened_at, 1e-6)
                starts.append({"round": tour.round, "tables": len(tables),
                               "counted_calls": len(window),
                               "seconds": round(seconds, 2),
                               "calls_per_s": round(len(window) / seconds, 1)})
            for _ in range(50):
                await h.settle()
                await cog.settle()
                if h.bot.reconciler.idle and not cog._tasks:
                    break
        elapsed = time.perf_counter() - began
        log = sorted(fake.limits.counted_log)
        peak = 0
        j = 0
        for i, at in enumerate(log):
            while log[j] < at - 1.0 / fake.limits.time_scale:
                j += 1
            peak = max(peak, i - j + 1)
        throttled = len(fake.limits.throttles())
        tour = await store.get_tournament(t.id)
    finally:
        await h.bot.close()
    audited = await audit(str(db), t.id)
    return {"players": players, "rounds": rounds, "status": tour.status,
            "seconds": round(elapsed, 1), "games": audited["games"],
            "rematches": audited["rematches"], "most_byes": audited["most_byes"],
            "standings_match_results": not audited["problems"], "problems": audited["problems"],
            "round_starts": starts, "peak_counted_per_s": peak, "429s": throttled}


def pairing_speed(players: int = 1000, rounds: int = 9, seed: int = 1) -> dict[str, Any]:
    """Pairing each round of a ``players``-player Swiss with random results in between."""
    rng = random.Random(seed)
    people = [Entrant(i, i) for i in range(1, players + 1)]
    played: list[Played] = []
    times = []
    for round_no in range(1, rounds + 1):
        started = time.perf_counter()
        tables = swiss_round(people, played, round_no, seed)
        times.append(time.perf_counter() - started)
        for board, seats in enumerate(tables, start=1):
            if len(seats) == 1:
                played.append(Played(round_no, board, seats, (1.0,)))
                continue
            roll = rng.random()
            points = table_points(2, (), True) if roll < 0.1 else \
                table_points(2, (0 if roll < 0.55 else 1,), False)
            played.append(Played(round_no, board, seats, points))
    pairs = [frozenset(g.seats) for g in played if len(g.seats) == 2]
    return {"players": players, "rounds": rounds, "max_s": round(max(times), 3),
            "mean_s": round(sum(times) / len(times), 3), "rematches": len(pairs) - len(set(pairs))}


def bench(quick: bool = False) -> dict[str, Any]:
    from ..tournament_kills import kill_test

    with tempfile.TemporaryDirectory() as folder:
        players, rounds = (8, 3) if quick else (64, 6)
        swiss = asyncio.run(swiss_standin(Path(folder) / "swiss.sqlite3", players, rounds))
        kills = kill_test(str(Path(folder) / "kills.sqlite3"), players=16 if not quick else 8,
                          rounds=9 if not quick else 5, kills=10 if not quick else 3, seed=11)
    return {"swiss": swiss, "pairing_1000": pairing_speed(1000, 9 if not quick else 3),
            "kills": kills}


def print_figures(figures: dict[str, Any]) -> None:
    s = figures["swiss"]
    print(f"tournament: a {s['players']}-player, {s['rounds']}-round Swiss of AI seats through the "
          f"stand-in at Discord's pace: {s['status']} in {s['seconds']} s, {s['games']} games, "
          f"{s['rematches']} rematches, at most {s['most_byes']} bye a player, standings equal "
          f"to a recomputation from the stored results: {s['standings_match_results']}")
    for start in s["round_starts"]:
        print(f"  round {start['round']} start: {start['tables']} tables opened with "
              f"{start['counted_calls']} counted calls in {start['seconds']} s "
              f"({start['calls_per_s']}/s)")
    print(f"  busiest second: {s['peak_counted_per_s']} counted calls (budget 50); "
          f"429s: {s['429s']}")
    p = figures["pairing_1000"]
    print(f"  pairing {p['players']} players: at most {p['max_s']} s a round, "
          f"{p['mean_s']} s on average over {p['rounds']} rounds (target ≤ 1 s), "
          f"{p['rematches']} rematches")
    k = figures["kills"]
    print(f"  killed {k['kills']} times at random moments ({k['starts']} starts, {k['seconds']} s): "
          f"{k['status']} after {k['rounds']} rounds, problems: {k['problems'] or 'none'}")
