"""`python -m bot.tools.compare_sensei`: the expert's alpha-beta against MCTS at the same budget.

Both searches score the same children with the same evaluation and count the same nodes
(``bot/games/sensei/expert.py``, ``bot/games/sensei/mcts.py``); only the way they spend them
differs. Both are deterministic, so games start from seeded random openings (a random stone
move for each side),
each opening played twice with the sides swapped. Prints alpha-beta's score with its 95 % Wilson
interval and each search's CPU time per turn.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from functools import partial

from ..games.sensei import Sensei, expert, mcts
from ..games.sensei.board import square_name
from . import workers
from .arena import percentile, wilson

#: turns after which an undecided game counts as a draw (capped)
TURN_LIMIT = 200
OPENING_TURNS = 2


def _apply(game: Sensei, seat: int, path) -> None:
    for kind, frm, to in path:
        game.apply(seat, {"type": kind, "from": square_name(frm), "to": square_name(to)})
    if game.result() is None and game.to_move == seat and game.current:
        game.apply(seat, {"type": "end_turn"})


def play(index: int, version: str, nodes: int) -> tuple[float | None, list[float], list[float]]:
    """Game ``index``: (alpha-beta's score or None if capped, its CPU times, MCTS's)."""
    rng = random.Random(index // 2)
    game = Sensei.new(2, {"version": version, "first": "green"}, index // 2)
    for _ in range(OPENING_TURNS):
        # One random stone move a turn: quiet openings, none decided before the searches play.
        seat = game.to_move
        game.apply(seat, rng.choice([a for a in game.legal_actions(seat) if a["type"] == "stone"]))
        game.apply(seat, {"type": "end_turn"})
    alpha_beta_seat = index % 2
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(TURN_LIMIT):
        if game.result() is not None:
            break
        seat = game.to_move
        started = time.process_time()
        if seat == alpha_beta_seat:
            path = expert.decide(game.cells, game.characters, seat, game.slide, nodes=nodes).path
        else:
            path = mcts.decide(game.cells, game.characters, seat, game.slide, nodes).path
        times[seat != alpha_beta_seat].append(time.process_time() - started)
        if not path:
            break
        _apply(game, seat, path)
    result = game.result()
    if result is None:
        return None, *times
    if result.draw or not result.winners:
        return 0.5, *times
    return float(alpha_beta_seat in result.winners), *times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.compare_sensei", description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--version", default="arashi", choices=("arashi", "shizukana"))
    parser.add_argument("--nodes", type=int, default=expert.EXPERT_NODES)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    work = partial(play, version=args.version, nodes=args.nodes)
    scores: list[float] = []
    capped = 0
    ab_times: list[float] = []
    mcts_times: list[float] = []
    with workers.pool(args.jobs) as pool:
        for done, (score, ab, mc) in enumerate(pool.map(work, range(args.games)), 1):
            capped += score is None
            scores.append(0.5 if score is None else score)
            ab_times += ab
            mcts_times += mc
            print(f"  {done}/{args.games} games: alpha-beta {sum(scores) / done:.1%}",
                  file=sys.stderr)
    n = len(scores)
    p = sum(scores) / n
    low, high = wilson(p, n)
    print(f"sensei {args.version}, {n} games at {args.nodes:,} nodes a turn: alpha-beta scores "
          f"{p:.1%} against MCTS (95 % CI {low:.1%}–{high:.1%}); "
          f"{sum(s == 1 for s in scores)} won, {sum(s == 0.5 for s in scores)} drawn "
          f"({capped} capped), {sum(s == 0 for s in scores)} lost")
    for name, times in (("alpha-beta", ab_times), ("MCTS", mcts_times)):
        print(f"  {name}: CPU per turn p50 {percentile(times, 50):.2f} s, "
              f"p95 {percentile(times, 95):.2f} s over {len(times)} turns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
