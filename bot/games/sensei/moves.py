"""Where a stone may slide and where a character may jump, on a bare list of cells.

These functions know nothing about turns; the game decides which kinds of move are still
available. Each ``*_error`` function returns the refusal (code, params) or None, so both the
game and the typed-turn checker explain a refusal the same way.
"""
from __future__ import annotations

from .board import (ALL_RAYS, EMPTY, ORTHOGONAL_RAYS, PIT, direction_between, squares_between)

ARASHI = "arashi"
SHIZUKANA = "shizukana"


def stone_destinations(cells: list[int], frm: int, slide: bool) -> list[int]:
    """Squares the stone on ``frm`` can reach; ``slide`` is True for Arashi."""
    out = []
    for ray in ORTHOGONAL_RAYS[frm]:
        for sq in ray:
            if cells[sq] != EMPTY:
                break
            out.append(sq)
            if not slide:
                break
    return out


def character_targets(cells: list[int], seat: int, at: int) -> list[int]:
    """Own stones the character on ``at`` can jump to: only an opponent stone blocks."""
    opponent = 1 - seat
    out = []
    for ray in ALL_RAYS[at]:
        for sq in ray:
            cell = cells[sq]
            if cell == opponent:
                break
            if cell == seat:
                out.append(sq)
    return out


Refusal = tuple[str, dict]


def stone_move_error(cells: list[int], seat: int, character_at: int, frm: int, to: int,
                     slide: bool) -> Refusal | None:
    if cells[frm] != seat:
        return "not_your_stone", {}
    if frm == character_at:
        return "stone_carries_character", {}
    if frm == to:
        return "no_movement", {}
    step = direction_between(frm, to)
    if step is None or (step[0] and step[1]):
        return "not_orthogonal", {}
    path = squares_between(frm, to)
    if not slide and path:
        return "one_square_only", {}
    for sq in path + [to]:
        if cells[sq] == PIT:
            return "pit", {}
        if cells[sq] != EMPTY:
            return "path_blocked", {}
    return None


def character_move_error(cells: list[int], seat: int, character_at: int, frm: int,
                         to: int) -> Refusal | None:
    if frm != character_at:
        return "not_your_character", {}
    if frm == to:
        return "no_movement", {}
    if cells[to] != seat:
        return "character_needs_own_stone", {}
    if direction_between(frm, to) is None:
        return "not_in_line", {}
    if any(cells[sq] == 1 - seat for sq in squares_between(frm, to)):
        return "jump_blocked", {}
    return None
