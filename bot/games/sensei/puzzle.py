"""Sensei puzzles (``bot/games/puzzles.py``): find the turn that wins by force within two turns.

An answer is one turn. It is solved when it wins at once or every reply leaves a winning turn
(``wintwo.Prover``: exact, every reply enumerated); otherwise the verdict carries the reply that
beats it. Any winning turn is accepted, not only the shipped one.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import IllegalAction
from ..puzzle_types import ILLEGAL, INCOMPLETE, KINDS, SOLVED, WRONG, Puzzle, Verdict, illegal
from .board import parse_square, square_name
from .game import Sensei
from .whole_turns import Move
from .wintwo import Budget, OutOfWork, Prover, forced_win, winning_turn

#: positions a from-review proof may visit before the position is left out (a few seconds)
REVIEW_PROOF = 400_000


def _moves(actions: Sequence[Mapping[str, Any]]) -> tuple[Move, ...]:
    return tuple((a["type"], parse_square(a["from"]), parse_square(a["to"])) for a in actions
                 if a.get("type") in ("stone", "character"))


def actions_of(path: Sequence[Move]) -> list[dict[str, Any]]:
    return [{"type": kind, "from": square_name(frm), "to": square_name(to)}
            for kind, frm, to in path]


def check(puzzle: Puzzle, answer: Sequence[Mapping[str, Any]]) -> Verdict:
    game = puzzle.position()
    assert isinstance(game, Sensei)
    seat = puzzle.seat
    start_turn = game.turn
    for action in answer:
        over = game.result() is not None or game.active != seat or game.turn != start_turn
        if over and action.get("type") == "end_turn":
            continue  # the turn already ended by itself (a third action or a win)
        if over:
            return Verdict(ILLEGAL, error={"code": "after_turn_end", "params": {}})
        try:
            game.apply(seat, action)
        except IllegalAction as exc:
            return illegal(exc)
        if action.get("type") not in ("stone", "character", "end_turn"):
            return Verdict(ILLEGAL, error={"code": "bad_action", "params": {}})
    result = game.result()
    if result is not None:
        if seat in result.winners:
            return Verdict(SOLVED)
        return Verdict(WRONG, reason="loses_at_once")
    if game.active == seat and game.turn == start_turn:
        return Verdict(INCOMPLETE)
    start = puzzle.position()
    prover = Prover(start.slide)
    path = _moves(answer)
    reply = prover.refutation(list(start.cells), list(start.characters), seat, path)
    if reply is None:
        return Verdict(SOLVED)
    if not reply:
        return Verdict(WRONG, reason="no_win_after_reply")
    after = game.copy()
    for action in actions_of(reply):
        after.apply(1 - seat, action)
    ended = after.result()
    if ended is not None and 1 - seat in ended.winners:
        reason = "reply_wins"
    else:
        reason = "no_win_after_reply"
    return Verdict(WRONG, reason=reason, refutation=actions_of(reply))


def verify(puzzle: Puzzle) -> str | None:
    """Why a shipped puzzle is not sound, or None: its solution must win in two against every
    reply, and the position must have no win at once (else it is not a two-turn puzzle)."""
    game = puzzle.position()
    assert isinstance(game, Sensei)
    seat = puzzle.seat
    if game.to_move != seat or game.current:
        return "not at the start of the puzzle seat's turn"
    cells, characters = list(game.cells), list(game.characters)
    if winning_turn(cells, characters, seat, game.slide) is not None:
        return "wins at once"
    try:
        trial = game.copy()
        for action in puzzle.solution:
            trial.apply(seat, action)
    except IllegalAction as exc:
        return f"illegal solution: {exc}"
    if Prover(game.slide).refutation(cells, characters, seat, _moves(puzzle.solution)) is not None:
        return "the solution is refuted"
    return None


def from_review(seats: int, options: Mapping[str, Any], seed: int,
                log: Sequence[tuple[int, Mapping[str, Any]]], review: Mapping[str, Any], *,
                game_id: Any) -> list[Puzzle]:
    blunders = {turn["first"]: turn for turn in review.get("turns", ())
                if turn.get("grade") == "blunder"}
    if not blunders:
        return []
    game = Sensei.new(seats, options, seed)
    out: list[Puzzle] = []
    for index, (seat, action) in enumerate(log):
        turn = blunders.get(index)
        if turn is not None and game.result() is None and game.to_move == turn["seat"]:
            puzzle = _puzzle_at(game, turn, index, game_id)
            if puzzle is not None:
                out.append(puzzle)
        try:
            game.apply(seat, action)
        except IllegalAction:
            break
    return out


def _puzzle_at(game: Sensei, turn: Mapping[str, Any], index: int, game_id: Any) -> Puzzle | None:
    seat = turn["seat"]
    cells, characters = list(game.cells), list(game.characters)
    if winning_turn(cells, characters, seat, game.slide) is not None:
        return None  # a win in one: too easy to be a puzzle
    prover = Prover(game.slide, Budget(REVIEW_PROOF))
    played = _moves(turn.get("played") or ())
    try:
        if played and prover.refutation(cells, characters, seat, played) is None:
            return None  # the turn played did win (the review misjudged it)
        path = None
        better = _moves(turn.get("better") or ())
        if better and prover.refutation(cells, characters, seat, better) is None:
            path = better
        if path is None:
            path = forced_win(cells, characters, seat, game.slide, prover.budget)
    except OutOfWork:
        return None
    if path is None:
        return None
    state = game.to_json()
    # The position only: no history, no pending offer (nothing else of the game is shown).
    state.update(history=[], draw_offer=None, current=[])
    return Puzzle(id=f"sensei:g:{game_id}:{index}", game="sensei", kind=KINDS["sensei"],
                  seat=seat, state=state, solution=actions_of(path),
                  source={"type": "game", "game_id": game_id, "turn_index": index, "seat": seat},
                  par=2)
