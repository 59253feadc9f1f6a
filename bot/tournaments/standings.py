"""Standings: score, then the tie-breaks, from the games played (pure).

- **Buchholz**: the sum of the final scores of everyone a player met (at a table of three or
  four, the mean of the others' scores counts once per table). A bye adds nothing. Meeting
  strong players ranks you higher among equals.
- **Sonneborn-Berger**: the sum, over a player's games, of the points they took from the game
  times the opponents' score (the others' mean at a larger table): points taken from strong
  players weigh more than points taken from weak ones.

Ties left after both share a rank (the starting rank orders them on the page).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .pairing import Entrant, Played


@dataclass(frozen=True)
class Row:
    id: int
    rank: int
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int
    wins: int
    byes: int
    dropped: bool = False


def standings(entrants: Sequence[Entrant], played: Iterable[Played],
              dropped: Iterable[int] = ()) -> list[Row]:
    """Every entrant (dropped ones too, marked), best first."""
    finished = [g for g in played if g.points is not None]
    score: dict[int, float] = {e.id: 0.0 for e in entrants}
    for game in finished:
        for pid, pts in zip(game.seats, game.points or ()):
            score[pid] = score.get(pid, 0.0) + pts
    buchholz = {pid: 0.0 for pid in score}
    sb = {pid: 0.0 for pid in score}
    games = {pid: 0 for pid in score}
    wins = {pid: 0 for pid in score}
    byes = {pid: 0 for pid in score}
    for game in finished:
        assert game.points is not None
        if game.bye:
            byes[game.seats[0]] = byes.get(game.seats[0], 0) + 1
            continue
        best = max(game.points)
        for pid, pts in zip(game.seats, game.points):
            others = [score.get(o, 0.0) for o in game.seats if o != pid]
            strength = sum(others) / len(others)
            buchholz[pid] += strength
            sb[pid] += pts * strength
            games[pid] += 1
            if pts == best and pts > 0 and pts * len(game.seats) > 1:
                wins[pid] += 1
    out = set(dropped)
    start = {e.id: e.rank for e in entrants}

    def key(pid: int) -> tuple:
        return (-score[pid], -round(buchholz[pid], 6), -round(sb[pid], 6))

    ordered = sorted(start, key=lambda pid: (key(pid), start[pid]))
    rows: list[Row] = []
    for place, pid in enumerate(ordered, start=1):
        rank = rows[-1].rank if rows and key(pid) == key(rows[-1].id) else place
        rows.append(Row(pid, rank, score[pid], round(buchholz[pid], 2), round(sb[pid], 2),
                        games[pid], wins[pid], byes[pid], pid in out))
    return rows
