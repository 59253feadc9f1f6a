"""The Narabi deck as data: stones, conditions, setup, turn limit and rating bands.

Everything the public rulebook leaves open lives in ``deck.json`` so a server owner who owns
the game can correct it without touching code. It is read and checked once at import; a broken
edit fails loudly at start-up instead of in the middle of a game.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Mapping

COLOURS = ("white", "dark")
CONDITION_KINDS = ("colour", "parity", "compare", "seat", "range", "never", "always")


@dataclass(frozen=True)
class Setup:
    remove: tuple[int, ...]
    cards_each: int


@dataclass(frozen=True)
class Deck:
    stones: tuple[dict[str, Any], ...]
    setups: dict[int, Setup]
    conditions: tuple[dict[str, Any], ...]
    max_turns: int
    ratings: tuple[dict[str, Any], ...]
    defeat_rating: str


def _check_condition(cond: Mapping[str, Any]) -> None:
    kind = cond.get("kind")
    if not isinstance(cond.get("id"), str) or kind not in CONDITION_KINDS:
        raise ValueError(f"narabi deck: bad condition {cond!r}")
    if kind == "colour" and cond.get("colour") not in COLOURS:
        raise ValueError(f"narabi deck: condition {cond['id']} needs a colour")
    if kind == "parity" and cond.get("parity") not in ("even", "odd"):
        raise ValueError(f"narabi deck: condition {cond['id']} needs parity even|odd")
    if kind == "compare" and cond.get("op") not in (">", "<"):
        raise ValueError(f"narabi deck: condition {cond['id']} needs op > or <")
    if kind == "seat" and (not isinstance(cond.get("offset"), int) or cond["offset"] == 0):
        raise ValueError(f"narabi deck: condition {cond['id']} needs a non-zero offset")
    if kind == "range" and not any(isinstance(cond.get(k), int) for k in ("min", "max")):
        raise ValueError(f"narabi deck: condition {cond['id']} needs min and/or max")


def parse_deck(data: Mapping[str, Any]) -> Deck:
    stones = tuple(dict(s) for s in data["stones"])
    for stone in stones:
        if stone.get("colour") not in COLOURS or not (
                stone.get("number") is None or isinstance(stone.get("number"), int)):
            raise ValueError(f"narabi deck: bad stone {stone!r}")
    conditions = tuple(dict(c) for c in data["conditions"])
    for cond in conditions:
        _check_condition(cond)
    if len({c["id"] for c in conditions}) != len(conditions):
        raise ValueError("narabi deck: condition ids must be unique")
    if len(conditions) < len(stones):
        raise ValueError("narabi deck: every stone needs a condition")
    setups: dict[int, Setup] = {}
    for seats, raw in data["setup"].items():
        setup = Setup(tuple(raw["remove"]), int(raw["cards_each"]))
        kept = len(stones) - len(set(setup.remove))
        if any(not 0 <= i < len(stones) for i in setup.remove) or kept != int(seats) * setup.cards_each:
            raise ValueError(f"narabi deck: setup for {seats} players does not add up")
        numbers = sorted(stones[i]["number"] for i in range(len(stones))
                         if i not in setup.remove and stones[i]["number"] is not None)
        if numbers != list(range(len(numbers))):
            raise ValueError(f"narabi deck: numbered stones for {seats} players must be 0..n")
        setups[int(seats)] = setup
    ratings = tuple(dict(r) for r in data["ratings"])
    return Deck(stones, setups, conditions, int(data["max_turns"]), ratings,
                str(data["defeat_rating"]))


def _load() -> Deck:
    text = resources.files(__package__).joinpath("deck.json").read_text(encoding="utf-8")
    return parse_deck(json.loads(text))


DECK = _load()
