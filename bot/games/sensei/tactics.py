"""Sensei's one-turn tactics, cheap to decide exactly, that the evaluation and the searches
build on:
- a side *threatens arrival* when its character sees a square of the goal rank (no opponent
  stone in between) that one of its stones holds or can reach with the two stone moves;
- a side *threatens a barrier win* when the other side has a barrier already touched and enough
  stones can come and touch it this turn.
"""
from __future__ import annotations

from .board import EMPTY, HOME_RANK, NEIGHBOURS, ORTHOGONAL_RAYS, PIT, SIZE
from .moves import stone_destinations


def _goal_lines() -> tuple[tuple[tuple[tuple[tuple[int, ...], int], ...], ...], ...]:
    """Per seat and square: (squares strictly between, goal square) for the straight and the
    two diagonal lines from the square to the seat's goal rank."""
    out = []
    for seat in (0, 1):
        goal = HOME_RANK[1 - seat]
        step = 1 if goal > 0 else -1
        per_square = []
        for sq in range(SIZE * SIZE):
            x, y = sq % SIZE, sq // SIZE
            gap = abs(goal - y)
            lines = []
            if gap:
                for dx in (0, 1, -1):
                    tx = x + dx * gap
                    if 0 <= tx < SIZE:
                        between = tuple((y + step * i) * SIZE + x + dx * i for i in range(1, gap))
                        lines.append((between, goal * SIZE + tx))
            per_square.append(tuple(lines))
        out.append(tuple(per_square))
    return tuple(out)


GOAL_LINES = _goal_lines()
GOAL_RANK = (HOME_RANK[1], HOME_RANK[0])

def reach_cost(cells: list[int], seat: int, fixed: int, target: int, slide: bool) -> int:
    """Stone moves (1, 2, or 3 meaning "more") ``seat`` needs to put a stone on the empty
    ``target``; the stone on ``fixed`` (the character's) may not move.

    Two moves are enough exactly when some stone reaches a square from which the target is one
    move away: moving another stone first can only unblock a path whose first stone could then
    have gone itself.
    """
    if slide:
        approach = []
        for ray in ORTHOGONAL_RAYS[target]:
            for sq in ray:
                cell = cells[sq]
                if cell == EMPTY:
                    approach.append(sq)
                    continue
                if cell == seat and sq != fixed:
                    return 1
                break
        for a in approach:
            for ray in ORTHOGONAL_RAYS[a]:
                for sq in ray:
                    cell = cells[sq]
                    if cell == EMPTY:
                        continue
                    if cell == seat and sq != fixed:
                        return 2
                    break
        return 3
    neighbours = NEIGHBOURS[target]
    for n in neighbours:
        if cells[n] == seat and n != fixed:
            return 1
    for n in neighbours:
        if cells[n] == EMPTY:
            for m in NEIGHBOURS[n]:
                if cells[m] == seat and m != fixed:
                    return 2
    return 3


def open_goal_squares(cells: list[int], seat: int, at: int) -> list[int]:
    """Goal squares the character on ``at`` could land on once an own stone is there."""
    opponent = 1 - seat
    out = []
    for between, target in GOAL_LINES[seat][at]:
        cell = cells[target]
        if cell == opponent or cell == PIT:
            continue
        for sq in between:
            if cells[sq] == opponent:
                break
        else:
            out.append(target)
    return out


def can_arrive(cells: list[int], seat: int, at: int, slide: bool) -> bool:
    """Whether ``seat``, at the start of its turn, can bring its character to the goal rank."""
    for target in open_goal_squares(cells, seat, at):
        if cells[target] == seat or reach_cost(cells, seat, at, target, slide) <= 2:
            return True
    return False


Barrier = tuple[list[int], list[int]] | None


def touched_barrier(cells: list[int], seat: int) -> Barrier:
    """``seat``'s most-touched barrier as (chain, touching stones), or None when it has no
    barrier or none is touched. Same touch count as ``barrier.worst_barrier``, but the search
    asks it twice per position, so it is written for speed: without pits, 7 stones can only
    make a barrier with one stone in each file, which leaves a single chain to look at.
    """
    if PIT in cells:
        return _touched_barrier_with_pits(cells, seat)
    opponent = 1 - seat
    chain = []
    touched = set()
    previous = 0
    for x in range(SIZE):
        column = cells[x::SIZE]
        count = column.count(seat)
        if count != 1:
            # With at most 7 stones, two in one file leave another file empty.
            if count == 0 or cells.count(seat) <= SIZE:
                return None
            return _touched_barrier_with_pits(cells, seat)
        y = column.index(seat)
        if x and abs(y - previous) > 1:
            return None
        previous = y
        sq = y * SIZE + x
        chain.append(sq)
        for n in NEIGHBOURS[sq]:
            if cells[n] == opponent:
                touched.add(n)
    if not touched:
        return None
    return chain, sorted(touched)


def _touched_barrier_with_pits(cells: list[int], seat: int) -> Barrier:
    columns = []
    for x in range(SIZE):
        column = cells[x::SIZE]
        if seat not in column and PIT not in column:
            return None
        columns.append([y * SIZE + x for y, cell in enumerate(column) if cell == seat or cell == PIT])
    opponent = 1 - seat
    partial: list[tuple[tuple[int, ...], frozenset[int]]] = [((), frozenset())]
    for column in columns:
        grown = []
        for chain, touched in partial:
            for sq in column:
                if chain and abs(sq // SIZE - chain[-1] // SIZE) > 1:
                    continue
                if cells[sq] == PIT:
                    grown.append((chain + (sq,), touched))
                else:
                    grown.append((chain + (sq,), touched.union(
                        [n for n in NEIGHBOURS[sq] if cells[n] == opponent])))
        if not grown:
            return None
        partial = grown
    chain, touched = max(partial, key=lambda item: len(item[1]))
    if not touched:
        return None
    return list(chain), sorted(touched)


def barrier_threat(cells: list[int], attacker: int, fixed: int, slide: bool,
                   found: Barrier) -> bool:
    """Whether ``attacker`` can bring its touches on the other side's worst barrier (``found``)
    to three this turn (an estimate: it looks at that one chain only)."""
    if found is None:
        return False
    chain, touching = found
    need = 3 - len(touching)
    if need > 2:
        return False
    if need <= 0:
        return True
    busy = set(touching)
    busy.add(fixed)
    targets = {n for sq in chain if cells[sq] != PIT for n in NEIGHBOURS[sq] if cells[n] == EMPTY}
    movers = set()
    for target in targets:
        movers.update(_first_stones(cells, attacker, target, slide, busy))
        if len(movers) >= need:
            return True
    if need == 1:
        for target in targets:
            if _reach_in_two(cells, attacker, target, slide, busy):
                return True
    return False


def _first_stones(cells: list[int], seat: int, target: int, slide: bool,
                  busy: set[int]) -> list[int]:
    """Free stones of ``seat`` that can move onto the empty ``target`` in one move."""
    out = []
    if slide:
        for ray in ORTHOGONAL_RAYS[target]:
            for sq in ray:
                cell = cells[sq]
                if cell == EMPTY:
                    continue
                if cell == seat and sq not in busy:
                    out.append(sq)
                break
    else:
        for n in NEIGHBOURS[target]:
            if cells[n] == seat and n not in busy:
                out.append(n)
    return out


def _reach_in_two(cells: list[int], seat: int, target: int, slide: bool, busy: set[int]) -> bool:
    for step in stone_destinations(cells, target, slide):
        if _first_stones(cells, seat, step, slide, busy):
            return True
    return False
