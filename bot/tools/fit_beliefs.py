"""`python -m bot.tools.fit_beliefs`: fits how the Sàréná AIs read the other seats' moves.

Hard and expert draw the other seats' secret colours from beliefs built on their past moves
(``bot.games.sarena.beliefs.evidence_from``): a seat is careless (its moves say nothing) or plays
for its colour, preferring moves by the chips they bring under it (``rationality``), with a
``slip`` now and then. This tool plays seeded games between AIs of one level and, at every turn,
asks how much the mover's beliefs give the others' true colours, for every parameter set of a
grid. It prints the best sets by the mean log posterior of the truth, beside hard's and the
expert's values.
"""
from __future__ import annotations

import argparse
import math
import sys
from functools import partial
from itertools import product

from . import workers
from ..games.ai import choose_action, seat_view
from ..games.sarena import Sarena
from ..games.sarena import beliefs, expert, knowledge
from ..games.sarena.chips import COLOUR_INDEX

#: one rationality, or several that the moves weigh
RATIONALITIES = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, (0.5, 1.0, 2.0, 3.0), (1.0, 2.0, 3.0), (1.0, 2.0))
CARELESS = (0.01, 0.05, 0.2, 0.5)
SLIPS = (0.02, 0.05, 0.1, 0.2)
#: (rationality, careless, slip) of the levels that read moves
IN_USE = {"hard": (beliefs.RATIONALITY, beliefs.CARELESS, beliefs.SLIP),
          "expert": (expert.RATIONALITY, expert.CARELESS, expert.SLIP)}

Params = tuple[float | tuple[float, ...], float, float]


def grid() -> list[Params]:
    sets = set(product(RATIONALITIES, CARELESS, SLIPS)) | set(IN_USE.values())
    return sorted(sets, key=str)


def judge(index: int, level: str, seats: int,
          params: list[Params]) -> list[tuple[float, float, int, int]]:
    """Game ``index`` between ``level`` AIs: per parameter set, (sum of log posterior of the
    truth, sum of posterior, turns where the truth was the likeliest, turns judged)."""
    game = Sarena.new(seats, {}, 8_191 * index + 1)
    totals = [(0.0, 0.0, 0, 0)] * len(params)
    for ply in range(Sarena.arena_max_actions):
        if game.result() is not None:
            break
        seat = game.to_move
        view = seat_view(game, seat)
        table = knowledge.read_view(view)
        observed = beliefs.observed_moves(table, view["history"])
        if observed:
            # The tool may look at every seat's secret: it judges beliefs, it does not play.
            truth = tuple(COLOUR_INDEX[game.private_view(s)["colour"]] for s in table.others)
            for k, (rationality, careless, slip) in enumerate(params):
                evidence = beliefs.evidence_from(observed, table.others, rationality, careless,
                                                 slip)
                weighed = beliefs.Beliefs(table, evidence)
                p = weighed.probabilities[weighed.assignments.index(truth)]
                logs, ps, tops, turns = totals[k]
                totals[k] = (logs + math.log(max(p, 1e-12)), ps + p,
                             tops + (p == max(weighed.probabilities)), turns + 1)
        game.apply(seat, choose_action("sarena", view, level, seed=index * 10_007 + ply))
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.fit_beliefs", description=__doc__)
    parser.add_argument("--level", default="hard", choices=("easy", "medium", "hard", "expert"),
                        help="the level of every seat in the games played")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--top", type=int, default=8, help="how many of the best sets to print")
    args = parser.parse_args(argv)
    params = grid()
    play = partial(judge, level=args.level, seats=args.seats, params=params)
    sums = [[0.0, 0.0, 0, 0] for _ in params]
    with workers.pool(args.jobs) as processes:
        for totals in processes.map(play, range(args.games)):
            for acc, game_totals in zip(sums, totals):
                for i, value in enumerate(game_totals):
                    acc[i] += value
    turns = sums[0][3]
    if not turns:
        print("no turn had a move to read", file=sys.stderr)
        return 1
    # Sorted by the log posterior alone: readings mix floats and tuples, which do not compare.
    rows = sorted(((logs / turns, ps / turns, tops / turns, p)
                   for (logs, ps, tops, _), p in zip(sums, params)),
                  key=lambda row: row[0], reverse=True)
    print(f"{turns} turns from {args.games} games ({args.level}, {args.seats} players)")
    print("mean log p(truth)  mean p(truth)  truth likeliest  rationality careless slip")

    def line(row, label: str = "") -> str:
        logs, ps, tops, (rationality, careless, slip) = row
        sharpness = ("/".join(f"{r:g}" for r in rationality)
                     if isinstance(rationality, tuple) else f"{rationality:g}")
        return (f"{logs:17.4f}  {ps:13.3f}  {tops:15.1%}  {sharpness:>11} {careless:8g} "
                f"{slip:4g}{label}")

    for row in rows[:args.top]:
        print(line(row))
    for name, used in IN_USE.items():
        print(line(next(row for row in rows if row[3] == used), f"  ({name})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
