"""Tournaments over tables: creating one, entrants joining, leaving and checking in, the
organizer's controls, and the step the scheduler takes when a tournament is due (start, open
the next round, finish). Pairing is pure (``bot/tournaments``); a round's tables are ordinary
tables, dealt here and written with the round in one transaction.

Nothing here talks to Discord: the cog presents, the scheduler (``bot/runtime``) calls
``advance`` when a tournament is due.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Sequence

from ..games import game_class
from ..games.registry import is_game
from ..store import SeatRow, StaleWrite, Store
from ..store.tournaments import EntrantRow, GameRow, NewTable, TournamentRow
from ..tournaments import (Entrant, Played, Row, knockout_rounds, match_winner, matches,
                           replays_due, round_robin_rounds, round_winners,
                           standings)
from ..tournaments.rounds import pair_round_call
from .tables import TableService

log = logging.getLogger(__name__)

#: the time controls a tournament offers (seconds a turn; 0: none)
TURN_LIMITS = (0, 120, 600, 3600, 86_400)
MAX_ROUNDS = 20
#: deals a table tries for one where seat 0 moves first (each is 1 in 2 to 1 in 4)
DEALS_TRIED = 32
MAX_ENTRANTS = 1024


class TournamentError(Exception):
    """A refused request, as a catalog key under ``tournament.error.``."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def derive_seed(*parts: int) -> int:
    """A deal's seed from the tournament's seed and where the deal is (round, size …):
    the same everywhere, so a duplicate round's teams of one size get the same deal."""
    digest = hashlib.blake2b(":".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def check_format(game: str, fmt: str, per_table: int) -> None:
    """Refuse a format the game cannot be played in."""
    if not is_game(game):
        raise TournamentError("bad_game")
    cls = game_class(game)
    if not cls.min_seats <= per_table <= cls.max_seats:
        raise TournamentError("bad_table_size", min=cls.min_seats, max=cls.max_seats)
    if cls.cooperative != (fmt == "duplicate"):
        raise TournamentError("duplicate_only" if cls.cooperative else "duplicate_narabi")
    if fmt in ("round_robin", "knockout") and per_table != 2:
        raise TournamentError("two_only")


@dataclass
class Standing:
    tournament: TournamentRow
    entrants: list[EntrantRow]
    #: every game of the tournament, those of a round under way included
    games: list[GameRow]
    #: computed from the rounds up to ``through`` only
    rows: list[Row]
    #: the last round the standings count (0: none is over yet)
    through: int = 0

    def name_of(self, user_id: int) -> str:
        return next((e.name for e in self.entrants if e.user_id == user_id), "?")


def rounds_over(t: TournamentRow, games: Sequence[GameRow]) -> int:
    """The last round of ``t`` whose games are all decided."""
    if any(g.round == t.round and g.points is None for g in games):
        return t.round - 1
    return t.round


def played_of(games: Sequence[GameRow]) -> list[Played]:
    return [Played(g.round, g.board, g.seats, g.points,
                   forfeit=bool((g.detail or {}).get("forfeit")), replay_of=g.replay_of)
            for g in games]


def duplicate_points(games: Sequence[GameRow]) -> list[GameRow]:
    """Narabi duplicate: teams of one size in a round played the same deal; each team scores
    its matchpoints among them (1 for each team it beat, ½ for each tie, over the teams it is
    compared with): a solved deal beats an unsolved one, and fewer switches beat more."""
    out: list[GameRow] = []
    groups: dict[tuple[int, int], list[GameRow]] = {}
    for g in games:
        if g.points is None or len(g.seats) < 2 or g.manual:
            out.append(g)
            continue
        groups.setdefault((g.round, len(g.seats)), []).append(g)

    def merit(g: GameRow) -> tuple[int, int]:
        detail = g.detail or {}
        solved = (g.points or (0,))[0] > 0
        turns = detail.get("turns") or 0
        return (1 if solved else 0, -turns if solved else 0)

    for group in groups.values():
        for g in group:
            others = [o for o in group if o is not g]
            if others:
                mine = merit(g)
                mp = sum(1.0 if mine > merit(o) else 0.5 if mine == merit(o) else 0.0
                         for o in others) / len(others)
            else:
                mp = 1.0 if merit(g)[0] else 0.0
            out.append(GameRow(g.round, g.board, g.table_id, g.seats,
                               tuple(round(mp, 4) for _ in g.seats), g.detail, g.manual))
    out.sort(key=lambda g: (g.round, g.board))
    return out


#: (format, entrants, played, round, per table, smallest table, seed, planned rounds) -> tables
Pairer = Callable[[str, list[Entrant], list[Played], int, int, int, int, "int | None"],
                  Awaitable[list[tuple[int, ...]]]]


async def pair_in_thread(*args: Any) -> list[tuple[int, ...]]:
    return await asyncio.to_thread(pair_round_call, *args)


class TournamentService:
    def __init__(self, store: Store, tables: TableService, *,
                 pair: Pairer | None = None) -> None:
        self.store = store
        self.tables = tables
        #: pairs a round away from the event loop (a big Swiss takes a good part of a second)
        self.pair: Pairer = pair or pair_in_thread

    # -- creating and joining -------------------------------------------------------------

    async def create(self, *, guild_id: int | None, channel_id: int, organizer_id: int,
                     name: str, game: str, options: dict[str, Any] | None, fmt: str,
                     rounds: int | None, per_table: int, turn_limit: float | None,
                     rated: bool, starts_at: float, checkin: float | None,
                     round_every: float | None, locale: str, seed: int) -> TournamentRow:
        check_format(game, fmt, per_table)
        cls = game_class(game)
        try:
            normalized = cls.normalize_options(options)
        except ValueError:
            raise TournamentError("bad_options") from None
        if fmt in ("swiss", "duplicate"):
            if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
                raise TournamentError("bad_rounds", max=MAX_ROUNDS)
        else:
            rounds = 0  # set by the number of entrants at the start
        if checkin is not None and checkin <= 0:
            checkin = None
        if starts_at < self.store.clock() - 60:
            raise TournamentError("in_the_past")
        policy = "ai" if cls.cooperative else "forfeit"
        tid = await self.store.create_tournament(
            guild_id=guild_id, channel_id=channel_id, organizer_id=organizer_id, name=name,
            game=game, options=normalized, format=fmt, rounds=rounds, per_table=per_table,
            turn_limit=turn_limit or None, timeout_policy=policy, rated=rated and not cls.cooperative,
            starts_at=starts_at, checkin=checkin, round_every=round_every or None, seed=seed,
            locale=locale)
        found = await self.store.get_tournament(tid)
        assert found is not None
        return found

    async def require(self, tournament_id: int) -> TournamentRow:
        found = await self.store.get_tournament(tournament_id)
        if found is None:
            raise TournamentError("no_tournament")
        return found

    async def join(self, tournament_id: int, user_id: int, name: str,
                   locale: str | None = None) -> TournamentRow:
        t = await self.require(tournament_id)
        if t.status != "open":
            raise TournamentError("started")
        entrants = await self.store.entrants(tournament_id)
        if any(e.user_id == user_id for e in entrants):
            raise TournamentError("already_joined")
        if len(entrants) >= MAX_ENTRANTS:
            raise TournamentError("full", max=MAX_ENTRANTS)
        if not await self.store.add_entrant(tournament_id, user_id, name, locale):
            raise TournamentError("started")
        return await self.require(tournament_id)

    async def add_ai(self, tournament_id: int, by: int, level: str, name: str) -> TournamentRow:
        """The organizer enters an AI player (to make up numbers, or to try a format)."""
        t = await self.require(tournament_id)
        if t.status != "open":
            raise TournamentError("started")
        if not await self.store.add_ai_entrant(tournament_id, name, level):
            raise TournamentError("started")
        return await self.require(tournament_id)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentRow:
        t = await self.require(tournament_id)
        if t.status != "open":
            raise TournamentError("started")
        if not await self.store.remove_entrant(tournament_id, user_id):
            raise TournamentError("not_joined")
        return await self.require(tournament_id)

    async def check_in(self, tournament_id: int, user_id: int) -> TournamentRow:
        t = await self.require(tournament_id)
        now = self.store.clock()
        if t.status != "open" or not t.checkin:
            raise TournamentError("no_checkin")
        if now < t.starts_at - t.checkin:
            raise TournamentError("checkin_not_open")
        if not any(e.user_id == user_id for e in await self.store.entrants(tournament_id)):
            raise TournamentError("not_joined")
        await self.store.check_in(tournament_id, user_id)
        return await self.require(tournament_id)

    # -- the organizer ---------------------------------------------------------------------

    async def pause(self, tournament_id: int, by: int) -> None:
        if not await self.store.set_tournament_status(tournament_id, "paused", by, ("running",)):
            raise TournamentError("not_running")

    async def resume(self, tournament_id: int, by: int) -> None:
        if not await self.store.set_tournament_status(tournament_id, "running", by, ("paused",)):
            raise TournamentError("not_paused")

    async def cancel(self, tournament_id: int, by: int) -> list[int]:
        """Cancel; returns the tables it stopped (their messages catch up)."""
        games = await self.store.tournament_games(tournament_id)
        if not await self.store.set_tournament_status(tournament_id, "cancelled", by,
                                                      ("open", "running", "paused")):
            raise TournamentError("over")
        stopped = [g.table_id for g in games if g.table_id is not None and g.points is None]
        for table_id in stopped:
            self.tables._cache.pop(table_id, None)
        return stopped

    async def drop(self, tournament_id: int, user_id: int, by: int) -> None:
        t = await self.require(tournament_id)
        if t.status in ("finished", "cancelled"):
            raise TournamentError("over")
        if not await self.store.drop_entrant(tournament_id, user_id, by):
            raise TournamentError("not_joined")

    async def set_result(self, tournament_id: int, round_no: int, board: int,
                         winner: int | None, by: int) -> int | None:
        """The organizer decides a game: ``winner`` (an entrant at that table) wins, None is
        a draw. Returns the table it closed, if one was still being played."""
        games = await self.store.tournament_games(tournament_id)
        game = next((g for g in games if g.round == round_no and g.board == board), None)
        # A knockout table is known by its first board: its latest play-off is the one meant.
        later = [g for g in games if g.round == round_no and g.replay_of == board]
        if game is not None and later:
            game = later[-1]
            board = game.board
        if game is None or len(game.seats) < 2:
            raise TournamentError("no_game")
        if winner is not None and winner not in game.seats:
            raise TournamentError("not_at_table")
        if winner is None:
            points = [1.0 / len(game.seats)] * len(game.seats)
        else:
            points = [1.0 if uid == winner else 0.0 for uid in game.seats]
        try:
            table_id = await self.store.set_game_points(tournament_id, round_no, board, points, by)
        except StaleWrite:
            raise TournamentError("no_game") from None
        if table_id is not None:
            live = self.tables._cache.pop(table_id, None)
            if live is not None:
                live.row.status, live.row.closed_reason = "cancelled", "tournament"
        return table_id

    # -- standings ---------------------------------------------------------------------------

    async def standing(self, tournament_id: int, through: int | None = None) -> Standing:
        """The standings after round ``through``, by default after the last round that is
        over: a round under way (its games, and its bye already scored) does not count yet."""
        t = await self.require(tournament_id)
        entrants = await self.store.entrants(tournament_id)
        games = await self.store.tournament_games(tournament_id)
        if through is None:
            through = rounds_over(t, games)
        counted = [g for g in games if g.round <= through]
        scored = duplicate_points(counted) if t.format == "duplicate" else counted
        rows = standings([Entrant(e.user_id, e.rank) for e in entrants], played_of(scored),
                         [e.user_id for e in entrants if e.dropped is not None])
        return Standing(t, entrants, games, rows, through)

    # -- the scheduler's step -----------------------------------------------------------------

    async def advance(self, tournament_id: int) -> tuple[str, list[int]]:
        """Do what is due: open check-in, start, open the next round, or finish. Returns what
        was done and the tables it opened. Safe to call twice or from two processes: a round is
        written once (the loser of a race is told ``StaleWrite`` and does nothing)."""
        t = await self.store.get_tournament(tournament_id)
        now = self.store.clock()
        if t is None or t.next_at is None or t.next_at > now or t.status not in ("open", "running"):
            return "nothing", []
        try:
            if t.status == "open":
                if t.checkin and now < t.starts_at:
                    await self.store.postpone_tournament(t.id, t.starts_at, ("checkin", {}))
                    return "checkin", []
                return await self._start(t)
            games = await self.store.tournament_games(t.id)
            if any(g.round == t.round and g.points is None for g in games):
                await self.store.postpone_tournament(t.id, None)  # the last game's end wakes it
                return "waiting", []
            return await self._next(t, games)
        except StaleWrite:
            return "raced", []

    async def _start(self, t: TournamentRow) -> tuple[str, list[int]]:
        entrants = await self.store.entrants(t.id)
        playing = [e for e in entrants if e.checked_in or not e.person] if t.checkin else entrants
        cls = game_class(t.game)
        needed = max(2, cls.min_seats) if t.format != "duplicate" else cls.min_seats
        if len(playing) < needed:
            await self.store.set_tournament_status(t.id, "cancelled", 0, ("open",))
            await self.store.postpone_tournament(t.id, None, ("too_few", {"count": len(playing)}))
            return "too_few", []
        playing = await self._seeded(t, playing)
        rounds = t.rounds
        if t.format == "round_robin":
            rounds = round_robin_rounds(len(playing))
        elif t.format == "knockout":
            rounds = knockout_rounds(len(playing))
        return await self._open(t, 1, playing, [], left=[e.user_id for e in playing],
                                rounds=rounds)

    async def _seeded(self, t: TournamentRow, playing: list[EntrantRow]) -> list[EntrantRow]:
        """The starting ranks: by rating in this server (highest first) for a rated
        tournament, players without a rating after those with one; by the order they joined
        otherwise (and among the unrated)."""
        if not t.rated:
            return playing
        board, count = await self.store.leaderboard(t.guild_id, t.game, 0, 0)
        board, _ = await self.store.leaderboard(t.guild_id, t.game, 0, count)
        shown = {uid: rating.shown for uid, rating in board}
        ordered = sorted(playing, key=lambda e: (e.user_id not in shown,
                                                 -shown.get(e.user_id, 0.0), e.rank))
        return [EntrantRow(e.user_id, e.name, rank, e.ai, e.locale, e.checked_in, e.dropped)
                for rank, e in enumerate(ordered, start=1)]

    async def _next(self, t: TournamentRow, games: list[GameRow]) -> tuple[str, list[int]]:
        entrants = await self.store.entrants(t.id)
        active = [e for e in entrants if e.dropped is None]
        rank = {e.user_id: e.rank for e in entrants}
        if t.format == "knockout":
            due = replays_due(played_of(games), t.round, rank)
            if due:
                return await self._replay(t, entrants, games, due)
        done = t.round >= t.rounds or len(active) < 2
        if t.format == "knockout" and not done:
            alive = round_winners(played_of(games), t.round, rank)
            done = len(alive & {e.user_id for e in active}) < 2
        if done:
            standing = await self.standing(t.id)
            winner = self._winner(t, standing)
            await self.store.finish_tournament(t, winner)
            return "finished", []
        return await self._open(t, t.round + 1, entrants, games)

    @staticmethod
    def _winner(t: TournamentRow, standing: Standing) -> int | None:
        if t.format == "knockout":
            final = matches(played_of(standing.games), t.round)
            rank = {e.user_id: e.rank for e in standing.entrants}
            if len(final) == 1:
                return match_winner(next(iter(final.values())), rank)
        rows = [r for r in standing.rows if not r.dropped]
        return rows[0].id if rows else None

    async def _open(self, t: TournamentRow, round_no: int, entrants: list[EntrantRow],
                    games: list[GameRow], *, left: list[int] | None = None,
                    rounds: int | None = None) -> tuple[str, list[int]]:
        cls = game_class(t.game)
        by_id = {e.user_id: e for e in entrants}
        dropped = {e.user_id for e in entrants if e.dropped is not None}
        scored = duplicate_points(games) if t.format == "duplicate" else games
        played = played_of(scored)
        # Round robin and knockout keep their whole draw (a dropped player's opponent gets
        # the point); the other formats pair only who is still in.
        keeps_draw = t.format in ("round_robin", "knockout")
        pool = [Entrant(e.user_id, e.rank) for e in entrants
                if keeps_draw or e.user_id not in dropped]
        round_seed = derive_seed(t.seed, round_no)
        # The planned number of rounds tells the Dutch system when the final round (with
        # its topscorers) is paired.
        paired = await self.pair(t.format, pool, played, round_no, t.per_table, cls.min_seats,
                                 round_seed, t.rounds or None)
        tables: list[NewTable] = []
        byes: list[tuple[int, int]] = []
        now = self.store.clock()
        for board, seats in enumerate(paired, start=1):
            present = [uid for uid in seats if uid not in dropped]
            if len(present) < len(seats) and len(seats) == 2:
                seats = tuple(present)
            if len(seats) < max(2, cls.min_seats):
                if seats:
                    byes.append((board, seats[0]))
                continue
            tables.append(self._deal(t, round_no, board, seats, by_id, now))
        ids = await self.store.open_round(t, round_no, round_seed, tables, byes,
                                          entrants_left=left, rounds=rounds)
        for table_id in ids:
            await self.tables.get(table_id)   # into the cache, clock and all
            self.tables._changed(table_id)    # AI seats and the turn clock take it from here
        return "round", ids


    def _deal(self, t: TournamentRow, round_no: int, board: int, seats: Sequence[int],
              by_id: dict[int, EntrantRow], now: float, *, replay_of: int | None = None,
              replay: int = 0) -> NewTable:
        """One table of a round, dealt: its seats, its game, its clock and its first steps.
        A replay gets its own deal and names its match's board and which replay it is."""
        cls = game_class(t.game)
        seat_rows = [SeatRow(i, uid, by_id[uid].name, ai=by_id[uid].ai,
                             locale=by_id[uid].locale) for i, uid in enumerate(seats)]
        # Duplicate: every team of a size in the round gets the same deal.
        seed = (derive_seed(t.seed, round_no, len(seats)) if t.format == "duplicate"
                else derive_seed(t.seed, round_no, board))
        game = cls.new(len(seats), t.options, seed)
        # The pairing seats whoever should move first in seat 0 (Swiss colours, a replay's
        # swap, who sat first least): the first deal of a few where seat 0 does. A game that
        # fixes who starts (Sensei's option) keeps its own rule.
        for retry in range(1, DEALS_TRIED):
            if t.format == "duplicate" or game.to_move in (0, None):
                break
            seed = derive_seed(t.seed, round_no, board, retry)
            game = cls.new(len(seats), t.options, seed)
        first = game.to_move
        clock: tuple[float | None, int | None] = (None, None)
        if t.turn_limit and first is not None and seat_rows[first].ai is None:
            clock = (now + t.turn_limit, first)
        thread: dict[str, Any] = {"use": True, "name": t.name, "round": round_no,
                                  "board": replay_of if replay_of is not None else board}
        if replay:
            thread["replay"] = replay
        outbox: list[tuple[str, dict[str, Any]]] = [("thread", thread),
                                                    ("announce", {"first": first})]
        outbox += [("dm", {"seat": s, "hand": True}) for s in range(len(seats))
                   if seat_rows[s].ai is None and game.private_view(s)]
        return NewTable(board, seat_rows, seed, game.to_json(), clock, outbox,
                        replay_of=replay_of)

    async def _replay(self, t: TournamentRow, entrants: list[EntrantRow], games: list[GameRow],
                      due: list[tuple[int, int, tuple[int, ...]]]) -> tuple[str, list[int]]:
        """Drawn knockout matches played again, the first move on the other side. A player
        who dropped meanwhile leaves the match to the other (a one-seat game: a walkover)."""
        by_id = {e.user_id: e for e in entrants}
        dropped = {e.user_id for e in entrants if e.dropped is not None}
        board = max((g.board for g in games if g.round == t.round), default=0)
        now = self.store.clock()
        tables: list[NewTable] = []
        walkovers: list[tuple[int, int, int]] = []
        for match, replay, seats in due:
            board += 1
            present = [uid for uid in seats if uid not in dropped]
            if len(present) < len(seats):
                if present:
                    walkovers.append((board, present[0], match))
                continue
            tables.append(self._deal(t, t.round, board, seats, by_id, now, replay_of=match,
                                     replay=replay))
        ids = await self.store.open_replays(t, t.round, tables, walkovers)
        for table_id in ids:
            await self.tables.get(table_id)
            self.tables._changed(table_id)
        return "replays", ids


__all__ = ["TournamentService", "TournamentError", "Standing", "rounds_over", "derive_seed", "check_format",
           "played_of", "duplicate_points", "TURN_LIMITS"]
