"""Interpretation of the condition kinds declared in deck.json.

A condition belongs to the card the active player gives away (``c``); it decides whether ``c``
may be exchanged for ``d``, held ``seat_offset`` seats clockwise from the active player.
"""
from __future__ import annotations

import operator
from typing import Any, Mapping

_COMPARE = {">": operator.gt, "<": operator.lt}


def value(number: int | None) -> int:
    # A blank has no place in the order but counts as 0 for every condition.
    return 0 if number is None else number


def allows(cond: Mapping[str, Any], c_number: int | None, d_number: int | None,
           d_colour: str, seat_offset: int, seats: int) -> bool:
    kind = cond["kind"]
    d_value = value(d_number)
    if kind == "always":
        return True
    if kind == "never":
        return False
    if kind == "colour":
        return d_colour == cond["colour"]
    if kind == "parity":
        return (d_value % 2 == 0) == (cond["parity"] == "even")
    if kind == "compare":
        return _COMPARE[cond["op"]](d_value, value(c_number))
    if kind == "seat":
        # Offsets wrap around the ring, which is what makes left2 = right with 3 players.
        return cond["offset"] % seats == seat_offset % seats
    if kind == "range":
        low, high = cond.get("min"), cond.get("max")
        return (low is None or d_value >= low) and (high is None or d_value <= high)
    raise ValueError(f"unknown condition kind {kind!r}")
