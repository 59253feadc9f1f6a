"""Sàréná review: a missed sure win is a blunder, the expert's own move is best, the stored form
round-trips, and the review reads nothing but what each mover could see."""
from __future__ import annotations

import json
import random

import pytest

from bot.games.ai import seat_view

from bot.games import review as shared
from bot.games.sarena import Sarena
from bot.games.sarena import review
from bot.games.sarena.chips import UP

#: small enough that a whole game reviews in a few seconds; still every code path
NODES = 6_000
#: a tiny search samples each move in a world or two, where a risky move's bigger margin can
#: outrank a sure win; the review's real budget is twenty times this
WIN_NODES = 30_000


def colour_scores(game: Sarena) -> list[int]:
    """Chips under each colour now (read from the state: tests may; only tops count)."""
    state = game.to_json()
    scores = [0] * 4
    for pile, h in zip(state["piles"], state["heights"]):
        if h:
            scores[UP[pile >> (8 * h - 8)]] += h
    return scores


def after(game: Sarena, seat: int, action: dict) -> Sarena:
    twin = Sarena.from_json(game.to_json())
    twin.apply(seat, action)
    return twin


def sure_win_and_sure_loss():
    """A 4-player game whose mover has a move that ends it with a sure win and another that
    ends it with a sure loss, both onto a pile: no hidden face turns up, every colour is
    someone's and only tops count, so the public board decides both. Found by playing random
    games from seed 0 on."""
    for seed in range(400):
        rnd = random.Random(seed)
        game = Sarena.new(4, {}, seed)
        log = []
        while game.to_move is not None:
            seat = game.to_move
            mine = game.to_json()["colours"][seat]
            legal = game.legal_actions(seat)
            win = loss = None
            heights = {c["square"]: c["height"] for c in game.public_view()["board"]}
            for action in legal if len(legal) <= 6 else ():
                if not heights[action["to"]]:
                    continue  # a flip: the face it turns up may be unknown to the mover
                end = after(game, seat, action)
                if end.to_move is not None:
                    continue
                scores = colour_scores(end)
                others = [scores[c] for c in range(4) if c != mine]
                if scores[mine] > max(others):
                    win = action
                if scores[mine] < max(others):
                    loss = action
            if win and loss:
                return seed, log, seat, win, loss
            action = rnd.choice(legal)
            game.apply(seat, action)
            log.append((seat, action))
    raise AssertionError("no such position in 400 random games")


#: what the turns before the last get in the test below: only the last turn is asserted on
EARLIER_NODES = 300


@pytest.fixture
def only_the_last_turn_searched_hard(monkeypatch):
    """Every turn but the last judged on a tiny budget. The test asserts on the last turn only
    (judged on ``WIN_NODES``, exactly as before); the 30-odd random turns before it cost 95% of
    its CPU at ``WIN_NODES`` each and witness nothing it checks (every turn at a real budget is
    graded by ``test_the_experts_own_moves_grade_best`` and the round-trip test)."""
    original = review.judge

    def judge(view, played, nodes, rng):
        last = len(view["history"]) == judge.last_index
        judge.full += last
        return original(view, played, nodes if last else EARLIER_NODES, rng)

    judge.full = 0
    monkeypatch.setattr(review, "judge", judge)
    return judge


@pytest.mark.slow
def test_throwing_away_a_sure_win_is_a_blunder_and_the_win_is_the_better_move(
        only_the_last_turn_searched_hard):
    seed, log, seat, win, loss = sure_win_and_sure_loss()
    only_the_last_turn_searched_hard.last_index = len(log)
    data = review.review(4, {}, seed, log + [(seat, loss)], nodes=WIN_NODES)
    last = shared.turns_of(data)[-1]
    assert (last.seat, last.first, last.played) == (seat, len(log), [loss])
    assert last.best == 1.0 and last.value == 0.0
    assert last.grade == "blunder"
    assert last.better == [win]
    assert only_the_last_turn_searched_hard.full == 1
    # Taking the win instead is the best move, worth a sure win.
    data = review.review(4, {}, seed, log + [(seat, win)], nodes=WIN_NODES)
    last = shared.turns_of(data)[-1]
    assert (last.grade, last.best, last.value, last.better) == ("best", 1.0, 1.0, None)
    assert only_the_last_turn_searched_hard.full == 2


def expert_game(seats: int, seed: int, expert_seat: int, moves: int) -> list:
    """A log where ``expert_seat`` plays the review's own pick each turn, the others random."""
    rnd = random.Random(seed)
    game = Sarena.new(seats, {}, seed)
    log = []
    while game.to_move is not None and len(log) < moves:
        seat = game.to_move
        if seat == expert_seat:
            action = review.best_move(review.seat_view(game, seat), NODES,
                                      review.turn_rng(seed, len(log)))
        else:
            action = rnd.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append((seat, action))
    return log


@pytest.mark.slow
def test_the_experts_own_moves_grade_best():
    for seats, seed in ((2, 3), (3, 4)):
        log = expert_game(seats, seed, 1, 14)
        turns = shared.turns_of(review.review(seats, {}, seed, log, nodes=NODES))
        mine = [turn for turn in turns if turn.seat == 1]
        assert mine and all(turn.grade == "best" and turn.accuracy == 100.0 for turn in mine)


@pytest.mark.slow
def test_stored_review_round_trips_and_counts_every_seat():
    seed = 11
    rnd = random.Random(seed)
    game = Sarena.new(3, {"fair": True}, seed)
    log = [(2, {"type": "resign"})]
    game.apply(2, {"type": "resign"})
    while game.to_move is not None and len(log) < 20:
        seat = game.to_move
        action = rnd.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append((seat, action))
    data = review.review(3, {"fair": True}, seed, log, nodes=NODES)
    again = json.loads(json.dumps(data))
    assert again == data
    turns = shared.turns_of(again)
    # One turn per move; the resignation is not a turn.
    assert [(t.seat, t.first, t.played) for t in turns] == \
        [(seat, i, [action]) for i, (seat, action) in enumerate(log) if action["type"] == "move"]
    assert all(0.0 <= t.value <= 1.0 and 0.0 <= t.best <= 1.0 and t.grade in shared.GRADES
               for t in turns)
    assert all((t.better is not None) == (t.grade in shared.FAULTS) for t in turns)
    players = again["players"]
    assert [row["seat"] for row in players] == [0, 1, 2]
    for row in players:
        own = [t for t in turns if t.seat == row["seat"]]
        assert row["turns"] == len(own)
        for fault in shared.FAULTS:
            assert row[fault] == sum(t.grade == fault for t in own)
    assert players[2]["turns"] == 0 and players[2]["accuracy"] is None
    assert data["game"] == "sarena" and data["seats"] == 3 and data["version"] == shared.VERSION


@pytest.mark.slow
def test_the_review_is_deterministic_and_each_turn_sees_only_its_movers_view(monkeypatch):
    # Each turn is judged from exactly the view the AI barrier hands the mover: the public
    # board and history then, and the mover's own colour, never another seat's.
    seed = 5
    log = expert_game(2, seed, 0, 8)
    first = review.review(2, {}, seed, log, nodes=NODES)
    seen = []
    original = review.judge

    def spy(view, played, nodes, rng):
        seen.append(view)
        return original(view, played, nodes, rng)

    monkeypatch.setattr(review, "judge", spy)
    assert review.review(2, {}, seed, log, nodes=NODES) == first
    game = Sarena.new(2, {}, seed)
    assert len(seen) == len(log)
    for view, (seat, action) in zip(seen, log):
        assert json.loads(json.dumps(view)) == seat_view(game, seat)
        game.apply(seat, action)
