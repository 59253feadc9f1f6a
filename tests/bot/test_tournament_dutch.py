"""The FIDE Dutch system (C.04.3): hand-made positions for its rules, derived by hand from the
rulebook, a cross-check against caissify-pairings (checked by its authors against
bbpPairings, the FIDE-endorsed program) on random tournaments, and properties over random
games with forfeits."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from bot.tournaments import Entrant, Played, swiss_round
from bot.tournaments.dutch import dutch_round, initial_colour
from bot.tournaments.dutch_players import (ABSOLUTE, MILD, STRONG, DutchPlayer, allocate,
                                           read_history)


def entrants(n: int) -> list[Entrant]:
    return [Entrant(i, i) for i in range(1, n + 1)]


def pairs(tables) -> set[frozenset]:
    return {frozenset(t) for t in tables}


def seed_with(colour: int) -> int:
    return next(s for s in range(100) if initial_colour(s) == colour)


# -- round one, the bye, C1 C2 C3 ------------------------------------------------------------

def test_round_one_pairs_s1_against_s2_and_alternates_by_pairing_number():
    # One bracket of 8: S1 = 1..4, S2 = 5..8, the identity transposition. E.5: the higher
    # ranked player gets the initial colour when his pairing number is odd, the other when even.
    white = seed_with(1)
    assert dutch_round(entrants(8), [], 1, 5, white) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    black = seed_with(-1)
    assert dutch_round(entrants(8), [], 1, 5, black) == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_round_one_odd_gives_the_bye_to_the_lowest():
    # 7 players: S1 = 1..3, S2 = 4..7; 7 is left unpaired in the last bracket: the bye.
    tables = dutch_round(entrants(7), [], 1, 5, seed_with(1))
    assert pairs(tables[:-1]) == pairs([(1, 4), (2, 5), (3, 6)])
    assert tables[-1] == (7,)


def test_c2_no_second_bye_and_none_after_a_forfeit_win():
    # Round 1: 1-3 (1 wins), 2-4 forfeit (2 wins: 4 never showed), 5 the bye.
    r1 = [Played(1, 1, (1, 3), (1.0, 0.0)), Played(1, 2, (2, 4), (1.0, 0.0), forfeit=True),
          Played(1, 3, (5,), (1.0,))]
    # The forfeit: 2 and 4 did not meet, 2 has no colour from it and a forfeit win.
    history = {p.id: p for p in read_history([(i, i) for i in range(1, 6)], r1, 2, 5)}
    assert history[2].colours == [] and history[2].forfeit_wins == 1
    assert 4 not in history[2].opponents
    assert not history[2].bye_eligible and not history[5].bye_eligible  # C2
    # Round 2: 1, 2, 5 on 1 point, one of them floats. 2 (forfeit win) and 5 (bye) both
    # floated down in round 1 (A.4), 1 did not: C12 floats 1, so 2-5 pair. 1 meets 4 (1 met
    # 3), and 3, the last of the last bracket, eligible, has the bye.
    tables = dutch_round(entrants(5), r1, 2, 5, 0)
    assert pairs(tables) == pairs([(2, 5), (1, 4), (3,)])
    assert tables[-1] == (3,)


def test_c1_never_a_rematch_when_the_round_can_be_paired():
    # Four players, two rounds of draws: 1-3, 2-4, then 1-4, 2-3. Everyone on 1 point; the only
    # pairs left are 1-2 and 3-4: the transpositions of S2 = {3, 4} fail for 1, and the first
    # exchange (2 <-> 3, D.2: one player each, the smallest BSN difference) gives them.
    played = [Played(1, 1, (1, 3), (0.5, 0.5)), Played(1, 2, (4, 2), (0.5, 0.5)),
              Played(2, 1, (4, 1), (0.5, 0.5)), Played(2, 2, (2, 3), (0.5, 0.5))]
    assert pairs(dutch_round(entrants(4), played, 3, 5, 0)) == pairs([(1, 2), (3, 4)])


def test_c3_same_absolute_colour_stops_non_topscorers_and_the_fallback_pairs_anyway():
    # 1 and 3 had black twice (absolute white), 2 and 4 white twice (absolute black), all
    # draws. The only pairs not played, 1-3 and 2-4, each join two players wanting the same
    # colour absolutely: C3 forbids both, so the Dutch rules give no pairing (the arbiter's
    # case): dutch_round says so and swiss_round falls back to the fewest rematches.
    played = [Played(1, 1, (2, 1), (0.5, 0.5)), Played(1, 2, (4, 3), (0.5, 0.5)),
              Played(2, 1, (4, 1), (0.5, 0.5)), Played(2, 2, (2, 3), (0.5, 0.5))]
    assert dutch_round(entrants(4), played, 3, 5, 0) is None
    tables = swiss_round(entrants(4), played, 3, 0)
    assert sorted(p for t in tables for p in t) == [1, 2, 3, 4]


def test_topscorers_exist_only_in_the_final_round():
    played = [Played(1, 1, (1, 2), (1.0, 0.0)), Played(1, 2, (3, 4), (0.5, 0.5))]
    ids = [(i, i) for i in range(1, 5)]
    final = {p.id: p.topscorer for p in read_history(ids, played, 2, 2)}
    assert final == {1: True, 2: False, 3: False, 4: False}  # > 50 % of 1 point
    assert not any(p.topscorer for p in read_history(ids, played, 2, 5))
    assert not any(p.topscorer for p in read_history(ids, played, 2, None))


def test_heterogeneous_bracket_pairs_its_moved_down_players():
    # Round 1: 1 beats 4, 2 beats 5, 3 and 6 draw. Scores: 1 and 2 on 1, 3 and 6 on ½, 4 and
    # 5 on 0. 1-2 pair on top. 3 and 6 met, so the ½ bracket cannot pair: both float down
    # (MDPs) to the 0 bracket: S1 = {3, 6} (M1 = 2), S2 = {4, 5}: 3-4 and 6-5.
    r1 = [Played(1, 1, (1, 4), (1.0, 0.0)), Played(1, 2, (5, 2), (0.0, 1.0)),
          Played(1, 3, (3, 6), (0.5, 0.5))]
    tables = dutch_round(entrants(6), r1, 2, 5, 0)
    assert pairs(tables) == pairs([(1, 2), (3, 4), (6, 5)])
    # Board order: by the higher-ranked player of each pair (score, then pairing number).
    assert [frozenset(t) for t in tables] == [frozenset(p) for p in ((1, 2), (3, 4), (6, 5))]


def test_c12_the_same_player_does_not_float_down_twice_running():
    # Round 1 of 5: 1-4 (1 wins), 2-5 (2 wins), 3 the bye (a downfloat). Scores 1, 1, 1, 0, 0.
    # Round 2: the top bracket {1, 2, 3} is odd, one floats. By the order alone the lowest,
    # 3, would; but 3 floated down in round 1 (its bye), so C12 floats 2 instead (the next
    # candidate in D order: S1 = {1}, S2 = {2, 3}, the transposition 1-3).
    r1 = [Played(1, 1, (1, 4), (1.0, 0.0)), Played(1, 2, (5, 2), (0.0, 1.0)),
          Played(1, 3, (3,), (1.0,))]
    tables = dutch_round(entrants(5), r1, 2, 5, 0)
    assert frozenset((1, 3)) in pairs(tables)


# -- colours (E) -------------------------------------------------------------------------------

def player(pid: int, colours: list[int], score: float = 0.0) -> DutchPlayer:
    p = DutchPlayer(pid, pid, score=score, colours=colours)
    p.settle()
    return p


def test_colour_preferences():
    assert (player(1, [1, 1]).pref, player(1, [1, 1]).strength) == (-1, ABSOLUTE)
    assert (player(1, [1, -1, 1]).pref, player(1, [1, -1, 1]).strength) == (-1, STRONG)
    assert (player(1, [1, -1]).pref, player(1, [1, -1]).strength) == (1, MILD)
    assert player(1, []).pref == 0


def test_e1_both_preferences():
    a, b = player(1, [1]), player(2, [-1])      # 1 wants black, 2 white
    assert allocate(a, b, 1) == (b, a)


def test_e2_the_stronger_preference():
    a = player(1, [-1, 1])        # mild: black (alternate)
    b = player(2, [1, 1])         # absolute: black
    assert allocate(a, b, 1) == (a, b)


def test_e3_alternate_to_the_last_different_colours():
    # Both want white strongly (one black more), with the same colour difference, so E.1 and
    # E.2 do not decide. Read back from their last games: B/B, W/W, B/B, then 1 had black
    # and 2 white: alternate that, 1 gets white.
    a, b = player(1, [1, -1, -1, 1, -1]), player(2, [-1, 1, -1, 1, -1])
    assert (a.pref, a.strength, b.pref, b.strength) == (1, STRONG, 1, STRONG)
    assert allocate(a, b, 1) == (a, b)
    assert allocate(b, a, -1) == (a, b)  # the same whatever the order and initial colour


def test_e4_the_higher_ranked_players_preference():
    # Same strong preference, same difference, identical histories: E.4 gives the higher
    # ranked (by score first, A.2) his preference; 2 outscores 1 here.
    a, b = player(1, [1, -1, 1], 1.0), player(2, [1, -1, 1], 2.0)
    assert allocate(a, b, 1) == (a, b)
    # Equal scores: the pairing number decides.
    a, b = player(1, [1, -1, 1], 1.0), player(2, [1, -1, 1], 1.0)
    assert allocate(a, b, 1) == (b, a)


def test_e5_pairing_number_parity_and_the_initial_colour():
    a, b = player(3, []), player(6, [])
    assert allocate(a, b, 1) == (a, b)     # 3 is odd: the initial colour (white)
    assert allocate(a, b, -1) == (b, a)
    a, b = player(4, []), player(7, [])
    assert allocate(a, b, 1) == (b, a)     # 4 is even: the other colour


def test_c7_counts_the_next_brackets_pairs_only_as_far_as_everyone_below_can_pair():
    # Floater 0 (level 0), next bracket 1 and 2 (level 1), below 3, 4, 5 (level 2) who cannot
    # meet each other. Alone, the next bracket would pair once (0 with 1, 2 left over, or
    # 1 with 2): key (-1 pair, floater 0 kept). But then 3, 4 and 5 cannot all be paired: each
    # needs one of 0, 1, 2, so the next bracket pairs nobody.
    from bot.tournaments.dutch_lookahead import lookahead

    below = {3, 4, 5}
    compat = lambda a, b: not (a in below and b in below)  # noqa: E731
    level = [0, 1, 1, 2, 2, 2]
    key, ok = lookahead([0], [1, 2], [3, 4, 5], level, 3, compat, lambda i: False, {})
    assert ok and key == (0, 0, 0, 0)
    # With 4 and 5 able to meet, only 3 needs a partner from above: 0-1, 2-3, 4-5 keeps one
    # pair in the next bracket, with the floater in it.
    compat2 = lambda a, b: {a, b} == {4, 5} or not (a in below and b in below)  # noqa: E731
    key, ok = lookahead([0], [1, 2], [3, 4, 5], level, 3, compat2, lambda i: False, {})
    assert ok and key == (-1, -1, 0, 0)


# -- cross-check -------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_cross_check_against_caissify_pairings_finds_no_discrepancy():
    pytest.importorskip("caissify_pairings")
    from bot.tools.dutch_check import check

    report = check(tournaments=8, low=9, high=22, rounds=7, seed=2026, show=1)
    assert report["rounds_checked"] >= 40
    # The target is zero; not reached everywhere yet. Measured 2026-11-27: 0 of these 56
    # rounds differ, and 0.1-0.5 % of the larger runs (docs/measurements/bench.md); this bound
    # (one round in 50) keeps the rate from getting worse.
    assert report["pair_discrepancies"] <= 0.02 * report["rounds_checked"], report["dumps"]
    # Colours: every difference is the oracle's E.2–E.5 ranking by pairing number alone.
    assert report["colour_only_discrepancies"] == 0, report["dumps"]


# -- properties -----------------------------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 16), rounds=st.integers(2, 7), seed=st.integers(0, 10_000))
def test_dutch_properties_with_forfeits(n, rounds, seed):
    rng = random.Random(seed)
    people = entrants(n)
    played: list[Played] = []
    byes: dict[int, int] = {}
    for round_no in range(1, min(rounds, n - 1) + 1):
        tables = dutch_round(people, played, round_no, rounds, seed)
        if tables is None:
            break  # the arbiter's case; swiss_round falls back
        assert tables == dutch_round(people, played, round_no, rounds, seed)
        assert sorted(p for t in tables for p in t) == list(range(1, n + 1))
        history = {p.id: p for p in read_history([(i, i) for i in range(1, n + 1)], played,
                                                 round_no, rounds)}
        for t in tables:
            if len(t) == 1:
                assert history[t[0]].bye_eligible  # C2
                byes[t[0]] = byes.get(t[0], 0) + 1
            else:
                assert t[1] not in history[t[0]].opponents  # C1
        for board, seats in enumerate(tables, start=1):
            if len(seats) == 1:
                played.append(Played(round_no, board, seats, (1.0,)))
                continue
            roll = rng.random()
            points = (0.5, 0.5) if roll < 0.2 else (1.0, 0.0) if roll < 0.6 else (0.0, 1.0)
            played.append(Played(round_no, board, seats, points, forfeit=rng.random() < 0.1))
    assert all(v == 1 for v in byes.values())
