"""Sensei's game review (bot/games/sensei/review.py): turns cut from the action log, a missed win
graded a blunder with the win as the better turn, the expert's own turn graded best, and the
stored form the shared review module reads back."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.review import FAULTS, GRADES, turns_of
from bot.games.sensei import Sensei, tactics
from bot.games.sensei.expert import decide
from bot.games.sensei.review import expected, review
from bot.games.sensei.board import square_name

#: the tests' search budget; the product's (REVIEW_NODES) grades the same way, only slower
NODES = 2_000
OPTIONS = {"version": "arashi", "setup": "crossed", "first": "green"}


def stone(frm: str, to: str) -> dict:
    return {"type": "stone", "from": frm, "to": to}


def jump(frm: str, to: str) -> dict:
    return {"type": "character", "from": frm, "to": to}


END = {"type": "end_turn"}

# Crossed setup: green (seat 0) owns f7 on red's home rank. Green brings its character to a2, on
# the open diagonal a2-b3-c4-d5-e6-f7, while red shuffles a stone on the g-file.
OPENING = [
    (0, stone("e1", "e2")), (0, jump("d1", "e2")), (0, END),
    (1, stone("g7", "g6")), (1, END),
    (0, stone("a1", "a2")), (0, jump("e2", "a2")), (0, END),
    (1, stone("g6", "g5")), (1, END),
]
WIN = [(0, jump("a2", "f7"))]
MISSED = [(0, stone("c1", "c2")), (0, END), (1, stone("g5", "g4")), (1, END)]


def replay(log) -> Sensei:
    game = Sensei.new(2, OPTIONS, 0)
    for seat, action in log:
        game.apply(seat, action)
    return game


@pytest.mark.slow
def test_the_log_is_cut_into_turns_each_ending_with_its_seat_s_last_action():
    log = OPENING + MISSED
    data = review(2, OPTIONS, 0, log, nodes=NODES)
    turns = turns_of(data)
    assert [(t.seat, t.first, t.count) for t in turns] == [
        (0, 0, 3), (1, 3, 2), (0, 5, 3), (1, 8, 2), (0, 10, 2), (1, 12, 2)]
    assert [t.played for t in turns] == [[a for _, a in log[t.first:t.first + t.count]]
                                         for t in turns]
    assert all(t.grade in GRADES and 0.0 <= t.value <= 1.0 for t in turns)


@pytest.mark.slow
def test_a_missed_win_is_a_blunder_and_the_better_turn_is_the_win():
    before = replay(OPENING)
    assert tactics.can_arrive(list(before.cells), 0, before.characters[0], before.slide)
    data = review(2, OPTIONS, 0, OPENING + MISSED, nodes=NODES)
    missed = turns_of(data)[4]
    assert (missed.seat, missed.best) == (0, 1.0)
    assert missed.grade == "blunder"
    won = replay(OPENING)
    for action in missed.better:
        won.apply(0, action)
    assert won.result().winners == (0,) and won.result().reason == "arrived"
    assert missed.better == [jump("a2", "f7")]


@pytest.mark.slow
def test_taking_the_win_is_the_best_turn():
    data = review(2, OPTIONS, 0, OPENING + WIN, nodes=NODES)
    last = turns_of(data)[-1]
    assert (last.best, last.value, last.grade, last.better) == (1.0, 1.0, "best", None)


def _expert_turn(game: Sensei, nodes: int) -> list[dict]:
    seat = game.to_move
    path = decide(game.cells, game.characters, seat, game.slide, nodes=nodes).path
    actions = [{"type": k, "from": square_name(f), "to": square_name(t)} for k, f, t in path]
    trial = game.copy()
    for action in actions:
        trial.apply(seat, action)
    return actions + ([END] if trial.to_move == seat else [])


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.sampled_from(["arashi", "shizukana"]), st.integers(0, 3))
def test_the_expert_s_own_turns_grade_best(version, turns):
    options = {"version": version, "first": "green"}
    game = Sensei.new(2, options, 0)
    log = []
    for _ in range(turns + 1):
        if game.to_move is None:
            break
        seat = game.to_move
        for action in _expert_turn(game, NODES):
            log.append((seat, action))
            game.apply(seat, action)
    graded = turns_of(review(2, options, 0, log, nodes=NODES))
    assert graded and all(t.grade == "best" and t.better is None for t in graded)
    assert all(t.value == t.best for t in graded)


@pytest.mark.slow
def test_the_stored_review_round_trips_and_sums_up_each_seat():
    data = review(2, OPTIONS, 0, OPENING + MISSED, nodes=NODES)
    again = json.loads(json.dumps(data))
    assert again == data
    turns = turns_of(again)
    assert turns == turns_of(data)
    assert (data["game"], data["seats"]) == ("sensei", 2)
    for seat, row in enumerate(data["players"]):
        mine = [t for t in turns if t.seat == seat]
        assert row["turns"] == len(mine)
        for fault in FAULTS:
            assert row[fault] == sum(t.grade == fault for t in mine)
    assert data["players"][0]["blunder"] >= 1


@pytest.mark.slow
def test_draw_offers_and_undone_moves_stay_inside_the_log_s_turns():
    log = (OPENING[:3] + [(1, {"type": "offer_draw"}), (1, stone("g7", "g6")),
                          (1, {"type": "undo"}), (1, stone("g7", "g6")), (1, END)]
           + [(0, {"type": "decline_draw"})])
    turns = turns_of(review(2, OPTIONS, 0, log, nodes=NODES))
    assert [(t.seat, t.first, t.count) for t in turns] == [(0, 0, 3), (1, 4, 4)]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.integers(-2 * 10 ** 6, 2 * 10 ** 6), st.integers(0, 10 ** 6))
def test_expected_score_is_monotone_and_symmetric(score, step):
    assert 0.0 <= expected(score) <= expected(score + step) <= 1.0
    assert abs(expected(score) + expected(-score) - 1.0) < 1e-9

