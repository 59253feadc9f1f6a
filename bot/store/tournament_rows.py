"""What the store keeps of a tournament, as the rest of the bot reads it: the tournament, an
entrant, a game of a round, and a table a round opens (already dealt)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from .rows import SeatRow, loads

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, message_id, organizer_id, name, game, options, format, rounds, "
    "per_table, turn_limit, timeout_policy, rated, starts_at, checkin, round_every, status, "
    "round, version, seed, locale, next_at, winner_id, rev, shown_rev, created_at")


@dataclass
class TournamentRow:
    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    organizer_id: int
    name: str
    game: str
    options: dict[str, Any]
    format: str
    rounds: int
    per_table: int
    turn_limit: float | None
    timeout_policy: str
    rated: bool
    starts_at: float
    checkin: float | None
    round_every: float | None
    status: str
    round: int
    version: int
    seed: int
    locale: str
    next_at: float | None
    winner_id: int | None
    rev: int
    shown_rev: int
    created_at: float

    @classmethod
    def of(cls, row: Sequence[Any]) -> "TournamentRow":
        values = list(row)
        values[7] = loads(values[7])
        values[13] = bool(values[13])
        return cls(*values)


@dataclass
class EntrantRow:
    user_id: int
    name: str
    rank: int
    ai: str | None = None
    locale: str | None = None
    checked_in: bool = False
    dropped: int | None = None

    @property
    def person(self) -> bool:
        return self.ai is None and self.user_id > 0


@dataclass
class GameRow:
    round: int
    board: int
    table_id: int | None
    seats: tuple[int, ...]
    points: tuple[float, ...] | None
    detail: dict[str, Any] | None = None
    manual: bool = False
    #: a knockout replay: the board of its match's first game
    replay_of: int | None = None


@dataclass
class NewTable:
    """A table a round opens, already dealt: its seats, seed, first state, first clock and
    the start's steps for the outbox."""

    board: int
    seats: list[SeatRow]
    seed: int
    state: dict[str, Any]
    clock: tuple[float | None, int | None]
    outbox: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    table_id: int | None = None
    replay_of: int | None = None
