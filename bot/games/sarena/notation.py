"""Typed move notation: ``c3-c4``, case-insensitive (``c3 c4``, ``c3c4``, ``c3>c4`` also read)."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..base import IllegalAction
from .board import SQUARE_NAMES, parse_square

_MOVE = re.compile(r"\s*([a-f][1-6])\s*(?:-|–|—|>|→|)\s*([a-f][1-6])\s*", re.IGNORECASE)


def parse_move(text: object) -> dict[str, Any]:
    match = _MOVE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise IllegalAction("bad_notation", f"cannot read {text!r} as a move like c3-c4",
                            text=str(text))
    return {"type": "move", "from": match.group(1).lower(), "to": match.group(2).lower()}


def format_move(action: Mapping[str, Any]) -> str:
    src = parse_square(action.get("from")) if isinstance(action, Mapping) else None
    dst = parse_square(action.get("to")) if isinstance(action, Mapping) else None
    if src is None or dst is None:
        raise IllegalAction("bad_action", f"not a move: {action!r}")
    return f"{SQUARE_NAMES[src]}-{SQUARE_NAMES[dst]}"
