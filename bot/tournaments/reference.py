"""The reference pairing: caissify-pairings, a maintained Python implementation of the FIDE
Dutch system that its authors checked against bbpPairings (the FIDE-endorsed program) on
70,000 random rounds with no discrepancy.

It is exact but grows quickly with the field (on this machine a round of 64 players took at
most 0.62 s, 100 players 3.4 s, 128 players 8 s), so ``swiss`` uses it up to
``REFERENCE_MAX`` players and the bot's own ``dutch`` above. Anything unexpected from it (not
installed, an error, a round that leaves someone out or breaks an absolute rule) gives None,
and the caller pairs with ``dutch`` instead.
"""
from __future__ import annotations

import warnings
from typing import Iterable, Sequence

from .dutch import initial_colour
from .dutch_players import read_history
from .pairing import Entrant, Played, Table

#: the largest field the reference pairs (its worst round here: 0.62 s at 64 players)
REFERENCE_MAX = 64


def reference_round(entrants: Sequence[Entrant], played: Iterable[Played], round_no: int,
                    rounds: int | None, seed: int = 0) -> list[Table] | None:
    """The round by caissify-pairings, in board order (the higher-ranked player of each
    table first), white first, the bye last; None when it cannot be used."""
    try:
        from caissify_pairings.engines.dutch import DutchEngine
    except ImportError:
        return None
    players = read_history([(e.id, e.rank) for e in entrants], played, round_no, rounds)
    records = []
    for p in players:
        floats = ["down" if p.floats.get(r) == "d" else "up" if p.floats.get(r) == "u"
                  else "none" for r in range(1, round_no)]
        records.append({"id": p.id, "name": str(p.id), "score": p.score, "rating": 0,
                        "starting_number": p.pn, "pairing_number": p.pn,
                        "color_hist": ["white" if c > 0 else "black" for c in p.colours],
                        "float_history": floats, "bye_count": p.byes,
                        "forfeit_win_count": p.forfeit_wins})
    met = {(min(p.id, o), max(p.id, o)) for p in players for o in p.opponents}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            engine = DutchEngine(players=records, previous_pairings=met, round_number=round_no,
                                 # No planned total: never the last round (no topscorers).
                                 total_rounds=rounds or round_no + 1,
                                 initial_color="white" if initial_colour(seed) > 0 else "black")
            boards = engine.generate_pairings()
        tables: list[Table] = [(int(b["white_id"]),) if b.get("black_id") is None
                               else (int(b["white_id"]), int(b["black_id"])) for b in boards]
    except Exception:  # noqa: BLE001 - any failure of the library: the bot's own engine pairs
        return None
    seated = sorted(uid for table in tables for uid in table)
    if seated != sorted(e.id for e in entrants) or sum(len(t) == 1 for t in tables) > 1:
        return None
    # Where no pairing keeps the absolute rules the library breaks one (a second bye, a
    # rematch); the bot has its own answer for that case (``swiss``), the same at any size.
    by_id = {p.id: p for p in players}
    for table in tables:
        if len(table) == 1:
            if not by_id[table[0]].bye_eligible:
                return None
        elif table[1] in by_id[table[0]].opponents:
            return None
    order = {p.id: (-p.score, p.pn) for p in players}
    return sorted(tables, key=lambda t: (len(t) == 1, min(order[uid] for uid in t)))
