"""Tables: lobbies, seats, turns. The runtime between the store and the game rules.

Nothing here talks to Discord: cogs call these methods, then present the outcome. Each table
has one lock; a change is validated against the stored state, applied, and committed inside it.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..games import Game, IllegalAction, Result, game_class
from ..store import (DEFAULT_TURN_LIMIT, LobbyExists, SeatRow, StaleWrite, Store, StoreFailure,
                    TableRow)

log = logging.getLogger(__name__)

#: finished or cancelled tables kept in memory after they close, while their messages catch up
RECENT_CLOSED = 256
#: the level of the AI that takes a seat whose person ran out of time or was voted absent
STAND_IN_LEVEL = "medium"
#: what happens when a turn's time runs out (a cooperative game always uses "ai")
POLICIES = ("ai", "forfeit", "wait")


class TableError(Exception):
    """A refused request, as a catalog key under ``error.`` plus its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass
class LiveTable:
    row: TableRow
    game: Game | None = None

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def cls(self) -> type[Game]:
        return game_class(self.row.game)

    def names(self) -> list[str]:
        return [s.name for s in self.row.seats]

    def user_of(self, seat: int) -> int:
        return self.row.seats[seat].user_id

    def seat_count_ok(self) -> bool:
        return self.cls.min_seats <= len(self.row.seats) <= self.cls.max_seats


@dataclass
class Outcome:
    """What one accepted action did, for the cog to present after the commit."""

    table: LiveTable
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    result: Result | None
    private_changed: dict[int, tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=dict)


def closed_error(status: str) -> TableError:
    """The refusal for a click on a table that is not running, naming what it really is."""
    return TableError({"lobby": "not_running", "finished": "game_over"}.get(status, "table_closed"))


def announcements(outcome: "Outcome", next_seat: int | None, version: int, *,
                  told: int | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The outbox items an accepted action queues in its own transaction: the log line, the
    private updates (a DM to each seat whose hand changed, but ``told``, who learns it from
    the answer to their own click), and the end of the game."""
    items: list[tuple[str, dict[str, Any]]] = [
        ("log", {"seat": outcome.seat, "action": outcome.action, "events": outcome.events,
                 "next": next_seat, "version": version})]
    items += [("dm", {"seat": seat, "before": before, "after": after})
              for seat, (before, after) in outcome.private_changed.items() if seat != told]
    if outcome.result is not None:
        items += [("over", {}), ("after", {})]
    return items


def _only_people(items: list[tuple[str, dict[str, Any]]],
                 seats: list[SeatRow]) -> list[tuple[str, dict[str, Any]]]:
    # An AI has nobody to send a private message to.
    return [(kind, payload) for kind, payload in items
            if kind != "dm" or seats[int(payload["seat"])].person]


def outcomes_for(result: Result, seats: list[SeatRow],
                 ai_seat: int | None = None) -> list[tuple[int, int, str, bool]]:
    """(seat, user id, outcome, an AI played it) per seat; ``ai_seat`` acted just now."""
    rows = []
    for s in seats:
        if result.draw and (not result.winners or s.seat in result.winners):
            outcome = "draw"
        else:
            outcome = "win" if s.seat in result.winners else "loss"
        rows.append((s.seat, s.user_id, outcome,
                     s.ai_played or s.ai is not None or s.seat == ai_seat))
    return rows


#: AI seats added in a lobby get user ids below zero (Discord ids are positive)
def _next_ai_id(seats: list[SeatRow]) -> int:
    return min([0, *(s.user_id for s in seats)]) - 1


class TableService:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[int, LiveTable] = {}
        self._recent: OrderedDict[int, LiveTable] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        #: called with a table id after every committed change to a running table or its end
        #: (the AI players watch for their turns this way)
        self.listeners: list[Callable[[int], None]] = []

    def _changed(self, table_id: int) -> None:
        for listener in self.listeners:
            listener(table_id)

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def _live(self, row: TableRow) -> LiveTable:
        game = None
        if row.state is not None:
            game = game_class(row.game).from_json(row.state)
            row.state = None  # the Game object is the truth from here on; no stale copy
        live = LiveTable(row, game)
        if row.status in ("lobby", "playing"):
            self._cache[row.id] = live
        return live

    async def restore(self) -> int:
        """Register every unfinished table (called at start-up); returns how many. Game states
        are parsed on first use, so start-up time does not grow with their size."""
        rows = await self.store.unfinished_tables()
        for row in rows:
            self._cache[row.id] = LiveTable(row, None)
        return len(rows)

    async def get(self, table_id: int) -> LiveTable | None:
        live = self._cache.get(table_id) or self._recent.get(table_id)
        if live is None:
            row = await self.store.get_table(table_id)
            return None if row is None else self._live(row)
        if live.game is None and live.row.status == "playing":
            state = await self.store.game_state(table_id)
            # Another coroutine may have loaded (and moved) the game while this one awaited.
            if live.game is None and state is not None:
                live.game = live.cls.from_json(state)
        return live

    async def with_game(self, table_id: int) -> LiveTable | None:
        """The table with its game, a finished one rebuilt from seed and action log (a finished
        game keeps no state of its own)."""
        live = await self.get(table_id)
        if live is not None and live.game is None and live.row.status == "finished" \
                and live.row.seed is not None:
            log_rows = await self.store.actions(table_id)
            live.game = live.cls.replay(len(live.row.seats), live.row.options, live.row.seed,
                                        log_rows)
        return live

    def unfinished_ids(self, game_key: str) -> list[int]:
        return [tid for tid, live in self._cache.items() if live.row.game == game_key]

    async def playing_in(self, game_key: str, channel_id: int, user_id: int) -> list[LiveTable]:
        """The running tables of a game in a channel or thread where the user has a seat."""
        found = []
        for table_id in await self.store.playing_in(game_key, channel_id, user_id):
            live = await self.get(table_id)
            if live is not None and live.game is not None:
                found.append(live)
        return found

    async def _require(self, table_id: int, game_key: str | None = None) -> LiveTable:
        live = await self.get(table_id)
        if live is None or (game_key is not None and live.row.game != game_key):
            raise TableError("no_table")
        return live

    def _forget_if_over(self, live: LiveTable) -> None:
        if live.row.status not in ("lobby", "playing"):
            self._cache.pop(live.id, None)
            # Its surfaces are brought up to date right after; keep it at hand for that.
            self._recent[live.id] = live
            while len(self._recent) > RECENT_CLOSED:
                self._recent.popitem(last=False)

    # -- lobby ----------------------------------------------------------------------------

    async def open_lobby(self, game_key: str, *, guild_id: int | None, channel_id: int,
                         host_id: int, host_name: str, options: Mapping[str, Any] | None,
                         locale: str, rematch_of: int | None = None,
                         seats: list[SeatRow] | None = None,
                         invited_id: int | None = None,
                         clock: tuple[float | None, str] | None = None) -> LiveTable:
        """A lobby. ``clock`` (time per turn, policy) defaults to the server's choice for the
        game, else a day per turn with an AI standing in for whoever runs out of time."""
        cls = game_class(game_key)
        try:
            normalized = cls.normalize_options(options)
        except ValueError:
            raise TableError("bad_options") from None
        if clock is None:
            chosen = await self.store.guild_clock(guild_id, game_key)
            clock = (DEFAULT_TURN_LIMIT, "ai") if chosen is None else (chosen[0], chosen[1] or "ai")
        try:
            row = await self.store.create_table(
                game=game_key, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                host_name=host_name, options=normalized, locale=locale, rematch_of=rematch_of,
                seats=seats, invited_id=invited_id, turn_limit=clock[0], timeout_policy=clock[1])
        except LobbyExists as exc:
            raise TableError("lobby_exists", table=exc.table_id) from None
        return self._live(row)

    async def set_surface(self, live: LiveTable, **fields: Any) -> None:
        """Record what a Discord surface of the table now shows (message ids, versions)."""
        await self.store.set_surface(live.id, **fields)
        for name, value in fields.items():
            setattr(live.row, name, value)

    def _require_lobby(self, live: LiveTable) -> None:
        if live.row.status != "lobby":
            raise TableError("not_lobby" if live.row.status in ("playing", "finished")
                             else "table_closed")

    async def join(self, table_id: int, user_id: int, name: str,
                   locale: str | None = None) -> LiveTable:
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if live.row.seat_of(user_id) is not None:
                raise TableError("already_seated")
            if live.row.invited_id is not None and user_id != live.row.invited_id:
                raise TableError("invite_only", player=f"<@{live.row.invited_id}>")
            if len(live.row.seats) >= live.cls.max_seats:
                raise TableError("table_full", max=live.cls.max_seats)
            seats = [*live.row.seats, SeatRow(len(live.row.seats), user_id, name, locale=locale)]
            await self.store.set_seats(table_id, seats)
            live.row.seats = seats
            live.row.rev += 1
            return live

    async def leave(self, table_id: int, user_id: int) -> LiveTable:
        """Leave a lobby. The host leaving hands the table to the next player, or closes it."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if live.row.seat_of(user_id) is None:
                raise TableError("not_seated")
            remaining = [s for s in live.row.seats if s.user_id != user_id]
            if not remaining:
                await self._close(live, "cancelled")
                return live
            if not any(s.person for s in remaining):
                # AI players alone: nobody left to start the game.
                await self._close(live, "cancelled")
                return live
            seats = [SeatRow(i, s.user_id, s.name, s.dm_open, s.ai, locale=s.locale)
                     for i, s in enumerate(remaining)]
            await self.store.set_seats(table_id, seats)
            live.row.seats = seats
            live.row.rev += 1
            if live.row.host_id == user_id:
                host = next(s for s in seats if s.person)
                await self.store.update_table(table_id, host_id=host.user_id)
                live.row.host_id = host.user_id
                live.row.rev += 1
            return live

    async def add_ai(self, table_id: int, user_id: int, level: str, name: str) -> LiveTable:
        """The host seats an AI player of ``level`` (shown as ``name``) in a free seat."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if user_id != live.row.host_id:
                raise TableError("host_only_ai")
            if len(live.row.seats) >= live.cls.max_seats:
                raise TableError("table_full", max=live.cls.max_seats)
            seats = [*live.row.seats,
                     SeatRow(len(live.row.seats), _next_ai_id(live.row.seats), name, ai=level)]
            await self.store.set_seats(table_id, seats)
            live.row.seats = seats
            live.row.rev += 1
            return live

    async def remove_ai(self, table_id: int, user_id: int, seat: int) -> LiveTable:
        """The host takes an AI player out of the lobby."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if user_id != live.row.host_id:
                raise TableError("host_only_ai")
            if not 0 <= seat < len(live.row.seats) or live.row.seats[seat].person:
                raise TableError("stale")
            remaining = [s for s in live.row.seats if s.seat != seat]
            seats = [SeatRow(i, s.user_id, s.name, s.dm_open, s.ai, locale=s.locale)
                     for i, s in enumerate(remaining)]
            await self.store.set_seats(table_id, seats)
            live.row.seats = seats
            live.row.rev += 1
            return live

    async def _close(self, live: LiveTable, reason: str) -> None:
        await self.store.update_table(live.id, status="cancelled", closed_reason=reason)
        live.row.status, live.row.closed_reason = "cancelled", reason
        live.row.rev += 1
        self._forget_if_over(live)
        self._changed(live.id)

    async def expire(self, table_id: int) -> LiveTable | None:
        """Close a lobby nobody started in time (None if it is no longer a lobby)."""
        async with self.lock(table_id):
            live = await self.get(table_id)
            if live is None or live.row.status != "lobby":
                return None
            await self._close(live, "expired")
            return live

    async def cancel(self, table_id: int, user_id: int, *, can_manage: bool) -> LiveTable:
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if user_id != live.row.host_id and not can_manage:
                raise TableError("host_only_cancel")
            await self._close(live, "cancelled")
            return live

    def check_startable(self, live: LiveTable, user_id: int) -> None:
        self._require_lobby(live)
        if user_id != live.row.host_id:
            raise TableError("host_only_start")
        if not live.seat_count_ok():
            raise TableError("seat_count", min=live.cls.min_seats, max=live.cls.max_seats,
                             count=len(live.row.seats))

    async def start(self, table_id: int, user_id: int, *, use_thread: bool,
                    seed: int | None = None) -> LiveTable:
        """Deal and start. The rest of the start (thread, announcement, board, private hands)
        is queued in the outbox by the same commit, so a stop at any point finishes it later.
        ``use_thread``: whether a thread may be opened from the lobby message."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self.check_startable(live, user_id)
            seed = secrets.randbits(63) if seed is None else seed
            game = live.cls.new(len(live.row.seats), live.row.options, seed)
            # Who plays first is said as dealt: an AI seat may have moved before it is posted.
            steps: list[tuple[str, dict[str, Any]]] = [("thread", {"use": use_thread}),
                                                       ("announce", {"first": game.to_move})]
            steps += [("dm", {"seat": seat, "hand": True}) for seat in range(len(live.row.seats))
                      if game.private_view(seat) and live.row.seats[seat].person]
            clock = self._clock_for(live.row, game.to_move)
            try:
                await self.store.start_game(table_id, seed, game.to_json(), outbox=steps,
                                            clock=clock)
            except StaleWrite:
                self._cache.pop(table_id, None)
                raise TableError("not_lobby") from None
            live.row.deadline, live.row.deadline_seat, live.row.reminded = *clock, 0
            live.row.status, live.row.seed, live.row.version = "playing", seed, 0
            live.row.board_version = -1
            live.row.rev += 1
            live.game = game
            self._changed(table_id)
            return live

    async def set_dm_open(self, live: LiveTable, seat: int, is_open: bool) -> bool:
        """Remember whether a player's DMs work; True when that changed."""
        seat_row = live.row.seats[seat]
        if seat_row.dm_open == is_open:
            return False
        seat_row.dm_open = is_open
        await self.store.set_dm_open(live.id, seat, is_open)
        return True

    # -- play -----------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, action: Mapping[str, Any], *,
                  expected_version: int | None = None, game_key: str | None = None) -> Outcome:
        """Validate ``action`` against the stored table, apply it and commit it.

        Raises TableError (not seated, stale, not running) or IllegalAction (the rules said no).
        """
        return await self.act_many(table_id, user_id, [action], expected_version=expected_version,
                                   game_key=game_key)

    async def act_many(self, table_id: int, user_id: int, actions: list[Mapping[str, Any]], *,
                       expected_version: int | None = None,
                       game_key: str | None = None, mover_told: bool = False) -> Outcome:
        """Several actions of one seat as one unit: all applied and committed, or none.
        ``mover_told``: the mover learns what changed in their own hand from the answer to
        their interaction, so no DM is queued for them."""
        async with self.lock(table_id):
            live = await self._require(table_id, game_key)
            row = live.row
            seat = self._seat_in_play(live, user_id)
            if row.seats[seat].ai is not None:
                raise TableError("seat_ai_held")
            return await self._apply(live, seat, user_id, actions, expected_version, ai=False,
                                     mover_told=mover_told)

    @staticmethod
    def _seat_in_play(live: LiveTable, user_id: int) -> int:
        """The user's seat at a running game (refused: not running, not seated)."""
        if live.row.status != "playing" or live.game is None:
            raise closed_error(live.row.status)
        seat = live.row.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        return seat

    async def act_for_ai(self, table_id: int, seat: int, action: Mapping[str, Any], *,
                         expected_version: int) -> Outcome:
        """An action chosen by the AI holding ``seat``, for the table as it was at
        ``expected_version`` (TableError "stale" when it moved on or the seat changed hands)."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            row = live.row
            if row.status != "playing" or live.game is None:
                raise closed_error(row.status)
            if not 0 <= seat < len(row.seats) or row.seats[seat].ai is None:
                raise TableError("stale")
            return await self._apply(live, seat, row.seats[seat].user_id, [action],
                                     expected_version, ai=True)

    async def _apply(self, live: LiveTable, seat: int, user_id: int,
                     actions: list[Mapping[str, Any]], expected_version: int | None,
                     *, ai: bool, timed_out: bool = False, mover_told: bool = False) -> Outcome:
        row = live.row
        table_id = row.id
        if expected_version is not None and expected_version != row.version:
            raise TableError("stale")
        assert live.game is not None
        # Always on a copy, swapped in once committed: a refused action leaves the live game
        # untouched, and a board drawn while the commit is under way never shows a game that
        # is ahead of its row (a finished game on a table still "playing").
        game = live.game.copy()
        before = {s: game.private_view(s) for s in range(len(row.seats))}
        mover_before = game.to_move
        applied: list[dict[str, Any]] = []
        events: list[dict[str, Any]] = []
        for action in actions:
            action = dict(action)
            events.extend(game.apply(seat, action))  # raises IllegalAction, state untouched
            applied.append(action)
        result = game.result()
        changed = {}
        for s in range(len(row.seats)):
            after = game.private_view(s)
            if after != before[s]:
                changed[s] = (before[s], after)
        outcome = Outcome(live, seat, applied[-1], events, result, changed)
        version = row.version + len(applied)
        ai_seat = seat if ai else None
        clock: tuple[float | None, int | None] | None = None
        if result is not None:
            clock = (None, None)
        elif game.to_move != mover_before or row.deadline_seat != game.to_move:
            clock = self._clock_for(row, game.to_move)  # a new turn starts its own time
        outbox = _only_people(announcements(outcome, game.to_move, version,
                                            told=seat if mover_told else None), row.seats)
        if timed_out:
            outbox.insert(0, ("timeout", {"seat": seat, "policy": "forfeit"}))
        try:
            # The row's version moves only once committed, together with its status: a board
            # rendered meanwhile must not record the new version with the old status.
            await self.store.record_actions(
                dataclasses.replace(row, version=version), user_id=user_id, actions=[(seat, a) for a in applied],
                state=game.to_json(), result=None if result is None else result.to_json(),
                outcomes=None if result is None else outcomes_for(result, row.seats, ai_seat),
                outbox=outbox, ai_seat=ai_seat, clock=clock,
                timed_out_seat=seat if timed_out else None, cooperative=live.cls.cooperative)
        except BaseException as exc:
            # Whether the store took it is unknown (a lost connection): reload the truth.
            self._cache.pop(table_id, None)
            if isinstance(exc, StaleWrite):
                raise TableError("stale") from None
            raise
        row.version = version
        live.game = game
        if clock is not None:
            row.deadline, row.deadline_seat, row.reminded = *clock, 0
        if ai:
            row.seats[seat].ai_played = True
        if timed_out:
            row.seats[seat].timed_out = True
        if result is not None:
            row.status = "finished"
            row.rev += 1
            self._forget_if_over(live)
        self._changed(table_id)
        return outcome

    # -- turn clocks and seats changing hands -----------------------------------------------

    def _clock_for(self, row: TableRow, seat: int | None) -> tuple[float | None, int | None]:
        """The clock of a turn starting now for ``seat``: none without a time control, at the
        end of the game, or for an AI (it does not walk away)."""
        if row.turn_limit is None or seat is None or row.seats[seat].ai is not None:
            return (None, None)
        return (self.store.clock() + row.turn_limit, seat)

    async def _hand_over(self, live: LiveTable, seat: int, ai: str | None,
                         outbox: list[tuple[str, dict[str, Any]]], *, timed_out: bool = False,
                         expect: tuple[int, float | None] | None = None) -> bool:
        row = live.row
        saved_ai = row.seats[seat].ai
        row.seats[seat].ai = ai  # so that the clock below sees who holds the seat now
        to_move = live.game.to_move if live.game is not None else None
        clock = self._clock_for(row, to_move) if to_move == seat else None
        try:
            done = await self.store.set_seat_ai(row.id, seat, ai, outbox, clock=clock,
                                                timed_out=timed_out, expect=expect)
        except BaseException:
            row.seats[seat].ai = saved_ai
            raise
        if not done:
            row.seats[seat].ai = saved_ai
            return False
        if timed_out:
            row.seats[seat].timed_out = True
        if clock is not None:
            row.deadline, row.deadline_seat, row.reminded = *clock, 0
        row.rev += 1
        self._changed(row.id)
        return True

    async def come_back(self, table_id: int, user_id: int) -> LiveTable:
        """"I'm back": a person takes their seat back from the AI playing it."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            seat = self._seat_in_play(live, user_id)
            if live.row.seats[seat].ai is None:
                raise TableError("not_away")
            await self._hand_over(live, seat, None, [("back", {"seat": seat})])
            return live

    async def vote_absent(self, table_id: int, user_id: int) -> tuple[LiveTable, int, int, bool]:
        """A vote by another player to hand the seat to move to an AI now; returns the table,
        the votes so far, the votes needed (a majority of the other people) and whether the
        seat was handed over."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            row = live.row
            voter = self._seat_in_play(live, user_id)
            seat = live.game.to_move
            if seat is None or seat == voter or not row.seats[seat].person \
                    or row.seats[seat].ai is not None:
                raise TableError("no_absent")
            others = [s for s in row.seats if s.person and s.seat != seat]
            needed = len(others) // 2 + 1
            votes = await self.store.vote_for_ai(table_id, seat, user_id, row.version)
            handed = votes >= needed and await self._hand_over(
                live, seat, STAND_IN_LEVEL, [("handed", {"seat": seat})], timed_out=True)
            return live, votes, needed, handed

    async def time_out(self, table_id: int, deadline: float) -> str | None:
        """The turn that ends at ``deadline`` ran out: apply the table's policy, once. Returns
        the policy applied, or None when the turn had already ended (a last-second move, a
        restart, another process)."""
        async with self.lock(table_id):
            live = await self.get(table_id)
            if live is None or live.row.status != "playing" or live.game is None:
                return None
            row = live.row
            if row.deadline != deadline or self.store.clock() < deadline:
                return None
            seat = row.deadline_seat
            if seat is None or live.game.to_move != seat or row.seats[seat].ai is not None:
                return None
            policy = "ai" if live.cls.cooperative else row.timeout_policy
            notice = [("timeout", {"seat": seat, "policy": policy})]
            if policy == "forfeit":
                try:
                    await self._apply(live, seat, row.seats[seat].user_id, [{"type": "resign"}],
                                      row.version, ai=False, timed_out=True)
                except TableError:
                    return None
                return policy
            expect = (row.version, deadline)
            if policy == "wait":
                # The table is told; the clock stops until the next turn (the others may vote).
                done = await self.store.set_seat_ai(table_id, seat, None, notice,
                                                    clock=(None, seat), timed_out=True,
                                                    expect=expect)
                if done:
                    row.deadline, row.deadline_seat, row.reminded = None, seat, 0
                    row.seats[seat].timed_out = True
                    row.rev += 1
                    self._changed(table_id)
            else:
                done = await self._hand_over(live, seat, STAND_IN_LEVEL, notice, timed_out=True,
                                             expect=expect)
            return policy if done else None

    async def remind(self, table_id: int, deadline: float, stage: int,
                     dm: bool) -> bool:
        """Reminder ``stage`` (1: half time, 2: near the end) for the turn ending at
        ``deadline``, once."""
        live = await self.get(table_id)
        if live is None or live.row.status != "playing" or live.row.deadline != deadline:
            return False
        seat = live.row.deadline_seat
        if seat is None:
            return False
        items: list[tuple[str, dict[str, Any]]] = [
            ("remind", {"seat": seat, "stage": stage, "deadline": deadline})]
        if dm:
            items.append(("remind_dm", {"seat": seat, "stage": stage, "deadline": deadline}))
        done = await self.store.mark_reminded(table_id, deadline, stage, items)
        if done:
            live.row.reminded = stage
            live.row.rev += 1
        return done

    async def set_time_control(self, table_id: int, user_id: int, *,
                               turn_limit: float | None = None, set_limit: bool = False,
                               policy: str | None = None) -> LiveTable:
        """The host changes the lobby's time per turn or what happens when it runs out."""
        async with self.lock(table_id):
            live = await self._require(table_id)
            self._require_lobby(live)
            if user_id != live.row.host_id:
                raise TableError("host_only_clock")
            fields: dict[str, Any] = {}
            if set_limit:
                fields["turn_limit"] = turn_limit
            if policy is not None:
                if policy not in POLICIES:
                    raise TableError("stale")
                fields["timeout_policy"] = policy
            if fields:
                await self.store.update_table(table_id, **fields)
                for name, value in fields.items():
                    setattr(live.row, name, value)
                live.row.rev += 1
            return live

    async def rebuild(self, table_id: int) -> Game:
        """The game rebuilt from options + seed + action log (proves the log is complete)."""
        row = await self.store.get_table(table_id)
        if row is None or row.seed is None:
            raise TableError("no_table")
        log_rows = await self.store.actions(table_id)
        return game_class(row.game).replay(len(row.seats), row.options, row.seed, log_rows)


__all__ = ["TableService", "TableError", "LiveTable", "Outcome", "IllegalAction", "outcomes_for",
           "closed_error", "StoreFailure"]
