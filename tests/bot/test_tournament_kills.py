"""A tournament survives kills: the bot process is killed (SIGKILL) at random moments while a
Swiss of AI players runs, started again each time, and the tournament still ends with every
round paired once and every result counted once (the bench kills it ten times)."""
from __future__ import annotations

import pytest

from bot.tools.tournament_kills import kill_test

pytestmark = [pytest.mark.xdist_group("tournament_kills"), pytest.mark.slow]


def test_kills_mid_round_lose_and_double_nothing(database):
    outcome = kill_test(str(database), players=5, rounds=2, kills=2, seed=3)
    assert outcome["kills"] >= 1  # killed at least once before the end
    assert outcome["status"] == "finished" and outcome["rounds"] == 2
    assert outcome["problems"] == []
    assert outcome["rematches"] == 0 and outcome["most_byes"] <= 1
