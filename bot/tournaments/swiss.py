"""A two-player Swiss round by the FIDE Dutch system: the reference library for fields it
pairs quickly (``reference``), the bot's own engine above (``dutch``), and when no pairing
meets the Dutch absolute criteria (a small field late in a long Swiss) the arbiter's fallback
(``pairing.fallback_round``: score groups, the fewest rematches)."""
from __future__ import annotations

from typing import Iterable, Sequence

from .dutch import dutch_round
from .pairing import Entrant, Played, Table, fallback_round
from .reference import REFERENCE_MAX, reference_round


def swiss_round(entrants: Sequence[Entrant], played: Iterable[Played], round_no: int,
                seed: int = 0, rounds: int | None = None, *,
                reference: bool = True) -> list[Table]:
    """The next Swiss round; ``rounds`` is the planned number of rounds (None: unknown, so
    no topscorers). ``reference=False`` pairs with the bot's own engine at any size."""
    played = list(played)
    if reference and len(entrants) <= REFERENCE_MAX:
        tables = reference_round(entrants, played, round_no, rounds, seed)
        if tables is not None:
            return tables
    tables = dutch_round(entrants, played, round_no, rounds, seed)
    if tables is not None:
        return tables
    return fallback_round(entrants, played, round_no, seed)
