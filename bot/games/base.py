"""The one surface every game's rules expose to the table runtime.

A game is a deterministic state machine: ``new(seats, options, seed)`` then a sequence of
``apply(seat, action)`` calls. Actions, events, views and results are plain JSON-able dicts so
they can be stored, logged and replayed without the rules module.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping


class IllegalAction(Exception):
    """An action the rules refuse.

    ``code`` is a stable slug (``not_your_turn``, ``condition_forbids`` …) that the UI translates
    through the catalog key ``<game>.illegal.<code>`` (falling back to ``illegal.<code>``);
    ``params`` fill the placeholders of that sentence. ``str(exc)`` is an English fallback
    for logs and tests.
    """

    def __init__(self, code: str, message: str = "", **params: Any) -> None:
        super().__init__(message or code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class OptionSpec:
    """A lobby option: its allowed values, the first being the default."""

    name: str
    choices: tuple[Any, ...]

    @property
    def default(self) -> Any:
        return self.choices[0]


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``winners`` are seat indexes (several for a shared victory, all seats for a cooperative
    victory, empty for a cooperative defeat or a draw). ``reason`` is a slug the UI translates
    (``<game>.end.<reason>``). ``details`` is JSON-able and game specific (scores, turn count …).
    """

    winners: tuple[int, ...]
    reason: str
    draw: bool = False
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason, "draw": self.draw,
                "details": self.details}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Result":
        return cls(tuple(data["winners"]), data["reason"], bool(data.get("draw", False)),
                   dict(data.get("details", {})))


class Game(ABC):
    key: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_spec: ClassVar[tuple[OptionSpec, ...]] = ()
    #: ``python -m bot arena`` scores a game still running after this many actions as a draw
    arena_max_actions: ClassVar[int] = 1000
    #: everyone wins or loses together (an absent player's seat is always played by an AI)
    cooperative: ClassVar[bool] = False

    @classmethod
    def normalize_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and reject unknown names or values (raises ValueError)."""
        options = dict(options or {})
        out: dict[str, Any] = {}
        for spec in cls.options_spec:
            value = options.pop(spec.name, spec.default)
            if value not in spec.choices:
                raise ValueError(f"{cls.key}: option {spec.name}={value!r} not in {spec.choices}")
            out[spec.name] = value
        if options:
            raise ValueError(f"{cls.key}: unknown options {sorted(options)}")
        return out

    @classmethod
    @abstractmethod
    def new(cls, seats: int, options: Mapping[str, Any], seed: int) -> "Game":
        """A fresh game for ``seats`` players (seat 0 is the host, seat order is clockwise)."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat expected to act now, or None once the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every action ``seat`` may apply now (empty when it is not their turn)."""

    @abstractmethod
    def apply(self, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply or raise IllegalAction, leaving the state untouched when it raises."""

    @abstractmethod
    def public_view(self) -> dict[str, Any]:
        """What everyone at the table may see. Never a secret while the game runs."""

    @abstractmethod
    def private_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` alone may see (may be empty)."""

    def public_history(self) -> list[dict[str, Any]]:
        """Every action taken so far as the whole table saw it, oldest first (what an AI player
        may remember). Each entry is JSON-able and names the acting seat."""
        return []

    @abstractmethod
    def result(self) -> Result | None:
        """None while the game runs."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Complete state such that from_json(to_json()) == self. Randomness is drawn only
        when a game is created (from its seed), so no generator state is kept."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Game":
        ...

    def copy(self) -> "Game":
        """An independent game in the same state (a game may do it faster than this)."""
        return type(self).from_json(self.to_json())

    @classmethod
    def replay(cls, seats: int, options: Mapping[str, Any], seed: int,
               log: list[tuple[int, Mapping[str, Any]]]) -> "Game":
        """Rebuild a game from its creation parameters and its action log."""
        game = cls.new(seats, options, seed)
        for seat, action in log:
            game.apply(seat, action)
        return game

    @property
    def finished(self) -> bool:
        return self.result() is not None
