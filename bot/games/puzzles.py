"""Puzzles: positions with one right answer, built in (shipped data) or cut from finished games.

The contract the ``/puzzle`` cog builds on is ``bot/games/PUZZLES.md``. In short:

- ``ids(game)`` the built-in puzzles of a game, ``load(puzzle_id)`` one of them;
- ``Puzzle.position()`` the game to show (a fresh copy) and ``Puzzle.seat`` the seat to play;
- ``check(puzzle, answer)`` a candidate answer → ``Verdict`` (solved / wrong with the refutation /
  incomplete / illegal);
- ``hint(puzzle)`` what to look at first;
- ``from_review(...)`` the puzzles a finished game's review holds (blunders that missed a
  forced win), showing only what that game's end revealed.

Kinds: Sensei ``win_in_two`` (one turn that wins by force within two turns, every reply
checked by ``sensei/wintwo.py``), Narabi ``par`` (a deal with every condition shown, solve it
in the par number of switches, ``narabi/solver.py``), Sàréná ``win_now`` (one move that wins
whatever the hidden faces and colours).

Pure: no clock, no randomness; the only input read is the package's own shipped data.
"""
from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping, Sequence

from .puzzle_types import (GAMES, ILLEGAL, INCOMPLETE, KINDS, SOLVED, WRONG, Puzzle,
                           UnknownPuzzle, Verdict, illegal)

__all__ = ["GAMES", "KINDS", "SOLVED", "WRONG", "INCOMPLETE", "ILLEGAL", "Puzzle", "Verdict",
           "UnknownPuzzle", "illegal", "ids", "load", "check", "hint", "from_review"]

#: where each game's built-in set lives (a package resource, gzip'd JSON)
_DATA = {"sensei": ("bot.games.sensei.puzzles", "win_in_two.json.gz"),
         "narabi": ("bot.games.narabi.puzzles", "par.json.gz"),
         "sarena": ("bot.games.sarena.puzzles", "win_now.json.gz")}


# -- the built-in sets ------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _builtin(game: str) -> dict[str, Puzzle]:
    package, name = _DATA[game]
    try:
        raw = resources.files(package).joinpath(name).read_bytes()
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    rows = json.loads(gzip.decompress(raw).decode("utf-8"))
    out = {}
    for row in rows:
        puzzle = Puzzle.from_json({**row, "game": game, "kind": KINDS[game]})
        out[puzzle.id] = puzzle
    return out


def ids(game: str) -> list[str]:
    """The ids of ``game``'s built-in puzzles, in their shipped order (ids are stable)."""
    if game not in GAMES:
        raise ValueError(f"no puzzles for {game!r}")
    return list(_builtin(game))


def load(puzzle_id: str) -> Puzzle:
    """A built-in puzzle by id (``"<game>:<n>"``). Puzzles from games are kept by the caller
    (``Puzzle.to_json``/``from_json``)."""
    game = puzzle_id.split(":", 1)[0]
    if game not in GAMES or puzzle_id not in _builtin(game):
        raise UnknownPuzzle(puzzle_id)
    return _builtin(game)[puzzle_id]


# -- answers ----------------------------------------------------------------------------------
def check(puzzle: Puzzle, answer: Sequence[Mapping[str, Any]]) -> Verdict:
    """The verdict on ``answer``, the actions the solver made from the puzzle's position, in
    order (Sensei: one turn's actions, an ``end_turn`` at the end or not; Narabi: switches;
    Sàréná: one move)."""
    if puzzle.game == "sensei":
        from .sensei import puzzle as sensei_puzzle
        return sensei_puzzle.check(puzzle, answer)
    if puzzle.game == "narabi":
        from .narabi import puzzle as narabi_puzzle
        return narabi_puzzle.check(puzzle, answer)
    if puzzle.game == "sarena":
        from .sarena import puzzle as sarena_puzzle
        return sarena_puzzle.check(puzzle, answer)
    raise ValueError(f"no puzzles for {puzzle.game!r}")


def hint(puzzle: Puzzle) -> dict[str, Any]:
    """What to look at first, as ``{"code": …, **params}`` for the UI to translate:
    Sensei ``{"code": "sensei.first_piece", "kind": "stone"|"character", "square": "c2"}``
    (the piece the solution moves first); Narabi ``{"code": "narabi.first_switch", "seat": s,
    "card": id}``; Sàréná ``{"code": "sarena.pile", "square": "c3"}``."""
    first = puzzle.solution[0]
    if puzzle.game == "sensei":
        return {"code": "sensei.first_piece", "kind": first["type"], "square": first["from"]}
    if puzzle.game == "narabi":
        return {"code": "narabi.first_switch", "seat": puzzle.seat, "card": first["card"]}
    return {"code": "sarena.pile", "square": first["from"]}


# -- puzzles from finished games --------------------------------------------------------------
def from_review(game: str, seats: int, options: Mapping[str, Any], seed: int,
                log: Sequence[tuple[int, Mapping[str, Any]]], review: Mapping[str, Any], *,
                game_id: Any) -> list[Puzzle]:
    """The puzzles a finished game holds: for each turn its review graded a blunder, the
    position before it when that position has a forced win (Sensei: in two turns, proved by
    ``sensei/wintwo.py``). ``log`` is the game's action log as ``(seat, action)`` pairs, the one
    the review replayed; ``review`` the stored review. Ids are ``"<game>:g:<game_id>:<turn
    index>"``. A puzzle shows only what the game's end revealed (Sensei hides nothing)."""
    if game == "sensei":
        from .sensei import puzzle as sensei_puzzle
        return sensei_puzzle.from_review(seats, options, seed, log, review, game_id=game_id)
    return []

