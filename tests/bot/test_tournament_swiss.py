"""Which engine pairs a Swiss round: the reference library (caissify-pairings, checked against
the FIDE-endorsed bbpPairings) up to REFERENCE_MAX players, the bot's own Dutch engine above,
and the bot's engine too whenever the library fails or returns a round that leaves someone out."""
from __future__ import annotations

import random

import pytest

from bot.tournaments import Entrant, Played, swiss_round
from bot.tournaments.dutch import dutch_round
from bot.tournaments.reference import REFERENCE_MAX, reference_round
from tests.bot.test_tournament_pairing import play


@pytest.mark.slow
def test_small_fields_are_paired_by_the_reference_library():
    rng = random.Random(5)
    people = [Entrant(100 + i, i) for i in range(1, 24)]  # odd: a bye each round
    played: list[Played] = []
    for round_no in range(1, 8):
        tables = swiss_round(people, played, round_no, seed=3, rounds=7)
        assert tables == reference_round(people, played, round_no, 7, 3)
        assert swiss_round(people, played, round_no, seed=3, rounds=7) == tables  # the same again
        seated = sorted(p for t in tables for p in t)
        assert seated == sorted(e.id for e in people) and len(tables[-1]) == 1
        pairs = [frozenset(t) for g in played for t in [g.seats] if len(t) == 2]
        assert not any(frozenset(t) in pairs for t in tables if len(t) == 2)  # no rematch
        played += play(tables, round_no, rng)


def test_large_fields_are_paired_by_the_bots_own_engine():
    rng = random.Random(6)
    people = [Entrant(i, i) for i in range(1, REFERENCE_MAX + 7)]
    played: list[Played] = []
    for round_no in range(1, 3):
        tables = swiss_round(people, played, round_no, seed=4, rounds=5)
        assert tables == dutch_round(people, played, round_no, 5, 4)
        played += play(tables, round_no, rng)


def test_a_round_the_library_gets_wrong_is_paired_by_the_bots_engine(monkeypatch):
    from caissify_pairings.engines.dutch import DutchEngine

    people = [Entrant(i, i) for i in range(1, 11)]
    real = DutchEngine.generate_pairings

    def leaves_one_out(self):
        return real(self)[1:]

    monkeypatch.setattr(DutchEngine, "generate_pairings", leaves_one_out)
    assert reference_round(people, [], 1, 5, 0) is None
    assert swiss_round(people, [], 1, seed=0, rounds=5) == dutch_round(people, [], 1, 5, 0)

    def fails(self):
        raise ValueError("no pairing")

    monkeypatch.setattr(DutchEngine, "generate_pairings", fails)
    assert swiss_round(people, [], 1, seed=0, rounds=5) == dutch_round(people, [], 1, 5, 0)
