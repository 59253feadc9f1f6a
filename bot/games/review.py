"""Grading a finished game's turns, shared by every game's review (``bot/games/<game>/review.py``).

A game's review replays its action log and asks its expert for two numbers per turn, both the
mover's expected score in [0, 1] (1 = a sure win, 0 = a sure loss, a draw or an even position
near 0.5): ``best``, what the position was worth before the turn with the best turn the expert
found, and ``played``, what it was worth after the turn actually played. The drop between them
grades the turn, as chess sites grade by the drop in winning chances:

* under 0.10, a good turn ("best" when it is the expert's own turn or loses nothing);
* 0.10 to 0.20, an inaccuracy;
* 0.20 to 0.30, a mistake;
* 0.30 or more, a blunder: a forced win (1.0) given up for an even game or worse is one.

A turn's accuracy (0–100 %) falls with its drop; a player's accuracy is the mean over their turns.
Pure: no I/O, no clock, no global randomness.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Mapping

#: the review's stored form; a stored review of another version is recomputed, never misread
VERSION = 1
INACCURACY = 0.10
MISTAKE = 0.20
BLUNDER = 0.30
#: a drop this small is noise in the evaluation: the turn is as good as the best one
SAME = 0.02
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: the grades that count against a player in the summary
FAULTS = ("inaccuracy", "mistake", "blunder")


def grade(best: float, played: float, *, same_turn: bool = False) -> str:
    """The grade of a turn worth ``played`` where the best turn was worth ``best``."""
    drop = max(0.0, best - played)
    if same_turn or drop <= SAME:
        return "best"
    if drop < INACCURACY:
        return "good"
    if drop < MISTAKE:
        return "inaccuracy"
    if drop < BLUNDER:
        return "mistake"
    return "blunder"


def turn_accuracy(best: float, played: float) -> float:
    """0–100: 100 for no drop, about 65 for a 0.10 drop, about 8 for 0.50 (the curve chess
    sites use for a drop in winning chances)."""
    drop = max(0.0, best - played) * 100
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


@dataclass
class TurnReview:
    """One person's turn: where it starts in the action log, what was played and what the expert
    would have played instead (``better``, only where the played turn lost clearly)."""

    seat: int
    first: int  # index of the turn's first action in the game's action log
    count: int  # how many actions the turn took
    played: list[dict[str, Any]]
    best: float
    value: float  # after the played turn
    grade: str
    better: list[dict[str, Any]] | None = None
    accuracy: float = field(default=0.0)

    def __post_init__(self) -> None:
        self.best = round(min(1.0, max(0.0, self.best)), 4)
        self.value = round(min(1.0, max(0.0, self.value)), 4)
        self.accuracy = round(turn_accuracy(self.best, self.value), 1)

    @classmethod
    def graded(cls, seat: int, first: int, played: list[dict[str, Any]], best: float,
               value: float, better: list[dict[str, Any]] | None) -> "TurnReview":
        """A turn graded from its two values; the better turn is kept only for a fault."""
        mark = grade(best, value, same_turn=better is not None and better == played)
        return cls(seat, first, len(played), played, best, value, mark,
                   better if mark in FAULTS else None)


def summary(turns: Iterable[TurnReview], seats: int) -> list[dict[str, Any]]:
    """Per seat: how many turns, how many of each fault, and the mean accuracy."""
    out = [{"seat": s, "turns": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0,
            "accuracy": None} for s in range(seats)]
    totals = [0.0] * seats
    for turn in turns:
        row = out[turn.seat]
        row["turns"] += 1
        totals[turn.seat] += turn.accuracy
        if turn.grade in FAULTS:
            row[turn.grade] += 1
    for s, row in enumerate(out):
        if row["turns"]:
            row["accuracy"] = round(totals[s] / row["turns"], 1)
    return out


def stored(game: str, seats: int, turns: list[TurnReview], **extra: Any) -> dict[str, Any]:
    """The review as it is stored with the game (plain JSON)."""
    return {"version": VERSION, "game": game, "seats": seats,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "turns": [asdict(turn) for turn in turns], "players": summary(turns, seats), **extra}


def turns_of(data: Mapping[str, Any]) -> list[TurnReview]:
    """The turns of a stored review, as objects again."""
    return [TurnReview(**turn) for turn in data["turns"]]
