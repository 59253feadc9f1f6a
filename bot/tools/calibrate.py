"""`python -m bot.tools.calibrate`: fits the Sensei review's curve from scores to winning chances.

The review turns the expert's search score into the mover's chances with a logistic curve
(``bot.games.sensei.review.SCALE``). The right scale is the one that best predicts who goes on
to win: games between hard AIs (both versions) are played from seeded deals, every few turn
starts are searched as the review searches them, and the scale that maximises the likelihood
of the games' outcomes is printed beside the log-loss of the scale in use. Proved scores are
left out (the review reads them as 1 and 0), and so are games capped without a result.
"""
from __future__ import annotations

import argparse
import math
import sys
from functools import partial

from . import workers
from ..games.ai import choose_action, seat_view
from ..games.sensei import Sensei
from ..games.sensei import review
from ..games.sensei.expert import PROVED, decide


def play(index: int, levels: tuple[str, str], every: int, nodes: int) -> list[tuple[int, float]]:
    """(score for the mover, the mover's final result) at every ``every``-th turn start."""
    version = ("arashi", "shizukana")[index % 2]
    game = Sensei.new(2, {"version": version, "first": ("green", "red")[index // 2 % 2]},
                      7_919 * index + 1)
    samples: list[tuple[int, int]] = []
    for ply in range(Sensei.arena_max_actions):
        if game.result() is not None:
            break
        seat = game.to_move
        if not game.current and game.turn % every == 0:
            decision = decide(game.cells, game.characters, seat, game.slide, nodes=nodes)
            if abs(decision.value) < PROVED:
                samples.append((decision.value, seat))
        action = choose_action("sensei", seat_view(game, seat), levels[seat],
                               seed=index * 10_007 + ply)
        game.apply(seat, action)
    result = game.result()
    if result is None:
        return []
    return [(score, 0.5 if result.draw or not result.winners else float(seat in result.winners))
            for score, seat in samples]


def log_loss(samples: list[tuple[int, float]], scale: float) -> float:
    total = 0.0
    for score, outcome in samples:
        p = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -score / scale))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= outcome * math.log(p) + (1 - outcome) * math.log(1 - p)
    return total / len(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.calibrate", description=__doc__)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--every", type=int, default=3, help="search every N-th turn start")
    parser.add_argument("--a", default="hard")
    parser.add_argument("--b", default="hard")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    work = partial(play, levels=(args.a, args.b), every=args.every, nodes=review.REVIEW_NODES)
    samples: list[tuple[int, float]] = []
    with workers.pool(args.jobs) as pool:
        for done, found in enumerate(pool.map(work, range(args.games)), 1):
            samples += found
            print(f"  {done}/{args.games} games, {len(samples)} positions", file=sys.stderr)
    if not samples:
        print("no finished game to learn from")
        return 1
    scales = [round(10 * 1.1 ** k) for k in range(60)]  # 10 to about 2,800, 10 % apart
    best = min(scales, key=lambda s: log_loss(samples, s))
    print(f"{len(samples)} positions from {args.games} games ({args.a} vs {args.b})")
    print(f"  log-loss at SCALE {review.SCALE:g}: {log_loss(samples, review.SCALE):.4f}")
    print(f"  best SCALE {best:g}: log-loss {log_loss(samples, best):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
