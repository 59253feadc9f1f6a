"""The positions a Sensei game has been in, read back from its public history.

Not a rule: Sensei has no repetition rule and no turn limit (the rules contract stays as it is).
Two readers need the positions all the same: the AI players, which steer clear of a position
already seen twice when they can do no worse (``ai.py``), and the table's regulation
(``bot/domain/regulation.py``), which ends a game that repeats a position a third time or goes
on for long without progress.

A position is the board at the start of a turn: every stone, both characters, and who is to
move. It is rebuilt backwards from the game as it stands, undoing the history's moves turn by
turn, so the setup the game began from need not be known.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Sequence

from .board import EMPTY, HOME_RANK, SIZE, parse_square
from .notation import MAX_ACTIONS

#: turns in a row in which neither character gets nearer its goal rank than it has ever been
NO_PROGRESS_TURNS = 120
#: the number of times one position may be seen before the regulation steps in
REPETITIONS = 3

Move = tuple[str, int, int]


def position_key(cells: Sequence[int], characters: Sequence[int], to_move: int) -> str:
    """A position as a short string: equal strings, equal positions."""
    board = "".join("." if c == EMPTY else "x" if c not in (0, 1) else "gr"[c] for c in cells)
    return f"{to_move}{board}{characters[0]:02d}{characters[1]:02d}"


def _turns(history: Iterable[Sequence[Any]]) -> tuple[list[tuple[int, list[Move]]], list[Move]]:
    """The history's closed turns (seat, moves) in order, and the moves of the turn under way.
    ``history`` holds (seat, token) pairs: a move in notation or another action's type."""
    closed: list[tuple[int, list[Move]]] = []
    current: list[Move] = []
    seat_of_current = None
    for seat, token in history:
        if token == "end_turn":
            if current:
                closed.append((int(seat), current))
            current, seat_of_current = [], None
            continue
        if "-" not in token:
            continue  # a draw offer, an answer to one, a resignation: no move
        character = token.startswith("*")
        frm, to = token.lstrip("*").split("-")
        current.append(("character" if character else "stone", parse_square(frm),
                        parse_square(to)))
        seat_of_current = int(seat)
        if len(current) >= MAX_ACTIONS:
            closed.append((seat_of_current, current))
            current, seat_of_current = [], None
    return closed, current


def turn_starts(cells: Sequence[int], characters: Sequence[int], active: int,
                history: Iterable[Sequence[Any]]) -> list[tuple[str, tuple[int, int]]]:
    """(position key, character squares) at the start of every turn so far, oldest first; the
    last is the turn under way. ``cells``/``characters``/``active`` are the game as it stands
    (moves of the turn under way included), ``history`` its (seat, token) pairs."""
    closed, current = _turns(history)
    cells, characters = list(cells), list(characters)

    def undo(seat: int, moves: list[Move]) -> None:
        for kind, frm, to in reversed(moves):
            if kind == "stone":
                cells[to], cells[frm] = EMPTY, seat
            else:
                characters[seat] = frm

    undo(active, current)
    out = [(position_key(cells, characters, active), (characters[0], characters[1]))]
    for seat, moves in reversed(closed):
        undo(seat, moves)
        out.append((position_key(cells, characters, seat), (characters[0], characters[1])))
    out.reverse()
    return out


def game_positions(game: Any) -> list[tuple[str, tuple[int, int]]]:
    """``turn_starts`` of a Sensei game object."""
    return turn_starts(game.cells, game.characters, game.active, game.history)


def view_history(history: Iterable[dict[str, Any]]) -> list[tuple[int, str]]:
    """A seat view's public history as (seat, token) pairs."""
    out = []
    for entry in history:
        action = entry["action"]
        if action["type"] in ("stone", "character"):
            token = f"{'*' if action['type'] == 'character' else ''}{action['from']}-{action['to']}"
        else:
            token = action["type"]
        out.append((int(entry["seat"]), token))
    return out


def counts(positions: Sequence[tuple[str, tuple[int, int]]]) -> Counter[str]:
    return Counter(key for key, _ in positions)


def turns_without_progress(positions: Sequence[tuple[str, tuple[int, int]]]) -> int:
    """Turns since a character last came nearer its goal rank than it had ever been."""
    best = [SIZE, SIZE]
    since = 0
    for _, characters in positions:
        progressed = False
        for seat in (0, 1):
            gap = abs(HOME_RANK[1 - seat] - characters[seat] // SIZE)
            if gap < best[seat]:
                best[seat], progressed = gap, True
        since = 0 if progressed else since + 1
    return since
