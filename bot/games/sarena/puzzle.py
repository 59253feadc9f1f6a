"""Sàréná two-player puzzles (``bot/games/puzzles.py``): the move that ends the game and wins
whatever the hidden faces and colours.

The solver knows its own colour and what the table has seen; it does not know the opponent's
colour (any of the other three) nor the faces that have never shown on top. A move *wins
whatever* when it leaves no legal move (the game ends) and, for every colour the opponent may
hold and every colour an unseen face may have, the solver's score is strictly higher (so the
tie-break, which counts hidden faces, never decides). Only the top faces count for the score,
so the one unknown a final move can meet is the face a flip turns up.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import IllegalAction
from ..puzzle_types import ILLEGAL, INCOMPLETE, SOLVED, WRONG, Puzzle, Verdict, illegal
from .board import EDGE_ID, EDGES, SQUARE_INDEX, SQUARE_NAMES
from .chips import COLOURS, DOWN_SEEN, UP, top_chip
from .position import Position
from .rules import Sarena


def losing_world(position: Position, edge: int, mine: int) -> dict[str, Any] | None:
    """None when playing ``edge`` ends the game with ``mine``'s score above every other
    colour's, whatever the face a flip turns up; otherwise why not: ``{"final": False}`` when
    the game goes on, else the first world (in a fixed order, never the real one on purpose:
    the answer depends on what the table sees only) where it does not win:
    ``{"final": True, "opponent": colour, "flip": colour or None, "scores": [mine, theirs]}``."""
    src, dst = EDGES[edge]
    flip_unknown = None
    if not position.heights[dst]:
        bottom = position.piles[src] & 0xFF
        if not DOWN_SEEN[bottom]:
            flip_unknown = UP[bottom]  # the face that goes down; the one coming up is unseen
    trial = position.copy()
    trial.move(edge)
    if trial.legal:
        return {"final": False}
    scores = [0, 0, 0, 0]
    unknown_height = 0
    for circle in range(len(trial.heights)):
        h = trial.heights[circle]
        if not h:
            continue
        if circle == dst and flip_unknown is not None:
            unknown_height = h
            continue
        scores[UP[top_chip(trial.piles[circle], h)]] += h
    for other in range(4):
        if other == mine:
            continue
        worlds = [None] if not unknown_height else [x for x in range(4) if x != flip_unknown]
        for top in worlds:
            counted = list(scores)
            if top is not None:
                counted[top] += unknown_height
            if counted[mine] <= counted[other]:
                return {"final": True, "opponent": COLOURS[other],
                        "flip": None if top is None else COLOURS[top],
                        "scores": [counted[mine], counted[other]]}
    return None


def wins_whatever(position: Position, edge: int, mine: int) -> bool:
    """Whether playing ``edge`` ends the game and wins in every world the table cannot rule
    out."""
    return losing_world(position, edge, mine) is None


def winning_moves(game: Sarena, seat: int) -> list[dict[str, Any]]:
    """The moves that win whatever, as actions."""
    position = game._position
    mine = game._colours[seat]
    return [{"type": "move", "from": SQUARE_NAMES[EDGES[e][0]], "to": SQUARE_NAMES[EDGES[e][1]]}
            for e in sorted(position.legal) if wins_whatever(position, e, mine)]


def check(puzzle: Puzzle, answer: Sequence[Mapping[str, Any]]) -> Verdict:
    game = puzzle.position()
    assert isinstance(game, Sarena)
    if not answer:
        return Verdict(INCOMPLETE)
    if len(answer) > 1:
        return Verdict(ILLEGAL, error={"code": "one_move_only", "params": {}})
    action = dict(answer[0])
    try:
        Sarena.from_json(puzzle.state).apply(puzzle.seat, action)
    except IllegalAction as exc:
        return illegal(exc)
    edge = EDGE_ID[(SQUARE_INDEX[action["from"].strip().lower()],
                    SQUARE_INDEX[action["to"].strip().lower()])]
    world = losing_world(game._position, edge, game._colours[puzzle.seat])
    if world is None:
        return Verdict(SOLVED)
    if not world["final"]:
        return Verdict(WRONG, reason="game_goes_on")
    return Verdict(WRONG, reason="not_winning", refutation=[{"type": "world", **world}])


def verify(puzzle: Puzzle) -> str | None:
    """Why a shipped puzzle is not sound, or None: its move must win whatever, and some legal
    move must not (else there is nothing to find)."""
    game = puzzle.position()
    assert isinstance(game, Sarena)
    if game.seats != 2 or game.to_move != puzzle.seat:
        return "not a two-player position with the puzzle's seat to move"
    wins = winning_moves(game, puzzle.seat)
    if dict(puzzle.solution[0]) not in wins:
        return "the solution does not win whatever"
    if len(wins) == len(game.legal_actions(puzzle.seat)):
        return "every move wins"
    return None

