"""Sàréná AI players: ``choose(view, level, rng)`` picks one of ``view["legal"]``.

The levels' searches live beside this entry point: easy's greed here, medium and hard in
``search.py``, expert in ``expert.py``, on the view read into a table with samples of the hidden
faces (``knowledge.py``) and beliefs about the others' colours (``beliefs.py``); see their
docstrings.
"""
from __future__ import annotations

import random
from typing import Any, Mapping

from .expert import choose_edge
from .beliefs import Beliefs, colour_evidence, gain_now
from .knowledge import Table, read_view
from .search import search

# -- levels -------------------------------------------------------------------------------

#: easy plays a random move this often, so it is beatable and not fully predictable
EASY_SLIP = 0.25
#: search budgets in simulated moves (a random game from the deal is about 29 moves)
BUDGETS = {"medium": 12_000, "hard": 90_000}


def choose(view: Mapping[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    table = read_view(view)
    if level == "easy":
        edge = _greedy(table, rng)
    elif level == "expert":
        edge = choose_edge(table, view.get("history", ()), rng)
    elif level in BUDGETS:
        evidence = colour_evidence(table, view.get("history", ())) if level == "hard" else None
        edge = search(table, Beliefs(table, evidence), BUDGETS[level], rng)
    else:
        raise ValueError(f"sarena AI: unknown level {level!r}")
    return dict(table.actions[table.legal.index(edge)])


def _greedy(table: Table, rng: random.Random) -> int:
    if rng.random() < EASY_SLIP:
        return rng.choice(table.legal)
    gains = [gain_now(table, edge)[table.colour] for edge in table.legal]
    best = max(gains)
    return rng.choice([edge for edge, g in zip(table.legal, gains) if g == best])
