"""Sensei's whole turns: every distinct position a turn can end in (the searches' move
generator), medium's scores of them, and turns applied to a position."""
from __future__ import annotations

import random
from typing import Callable

from .board import EMPTY, SIZE, parse_square
from .evaluation import WIN, turn_end_score
from .game import STONE_MOVES_PER_TURN, Sensei
from .moves import character_targets, stone_destinations
from .notation import MAX_ACTIONS
from .tactics import GOAL_RANK

Move = tuple[str, int, int]


def each_turn(cells: list[int], characters: list[int], seat: int, slide: bool, stones_left: int,
              character_left: bool, done: int,
              visit: Callable[[tuple[Move, ...], bool], bool]) -> None:
    """Call ``visit(path, arrived)`` once per distinct position the turn can end in, exactly as
    ``turns.legal_turns`` enumerates them; ``cells`` and ``characters`` hold that position
    during the call. ``visit`` returns True to stop the enumeration.
    """
    goal = GOAL_RANK[seat]
    # A turn moves only the seat's own stones and character: the squares of its stones (a bit
    # each) and where its character stands tell the positions apart exactly, for a fraction of
    # the cost of copying the 49 cells at every step.
    mine = sum(1 << sq for sq, cell in enumerate(cells) if cell == seat)
    seen: set[tuple[int, int]] = set()
    if done:
        seen.add((mine, characters[seat]))
        if visit((), False):
            return

    class Stop(Exception):
        pass

    def explore(path: tuple[Move, ...], stones: int, jump: bool, mine: int) -> None:
        at = characters[seat]
        if stones:
            for frm in range(SIZE * SIZE):
                if cells[frm] != seat or frm == at:
                    continue
                for to in stone_destinations(cells, frm, slide):
                    cells[frm], cells[to] = EMPTY, seat
                    step = path + (("stone", frm, to),)
                    moved = mine ^ (1 << frm) ^ (1 << to)
                    key = (moved, at)
                    try:
                        if key not in seen:
                            seen.add(key)
                            if visit(step, False):
                                raise Stop
                        if done + len(step) < MAX_ACTIONS:
                            explore(step, stones - 1, jump, moved)
                    finally:
                        cells[frm], cells[to] = seat, EMPTY
        if jump:
            for to in character_targets(cells, seat, at):
                characters[seat] = to
                step = path + (("character", at, to),)
                key = (mine, to)
                arrived = to // SIZE == goal
                try:
                    if key not in seen:
                        seen.add(key)
                        if visit(step, arrived):
                            raise Stop
                    if not arrived and done + len(step) < MAX_ACTIONS:
                        explore(step, stones, False, mine)
                finally:
                    characters[seat] = at

    try:
        explore((), stones_left, character_left, mine)
    except Stop:
        pass


def _turn_state(game: Sensei) -> tuple[int, bool, int]:
    stones = STONE_MOVES_PER_TURN - sum(1 for a in game.current if a["kind"] == "stone")
    return stones, game.character_move_left(), len(game.current)


def scored_turns(game: Sensei, seat: int) -> list[tuple[int, tuple[Move, ...]]]:
    """Every way to finish the turn with medium's score of the position it leaves."""
    cells, characters, slide = list(game.cells), list(game.characters), game.slide
    out: list[tuple[int, tuple[Move, ...]]] = []

    def visit(path: tuple[Move, ...], arrived: bool) -> bool:
        if arrived:
            out.append((WIN, path))
            return False
        out.append((turn_end_score(cells, characters, seat, slide), path))
        return False

    each_turn(cells, characters, seat, slide, *_turn_state(game), visit)
    return out


def _best(scored: list[tuple[int, tuple[Move, ...]]], rng: random.Random) -> tuple[Move, ...]:
    top = max(score for score, _ in scored)
    return rng.choice([path for score, path in scored if score == top])


def _play_if_legal(cells: list[int], characters: list[int], seat: int, slide: bool,
                   path: tuple[Move, ...]) -> tuple[list[int], list[int]] | None:
    """``path`` (a killer turn from another position) applied here, or None when one of its
    actions is not legal here, or it holds more actions of a kind than a turn allows."""
    cells, characters = list(cells), list(characters)
    stones = jumps = 0
    for kind, frm, to in path:
        if kind == "stone":
            stones += 1
            if (stones > STONE_MOVES_PER_TURN or cells[frm] != seat or frm == characters[seat]
                    or to not in stone_destinations(cells, frm, slide)):
                return None
            cells[frm], cells[to] = EMPTY, seat
        else:
            jumps += 1
            if (jumps > 1 or characters[seat] != frm
                    or to not in character_targets(cells, seat, frm)):
                return None
            characters[seat] = to
    return cells, characters



def _after(cells: list[int], characters: list[int], seat: int,
           path: tuple[Move, ...]) -> tuple[list[int], list[int]]:
    cells, characters = list(cells), list(characters)
    for kind, frm, to in path:
        if kind == "stone":
            cells[frm], cells[to] = EMPTY, seat
        else:
            characters[seat] = to
    return cells, characters



def turn_start(game: Sensei, seat: int) -> tuple[tuple[Move, ...], list[int], list[int]]:
    """The actions of the turn under way, and the cells and characters from before them: the
    position the turn started in, which the expert and hard's win-in-two check decide from."""
    done = tuple((move["kind"], parse_square(move["from"]), parse_square(move["to"]))
                 for move in game.current)
    cells, characters = list(game.cells), list(game.characters)
    for kind, frm, to in reversed(done):
        if kind == "stone":
            cells[to], cells[frm] = EMPTY, seat
        else:
            characters[seat] = frm
    return done, cells, characters
