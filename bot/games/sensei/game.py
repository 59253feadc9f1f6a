"""The Sensei state machine: turns of up to two stone moves and one character move."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..base import Game, IllegalAction, OptionSpec, Result
from .barrier import loses_to_barrier
from .board import COLOURS, EMPTY, HOME_RANK, PIT, SIZE, parse_square, rank_of, square_name
from .layouts import PITS, SETUPS
from .moves import (ARASHI, SHIZUKANA, character_move_error, character_targets,
                    stone_destinations, stone_move_error)
from .notation import MAX_ACTIONS, format_action, parse_action

STONE_MOVES_PER_TURN = 2
FIRST_SEAT = {"green": 0, "red": 1}

_REFUSALS = {
    "not_your_stone": "there is no stone of yours on {from}",
    "stone_carries_character": "the stone on {from} carries your character and cannot move",
    "no_movement": "{from} and {to} are the same square",
    "not_orthogonal": "a stone moves along a row or a column, {from}-{to} does not",
    "one_square_only": "in Shizukana a stone moves exactly one square",
    "pit": "a stone cannot enter or cross a pit",
    "path_blocked": "the way from {from} to {to} is not clear",
    "not_your_character": "your character is not on {from}",
    "character_needs_own_stone": "the character must land on one of your stones, {to} is not",
    "not_in_line": "{from} and {to} are not on one row, column or diagonal",
    "jump_blocked": "an opponent stone stands between {from} and {to}",
}


class Sensei(Game):
    key = "sensei"
    min_seats = 2
    max_seats = 2
    options_spec = (
        OptionSpec("version", (ARASHI, SHIZUKANA)),
        OptionSpec("setup", tuple(SETUPS)),
        OptionSpec("board", tuple(PITS)),
        OptionSpec("first", ("random", "green", "red")),
        # Not a rule: whether the table questions a turn that loses at once (the cog reads it).
        OptionSpec("warn", (False, True)),
    )
    # random play can wander for ever; the AIs should never get near it
    arena_max_actions = 1200

    def __init__(self, *, options: dict[str, Any], cells: list[int], characters: list[int],
                 active: int, first: int, turn: int, current: list[dict[str, str]],
                 last_turn: dict[str, Any] | None, draw_offer: int | None,
                 result: Result | None, history: list[list[Any]] | None = None) -> None:
        self.options = options
        self.cells = cells
        self.characters = characters
        self.active = active
        self.first = first
        self.turn = turn
        self.current = current
        self.last_turn = last_turn
        self.draw_offer = draw_offer
        self._result = result
        # [seat, token] per applied action: a move in notation ("c2-c5", "*d1-f3") or the type of
        # any other action ("end_turn", "undo" ...). Notation keeps long games small in the store.
        self.history = history if history is not None else []
        self.slide = options["version"] == ARASHI

    # ----------------------------------------------------------------- creation / copying
    @classmethod
    def new(cls, seats: int, options: Mapping[str, Any] | None, seed: int) -> "Sensei":
        if seats != 2:
            raise ValueError("sensei is played by exactly 2 seats")
        options = cls.normalize_options(options)
        # Who moves first is the game's only draw: nothing random is kept in the state.
        first = random.Random(seed).randrange(2) if options["first"] == "random" else FIRST_SEAT[options["first"]]
        cells = [EMPTY] * (SIZE * SIZE)
        for sq in PITS[options["board"]]:
            cells[sq] = PIT
        characters = []
        for seat, (stones, character) in enumerate(SETUPS[options["setup"]]):
            for sq in stones:
                cells[sq] = seat
            characters.append(character)
        return cls(options=options, cells=cells, characters=characters, active=first,
                   first=first, turn=1, current=[], last_turn=None, draw_offer=None,
                   result=None)

    def copy(self) -> "Sensei":
        return Sensei(options=dict(self.options), cells=list(self.cells),
                      characters=list(self.characters), active=self.active, first=self.first,
                      turn=self.turn, current=[dict(a) for a in self.current],
                      last_turn=_copy_turn(self.last_turn), draw_offer=self.draw_offer,
                      result=self._result, history=[list(e) for e in self.history])

    @classmethod
    def from_public_view(cls, public: Mapping[str, Any],
                         history: list[Mapping[str, Any]] | None = None) -> "Sensei":
        """The game a public view shows (Sensei hides nothing), e.g. for an AI player.

        ``first`` is not in the view: it is read from the history when there is one, otherwise
        guessed from the turn number (only passes can make that guess wrong, and nothing but
        the stored state depends on it).
        """
        history = list(history or ())
        if history:
            first = history[0]["seat"]
        else:
            first = public["current_turn"]["seat"] ^ (1 - public["turn"] % 2)
        stones: list[list[str]] = [[], []]
        for name, stone in public["board"].items():
            stones[stone["seat"]].append(name)
        last = public["last_turn"]
        return cls.from_json({
            "options": public["options"],
            "stones": stones,
            "characters": public["characters"],
            "active": public["current_turn"]["seat"],
            "first": first,
            "turn": public["turn"],
            "current": [_stored_move(m) for m in public["current_turn"]["actions"]],
            "last_turn": None if last is None else {
                "seat": last["seat"], "turn": last["turn"],
                "actions": [_stored_move(m) for m in last["actions"]]},
            "draw_offer": public["draw_offer"],
            "result": public["result"],
            "history": [[e["seat"], _history_token(e["action"])] for e in history],
        })

    # ----------------------------------------------------------------- queries
    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else self.active

    def result(self) -> Result | None:
        return self._result

    def stone_moves_left(self) -> int:
        return STONE_MOVES_PER_TURN - sum(1 for a in self.current if a["kind"] == "stone")

    def character_move_left(self) -> bool:
        return not any(a["kind"] == "character" for a in self.current)

    def movable_stones(self, seat: int) -> list[str]:
        """Squares of ``seat``'s stones that have a legal move right now."""
        if self.to_move != seat or self.stone_moves_left() <= 0:
            return []
        return [square_name(sq) for sq in self._stone_squares(seat)
                if sq != self.characters[seat] and stone_destinations(self.cells, sq, self.slide)]

    def stone_destinations(self, seat: int, square: str) -> list[str]:
        """Where the stone on ``square`` may go now ([] when it may not move)."""
        sq = parse_square(square)
        if (sq is None or self.to_move != seat or self.stone_moves_left() <= 0
                or self.cells[sq] != seat or sq == self.characters[seat]):
            return []
        return [square_name(d) for d in stone_destinations(self.cells, sq, self.slide)]

    def character_targets(self, seat: int) -> list[str]:
        """Where ``seat``'s character may jump now ([] when it may not)."""
        if self.to_move != seat or not self.character_move_left():
            return []
        return [square_name(t) for t in
                sorted(character_targets(self.cells, seat, self.characters[seat]))]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self.to_move != seat:
            return []
        out: list[dict[str, Any]] = []
        if self.stone_moves_left() > 0:
            for sq in self._stone_squares(seat):
                if sq == self.characters[seat]:
                    continue
                for to in stone_destinations(self.cells, sq, self.slide):
                    out.append({"type": "stone", "from": square_name(sq), "to": square_name(to)})
        if self.character_move_left():
            at = square_name(self.characters[seat])
            for to in self.character_targets(seat):
                out.append({"type": "character", "from": at, "to": to})
        if self.current:
            out.append({"type": "end_turn"})
        return out

    def can_act(self, seat: int) -> bool:
        """Whether ``seat`` would have any move at the start of a turn in this position."""
        if character_targets(self.cells, seat, self.characters[seat]):
            return True
        return any(stone_destinations(self.cells, sq, self.slide)
                   for sq in self._stone_squares(seat) if sq != self.characters[seat])

    def _stone_squares(self, seat: int) -> list[int]:
        return [sq for sq, cell in enumerate(self.cells) if cell == seat]

    # ----------------------------------------------------------------- actions
    def apply(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1):
            raise IllegalAction("bad_seat", f"no seat {seat!r} at this table")
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction("bad_action", f"not an action: {action!r}")
        handler = self._HANDLERS.get(action["type"])
        if handler is None:
            raise IllegalAction("unknown_action", f"unknown action {action['type']!r}",
                                action=action["type"])
        if self._result is not None:
            raise IllegalAction("game_over", "the game is over")
        events = handler(self, seat, action)
        # Recorded only once the handler succeeded: a refused action leaves no trace.
        if action["type"] == "undo":
            self._forget_last_move(seat)
        else:
            self.history.append([seat, _history_token(action)])
        return events

    def _forget_last_move(self, seat: int) -> None:
        # A move taken back was never part of the game: the history, like the state, returns
        # to what it was before it (a draw offer made in between stays).
        for index in range(len(self.history) - 1, -1, -1):
            entry_seat, token = self.history[index]
            if entry_seat == seat and "-" in token:
                del self.history[index]
                return

    def _require_turn(self, seat: int) -> None:
        if seat != self.active:
            raise IllegalAction("not_your_turn", "it is not your turn")

    @staticmethod
    def _move_squares(action: Mapping[str, Any]) -> tuple[int, int]:
        frm, to = parse_square(action.get("from")), parse_square(action.get("to"))
        if frm is None or to is None:
            raise IllegalAction("bad_action", "a move needs a from and a to square (a1-g7)")
        return frm, to

    def _refuse(self, refusal: tuple[str, dict], frm: int, to: int) -> IllegalAction:
        code, params = refusal
        names = {"from": square_name(frm), "to": square_name(to)}
        return IllegalAction(code, _REFUSALS[code].format(**names), **names, **params)

    def _stone(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._require_turn(seat)
        frm, to = self._move_squares(action)
        if self.stone_moves_left() <= 0:
            raise IllegalAction("no_stone_moves_left", "you already moved two stones this turn")
        refusal = stone_move_error(self.cells, seat, self.characters[seat], frm, to, self.slide)
        if refusal:
            raise self._refuse(refusal, frm, to)
        self.cells[frm], self.cells[to] = EMPTY, seat
        return self._record(seat, "stone", frm, to)

    def _character(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._require_turn(seat)
        frm, to = self._move_squares(action)
        if not self.character_move_left():
            raise IllegalAction("no_character_move_left",
                                "your character already moved this turn")
        refusal = character_move_error(self.cells, seat, self.characters[seat], frm, to)
        if refusal:
            raise self._refuse(refusal, frm, to)
        self.characters[seat] = to
        return self._record(seat, "character", frm, to)

    def _record(self, seat: int, kind: str, frm: int, to: int) -> list[dict[str, Any]]:
        move = {"kind": kind, "from": square_name(frm), "to": square_name(to)}
        self.current.append(move)
        events = [{"type": f"{kind}_moved", "seat": seat, "from": move["from"], "to": move["to"],
                   "notation": format_action(move), "turn": self.turn}]
        if rank_of(self.characters[seat]) == HOME_RANK[1 - seat]:
            events += self._close_turn(seat, auto=True)
            events += self._finish(Result((seat,), "arrived", details={
                "winner": seat, "square": square_name(self.characters[seat]),
                "turn": self.turn}))
        elif len(self.current) >= MAX_ACTIONS:
            events += self._end_turn(seat, auto=True)
        return events

    def _end_turn_action(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._require_turn(seat)
        if not self.current:
            raise IllegalAction("nothing_done_yet", "make at least one move before ending the turn")
        return self._end_turn(seat, auto=False)

    def _close_turn(self, seat: int, auto: bool) -> list[dict[str, Any]]:
        self.last_turn = {"seat": seat, "turn": self.turn, "actions": self.current}
        self.current = []
        return [{"type": "turn_ended", "seat": seat, "turn": self.turn, "auto": auto,
                 "actions": [format_action(a) for a in self.last_turn["actions"]]}]

    def _end_turn(self, seat: int, auto: bool) -> list[dict[str, Any]]:
        events = self._close_turn(seat, auto)
        mine = loses_to_barrier(self.cells, seat)
        theirs = loses_to_barrier(self.cells, 1 - seat)
        if mine or theirs:
            loser, (chain, touching) = (seat, mine) if mine else (1 - seat, theirs)
            return events + self._finish(Result((1 - loser,), "barrier", details={
                "loser": loser, "barrier": [square_name(sq) for sq in chain],
                "touching": [square_name(sq) for sq in touching], "count": len(touching),
                "both": bool(mine and theirs), "turn": self.turn}))
        if self.draw_offer is not None and self.draw_offer != seat:
            # Playing on instead of answering declines the offer.
            events.append({"type": "draw_declined", "seat": seat, "turn": self.turn,
                           "implicit": True})
            self.draw_offer = None
        self.turn += 1
        self.active = 1 - seat
        if not self.can_act(self.active):
            events.append({"type": "passed", "seat": self.active, "turn": self.turn})
            self.turn += 1
            self.active = seat
            if not self.can_act(seat):
                events += self._finish(Result((), "no_moves", draw=True,
                                              details={"turn": self.turn}))
        return events

    def _finish(self, result: Result) -> list[dict[str, Any]]:
        self._result = result
        self.draw_offer = None
        return [{"type": "game_over", "reason": result.reason, "winners": list(result.winners),
                 "draw": result.draw, "details": result.details, "turn": self.turn}]

    def _undo(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._require_turn(seat)
        if not self.current:
            raise IllegalAction("nothing_to_undo", "there is no move of this turn to take back")
        move = self.current.pop()
        frm, to = parse_square(move["from"]), parse_square(move["to"])
        if move["kind"] == "stone":
            self.cells[to], self.cells[frm] = EMPTY, seat
        else:
            self.characters[seat] = frm
        return [{"type": "undone", "seat": seat, "turn": self.turn, "action": dict(move),
                 "notation": format_action(move)}]

    def _resign(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        events = [{"type": "resigned", "seat": seat, "turn": self.turn}]
        return events + self._finish(Result((1 - seat,), "resigned",
                                            details={"loser": seat, "turn": self.turn}))

    def _offer_draw(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.draw_offer == seat:
            raise IllegalAction("draw_already_offered", "your draw offer is still open")
        if self.draw_offer == 1 - seat:
            # Offering back what the opponent offers is agreeing.
            return self._accept_draw(seat, action)
        self.draw_offer = seat
        return [{"type": "draw_offered", "seat": seat, "turn": self.turn}]

    def _require_offer_from_opponent(self, seat: int) -> None:
        if self.draw_offer != 1 - seat:
            raise IllegalAction("no_draw_offer", "your opponent has not offered a draw")

    def _accept_draw(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._require_offer_from_opponent(seat)
        events = [{"type": "draw_accepted", "seat": seat, "turn": self.turn}]
        return events + self._finish(Result((), "agreed_draw", draw=True,
                                            details={"turn": self.turn}))

    def _decline_draw(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._require_offer_from_opponent(seat)
        self.draw_offer = None
        return [{"type": "draw_declined", "seat": seat, "turn": self.turn, "implicit": False}]

    _HANDLERS = {
        "stone": _stone,
        "character": _character,
        "end_turn": _end_turn_action,
        "undo": _undo,
        "resign": _resign,
        "offer_draw": _offer_draw,
        "accept_draw": _accept_draw,
        "decline_draw": _decline_draw,
    }

    # ----------------------------------------------------------------- views
    def public_view(self) -> dict[str, Any]:
        board = {}
        for sq, cell in enumerate(self.cells):
            if cell in (0, 1):
                board[square_name(sq)] = {"seat": cell, "colour": COLOURS[cell],
                                          "character": self.characters[cell] == sq}
        active = self.to_move
        return {
            "game": self.key,
            "options": dict(self.options),
            "colours": list(COLOURS),
            "home_ranks": [HOME_RANK[0] + 1, HOME_RANK[1] + 1],
            "board": board,
            "characters": [square_name(sq) for sq in self.characters],
            "pits": [square_name(sq) for sq, cell in enumerate(self.cells) if cell == PIT],
            "to_move": active,
            "turn": self.turn,
            "current_turn": {
                "seat": self.active,
                "actions": [_view_move(a) for a in self.current],
                "stone_moves_left": self.stone_moves_left() if active is not None else 0,
                "character_move_left": active is not None and self.character_move_left(),
                "can_end": active is not None and bool(self.current),
            },
            "last_turn": None if self.last_turn is None else {
                "seat": self.last_turn["seat"], "turn": self.last_turn["turn"],
                "actions": [_view_move(a) for a in self.last_turn["actions"]],
            },
            "draw_offer": self.draw_offer,
            "finished": self._result is not None,
            "result": None if self._result is None else self._result.to_json(),
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        return {}

    def public_history(self) -> list[dict[str, Any]]:
        return [{"seat": seat, "action": _history_action(token)} for seat, token in self.history]

    # ----------------------------------------------------------------- persistence
    def to_json(self) -> dict[str, Any]:
        return {
            "options": dict(self.options),
            "stones": [[square_name(sq) for sq in self._stone_squares(seat)] for seat in (0, 1)],
            "characters": [square_name(sq) for sq in self.characters],
            "active": self.active,
            "first": self.first,
            "turn": self.turn,
            "current": [dict(a) for a in self.current],
            "last_turn": _copy_turn(self.last_turn),
            "draw_offer": self.draw_offer,
            "result": None if self._result is None else self._result.to_json(),
            "history": [list(e) for e in self.history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Sensei":
        options = cls.normalize_options(data["options"])
        cells = [EMPTY] * (SIZE * SIZE)
        for sq in PITS[options["board"]]:
            cells[sq] = PIT
        for seat, squares in enumerate(data["stones"]):
            for name in squares:
                cells[parse_square(name)] = seat
        return cls(options=options, cells=cells,
                   characters=[parse_square(name) for name in data["characters"]],
                   active=data["active"], first=data["first"], turn=data["turn"],
                   current=[dict(a) for a in data["current"]],
                   last_turn=_copy_turn(data["last_turn"]), draw_offer=data["draw_offer"],
                   result=None if data["result"] is None else Result.from_json(data["result"]),
                   # States saved before the history was kept load with an empty one.
                   history=[[int(seat), str(token)] for seat, token in data.get("history", ())])


def _copy_turn(turn: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if turn is None:
        return None
    return {"seat": turn["seat"], "turn": turn["turn"],
            "actions": [dict(a) for a in turn["actions"]]}


def _history_token(action: Mapping[str, Any]) -> str:
    if action["type"] in ("stone", "character"):
        return format_action(action)
    return action["type"]


def _history_action(token: str) -> dict[str, Any]:
    if "-" in token:
        return parse_action(token)
    return {"type": token}


def _stored_move(move: Mapping[str, str]) -> dict[str, str]:
    return {"kind": move["kind"], "from": move["from"], "to": move["to"]}


def _view_move(move: Mapping[str, str]) -> dict[str, str]:
    return {"kind": move["kind"], "from": move["from"], "to": move["to"],
            "notation": format_action(move)}
