"""A puzzle rating per person and game: OpenSkill (the model the game ratings use), each
attempt a game against the puzzle. A puzzle stands for a fixed, well-known opponent, so a
rating moves by how sure the bot already is of the person (σ shrinks with every attempt).
Solved with a hint counts as a draw; the streak counts puzzles solved without one in a row."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..store.learning import PuzzleRating

#: the opponent every puzzle stands for: the model's default μ, and little doubt about it
PUZZLE_MU, PUZZLE_SIGMA = 25.0, 2.0


@lru_cache(maxsize=1)
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def first_rating() -> PuzzleRating:
    base = _model().rating()
    return PuzzleRating(base.mu, base.sigma)


def shown(rating: PuzzleRating) -> float:
    """The conservative number people see (as on the leaderboard): μ − 3σ."""
    return rating.mu - 3 * rating.sigma


def rate(before: PuzzleRating | None, solved: bool, hinted: bool) -> PuzzleRating:
    old = before or first_rating()
    model = _model()
    me = model.rating(mu=old.mu, sigma=old.sigma)
    puzzle = model.rating(mu=PUZZLE_MU, sigma=PUZZLE_SIGMA)
    ranks = [1, 1] if solved and hinted else [1, 2] if solved else [2, 1]
    after = model.rate([[me], [puzzle]], ranks=ranks)[0][0]
    clean = solved and not hinted
    streak = old.streak + 1 if clean else 0 if not solved else old.streak
    return PuzzleRating(after.mu, after.sigma, old.solved + int(solved),
                        old.failed + int(not solved), streak, max(old.best_streak, streak))
