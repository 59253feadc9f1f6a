"""The documentation's board pictures, drawn by the bot's own renderers from real games.

Each game is played by its rules from a fixed seed, every seat held by the same AI level, so
the positions are ones the bot can reach and the pictures are the ones players see. The
documentation site draws them again at every build (``docs/hooks.py``), so they never go stale;
the README's copies are committed under ``docs/assets/`` and redrawn with::

    python -m bot.tools.docs_pictures docs/assets
"""
from __future__ import annotations

import argparse
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games.ai import choose_action, seat_view
from bot.games.registry import entry


@dataclass(frozen=True)
class Example:
    """One game to show: its table (seats, options), seed and who plays every seat."""

    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    names: tuple[str, ...]
    level: str = "easy"


EXAMPLES = (
    Example("narabi", 4, {}, 4, ("Ana", "Ben", "Chen", "Dee"), "hard"),
    Example("sensei", 2, {"version": "arashi"}, 3, ("Ana", "Ben"), "medium"),
    Example("sarena", 3, {"fair": True}, 5, ("Ana", "Ben", "Chen"), "medium"),
)


def played(example: Example) -> list[dict[str, Any]]:
    """The public view before the first action and after every action, to the end."""
    rules = entry(example.game).rules
    game = rules.new(example.seats, example.options, example.seed)
    views = [game.public_view()]
    step = 0
    while game.to_move is not None and not game.finished:
        seat = game.to_move
        action = choose_action(example.game, seat_view(game, seat), example.level,
                               example.seed * 1000 + step)
        game.apply(seat, action)
        views.append(game.public_view())
        step += 1
    return views


def pictures(example: Example, locale: str = "en") -> dict[str, bytes]:
    """``start``, ``middle`` and ``end`` of the example's game as PNG bytes."""
    render = importlib.import_module(entry(example.game).renderer).render
    views = played(example)
    chosen = {"start": views[0], "middle": views[len(views) // 2], "end": views[-1]}
    return {moment: render(view, list(example.names), locale) for moment, view in chosen.items()}


def write(folder: Path, moments: tuple[str, ...] = ("start", "middle", "end")) -> list[Path]:
    """Every example's pictures as ``<game>-<moment>.png`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for example in EXAMPLES:
        for moment, data in pictures(example).items():
            if moment in moments:
                path = folder / f"{example.game}-{moment}.png"
                path.write_bytes(data)
                written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.docs_pictures",
                                     description="Draw the documentation's board pictures.")
    parser.add_argument("folder", type=Path, help="where to write <game>-<moment>.png")
    parser.add_argument("--only", choices=("start", "middle", "end"), action="append",
                        help="draw only these moments (repeatable; default all three)")
    args = parser.parse_args(argv)
    for path in write(args.folder, tuple(args.only or ("start", "middle", "end"))):
        print(path)


if __name__ == "__main__":
    main()
