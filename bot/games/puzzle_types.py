"""The puzzle and verdict types every game's puzzle module shares (``bot/games/puzzles.py`` is
the API the cog calls, ``bot/games/PUZZLES.md`` its contract)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

from .base import Game, IllegalAction

GAMES = ("sensei", "narabi", "sarena")
KINDS = {"sensei": "win_in_two", "narabi": "par", "sarena": "win_now"}

SOLVED, WRONG, INCOMPLETE, ILLEGAL = "solved", "wrong", "incomplete", "illegal"


class UnknownPuzzle(KeyError):
    pass


@dataclass(frozen=True)
class Puzzle:
    """One puzzle. ``state`` is the game's ``to_json()`` at the puzzle's position (what may be
    shown: for a puzzle from a game, only what that game's end revealed); ``solution`` one
    right answer (actions, no ``end_turn``); ``source`` where it comes from:
    ``{"type": "builtin"}`` or ``{"type": "game", "game_id": …, "turn_index": …, "seat": …}``."""

    id: str
    game: str
    kind: str
    seat: int
    state: dict[str, Any]
    solution: list[dict[str, Any]]
    source: dict[str, Any] = field(default_factory=lambda: {"type": "builtin"})
    #: Narabi: the par (switches); Sensei: 2 (turns); Sàréná: 1 (moves)
    par: int = 0

    def position(self) -> Game:
        """A fresh game at the puzzle's position, ``seat`` to move."""
        from .registry import entry
        return entry(self.game).rules.from_json(self.state)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Puzzle":
        return cls(id=str(data["id"]), game=str(data["game"]), kind=str(data["kind"]),
                   seat=int(data["seat"]), state=dict(data["state"]),
                   solution=[dict(a) for a in data["solution"]],
                   source=dict(data.get("source") or {"type": "builtin"}),
                   par=int(data.get("par", 0)))


@dataclass(frozen=True)
class Verdict:
    """The verdict on an answer.

    ``status``: ``solved``, ``wrong``, ``incomplete`` (legal so far, not finished: keep
    playing) or ``illegal`` (``error`` holds the rules' refusal as ``{"code", "params"}``, the
    same codes as ``IllegalAction``).
    ``reason`` (for ``wrong``) a slug the UI translates: ``loses_at_once`` (the turn loses by a
    rule), ``reply_wins`` (the opponent's reply wins), ``no_win_after_reply`` (after the reply
    there is no winning turn), ``par_out_of_reach`` (Narabi: par can no longer be reached),
    ``not_winning`` or ``game_goes_on`` (Sàréná: the move does not end the game).
    ``refutation``: the opponent's reply that beats the answer, as actions (Sensei; may be
    empty when the answer loses by itself; Sàréná: the world where the move does not win).
    ``line``: for a wrong Narabi answer, a par line from the start.
    """

    status: str
    reason: str = ""
    refutation: list[dict[str, Any]] = field(default_factory=list)
    line: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def illegal(exc: IllegalAction) -> Verdict:
    return Verdict(ILLEGAL, error={"code": exc.code, "params": dict(exc.params)})
