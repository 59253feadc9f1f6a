"""Sensei's static evaluation: how well placed each side is to arrive, its threats this turn
and its touched barriers, scored for the side that ends its turn in the position (medium ranks
whole turns by it; hard, the expert and the review search on it)."""
from __future__ import annotations

from .barrier import LOSING_TOUCHES
from .board import EMPTY, SIZE
from .tactics import (GOAL_LINES, GOAL_RANK, Barrier, barrier_threat, reach_cost,
                      touched_barrier)

WIN = 1_000_000
#: a position whose side to move threatens to win: lost, barring a blunder
LOST = 100_000


# -- evaluation weights (tuned by self-play in the arena) -----------------------------------
#: by rank gap between a character and its goal rank (0 cannot happen: it would have won)
PROGRESS = (0, 60, 45, 30, 18, 8, 0)
#: by the best rank gap a single jump would give the character next turn
JUMP = (0, 40, 30, 20, 10, 4, 0)
#: a goal square the character sees but that needs three stone moves or more
LINE = 60
#: a goal square the side that just moved could win on next turn (the opponent must parry it)
THREAT = 220
DOUBLE_THREAT = 400
#: own stones standing on the goal rank (landing squares for later)
PAD = 12
#: by the touches on a side's most-touched barrier
BARRIER = (0, -25, -120)


def side_score(cells: list[int], characters: list[int], seat: int, slide: bool,
               barrier: Barrier) -> tuple[int, int]:
    """(how well placed ``seat`` is to arrive in a few turns, how many goal squares it could
    arrive on with a whole turn from here) in one pass over the character's forward lines."""
    at = characters[seat]
    opponent = 1 - seat
    gap = abs(GOAL_RANK[seat] - at // SIZE)
    score = PROGRESS[gap]
    best = gap
    threats = 0
    for between, target in GOAL_LINES[seat][at]:
        step = 0
        for sq in between:
            step += 1
            cell = cells[sq]
            if cell == opponent:
                break
            if cell == seat and gap - step < best:
                best = gap - step
        else:
            cell = cells[target]
            if cell == seat:
                threats += 1
            elif cell == EMPTY:
                cost = reach_cost(cells, seat, at, target, slide)
                if cost <= 2:
                    threats += 1
                else:
                    score += LINE
    score += JUMP[best]
    row = GOAL_RANK[seat] * SIZE
    score += PAD * cells[row:row + SIZE].count(seat)
    if barrier is not None:
        score += BARRIER[min(2, len(barrier[1]))]
    return score, threats


def turn_end_score(cells: list[int], characters: list[int], mover: int, slide: bool) -> int:
    """Score for ``mover`` of the position it ends its turn in (no arrival this turn): the
    unfair-game verdict when there is one, else the evaluation."""
    other = 1 - mover
    mine, theirs = touched_barrier(cells, mover), touched_barrier(cells, other)
    # The player who just moved loses when both barriers are over the limit.
    if mine is not None and len(mine[1]) >= LOSING_TOUCHES:
        return -WIN
    if theirs is not None and len(theirs[1]) >= LOSING_TOUCHES:
        return WIN
    score, threats = side_score(cells, characters, mover, slide, mine)
    their_score, their_threats = side_score(cells, characters, other, slide, theirs)
    base = score - their_score
    if their_threats:
        return -LOST + base
    if barrier_threat(cells, other, characters[other], slide, mine):
        return -LOST // 2 + base
    if threats:
        base += THREAT + (DOUBLE_THREAT if threats > 1 else 0)
    if barrier_threat(cells, mover, characters[mover], slide, theirs):
        base += THREAT
    return base

