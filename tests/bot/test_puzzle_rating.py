"""The puzzle rating: OpenSkill against a fixed puzzle opponent, with streaks."""
from __future__ import annotations

from bot.domain.puzzle_rating import first_rating, rate, shown


def test_solving_raises_the_rating_and_the_certainty():
    start = first_rating()
    after = rate(None, solved=True, hinted=False)
    assert after.mu > start.mu and after.sigma < start.sigma and shown(after) > shown(start)
    assert (after.solved, after.failed, after.streak, after.best_streak) == (1, 0, 1, 1)


def test_a_hint_counts_as_half_and_keeps_no_streak():
    clean = rate(None, solved=True, hinted=False)
    hinted = rate(None, solved=True, hinted=True)
    start = first_rating()
    assert abs(hinted.mu - start.mu) < clean.mu - start.mu
    assert hinted.streak == 0 and hinted.solved == 1


def test_a_failure_lowers_it_and_ends_the_streak():
    two = rate(rate(None, True, False), True, False)
    failed = rate(two, solved=False, hinted=False)
    assert failed.mu < two.mu
    assert (failed.streak, failed.best_streak, failed.failed, failed.solved) == (0, 2, 1, 2)
