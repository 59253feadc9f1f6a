"""`python -m bot.tools.win_in_two`: the AI players and the review on the verified win-in-two set.

For each position of ``bot/games/sensei/puzzles/win_in_two_set.json.gz`` (every one has a turn
that wins by force within two turns, and none that wins at once):

- each level plays its turn through the documented entry point (``ai.choose_action`` on a
  ``seat_view``, action after action until the turn ends) and the turn is judged exactly by
  ``wintwo`` (every reply enumerated); the think time is the wall time of the turn's actions;
- the review grades a turn that misses the win (the best turn by medium's static score that
  does not win in two), and must call it a blunder and show a winning turn.

Prints one line per figure (``--json`` for the numbers).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..games.ai import choose_action, seat_view
from ..games.puzzles import Puzzle
from ..games.sensei import Sensei
from ..games.sensei.expert import _DECIDED
from ..games.sensei.puzzle import _moves, actions_of
from ..games.sensei.review import REVIEW_NODES, _graded
from ..games.sensei.whole_turns import scored_turns
from ..games.sensei.wintwo import _WIN_IN_TWO, Prover


def load_set() -> list[Puzzle]:
    import gzip
    from importlib import resources

    raw = resources.files("bot.games.sensei.puzzles").joinpath("win_in_two_set.json.gz")
    rows = json.loads(gzip.decompress(raw.read_bytes()))
    return [Puzzle.from_json({**row, "game": "sensei", "kind": "win_in_two"}) for row in rows]


def play_level(puzzle: Puzzle, level: str) -> tuple[bool, float, float]:
    """Whether ``level``'s turn wins in two, and the seconds it took (wall, then CPU: on a
    shared machine the wall time includes waiting for a core)."""
    game = puzzle.position()
    assert isinstance(game, Sensei)
    seat = puzzle.seat
    start = game.copy()
    played: list[dict[str, Any]] = []
    _DECIDED.clear()
    _WIN_IN_TWO.clear()
    took = cpu = 0.0
    while game.result() is None and game.active == seat and game.turn == start.turn:
        view = seat_view(game, seat)
        began, began_cpu = time.perf_counter(), time.process_time()
        action = choose_action("sensei", view, level, seed=0)
        took += time.perf_counter() - began
        cpu += time.process_time() - began_cpu
        game.apply(seat, action)
        played.append(action)
    result = game.result()
    if result is not None:
        return seat in result.winners, took, cpu
    refuted = Prover(start.slide).refutation(list(start.cells), list(start.characters), seat,
                                             _moves(played))
    return refuted is None, took, cpu


def missed_turn(puzzle: Puzzle) -> list[dict[str, Any]] | None:
    """The best turn by medium's static score that does not win in two."""
    game = puzzle.position()
    assert isinstance(game, Sensei)
    prover = Prover(game.slide)
    scored = sorted(scored_turns(game, puzzle.seat), key=lambda kid: -kid[0])
    for _, path in scored:
        if prover.refutation(list(game.cells), list(game.characters), puzzle.seat, path) is not None:
            return actions_of(path)
    return None


def grade_missed(puzzle: Puzzle) -> tuple[bool, bool]:
    """(graded a blunder, the better turn shown wins in two) for a turn missing the win."""
    turn = missed_turn(puzzle)
    if turn is None:
        return True, True  # every turn wins: nothing can miss it
    start = puzzle.position()
    after = start.copy()
    played = list(turn) + [{"type": "end_turn"}]
    for action in played:
        if after.result() is not None or after.active != puzzle.seat:
            break
        after.apply(puzzle.seat, action)
    graded = _graded(start, after, 0, played, REVIEW_NODES)
    better = graded.better
    shown = bool(better) and Prover(start.slide).refutation(
        list(start.cells), list(start.characters), puzzle.seat, _moves(better)) is None
    return graded.grade == "blunder", shown


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else 0.0


def measure(levels: tuple[str, ...] = ("expert", "hard"), limit: int | None = None,
            review: bool = True) -> dict[str, Any]:
    puzzles = load_set()[:limit]
    out: dict[str, Any] = {"positions": len(puzzles)}
    for level in levels:
        found, times, cpus, missed = 0, [], [], []
        for puzzle in puzzles:
            ok, took, cpu = play_level(puzzle, level)
            found += ok
            times.append(took)
            cpus.append(cpu)
            if not ok:
                missed.append(puzzle.id)
        out[level] = {"found": found, "rate": round(found / len(puzzles), 4),
                      "think_p50_s": round(percentile(times, 50), 3),
                      "think_p95_s": round(percentile(times, 95), 3),
                      "think_max_s": round(max(times), 3),
                      "cpu_p95_s": round(percentile(cpus, 95), 3),
                      "cpu_max_s": round(max(cpus), 3), "missed": missed}
    if review:
        blunders = shown = 0
        for puzzle in puzzles:
            blunder, ok = grade_missed(puzzle)
            blunders += blunder
            shown += ok
        out["review"] = {"blunder": blunders, "winning_turn_shown": shown}
    return out


def print_figures(figures: dict[str, Any]) -> None:
    n = figures["positions"]
    for level in ("expert", "hard"):
        if level in figures:
            f = figures[level]
            print(f"win in two, {level}: {f['found']}/{n} ({100 * f['rate']:.1f} %), think p50 "
                  f"{f['think_p50_s']:.3f} s p95 {f['think_p95_s']:.3f} s max {f['think_max_s']:.3f} s "
                  f"(CPU p95 {f['cpu_p95_s']:.3f} s max {f['cpu_max_s']:.3f} s)"
                  + (f"; missed {', '.join(f['missed'])}" if f["missed"] else ""))
    if "review" in figures:
        r = figures["review"]
        print(f"win in two, review of a turn missing the win: blunder {r['blunder']}/{n}, "
              f"a winning turn shown {r['winning_turn_shown']}/{n}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.win_in_two")
    parser.add_argument("--levels", default="expert,hard")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--no-review", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(tuple(args.levels.split(",")) if args.levels else (), args.limit,
                      not args.no_review)
    if args.json:
        json.dump(figures, sys.stdout, indent=2)
        print()
    else:
        print_figures(figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
