"""`python -m bot.tools.puzzles_gen`: the shipped puzzle sets, made deterministically from seeds.

- Sensei ``win_in_two``: positions from games between noisy AI players (every version, setup
  and board side), kept when the side to move has no win at once but a turn that wins in two
  against every reply (``sensei/wintwo.py``, exact). Each kept position comes with one winning
  turn and how many distinct winning turns there are (fewer is a better puzzle: ranked first).
  Two files: the puzzles (``win_in_two.json.gz``) and, from other seeds, the test set the bench
  measures the AI players and the review on (``win_in_two_set.json.gz``).
- Sàréná ``win_now``: two-player positions from random games where one move ends the game and
  wins whatever the hidden faces and colours (``sarena/puzzle.py``), and another move does not.
- Narabi ``par``: seeded deals (3, 4 and 5 players, basic mode) whose par, with every condition
  known, is small enough to be found by hand, with one par line.

Run from the repository root; it rewrites the files under ``bot/games/<game>/puzzles/``.
The tests verify every shipped puzzle again.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any, Iterator

from ..games.narabi.rules import Narabi
from ..games.narabi.solver import par
from ..games.sarena.puzzle import winning_moves
from ..games.sarena.rules import Sarena
from ..games.sensei import Sensei, legal_turns, play_turn
from ..games.sensei.puzzle import actions_of
from ..games.sensei.whole_turns import _best, scored_turns
from ..games.sensei.wintwo import Budget, OutOfWork, Prover, winning_turn

ROOT = Path(__file__).resolve().parents[1] / "games"
OPTIONS = [{"version": v, "setup": s, "board": b, "first": "green"}
           for v in ("arashi", "shizukana") for s in ("standard", "crossed")
           for b in ("plain", "storm")]
#: games are cut after this many turns (Shizukana games can shuffle for long)
MAX_TURNS = 70
#: winning turns counted per position before it is called "many"
COUNT_CAP = 12
#: positions a position's proof may visit before it is skipped
PROOF_BUDGET = 1_500_000


def _noisy_turn(game: Sensei, rng: random.Random, scored: list) -> list[dict[str, Any]]:
    """Medium's turn most of the time, else one of its ten best or any turn: players who make
    mistakes, so that wins in two appear and are sometimes missed. ``scored``: the turns with
    medium's score, in enumeration order."""
    roll = rng.random()
    if roll < 0.08:
        return rng.choice(legal_turns(game))
    if roll < 0.70:
        return actions_of(_best(scored, rng))
    ranked = sorted(scored, key=lambda kid: -kid[0])
    return actions_of(rng.choice(ranked[:10])[1])


def sensei_positions(seed: int) -> Iterator[dict[str, Any]]:
    """The win-in-two positions of the seeded game ``seed`` (at most two, not adjacent)."""
    rng = random.Random(f"puzzles:{seed}")
    options = OPTIONS[seed % len(OPTIONS)]
    game = Sensei.new(2, options, seed)
    last = -10
    kept = 0
    while game.result() is None and game.turn < MAX_TURNS and kept < 2:
        seat = game.active
        cells, characters = list(game.cells), list(game.characters)
        scored = scored_turns(game, seat)
        if game.turn >= 3 and game.turn - last > 2 \
                and winning_turn(cells, characters, seat, game.slide) is None:
            found = _count_wins(game, scored)
            if found is not None:
                count, path = found
                state = game.to_json()
                state.update(history=[], draw_offer=None)
                kept += 1
                last = game.turn
                yield {"seat": seat, "state": state, "solution": actions_of(path),
                       "winning": count, "seed": seed}
        play_turn(game, seat, _noisy_turn(game, rng, scored))


def _count_wins(game: Sensei, scored: list) -> tuple[int, tuple] | None:
    """(winning turns, up to COUNT_CAP, the one with the best static score first) or None."""
    seat = game.active
    prover = Prover(game.slide, Budget(PROOF_BUDGET))
    wins = []
    try:
        for _, path in sorted(scored, key=lambda kid: -kid[0]):
            prover.budget.spend()
            if prover.refutation(list(game.cells), list(game.characters), seat, path) is None:
                wins.append(path)
                if len(wins) >= COUNT_CAP:
                    break
    except OutOfWork:
        return None
    if not wins:
        return None
    return len(wins), wins[0]


def make_sensei(first_seed: int, wanted: int, prefix: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    seed = first_seed
    while len(rows) < wanted:
        for row in sensei_positions(seed):
            rows.append(row)
        seed += 1
        if seed % 20 == 0:
            print(f"  sensei seed {seed}: {len(rows)} positions", file=sys.stderr, flush=True)
    rows = rows[:wanted]
    # Fewest winning turns first (the sharpest puzzles), then by seed: stable ids.
    rows.sort(key=lambda r: (r["winning"], r["seed"], r["state"]["turn"]))
    for n, row in enumerate(rows, start=1):
        row["id"] = f"{prefix}:{n}"
        row["par"] = 2
    # Different seeds reach the same early position: each is kept once, under its first id.
    # Numbered before the cut, so the ids people already tried keep meaning the same puzzle.
    return unique_positions(rows)


def position_key(row: dict[str, Any]) -> str:
    """What a Sensei puzzle shows: the pieces, the options, the side to move. The turn number
    and the way the position was reached are not part of it."""
    state = row["state"]
    shown = {key: state.get(key) for key in ("stones", "characters", "options", "active")}
    return json.dumps({**shown, "seat": row["seat"]}, sort_keys=True)


def unique_positions(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[str] = set()
    out = []
    for row in rows:
        key = position_key(row)
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out


def make_narabi(first_seed: int, wanted: int, low: int = 3, high: int = 8) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    seed = first_seed
    while len(rows) < wanted:
        seats = (3, 4, 5)[seed % 3]
        game = Narabi.new(seats, {"advanced": False}, seed)
        found = par(game)
        seed += 1
        if found["status"] != "found" or not low <= found["best"] <= high:
            continue
        line = [{"type": "switch", "card": card, "target": target}
                for _, card, target in found["line"]]
        rows.append({"id": f"narabi:{len(rows) + 1}", "seat": game.active,
                     "state": game.to_json(), "solution": line, "par": found["best"],
                     "seed": seed - 1})
    return rows


def make_sarena(first_seed: int, wanted: int) -> list[dict[str, Any]]:
    """Two-player positions from random games where one move ends the game and wins whatever
    the hidden faces and the opponent's colour, and some other move does not (at most one per
    game: its first such position)."""
    rows: list[dict[str, Any]] = []
    seed = first_seed
    while len(rows) < wanted:
        rng = random.Random(f"sarena-puzzles:{seed}")
        game = Sarena.new(2, {}, seed)
        while game.result() is None:
            seat = game.to_move
            legal = game.legal_actions(seat)
            wins = winning_moves(game, seat)
            if wins and len(wins) < len(legal):
                state = game.to_json()
                state["history"] = []
                rows.append({"id": f"sarena:{len(rows) + 1}", "seat": seat, "state": state,
                             "solution": wins[:1], "par": 1, "seed": seed,
                             "winning": len(wins), "moves": len(legal)})
                break
            game.apply(seat, rng.choice(legal))
        seed += 1
    return rows


def write(rows: list[dict[str, Any]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(rows, separators=(",", ":"), sort_keys=True).encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0))
    print(f"{path}: {len(rows)} rows, {path.stat().st_size} bytes", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.puzzles_gen")
    parser.add_argument("what", choices=("sensei", "sensei-set", "narabi", "sarena"))
    parser.add_argument("--count", type=int)
    parser.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    if args.what == "sensei":
        rows = make_sensei(args.seed or 1, args.count or 520, "sensei")
        write(rows, ROOT / "sensei" / "puzzles" / "win_in_two.json.gz")
    elif args.what == "sensei-set":
        rows = make_sensei(args.seed or 100_000, args.count or 220, "set")
        write(rows, ROOT / "sensei" / "puzzles" / "win_in_two_set.json.gz")
    elif args.what == "sarena":
        rows = make_sarena(args.seed or 1, args.count or 200)
        write(rows, ROOT / "sarena" / "puzzles" / "win_now.json.gz")
    else:
        rows = make_narabi(args.seed or 1, args.count or 220)
        write(rows, ROOT / "narabi" / "puzzles" / "par.json.gz")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
