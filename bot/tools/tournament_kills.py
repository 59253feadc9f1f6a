"""Kill a bot mid-tournament, again and again, and check what the store kept: shared by the
kill test (a few kills) and the bench (ten, at random moments).

Each run starts ``tests.bot.tournament_child`` on the database, lets it play for a random
while, kills it (SIGKILL: no shutdown, no last write), and starts it again, until the
tournament is over. Then every round must have been paired once, every game's points must
equal its table's stored result, and the standings must equal a recomputation from them.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ..domain.tables import TableService
from ..domain.tournaments import TournamentService, played_of
from ..store import Store
from ..tournaments import Entrant, standings, table_points

ROOT = Path(__file__).resolve().parents[2]


async def create(target: str, players: int, rounds: int, game: str = "sensei",
                 level: str = "easy") -> int:
    store = await Store.open(target)
    try:
        svc = TournamentService(store, TableService(store))
        t = await svc.create(guild_id=1, channel_id=5, organizer_id=7, name="Kill cup",
                             game=game, options={}, fmt="swiss", rounds=rounds, per_table=2,
                             turn_limit=None, rated=True, starts_at=store.clock(), checkin=None,
                             round_every=None, locale="en-US", seed=77)
        for _ in range(players):
            await svc.add_ai(t.id, 7, level, "AI")
        return t.id
    finally:
        await store.close()


def run_with_kills(target: str, tournament_id: int, kills: int, rng: random.Random,
                   *, longest: float = 3.0, timeout: float = 600.0) -> dict[str, Any]:
    """Kill the child ``kills`` times at random moments, then let it finish."""
    done_kills = 0
    starts = 0
    began = time.monotonic()
    while True:
        starts += 1
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.bot.tournament_child", target, str(tournament_id)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            ready = child.stdout.readline()  # type: ignore[union-attr]
            if not ready:
                raise RuntimeError("child ended: " + child.stderr.read()[-3000:])  # type: ignore[union-attr]
            if done_kills < kills:
                time.sleep(rng.uniform(0.05, longest))
                if child.poll() is None:
                    child.send_signal(signal.SIGKILL)
                    child.wait(timeout=30)
                    done_kills += 1
                    continue
            child.wait(timeout=max(1.0, timeout - (time.monotonic() - began)))
            last = [json.loads(x) for x in child.stdout.read().splitlines() if x.strip()]  # type: ignore[union-attr]
            if last and last[-1].get("status") in ("finished", "cancelled"):
                return {"kills": done_kills, "starts": starts,
                        "seconds": round(time.monotonic() - began, 1)}
            raise RuntimeError("child stopped early: " + child.stderr.read()[-3000:])  # type: ignore[union-attr]
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            for stream in (child.stdout, child.stderr):
                stream.close()  # type: ignore[union-attr]


async def audit(target: str, tournament_id: int) -> dict[str, Any]:
    """What the store kept, checked: the problems found (empty when all is well)."""
    store = await Store.open(target)
    problems: list[str] = []
    try:
        svc = TournamentService(store, TableService(store))
        tour = await store.get_tournament(tournament_id)
        games = await store.tournament_games(tournament_id)
        rounds = sorted({g.round for g in games})
        stored_rounds = [r[0] for r in await store._fetchall(
            "SELECT number FROM tournament_rounds WHERE tournament_id=? ORDER BY number",
            (tournament_id,))]
        if rounds != list(range(1, tour.round + 1)) or stored_rounds != rounds:
            problems.append(f"rounds {rounds} / {stored_rounds} for {tour.round}")
        entrants = await store.entrants(tournament_id)
        per_round = (len(entrants) + 1) // 2
        for r in rounds:
            count = sum(1 for g in games if g.round == r)
            if count != per_round:
                problems.append(f"round {r}: {count} games, {per_round} expected")
        tables = {r[0] for r in await store._fetchall("SELECT id FROM game_tables")}
        linked = {g.table_id for g in games if g.table_id is not None}
        if tables != linked:
            problems.append(f"tables not in a round: {sorted(tables - linked)}")
        for g in games:
            if g.points is None:
                problems.append(f"round {g.round} table {g.board}: no result")
                continue
            if g.table_id is None:
                continue
            rows = await store._fetchall("SELECT result FROM results WHERE table_id=?",
                                         (g.table_id,))
            if not rows:
                problems.append(f"table {g.table_id}: points without a result")
                continue
            result = json.loads(rows[0][0])
            expected = table_points(len(g.seats), result["winners"], result["draw"])
            if tuple(expected) != g.points:
                problems.append(f"table {g.table_id}: points {g.points} != result {expected}")
        pairs = [frozenset(g.seats) for g in games if len(g.seats) == 2]
        byes = [g.seats[0] for g in games if len(g.seats) == 1]
        recomputed = standings([Entrant(e.user_id, e.rank) for e in entrants], played_of(games))
        shown = (await svc.standing(tournament_id)).rows
        if recomputed != shown:
            problems.append("standings differ from a recomputation")
        return {"status": tour.status, "rounds": tour.round, "games": len(games),
                "rematches": len(pairs) - len(set(pairs)),
                "most_byes": max([byes.count(b) for b in byes] or [0]),
                "problems": problems}
    finally:
        await store.close()


def kill_test(target: str, players: int, rounds: int, kills: int, seed: int = 1) -> dict[str, Any]:
    tournament_id = asyncio.run(create(target, players, rounds))
    ran = run_with_kills(target, tournament_id, kills, random.Random(seed))
    return {**ran, **asyncio.run(audit(target, tournament_id))}
