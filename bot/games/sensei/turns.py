"""Whole turns: checking a typed turn, playing it atomically, and enumerating every turn."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import IllegalAction
from .board import EMPTY, HOME_RANK, SIZE, square_name
from .game import STONE_MOVES_PER_TURN, Sensei
from .moves import character_targets, stone_destinations
from .notation import MAX_ACTIONS, format_action


def check_turn(game: Sensei, seat: int, actions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Try ``actions`` on a copy; return the events they would produce.

    Raises the refusal of the first illegal action with two extra params, ``index`` (1-based)
    and ``move`` (its notation), so the UI can say which action failed and why.
    """
    if not actions:
        raise IllegalAction("empty_turn", "a turn needs at least one action")
    trial = game.copy()
    events: list[dict[str, Any]] = []
    for index, action in enumerate(actions, start=1):
        try:
            move = format_action(action)
        except IllegalAction:
            move = "?"
        try:
            if trial.result() is not None:
                # The game already ended within this turn (a win): say so, not "game over".
                raise IllegalAction("after_game_end", "an earlier action of this turn ends "
                                    "the game", ended_by=format_action(actions[index - 2]))
            events += trial.apply(seat, action)
        except IllegalAction as exc:
            raise IllegalAction(exc.code, f"action {index} ({move}): {exc}",
                                **{**exc.params, "index": index, "move": move}) from None
    return events


def play_turn(game: Sensei, seat: int, actions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Apply a whole typed turn and end it; nothing changes when any action is refused.

    A turn ends by itself after the third action or a winning move; otherwise end_turn is added.
    """
    check_turn(game, seat, actions)
    events: list[dict[str, Any]] = []
    for action in actions:
        events += game.apply(seat, action)
    if game.to_move == seat and game.current:
        events += game.apply(seat, {"type": "end_turn"})
    return events


def legal_turns(game: Sensei) -> list[list[dict[str, Any]]]:
    """One action sequence for each distinct position the player to move can end the turn in.

    Starts from the current (possibly partial) turn, so the sequences continue what is already
    done. A winning move ends the sequence. The order is deterministic.
    """
    seat = game.to_move
    if seat is None:
        return []
    cells = list(game.cells)
    slide = game.slide
    goal = HOME_RANK[1 - seat]
    done = len(game.current)
    seen: set[tuple[tuple[int, ...], int]] = set()
    found: list[list[tuple[str, int, int]]] = []
    if done:
        seen.add((tuple(cells), game.characters[seat]))
        found.append([])

    def explore(path: list[tuple[str, int, int]], stones_left: int, character_left: bool,
                at: int) -> None:
        if stones_left:
            for frm in range(SIZE * SIZE):
                if cells[frm] != seat or frm == at:
                    continue
                for to in stone_destinations(cells, frm, slide):
                    cells[frm], cells[to] = EMPTY, seat
                    path.append(("stone", frm, to))
                    key = (tuple(cells), at)
                    if key not in seen:
                        seen.add(key)
                        found.append(list(path))
                    if done + len(path) < MAX_ACTIONS:
                        explore(path, stones_left - 1, character_left, at)
                    path.pop()
                    cells[frm], cells[to] = seat, EMPTY
        if character_left:
            for to in character_targets(cells, seat, at):
                path.append(("character", at, to))
                key = (tuple(cells), to)
                if key not in seen:
                    seen.add(key)
                    found.append(list(path))
                if to // SIZE != goal and done + len(path) < MAX_ACTIONS:
                    explore(path, stones_left, False, to)
                path.pop()

    explore([], STONE_MOVES_PER_TURN - sum(1 for a in game.current if a["kind"] == "stone"),
            game.character_move_left(), game.characters[seat])
    return [[{"type": kind, "from": square_name(frm), "to": square_name(to)}
             for kind, frm, to in path] for path in found]
