"""Narabi: cooperative ordering of a ring of stones under hidden switching conditions.

Card ids are indexes into the deck's stone list, so they are stable for a game and across
games with the same deck. The game keeps its own copy of every card in play (stone and
condition), the turn limit and the rating bands, so a deck.json edit never changes a game that
is already running.
"""
from __future__ import annotations

import copy as _copy
import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from ..base import Game, IllegalAction, OptionSpec, Result
from .conditions import allows
from .deck import DECK, Deck
from .ring import is_solved

STATE_VERSION = 1
# Redealing stops somewhere: a deck edit that makes every deal unplayable must not hang.
MAX_DEALS = 1000


class Narabi(Game):
    key: ClassVar[str] = "narabi"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 5
    cooperative: ClassVar[bool] = True
    options_spec: ClassVar[tuple[OptionSpec, ...]] = (OptionSpec("advanced", (False, True)),)
    arena_max_actions: ClassVar[int] = 200

    def __init__(self) -> None:
        # Built by new() or from_json(); the constructor alone is not a usable game.
        self.seats = 0
        self.advanced = False
        self.seed = 0
        self.cards: dict[int, dict[str, Any]] = {}
        self.rows: list[list[int]] = []
        self.initial_rows: list[list[int]] = []
        self.first_seat = 0
        self.turn = 0
        self.active = 0
        self.last_switch: dict[str, Any] | None = None
        # Compact public record, oldest first: [seat, card, target] per switch, [seat] for an
        # abandon. It is what an AI seat may remember, so it holds nothing secret.
        self.history: list[list[int]] = []
        self.max_turns = 0
        self.ratings: list[dict[str, Any]] = []
        self.defeat_rating = ""
        self._result: Result | None = None

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(cls, seats: int, options: Mapping[str, Any], seed: int, deck: Deck = DECK) -> "Narabi":
        if not isinstance(seats, int) or not cls.min_seats <= seats <= cls.max_seats:
            raise ValueError(f"narabi: {seats!r} seats, expected {cls.min_seats}-{cls.max_seats}")
        if seats not in deck.setups:
            raise ValueError(f"narabi: the deck has no setup for {seats} players")
        options = cls.normalize_options(options)
        game = cls()
        game.seats = seats
        game.advanced = bool(options["advanced"])
        game.seed = seed
        game.max_turns = deck.max_turns
        game.ratings = [dict(r) for r in deck.ratings]
        game.defeat_rating = deck.defeat_rating
        game._deal(deck, random.Random(seed))
        return game

    def _deal(self, deck: Deck, rng: random.Random) -> None:
        # The deal is the game's only draw: nothing random is kept in the state after it.
        setup = deck.setups[self.seats]
        in_play = [i for i in range(len(deck.stones)) if i not in setup.remove]
        for _ in range(MAX_DEALS):
            # Pair the whole deck first, then drop the removed stones with their conditions:
            # the same as drawing a random subset of conditions for the stones that stay.
            conditions = list(deck.conditions)
            rng.shuffle(conditions)
            self.cards = {i: {"number": deck.stones[i]["number"], "colour": deck.stones[i]["colour"],
                              "condition": dict(conditions[i])} for i in in_play}
            order = list(in_play)
            rng.shuffle(order)
            each = setup.cards_each
            self.rows = [order[s * each:(s + 1) * each] for s in range(self.seats)]
            self.first_seat = next(s for s, row in enumerate(self.rows)
                                   if any(self.cards[c]["number"] == 0 for c in row))
            self.active = self.first_seat
            # A solved deal is dealt again (rulebook). So is a deal whose first player cannot
            # move: that table would be lost before anyone played.
            if not self._solved() and next(self._legal_switches(), None) is not None:
                break
        else:
            raise ValueError("narabi: could not deal a playable game with this deck")
        self.initial_rows = [list(row) for row in self.rows]

    # ----------------------------------------------------------------- queries

    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else self.active

    @property
    def asking_allowed(self) -> bool:
        """Whether the table may ask yes/no switch questions (the UI runs the asking)."""
        return not self.advanced

    @classmethod
    def asking_allowed_for(cls, options: Mapping[str, Any] | None) -> bool:
        return not cls.normalize_options(options)["advanced"]

    def result(self) -> Result | None:
        return self._result

    def seat_of(self, card: int) -> int | None:
        for seat, row in enumerate(self.rows):
            if card in row:
                return seat
        return None

    def _position(self, card: int) -> tuple[int, int]:
        for seat, row in enumerate(self.rows):
            if card in row:
                return seat, row.index(card)
        raise KeyError(card)

    def _solved(self) -> bool:
        return is_solved([self.cards[c]["number"] for row in self.rows for c in row])

    def _is_undo(self, seat: int, index: int, target_seat: int, target_index: int) -> bool:
        if not self.advanced or self.last_switch is None:
            return False
        last = self.last_switch
        previous = {(last["seat"], last["index"]), (last["target_seat"], last["target_index"])}
        return {(seat, index), (target_seat, target_index)} == previous

    def _switch_refusal(self, card: int, target: int) -> tuple[str, str] | None:
        """Why the active player may not give ``card`` for ``target`` (None when legal)."""
        seat = self.active
        if self.seat_of(card) != seat:
            return "not_your_card", "you can only give away one of your own cards"
        target_seat = self.seat_of(target)
        if target_seat == seat:
            return "own_card", "two of your own cards may never be switched"
        given = self.cards[card]
        taken = self.cards[target]
        assert target_seat is not None
        if not allows(given["condition"], given["number"], taken["number"], taken["colour"],
                      (target_seat - seat) % self.seats, self.seats):
            return "condition_forbids", "the condition of the card you give away forbids this switch"
        if self._is_undo(seat, self.rows[seat].index(card), target_seat,
                         self.rows[target_seat].index(target)):
            return "undo_forbidden", "in advanced mode the previous switch may not be undone"
        return None

    def _legal_switches(self) -> Iterator[dict[str, Any]]:
        seat = self.active
        for card in self.rows[seat]:
            for other in range(1, self.seats):
                for target in self.rows[(seat + other) % self.seats]:
                    if self._switch_refusal(card, target) is None:
                        yield {"type": "switch", "card": card, "target": target}

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if self._result is not None or seat != self.active:
            return []
        return list(self._legal_switches())

    def rating(self, turns: int | None) -> str:
        if turns is not None:
            for band in self.ratings:
                if band["min"] <= turns <= band["max"]:
                    return str(band["id"])
        return self.defeat_rating

    # ----------------------------------------------------------------- actions

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.seats:
            raise IllegalAction("bad_seat", f"seat {seat!r} is not at this table")
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction("bad_action", "an action is a dict with a 'type'")
        kind = action["type"]
        if kind not in ("switch", "resign"):
            raise IllegalAction("unknown_action", f"unknown action {kind!r}", action=kind)
        if self._result is not None:
            raise IllegalAction("game_over", "the game is over")
        if kind == "resign":
            return self._resign(seat, action)
        return self._switch(seat, action)

    def _resign(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        claimed = action.get("seat", seat)
        if not isinstance(claimed, int) or isinstance(claimed, bool) or claimed != seat:
            raise IllegalAction("bad_action", "a player can only abandon for their own seat")
        self.history.append([seat])
        self._result = Result((), "abandoned", details={
            "turns": self.turn, "rating": self.defeat_rating, "seat": seat})
        return [{"type": "abandoned", "seat": seat, "turn": self.turn}, self._game_over_event()]

    def _switch(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        card, target = action.get("card"), action.get("target")
        for value in (card, target):
            if not isinstance(value, int) or isinstance(value, bool) or value not in self.cards:
                raise IllegalAction("bad_action", "a switch names a 'card' and a 'target' in play")
        if seat != self.active:
            raise IllegalAction("not_your_turn", "it is not your turn", seat=self.active)
        refusal = self._switch_refusal(card, target)
        if refusal is not None:
            raise IllegalAction(refusal[0], refusal[1])

        index = self.rows[seat].index(card)
        target_seat, target_index = self._position(target)
        self.rows[seat][index] = target
        self.rows[target_seat][target_index] = card
        self.turn += 1
        self.history.append([seat, card, target])
        # Positions are where the two cards were before the switch (each is now at the other's).
        self.last_switch = {"turn": self.turn, "seat": seat, "index": index, "card": card,
                            "target_seat": target_seat, "target_index": target_index,
                            "target": target}
        events = [{"type": "switched", "turn": self.turn, "seat": seat, "card": card,
                   "card_number": self.cards[card]["number"], "card_colour": self.cards[card]["colour"],
                   "target_seat": target_seat, "target": target,
                   "target_number": self.cards[target]["number"],
                   "target_colour": self.cards[target]["colour"]}]

        if self._solved():
            self._result = Result(tuple(range(self.seats)), "solved", details={
                "turns": self.turn, "rating": self.rating(self.turn)})
        elif self.turn >= self.max_turns:
            self._result = Result((), "out_of_turns", details={
                "turns": self.turn, "rating": self.defeat_rating})
        else:
            self.active = (seat + 1) % self.seats
            if next(self._legal_switches(), None) is None:
                self._result = Result((), "no_legal_switch", details={
                    "turns": self.turn, "rating": self.defeat_rating, "seat": self.active})
        events[0]["to_move"] = self.to_move
        if self._result is not None:
            events.append(self._game_over_event())
        return events

    def _game_over_event(self) -> dict[str, Any]:
        assert self._result is not None
        event = {"type": "game_over", "reason": self._result.reason,
                 "winners": list(self._result.winners), "turn": self.turn}
        event.update(self._result.details)
        return event

    # ----------------------------------------------------------------- views

    def _card_view(self, card: int, reveal: bool) -> dict[str, Any]:
        data = self.cards[card]
        view = {"id": card, "number": data["number"], "colour": data["colour"]}
        if reveal:
            view["condition"] = data["condition"]["id"]
        return view

    def public_view(self) -> dict[str, Any]:
        over = self._result is not None
        return {
            "game": self.key,
            "seats": self.seats,
            "rows": [[self._card_view(c, over) for c in row] for row in self.rows],
            "turn": self.turn,
            "max_turns": self.max_turns,
            "to_move": self.to_move,
            "first_seat": self.first_seat,
            "advanced": self.advanced,
            "asking_allowed": self.asking_allowed,
            "last_switch": dict(self.last_switch) if self.last_switch else None,
            "finished": over,
            "result": self._result.to_json() if over else None,
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            return {}
        return {"seat": seat, "cards": [self._card_view(c, True) for c in self.rows[seat]]}

    def public_history(self) -> list[dict[str, Any]]:
        return [_history_entry(entry) for entry in self.history]

    # ----------------------------------------------------------------- persistence

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "seats": self.seats,
            "advanced": self.advanced,
            "seed": self.seed,
            "cards": [{"id": i, "number": d["number"], "colour": d["colour"],
                       "condition": dict(d["condition"])} for i, d in sorted(self.cards.items())],
            "rows": [list(r) for r in self.rows],
            "initial_rows": [list(r) for r in self.initial_rows],
            "first_seat": self.first_seat,
            "turn": self.turn,
            "active": self.active,
            "last_switch": dict(self.last_switch) if self.last_switch else None,
            "history": [list(e) for e in self.history],
            "max_turns": self.max_turns,
            "ratings": [dict(r) for r in self.ratings],
            "defeat_rating": self.defeat_rating,
            "result": self._result.to_json() if self._result else None,
        }

    def copy(self) -> "Narabi":
        # A switch changes the rows, the history and replaces last_switch and the result; the
        # cards, the deal and the rating bands never change once dealt, so they are shared.
        twin = _copy.copy(self)
        twin.rows = [list(r) for r in self.rows]
        twin.history = list(self.history)
        return twin

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Narabi":
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"narabi: unsupported state version {data.get('version')!r}")
        game = cls()
        game.seats = int(data["seats"])
        game.advanced = bool(data["advanced"])
        game.seed = data["seed"]
        game.cards = {int(c["id"]): {"number": c["number"], "colour": c["colour"],
                                     "condition": dict(c["condition"])} for c in data["cards"]}
        game.rows = [list(r) for r in data["rows"]]
        game.initial_rows = [list(r) for r in data["initial_rows"]]
        game.first_seat = int(data["first_seat"])
        game.turn = int(data["turn"])
        game.active = int(data["active"])
        game.last_switch = dict(data["last_switch"]) if data["last_switch"] else None
        # States saved before the history was kept load with an empty one.
        game.history = [[int(v) for v in e] for e in data.get("history", ())]
        game.max_turns = int(data["max_turns"])
        game.ratings = [dict(r) for r in data["ratings"]]
        game.defeat_rating = str(data["defeat_rating"])
        game._result = Result.from_json(data["result"]) if data["result"] else None
        return game


def _history_entry(entry: list[int]) -> dict[str, Any]:
    if len(entry) == 1:
        return {"seat": entry[0], "action": {"type": "resign"}}
    seat, card, target = entry
    return {"seat": seat, "action": {"type": "switch", "card": card, "target": target}}
