"""The store's action log: accepted moves with the state they produced (and, at the end, the
result and rating), the outbox of messages that announce them, and Narabi's questions.
"""
from __future__ import annotations

from typing import Any

from .core import StoreCore
from .errors import StaleWrite
from .results import insert_result, rate_result
from .rows import TableRow, dumps, loads, pack_log, unpack_log
from .tournaments import report_to_tournament
from .tx import Tx


class ActionQueries(StoreCore):
    """Moves, the messages they queue, and questions."""

    async def record_actions(self, table: TableRow, *, user_id: int,
                             actions: list[tuple[int, dict[str, Any]]], state: dict[str, Any],
                             result: dict[str, Any] | None = None,
                             outcomes: list[tuple[int, int, str, bool]] | None = None,
                             outbox: list[tuple[str, dict[str, Any]]] = (),
                             ai_seat: int | None = None,
                             clock: tuple[float | None, int | None] | None = None,
                             timed_out_seat: int | None = None,
                             cooperative: bool = False) -> None:
        """Append accepted actions (seat, action), the state they produced and the messages
        that announce them, in one transaction. ``table.version`` is the number of the last
        action; the write is refused (StaleWrite) unless the stored table is still at the
        version before them. A game that ends is kept as seed + packed log + result."""
        now = self.clock()
        first = table.version - len(actions) + 1

        async def job(tx: Tx) -> None:
            # The version guard first: a process that lost the race stops here (stale), before
            # its action numbers could collide with the winner's.
            if result is None:
                # The next turn's clock in the same statement (one round trip fewer).
                turn = ", deadline=?, deadline_seat=?, reminded=0" if clock is not None else ""
                changed = await tx.execute(
                    f"UPDATE game_tables SET state=?, version=?, updated_at=?{turn} "
                    "WHERE id=? AND version=? AND status='playing'",
                    (dumps(state), table.version, now, *(clock or ()), table.id, first - 1))
            else:
                # The end stops the clock in the same statement.
                changed = await tx.execute(
                    "UPDATE game_tables SET state=NULL, version=?, status='finished', rev=rev+1, "
                    "updated_at=?, deadline=NULL, deadline_seat=NULL, reminded=0 "
                    "WHERE id=? AND version=? AND status='playing'",
                    (table.version, now, table.id, first - 1))
            if changed != 1:
                raise StaleWrite(f"table {table.id} moved on")
            await tx.executemany(
                "INSERT INTO actions (table_id, n, seat, user_id, action, at) VALUES (?,?,?,?,?,?)",
                [(table.id, first + i, seat, user_id, dumps(action), now)
                 for i, (seat, action) in enumerate(actions)])
            if result is not None:
                full_log = [(seat, loads(a)) for seat, a in await tx.fetch(
                    "SELECT seat, action FROM actions WHERE table_id=? ORDER BY n", (table.id,))]
                await tx.execute("UPDATE game_tables SET packed_log=? WHERE id=?",
                                 (pack_log(full_log), table.id))
            if ai_seat is not None:
                await tx.execute("UPDATE seats SET ai_played=1 WHERE table_id=? AND seat=? "
                           "AND ai_played=0", (table.id, ai_seat))
            if timed_out_seat is not None:
                await tx.execute("UPDATE seats SET timed_out=1 WHERE table_id=? AND seat=?",
                           (table.id, timed_out_seat))
            if result is not None:
                await insert_result(tx, table, result, outcomes or [], now)
                # A tournament's table reports to its event in the same transaction. A
                # player whose only action was the clock's resignation never showed up.
                no_show = timed_out_seat is not None and all(
                    seat != timed_out_seat for seat, _ in full_log[:-1])
                await report_to_tournament(tx, table.id, result, now, no_show=no_show)
                # In the same transaction as the end: a game is rated once, or never.
                await rate_result(tx, table, result, cooperative, now, self.rated_per_day)
                await tx.execute("DELETE FROM actions WHERE table_id=?", (table.id,))
                await tx.execute("DELETE FROM questions WHERE table_id=?", (table.id,))
                # Votes about an absent player count only at the version they were cast for,
                # so a turn need not delete them (a statement less per click); the end does.
                await tx.execute("DELETE FROM seat_votes WHERE table_id=?", (table.id,))
            await self._queue_outbox(tx, table.id, outbox, now)

        await self.write(job)

    async def record_action(self, table: TableRow, *, seat: int, user_id: int,
                            action: dict[str, Any], state: dict[str, Any],
                            result: dict[str, Any] | None = None,
                            outcomes: list[tuple[int, int, str]] | None = None) -> None:
        await self.record_actions(table, user_id=user_id, actions=[(seat, action)], state=state,
                                  result=result, outcomes=outcomes)

    async def actions(self, table_id: int) -> list[tuple[int, dict[str, Any]]]:
        """The whole action log: packed for a finished game, one row per action otherwise."""
        packed = await self._fetchall("SELECT packed_log FROM game_tables WHERE id=?", (table_id,))
        if packed and packed[0][0] is not None:
            return unpack_log(packed[0][0])
        rows = await self._fetchall(
            "SELECT seat, action FROM actions WHERE table_id=? ORDER BY n", (table_id,))
        return [(seat, loads(action)) for seat, action in rows]

    # -- the outbox -------------------------------------------------------------------------

    async def outbox(self, table_id: int) -> list[tuple[int, str, dict[str, Any]]]:
        rows = await self._fetchall(
            "SELECT id, kind, payload FROM outbox WHERE table_id=? ORDER BY id", (table_id,))
        return [(i, kind, loads(payload)) for i, kind, payload in rows]

    async def outbox_done(self, item_id: int) -> None:
        await self._statement("DELETE FROM outbox WHERE id=?", (item_id,))

    async def outbox_note(self, item_id: int, payload: dict[str, Any]) -> None:
        """Rewrite an item's payload (a step that cannot be repeated blindly notes that it
        is under way before it starts)."""
        await self._statement("UPDATE outbox SET payload=? WHERE id=?", (dumps(payload), item_id))

    async def queue_outbox(self, table_id: int, items: list[tuple[str, dict[str, Any]]]) -> None:
        async def job(tx: Tx) -> None:
            await self._queue_outbox(tx, table_id, items, self.clock())

        await self.write(job)

    # -- questions (Narabi's asking; not part of the rules state) ---------------------------

    async def add_question(self, table_id: int, turn: int, asker: int, asked: int,
                           payload: dict[str, Any], answer: bool | None = None) -> int:
        """Record a question (answered already when an AI was asked) and queue its post in the
        thread, in one transaction."""
        now = self.clock()

        async def job(tx: Tx) -> int:
            question_id = await tx.fetchval(
                "INSERT INTO questions (table_id, turn, asker, asked, payload, answer, created_at) "
                "VALUES (?,?,?,?,?,?,?) RETURNING id", (table_id, turn, asker, asked, dumps(payload),
                                           None if answer is None else int(answer), now))
            await self._queue_outbox(tx, table_id, [("question", {"id": question_id})], now)
            return question_id

        return await self.write(job)

    async def get_question(self, question_id: int) -> dict[str, Any] | None:
        rows = await self._fetchall(
            "SELECT id, table_id, turn, asker, asked, payload, answer FROM questions WHERE id=?",
            (question_id,))
        if not rows:
            return None
        qid, table_id, turn, asker, asked, payload, answer = rows[0]
        return {"id": qid, "table_id": table_id, "turn": turn, "asker": asker, "asked": asked,
                "payload": loads(payload), "answer": None if answer is None else bool(answer)}

    async def questions_of(self, table_id: int) -> list[dict[str, Any]]:
        """Every question of a running table, oldest first, as the table saw them (public)."""
        rows = await self._fetchall(
            "SELECT id, turn, asker, asked, payload, answer, created_at FROM questions "
            "WHERE table_id=? ORDER BY id", (table_id,))
        out = []
        for qid, turn, asker, asked, payload, answer, created_at in rows:
            question = loads(payload)
            out.append({"id": qid, "turn": turn, "asker": asker, "asked": asked,
                        "card": question.get("card"), "other": question.get("other"),
                        "answer": None if answer is None else bool(answer), "at": created_at})
        return out

    async def answer_question(self, question_id: int, answer: bool) -> bool:
        """Record the answer once; False when it was already answered."""
        async def job(tx: Tx) -> bool:
            changed = await tx.execute("UPDATE questions SET answer=? WHERE id=? AND answer IS NULL",
                                   (int(answer), question_id))
            return changed == 1

        return await self.write(job)
