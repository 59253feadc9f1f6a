"""`python -m bot arena`: seeded AI-against-AI matches, win rates with 95 % intervals, think times.

Two-sided games (Sensei, Sàréná) give level A one seat (rotating through the seats game by game)
and level B every other seat. Narabi is cooperative: every seat plays level A and the figure is
the team's win rate; it is also given over the deals the par solver proves solvable within the
turn limit, since a deal nobody could solve says nothing about the team.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any, Callable

from ..games.ai import LEVELS, choose_action, seat_view
from ..games.sarena.montecarlo import choose_sparring, sparring_level
from ..games import game_class
from ..games.registry import keys
from . import workers

#: Narabi deals whose par is at most this many switches count as solvable
PAR_LIMIT = 24


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    unfinished: int = 0
    think: dict[str, list[float]] = field(default_factory=dict)
    # The same moves' CPU time (this process's): what a quiet core would take, near enough.
    cpu: dict[str, list[float]] = field(default_factory=dict)
    # Level A's score in each game, in game order (1, 0.5 or 0): matches on the same deals pair.
    outcomes: list[float] = field(default_factory=list)
    # Narabi only: deals with a par <= PAR_LIMIT, the team's wins among them, and deals with no
    # par (proved unsolvable within the turn limit, or past the solver's node budget).
    solvable: int = 0
    solvable_wins: int = 0
    par_unknown: int = 0

    @property
    def score(self) -> float:
        """Wins plus half the draws, per game."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion ``p`` observed over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def play_one(game_key: str, levels: list[str], options: dict[str, Any], seed: int,
             think: dict[str, list[float]], cpu: dict[str, list[float]] | None = None) -> Any:
    """One game with ``levels[seat]`` at each seat; returns its Result (None if capped)."""
    cls = game_class(game_key)
    game = cls.new(len(levels), options, seed)
    for ply in range(cls.arena_max_actions):
        if game.result() is not None:
            break
        seat = game.to_move
        level = levels[seat]
        view = seat_view(game, seat)
        started, started_cpu = time.perf_counter(), time.process_time()
        action = _choose(game_key, view, level, seed * 10_007 + ply)
        think.setdefault(level, []).append(time.perf_counter() - started)
        if cpu is not None:
            cpu.setdefault(level, []).append(time.process_time() - started_cpu)
        game.apply(seat, action)
    return game.result()


#: players that are not levels offered to people: measuring sticks from outside the levels'
#: family (issue 55), by game; ``montecarlo@250`` is the same with 250 playouts a move
SPARRING = {"sarena": ("montecarlo",)}


def _choose(game_key: str, view: Any, level: str, seed: int) -> Any:
    if level in LEVELS:
        return choose_action(game_key, view, level, seed=seed)
    return choose_sparring(view, level, seed)


def player_name(text: str) -> str:
    """An arena player: a level, or a sparring partner (``montecarlo`` or ``montecarlo@N``)."""
    if text in LEVELS or sparring_level(text) is not None:
        return text
    raise argparse.ArgumentTypeError(
        f"{text!r}: one of {', '.join(LEVELS)}, montecarlo or montecarlo@PLAYOUTS (Sàréná)")


def _play_numbered(game_key: str, a: str, b: str, seats: int, options: dict[str, Any], seed: int,
                   i: int) -> tuple[Any, dict[str, list[float]], dict[str, list[float]]]:
    """Game number ``i`` of a match, with its think times (run in a worker with --jobs)."""
    if game_class(game_key).cooperative:
        levels = [a] * seats
    else:
        levels = [a if s == i % seats else b for s in range(seats)]
    think: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    return play_one(game_key, levels, options, seed * 1_000_003 + i, think, cpu), think, cpu


def run(game_key: str, a: str, b: str, games: int, seed: int, seats: int | None = None,
        options: dict[str, Any] | None = None, jobs: int = 1,
        progress: Callable[[Tally], None] | None = None, first: int = 0) -> Tally:
    """A match of ``games`` games, numbered from ``first``. With ``jobs`` > 1 the games are
    played in that many processes; each game is seeded by its number, so the outcome is the
    same whatever ``jobs`` is, and a long match may be played in chunks (``first`` = 0, 50,
    100, ...) whose tallies add up to the whole match's. ``progress`` is told the tally after
    each game (a long match shows how it stands)."""
    cls = game_class(game_key)
    seats = seats or cls.min_seats
    options = cls.normalize_options(options)
    tally = Tally()
    play = partial(_play_numbered, game_key, a, b, seats, options, seed)
    if jobs > 1:
        with workers.pool(jobs) as processes:
            numbers = range(first, first + games)
            for i, played in zip(numbers, processes.map(play, numbers)):
                _count(tally, cls, seats, options, seed, i, *played)
                if progress:
                    progress(tally)
    else:
        for i in range(first, first + games):
            _count(tally, cls, seats, options, seed, i, *play(i))
            if progress:
                progress(tally)
    return tally


def _count(tally: Tally, cls: Any, seats: int, options: dict[str, Any], seed: int, i: int,
           result: Any, think: dict[str, list[float]], cpu: dict[str, list[float]]) -> None:
    """Game number ``i`` added to the match's tally."""
    game_key = cls.key
    for level, times in think.items():
        tally.think.setdefault(level, []).extend(times)
    for level, times in cpu.items():
        tally.cpu.setdefault(level, []).extend(times)
    mine = None if cls.cooperative else i % seats
    deal_seed = seed * 1_000_003 + i
    if cls.cooperative:
        _tally_par(tally, game_key, seats, options, deal_seed, result)
    tally.games += 1
    before = tally.wins + 0.5 * tally.draws
    if result is None:
        tally.unfinished += 1
        tally.draws += 1
    elif cls.cooperative:
        tally.wins += bool(result.winners)
    elif mine in result.winners and len(result.winners) == 1 and not result.draw:
        tally.wins += 1
    elif mine in result.winners or (result.draw and not result.winners):
        tally.draws += 1
    tally.outcomes.append(tally.wins + 0.5 * tally.draws - before)


def _tally_par(tally: Tally, game_key: str, seats: int, options: dict[str, Any], deal_seed: int,
               result: Any) -> None:
    # A cooperative game may have a par solver (Narabi's); the others need not load one.
    import importlib
    import importlib.util

    if importlib.util.find_spec(f"bot.games.{game_key}.solver") is None:
        return
    solver = importlib.import_module(f"bot.games.{game_key}.solver")
    par = solver.fewest_switches(game_class(game_key).new(seats, options, deal_seed))
    if par is None:
        tally.par_unknown += 1
    elif par <= PAR_LIMIT:
        tally.solvable += 1
        tally.solvable_wins += bool(result is not None and result.winners)


def report(game_key: str, a: str, b: str, tally: Tally) -> str:
    low, high = wilson(tally.score, tally.games)
    cooperative = game_class(game_key).cooperative
    who = f"{a} team" if cooperative else f"{a} vs {b}"
    lines = [f"{game_key}: {who}, {tally.games} games: score {tally.score:.1%} "
             f"(95 % CI {low:.1%}–{high:.1%}); {tally.wins} won, {tally.draws} drawn"
             + (f" ({tally.unfinished} capped)" if tally.unfinished else "")
             + f", {tally.games - tally.wins - tally.draws} lost"]
    if cooperative and tally.solvable + tally.par_unknown:
        rate = tally.solvable_wins / tally.solvable if tally.solvable else 0.0
        low, high = wilson(rate, tally.solvable)
        lines.append(f"  par-solvable deals (par <= {PAR_LIMIT} switches): {tally.solvable}, "
                     f"won {tally.solvable_wins} = {rate:.1%} (95 % CI {low:.1%}–{high:.1%}); "
                     f"{tally.par_unknown} with no par (unsolvable within the turn limit, "
                     f"or not computed)")
    for level, times in sorted(tally.think.items()):
        lines.append(f"  think {level}: p50 {percentile(times, 50) * 1000:.1f} ms, "
                     f"p95 {percentile(times, 95) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
                     f"over {len(times)} moves"
                     + (f"; CPU p50 {percentile(tally.cpu[level], 50) * 1000:.1f} ms, "
                        f"p95 {percentile(tally.cpu[level], 95) * 1000:.1f} ms"
                        if tally.cpu.get(level) else ""))
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=keys())
    parser.add_argument("--a", default="hard", type=player_name,
                        help=f"the level measured: {', '.join(LEVELS)}")
    parser.add_argument("--b", default="random", type=player_name,
                        help="its opponents' level, or for Sàréná the sparring partner "
                             "montecarlo (flat Monte Carlo with colour inference, not a level "
                             "offered to players)")
    parser.add_argument("--playouts", type=int, default=None,
                        help="the sparring partner's playouts a move (default 100): "
                             "montecarlo becomes montecarlo@N")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0,
                        help="number of the match's first game: a long match played in chunks "
                             "(--first 0, then 50, ...) adds up to the same games")
    parser.add_argument("--progress", action="store_true",
                        help="print the score so far after each game (on stderr)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="play games in this many processes (think times then include the "
                             "machine being shared; the outcome does not change)")
    parser.add_argument("--record", metavar="FILE", default=None,
                        help="also append the chunk's tally, raw think times included, to FILE "
                             "as one JSON line (chunks of a match are then added up exactly)")
    parser.add_argument("--seats", type=int, default=None, help="players per game (default: the fewest the game allows)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. version=shizukana or fair=true")


def _option_value(text: str) -> Any:
    return {"true": True, "false": False}.get(text.lower(), text)


def main(args: argparse.Namespace) -> int:
    for side in ("a", "b"):
        name = getattr(args, side)
        if sparring_level(name) is not None:
            if args.game not in SPARRING:
                print(f"arena: {name} plays {', '.join(SPARRING)} only", file=sys.stderr)
                return 2
            if args.playouts:
                setattr(args, side, f"montecarlo@{args.playouts}")
    options = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = _option_value(value)
    def progress(tally: Tally) -> None:
        print(f"  {tally.games}/{args.games} games: score {tally.score:.1%} "
              f"({tally.wins} won, {tally.draws} drawn)", file=sys.stderr, flush=True)

    tally = run(args.game, args.a, args.b, args.games, args.seed, args.seats, options,
                args.jobs, progress if args.progress else None, args.first)
    print(report(args.game, args.a, args.b, tally))
    if args.record:
        with open(args.record, "a", encoding="utf-8") as out:
            out.write(json.dumps({"game": args.game, "a": args.a, "b": args.b,
                                  "seed": args.seed, "first": args.first,
                                  "seats": args.seats, **asdict(tally)}) + "\n")
    return 0
