"""Sàréná's Expert against players outside its family (issue 55): a few arena games a run.

The bench plays a handful of two-player games, seats alternating, so that a change that breaks
the Expert's strength or its think time shows in the next run; the figures the issue sets
targets for (200 games a match, on seeds the tuning never used) are arena runs recorded with
their commands in ``docs/measurements/ai-strength.md``. Think times are wall time a move, so
on a shared machine they are upper bounds.
"""
from __future__ import annotations

from typing import Any

from ..arena import percentile, run, wilson

#: seeds the Expert's tuning never used (it was tuned on 1000-1999)
SEED = 90_101
#: (opponent, games) per match; quick keeps within the bench's CI budget (two games, about 30 s
#: on the dev machine)
MATCHES = {True: (("montecarlo@100", 2),),
           False: (("montecarlo@100", 10), ("montecarlo@250", 6), ("hard", 10))}


def bench(quick: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for opponent, games in MATCHES[quick]:
        tally = run("sarena", "expert", opponent, games, SEED)
        low, high = wilson(tally.score, tally.games)
        think = tally.think["expert"]
        out[f"expert_vs_{opponent.replace('@', '')}"] = {
            "games": tally.games, "score": round(tally.score, 3),
            "ci95": [round(low, 3), round(high, 3)],
            "think_p50_ms": round(percentile(think, 50) * 1000, 1),
            "think_p95_ms": round(percentile(think, 95) * 1000, 1),
        }
    return out


def print_figures(figures: dict[str, Any]) -> None:
    print("AI strength (Sàréná expert, 2 players, seats alternating; the 200-game figures are "
          "in docs/measurements/ai-strength.md)")
    for match, f in figures.items():
        print(f"  {match}: {f['score']:.1%} over {f['games']} games "
              f"(95 % CI {f['ci95'][0]:.0%}–{f['ci95'][1]:.0%}), expert think p50 "
              f"{f['think_p50_ms']:.0f} ms, p95 {f['think_p95_ms']:.0f} ms (target ≤ 1,500 ms)")
