"""The reconstructed setups and pit layouts, kept as data in layouts.json."""
from __future__ import annotations

import json
from importlib import resources

from .board import parse_square


def _squares(names: list[str]) -> tuple[int, ...]:
    out = []
    for name in names:
        sq = parse_square(name)
        if sq is None:
            raise ValueError(f"layouts.json: bad square {name!r}")
        out.append(sq)
    return tuple(sorted(out))


def _load() -> tuple[dict[str, tuple[tuple[tuple[int, ...], int], ...]], dict[str, tuple[int, ...]]]:
    data = json.loads(resources.files(__package__).joinpath("layouts.json").read_text("utf-8"))
    setups = {}
    for name, sides in data["setups"].items():
        seats = []
        for side in sides:
            stones = _squares(side["stones"])
            character = _squares([side["character"]])[0]
            if len(stones) != 7 or character not in stones:
                raise ValueError(f"layouts.json: setup {name!r} needs 7 stones under the character")
            seats.append((stones, character))
        setups[name] = tuple(seats)
    pits = {name: _squares(squares) for name, squares in data["pits"].items()}
    return setups, pits


SETUPS, PITS = _load()
