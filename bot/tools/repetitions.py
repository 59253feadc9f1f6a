"""`python -m bot.tools.repetitions`: how many AI-against-AI Sensei games come back to a position
a third time, played through ``bot.games.ai`` as the tables play them.

Each game is seeded by its number (from ``--seed``), the levels swap seats every game, and a
game stops at its first third repetition (where the table's regulation would draw it) or at its
end. ``--forget`` hands the AIs their views without the game's history, as they played before
they kept it: the same games as before the change, for a before/after figure from one build.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from functools import partial

from . import workers
from ..games.ai import choose_action, seat_view
from ..games.sensei import Sensei
from ..games.sensei.positions import position_key


def play(seed: int, levels: tuple[str, str], forget: bool) -> tuple[int | None, int, str]:
    """(the turn a position came back a third time or None, turns played, how it ended)."""
    game = Sensei.new(2, {}, seed)
    seen = Counter([position_key(game.cells, game.characters, game.active)])
    for ply in range(Sensei.arena_max_actions):
        if game.result() is not None:
            break
        seat, turn = game.to_move, game.turn
        view = seat_view(game, seat)
        if forget:
            view["history"] = []
        game.apply(seat, choose_action("sensei", view, levels[seat], seed=seed * 10_007 + ply))
        if game.result() is None and game.turn != turn:
            key = position_key(game.cells, game.characters, game.active)
            seen[key] += 1
            if seen[key] >= 3:
                return game.turn, game.turn, "third repetition"
    result = game.result()
    return None, game.turn, "capped" if result is None else result.reason


def _numbered(a: str, b: str, seed: int, forget: bool, i: int) -> tuple[int | None, int, str]:
    levels = (a, b) if i % 2 == 0 else (b, a)
    return play(seed + i, levels, forget)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.repetitions", description=__doc__)
    parser.add_argument("levels", help="two levels, e.g. medium-medium or hard-medium")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed")
    parser.add_argument("--forget", action="store_true",
                        help="the AIs play without the game's history (as before they kept it)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    a, b = args.levels.split("-")
    run = partial(_numbered, a, b, args.seed, args.forget)
    if args.jobs > 1:
        with workers.pool(args.jobs) as processes:
            games = list(processes.map(run, range(args.games)))
    else:
        games = [run(i) for i in range(args.games)]
    thirds = [turn for turn, _, _ in games if turn is not None]
    ends = Counter(reason for _, _, reason in games)
    lengths = [turns for _, turns, _ in games]
    print(f"{args.levels}, {args.games} games from seed {args.seed}"
          f"{' (without history)' if args.forget else ''}: {len(thirds)} came back to a position "
          f"a third time (at turns {sorted(thirds)}); ends {dict(ends)}; turns: mean "
          f"{statistics.mean(lengths):.1f}, longest {max(lengths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
