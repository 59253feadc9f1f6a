"""The rows the store hands out, and how they are encoded in it."""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import Any, Sequence

import orjson


@dataclass
class SeatRow:
    seat: int
    user_id: int
    name: str
    dm_open: bool = True
    #: level of the AI holding the seat now; None while its person plays it
    ai: str | None = None
    #: an AI has acted for this seat (the game is not rated for it)
    ai_played: bool = False
    #: the seat's person ran out of time (or the others handed the seat to an AI) this game
    timed_out: bool = False
    #: the Discord language of the seat's person (their DMs are written in it)
    locale: str | None = None

    @property
    def person(self) -> bool:
        """A Discord user sits here (an AI may be playing for them meanwhile)."""
        return self.user_id > 0


@dataclass
class TableRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    locale: str
    thread_id: int | None = None
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    seed: int | None = None
    version: int = 0
    state: dict[str, Any] | None = None
    rematch_of: int | None = None
    invited_id: int | None = None
    #: bumped by every change the lobby message shows (seats, status)
    rev: int = 0
    #: the ``rev`` the lobby message shows, and the ``version`` the board message shows
    lobby_rev: int = 0
    board_version: int = -1
    closed_reason: str | None = None
    updated_at: float = 0.0
    #: seconds per turn (None: no clock) and what happens when they run out
    turn_limit: float | None = None
    timeout_policy: str = "ai"
    #: when ``deadline_seat`` runs out of time (None: no clock running)
    deadline: float | None = None
    deadline_seat: int | None = None
    reminded: int = 0
    seats: list[SeatRow] = field(default_factory=list)
    #: None: a server that added the bot (lobby, thread, board); "remote": where the bot is
    #: not a member, the table is its lobby message, kept current through interactions
    surface: str | None = None

    @property
    def remote(self) -> bool:
        return self.surface == "remote"

    @property
    def user_ids(self) -> list[int]:
        return [s.user_id for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def game_channel_id(self) -> int:
        return self.thread_id or self.channel_id

    @property
    def board_behind(self) -> bool:
        return self.status in ("playing", "finished") and (
            self.board_version < self.version or self.board_message_id is None)

    @property
    def lobby_behind(self) -> bool:
        return self.lobby_message_id is not None and self.lobby_rev < self.rev


TABLE_COLUMNS = ("id, game, guild_id, channel_id, host_id, status, options, locale, thread_id, "
                  "lobby_message_id, board_message_id, seed, version, state, rematch_of, invited_id, "
                  "rev, lobby_rev, board_version, closed_reason, updated_at, turn_limit, "
                  "timeout_policy, deadline, deadline_seat, reminded, surface")


def row_to_table(row: Sequence[Any]) -> TableRow:
    (id_, game, guild_id, channel_id, host_id, status, options, locale, thread_id, lobby_id,
     board_id, seed, version, state, rematch_of, invited_id, rev, lobby_rev, board_version,
     closed_reason, updated_at, turn_limit, timeout_policy, deadline, deadline_seat,
     reminded, surface) = row
    return TableRow(id=id_, game=game, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                    status=status, options=loads(options), locale=locale,
                    thread_id=thread_id, lobby_message_id=lobby_id, board_message_id=board_id,
                    seed=seed, version=version, state=loads(state) if state else None,
                    rematch_of=rematch_of, invited_id=invited_id, rev=rev, lobby_rev=lobby_rev,
                    board_version=board_version, closed_reason=closed_reason,
                    updated_at=updated_at, turn_limit=turn_limit, timeout_policy=timeout_policy,
                    deadline=deadline, deadline_seat=deadline_seat, reminded=reminded,
                    surface=surface)


def dumps(obj: Any) -> str:
    """Compact JSON. orjson writes it about ten times faster than the json module: a click saves
    its state, its action and its messages, and a burst of 200 clicks spent more of the
    writer's time encoding than in SQLite."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # an integer past 64 bits: the json module has no limit
        return json.dumps(obj, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)


def pack_log(log: list[tuple[int, dict[str, Any]]]) -> bytes:
    """A finished game's action log, compressed: JSON actions repeat their keys, so zlib
    brings a 60-turn Sensei game from about 7 KB to under 1 KB."""
    return zlib.compress(dumps([[seat, action] for seat, action in log]).encode(), 9)


def unpack_log(blob: bytes) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, action) for seat, action in loads(zlib.decompress(blob))]
