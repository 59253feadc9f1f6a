"""Text notation: ``c2-c5`` is a stone move, ``*d1-f3`` a character move, a turn is 1-3 of them."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..base import IllegalAction
from .board import parse_square

MAX_ACTIONS = 3

# Phones like to turn "-" into a dash and "*" into a multiplication sign or bullet.
_TOKEN = re.compile(r"^([*×•]?)([a-g][1-7])[-–—]([a-g][1-7])$")


def parse_action(token: str) -> dict[str, Any]:
    match = _TOKEN.match(token.strip().lower())
    if not match:
        raise IllegalAction("bad_notation", f"cannot read {token!r}", token=token)
    star, frm, to = match.groups()
    return {"type": "character" if star else "stone", "from": frm, "to": to}


def parse_turn(text: str) -> list[dict[str, Any]]:
    """The actions of a typed turn, in order (no end_turn)."""
    if not isinstance(text, str):
        raise IllegalAction("bad_notation", "a turn is text", token=repr(text))
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise IllegalAction("empty_turn", "a turn needs at least one action")
    if len(tokens) > MAX_ACTIONS:
        raise IllegalAction("too_many_actions", f"a turn has at most {MAX_ACTIONS} actions",
                            max=MAX_ACTIONS)
    return [parse_action(token) for token in tokens]


def format_action(action: Mapping[str, Any]) -> str:
    kind = action.get("type", action.get("kind")) if isinstance(action, Mapping) else None
    frm = action.get("from") if isinstance(action, Mapping) else None
    to = action.get("to") if isinstance(action, Mapping) else None
    if kind not in ("stone", "character") or parse_square(frm) is None or parse_square(to) is None:
        raise IllegalAction("bad_action", f"not a move: {action!r}")
    prefix = "*" if kind == "character" else ""
    return f"{prefix}{frm.strip().lower()}-{to.strip().lower()}"


def format_turn(actions: Sequence[Mapping[str, Any]]) -> str:
    """Space-separated notation; an ``end_turn`` action is implied and left out."""
    return " ".join(format_action(a) for a in actions
                    if not (isinstance(a, Mapping) and a.get("type") == "end_turn"))
