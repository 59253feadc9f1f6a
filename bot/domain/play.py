"""Play: applying moves (a person's, an AI's, a forfeit's) and committing them with the messages
that announce them; turn clocks running out, reminders, and seats changing hands (an AI
standing in, a vote that someone is absent, a person coming back).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from ..games import Result
from ..store import SeatRow, StaleWrite
from .regulation import draws_outright, drawn, ruling
from .live import STAND_IN_LEVEL, LiveTable, Outcome, TableCache, TableError, closed_error


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


class PlayOps(TableCache):
    """Moves and the turn clock of running tables."""

    # -- play -------------------------------------------------------------------------------

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
        regulated: list[tuple[str, dict[str, Any]]] = []
        if result is None and game.to_move != mover_before:
            found = ruling(game)  # a game that would never end (regulation.py)
            if found is not None and (draws_outright(row.seats, tournament=False) or await
                                      self.store.tournament_of_table(table_id) is not None):
                game, ended = drawn(game, found)
                events.extend(ended)
                result = game.result()
            elif found is not None and found.offer:
                regulated.append(("regulation", {"reason": found.reason, **found.details}))
        changed = {}
        for s in range(len(row.seats)):
            after = game.private_view(s)
            if after != before[s]:
                changed[s] = (before[s], after)
        version = row.version + len(applied)
        outcome = Outcome(live, seat, applied[-1], events, result, changed, version)
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
        outbox += regulated
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
        mover = (row.game, "ai" if ai else "timeout" if timed_out else "person")
        self.moves[mover] = self.moves.get(mover, 0) + len(applied)
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
