"""Ratings: who finished where in a game, whether the game counts, and the new ratings.

OpenSkill's Plackett–Luce model handles two or more players and ties. A rating is shown
conservatively as μ − 3σ (a new player starts at 0 and climbs as the bot grows sure of them).
Nothing here touches Discord or the database: the store calls it inside the transaction that
records the game's end, so a rating moves exactly once per game.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

#: a game between the same people counts at most this many times a day (no farming)
RATED_PER_DAY = 3
DAY = 86_400.0


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> float:
        """The conservative rating people see."""
        return self.mu - 3 * self.sigma


@lru_cache(maxsize=1)
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def new_rating() -> Rating:
    base = _model().rating()
    return Rating(base.mu, base.sigma, 0)


def unrated_reason(*, cooperative: bool, result: Mapping[str, Any],
                   seats: Sequence[Mapping[str, Any]], same_players_today: int,
                   per_day: int = RATED_PER_DAY) -> str | None:
    """Why a finished game does not count for ratings, or None when it does."""
    if cooperative:
        return "cooperative"
    if result.get("reason") == "abandoned":
        return "abandoned"
    if any(s["user_id"] <= 0 or s["ai"] or s["ai_played"] or s["timed_out"] for s in seats):
        return "ai_or_timeout"
    if len({s["user_id"] for s in seats}) < 2:
        return "alone"
    if same_players_today >= per_day:
        return "daily_limit"
    return None


def ranks(result: Mapping[str, Any], seat_count: int) -> list[int]:
    """1 for the best place, equal numbers for a tie, per seat. Winners share first place;
    the others are ordered by score and tie-break where the game keeps them (Sàréná), and a
    player who left the game comes last."""
    winners = set(result.get("winners") or ())
    details = result.get("details") or {}
    if result.get("draw") and not winners:
        return [1] * seat_count
    scores = details.get("scores")
    tiebreaks = details.get("tiebreaks") or [None] * seat_count
    left = set(details.get("resigned") or ())

    def key(seat: int) -> tuple[int, float, float]:
        if seat in winners:
            return (0, 0.0, 0.0)
        if seat in left or scores is None or scores[seat] is None:
            return (2, 0.0, 0.0)
        return (1, -float(scores[seat]), -float(tiebreaks[seat] or 0))

    keys = [key(seat) for seat in range(seat_count)]
    ordered = sorted(set(keys))
    return [ordered.index(k) + 1 for k in keys]


def rate(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Everyone's rating after one game where seat i finished at ``places[i]``."""
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = model.rate(teams, ranks=list(places))
    return [Rating(team[0].mu, team[0].sigma, old.games + 1) for team, old in zip(after, before)]
