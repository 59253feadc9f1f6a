"""Sàréná rules behind the shared :class:`~bot.games.base.Game` surface."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ..base import Game, IllegalAction, OptionSpec, Result
from .board import ARROW, CIRCLES, EDGE_ID, EDGES, NEIGHBOURS, SQUARE_NAMES, parse_square
from .chips import COLOURS, DOWN, DOWN_SEEN, MAX_HEIGHT, UP, UP_SEEN, pile_chips
from .position import Position
from .scoring import final_result
from .setup import deal

STATE_VERSION = 1
#: the edge stored in a history entry for a resignation (real edges are 0-119)
RESIGNED = -1


class Sarena(Game):
    key: ClassVar[str] = "sarena"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    options_spec: ClassVar[tuple[OptionSpec, ...]] = (OptionSpec("fair", (False, True)),)
    arena_max_actions: ClassVar[int] = 400

    def __init__(self, *, seats: int, options: dict[str, Any], seed: int,
                 colours: list[int], active: list[bool], position: Position,
                 to_move: int | None, moves: int, last_move: dict[str, Any] | None,
                 result: Result | None, history: list[list[int]] | None = None) -> None:
        self.seats = seats
        self.options = options
        self.seed = seed
        self._colours = colours
        self._active = active
        self._position = position
        self._to_move = to_move
        self._moves = moves
        self._last_move = last_move
        self._result = result
        # [seat, edge id or RESIGNED] per action: two small ints keep stored states short.
        self._history = history if history is not None else []

    # -- creation -------------------------------------------------------------------------

    @classmethod
    def new(cls, seats: int, options: Mapping[str, Any] | None, seed: int) -> "Sarena":
        if isinstance(seats, bool) or not isinstance(seats, int) \
                or not cls.min_seats <= seats <= cls.max_seats:
            raise ValueError(f"sarena: {seats!r} seats, expected {cls.min_seats}-{cls.max_seats}")
        options = cls.normalize_options(options)
        # The deal is the game's only draw: nothing random is kept in the state after it.
        opening = deal(random.Random(seed), seats, options["fair"])
        return cls(seats=seats, options=options, seed=seed, colours=opening.colours,
                   active=[True] * seats, position=Position.opening(opening.piles),
                   to_move=opening.first, moves=0, last_move=None, result=None)

    # -- queries ---------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self._to_move

    def result(self) -> Result | None:
        return self._result

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self._result is not None or seat != self._to_move:
            return []
        return [{"type": "move", "from": SQUARE_NAMES[EDGES[e][0]], "to": SQUARE_NAMES[EDGES[e][1]]}
                for e in sorted(self._position.legal)]

    def public_history(self) -> list[dict[str, Any]]:
        return [{"seat": seat, "action": {"type": "resign"}} if edge == RESIGNED else
                {"seat": seat, "action": {"type": "move", "from": SQUARE_NAMES[EDGES[edge][0]],
                                          "to": SQUARE_NAMES[EDGES[edge][1]]}}
                for seat, edge in self._history]

    def legal_edges(self) -> frozenset[int]:
        """Directed-edge ids of the legal moves (the same for every seat); for AIs and playouts."""
        return frozenset(self._position.legal) if self._result is None else frozenset()

    # -- actions ---------------------------------------------------------------------------

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction("bad_action", f"not an action: {action!r}")
        self._check_seat(seat)
        if self._result is not None:
            raise IllegalAction("game_over", "the game is over")
        kind = action["type"]
        if kind not in ("move", "resign"):
            raise IllegalAction("unknown_action", f"unknown action type {kind!r}", type=kind)
        if not self._active[seat]:
            raise IllegalAction("seat_resigned", f"seat {seat} has left the game", seat=seat)
        if kind == "resign":
            return self._resign(seat)
        if seat != self._to_move:
            raise IllegalAction("not_your_turn", f"seat {self._to_move} is to move",
                                seat=seat, to_move=self._to_move)
        return self._play(seat, self._edge_of(action))

    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalAction("bad_seat", f"no seat {seat!r} at this table", seat=str(seat))

    def _edge_of(self, action: Mapping[str, Any]) -> int:
        names = action.get("from"), action.get("to")
        if not all(isinstance(name, str) for name in names):
            raise IllegalAction("bad_action", "a move needs 'from' and 'to' squares like 'c3'")
        src, dst = (parse_square(name) for name in names)
        for name, circle in zip(names, (src, dst)):
            if circle is None:
                raise IllegalAction("bad_square", f"{name!r} is not a square a1-f6",
                                    square=name[:8])
        heights = self._position.heights
        params = {"from": SQUARE_NAMES[src], "to": SQUARE_NAMES[dst]}
        if dst not in NEIGHBOURS[src]:
            raise IllegalAction("not_adjacent", "a pile moves one line to a neighbouring circle",
                                **params)
        if not heights[src]:
            raise IllegalAction("empty_source", f"there is no pile on {params['from']}", **params)
        if not heights[dst] and not ARROW[dst]:
            raise IllegalAction("empty_plain", "a pile may enter an empty circle only if it "
                                "is an arrow circle", **params)
        if heights[src] + heights[dst] > MAX_HEIGHT:
            raise IllegalAction("too_tall", f"a pile may be at most {MAX_HEIGHT} chips high",
                                height=heights[src] + heights[dst], **params)
        edge = EDGE_ID[(src, dst)]
        assert edge in self._position.legal
        return edge

    def _play(self, seat: int, edge: int) -> list[dict[str, Any]]:
        position = self._position
        src, dst = EDGES[edge]
        chips_moved = position.heights[src]
        flipped = position.move(edge)
        self._moves += 1
        self._history.append([seat, edge])
        self._last_move = {"seat": seat, "from": SQUARE_NAMES[src], "to": SQUARE_NAMES[dst],
                           "flipped": flipped, "move": self._moves}
        events: list[dict[str, Any]] = [{
            "type": "moved", "seat": seat, "from": SQUARE_NAMES[src], "to": SQUARE_NAMES[dst],
            "chips": chips_moved, "height": position.heights[dst], "flipped": flipped,
            "top": COLOURS[position.top_colour(dst)], "move": self._moves,
        }]
        if not position.legal:
            events.append(self._finish())
        else:
            self._to_move = self._next_seat(seat)
        return events

    def _resign(self, seat: int) -> list[dict[str, Any]]:
        self._active[seat] = False
        self._history.append([seat, RESIGNED])
        events: list[dict[str, Any]] = [{"type": "resigned", "seat": seat, "move": self._moves}]
        if sum(self._active) == 1:
            events.append(self._finish())
        elif self._to_move == seat:
            self._to_move = self._next_seat(seat)
        return events

    def _next_seat(self, seat: int) -> int:
        for step in range(1, self.seats + 1):
            candidate = (seat + step) % self.seats
            if self._active[candidate]:
                return candidate
        raise AssertionError("no active seat left")

    def _finish(self) -> dict[str, Any]:
        position = self._position
        self._result = final_result(position.piles, position.heights, self._colours,
                                    self._active, self._moves)
        self._to_move = None
        return {"type": "game_over", "reason": self._result.reason,
                "winners": list(self._result.winners), "draw": self._result.draw,
                **{k: self._result.details[k] for k in ("colours", "scores", "tiebreaks")},
                "move": self._moves}

    # -- views -----------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        position = self._position
        board = []
        for circle in range(CIRCLES):
            h = position.heights[circle]
            # Only faces that have shown on top of a pile are public; the rest stay None.
            chips = [{"up": COLOURS[UP[c]] if UP_SEEN[c] else None,
                      "down": COLOURS[DOWN[c]] if DOWN_SEEN[c] else None}
                     for c in pile_chips(position.piles[circle], h)]
            top = position.top_colour(circle)
            board.append({"square": SQUARE_NAMES[circle], "x": circle % 6, "y": circle // 6,
                          "arrow": ARROW[circle], "height": h,
                          "top": COLOURS[top] if top is not None else None, "chips": chips})
        running = self._result is None
        edges = sorted(position.legal) if running else []
        view: dict[str, Any] = {
            "game": self.key,
            "seats": self.seats,
            "to_move": self._to_move,
            "move": self._moves + 1 if running else self._moves,
            "moves_played": self._moves,
            "finished": not running,
            "resigned": [seat for seat, playing in enumerate(self._active) if not playing],
            "board": board,
            "legal": [f"{SQUARE_NAMES[EDGES[e][0]]}-{SQUARE_NAMES[EDGES[e][1]]}" for e in edges],
            "movable": sorted({SQUARE_NAMES[EDGES[e][0]] for e in edges},
                              key=SQUARE_NAMES.index),
            "last_move": dict(self._last_move) if self._last_move else None,
            "result": None,
        }
        if not running:
            details = self._result.details
            view["result"] = {"winners": list(self._result.winners),
                              "reason": self._result.reason, "draw": self._result.draw,
                              "colours": list(details["colours"]),
                              "scores": list(details["scores"]),
                              "tiebreaks": list(details["tiebreaks"])}
        return view

    def private_view(self, seat: int) -> dict[str, Any]:
        self._check_seat(seat)
        return {"colour": COLOURS[self._colours[seat]]}

    # -- persistence -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "seats": self.seats,
            "options": dict(self.options),
            "seed": self.seed,
            "colours": list(self._colours),
            "active": list(self._active),
            "piles": list(self._position.piles),
            "heights": list(self._position.heights),
            "to_move": self._to_move,
            "moves": self._moves,
            "last_move": dict(self._last_move) if self._last_move else None,
            "result": self._result.to_json() if self._result else None,
            "history": [list(entry) for entry in self._history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Sarena":
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"sarena: unsupported state version {data.get('version')!r}")
        result = data["result"]
        return cls(seats=data["seats"], options=cls.normalize_options(data["options"]),
                   seed=data["seed"],
                   colours=list(data["colours"]), active=list(data["active"]),
                   position=Position(list(data["piles"]), list(data["heights"])),
                   to_move=data["to_move"], moves=data["moves"],
                   last_move=dict(data["last_move"]) if data["last_move"] else None,
                   result=Result.from_json(result) if result else None,
                   # States saved before the history was kept load with an empty one.
                   history=[[int(seat), int(edge)] for seat, edge in data.get("history", ())])
