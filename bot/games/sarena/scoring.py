"""End-of-game scoring: piles go to the owner of their top colour; ties break on colour count."""
from __future__ import annotations

from typing import Sequence

from ..base import Result
from .chips import CARRIES, COLOURS, UP

REASON_SCORE = "score"
REASON_RESIGNED = "resigned"


def tally(piles: Sequence[int], heights: Sequence[int], colours: Sequence[int],
          active: Sequence[bool]) -> tuple[list[int | None], list[int | None]]:
    """(score, tie-break) per seat; None for a seat that left the game."""
    score_of = [0, 0, 0, 0]
    tiebreak_of = [0, 0, 0, 0]
    for pile, h in zip(piles, heights):
        if not h:
            continue
        colour = UP[pile >> (8 * (h - 1))]
        score_of[colour] += h
        carries = CARRIES[colour]
        for _ in range(h):
            tiebreak_of[colour] += carries[pile & 0xFF]
            pile >>= 8
    scores: list[int | None] = []
    tiebreaks: list[int | None] = []
    for colour, playing in zip(colours, active):
        scores.append(score_of[colour] if playing else None)
        tiebreaks.append(tiebreak_of[colour] if playing else None)
    return scores, tiebreaks


def final_result(piles: Sequence[int], heights: Sequence[int], colours: Sequence[int],
                 active: Sequence[bool], moves: int) -> Result:
    scores, tiebreaks = tally(piles, heights, colours, active)
    remaining = [seat for seat, playing in enumerate(active) if playing]
    if len(remaining) == 1:
        winners, reason = remaining, REASON_RESIGNED
    else:
        best = max((scores[s], tiebreaks[s]) for s in remaining)
        winners = [s for s in remaining if (scores[s], tiebreaks[s]) == best]
        reason = REASON_SCORE
    draw = reason == REASON_SCORE and len(winners) == len(remaining)
    details = {
        "colours": [COLOURS[c] for c in colours],
        "scores": scores,
        "tiebreaks": tiebreaks,
        "moves": moves,
        "resigned": [seat for seat, playing in enumerate(active) if not playing],
    }
    return Result(tuple(winners), reason, draw, details)
