"""One entry for the next round of any format."""
from __future__ import annotations

from typing import Sequence

from .knockout import knockout_round
from .pairing import (Entrant, Played, Table, narabi_teams, round_robin_round,
                      score_groups_tables)
from .swiss import swiss_round


def pair_round(fmt: str, entrants: Sequence[Entrant], played: Sequence[Played], round_no: int,
               *, per_table: int = 2, smallest: int = 2, seed: int = 0,
               rounds: int | None = None) -> list[Table]:
    """The tables of round ``round_no`` of a tournament of format ``fmt`` (``rounds``: how
    many the tournament plans, for the Swiss's last-round rules; None when unknown)."""
    if fmt == "round_robin":
        return round_robin_round(entrants, round_no)
    if fmt == "knockout":
        return knockout_round(entrants, played, round_no)
    if fmt == "duplicate":
        return narabi_teams(entrants, played, per_table, smallest)
    if per_table > 2:
        return score_groups_tables(entrants, played, per_table, smallest)
    return swiss_round(entrants, played, round_no, seed, rounds)


def pair_round_call(fmt: str, entrants: Sequence[Entrant], played: Sequence[Played],
                    round_no: int, per_table: int, smallest: int, seed: int,
                    rounds: int | None) -> list[Table]:
    """``pair_round`` with every argument by position (a worker process's call)."""
    return pair_round(fmt, entrants, played, round_no, per_table=per_table, smallest=smallest,
                      seed=seed, rounds=rounds)
