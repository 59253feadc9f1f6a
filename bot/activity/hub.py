"""The live side: every open board (a WebSocket) and the tables it watches. A committed change
to a table, made anywhere in this process (a click in the thread, a typed move, an AI, the
Activity) reaches the hub through the table service's listeners; a change made by another
process arrives through the database (``pgnotify``). Each table's public part is built once
per version and shared; only the viewer's own part is built per seat.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

from aiohttp import web

from ..domain.live import TableError
from .service import ActivityService, Refused
from .sessions import Session

log = logging.getLogger(__name__)

#: tables one board may watch at once
WATCH_MAX = 20
#: a board that has not taken this many pushes is too slow: it is closed (the page reconnects)
BACKLOG_MAX = 64
#: seconds between two looks at the questions of the Narabi tables being watched (a question
#: asked or answered with the thread's buttons changes no version)
QUESTIONS_EVERY = 3.0


class Board:
    """One open page's socket: its session, what it watches, and what it was last sent."""

    __slots__ = ("ws", "session", "watching", "sent", "wants_list", "queue", "writer")

    def __init__(self, ws: web.WebSocketResponse, session: Session) -> None:
        self.ws = ws
        self.session = session
        self.watching: set[int] = set()
        #: table id -> the stamp last sent
        self.sent: dict[int, tuple[int, int, int]] = {}
        self.wants_list = False
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.writer: asyncio.Task[None] | None = None

    def send(self, text: str) -> bool:
        if self.queue.qsize() >= BACKLOG_MAX:
            return False
        self.queue.put_nowait(text)
        return True

    async def write(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                await self.ws.send_str(text)
        except (ConnectionResetError, RuntimeError, asyncio.CancelledError):
            pass


class Hub:
    def __init__(self, service: ActivityService) -> None:
        self.service = service
        self.tables = service.tables
        self.boards: set[Board] = set()
        self._by_table: dict[int, set[Board]] = {}
        self._pending: dict[int, bool] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._questions: asyncio.Task[None] | None = None
        #: told of every change committed here (the database bridge passes it on)
        self.on_local_change: Callable[[int, int, int], None] | None = None
        #: pushes sent since start (the bench reads it)
        self.pushed = 0
        self.tables.listeners.append(self._changed_here)
        service.on_change = lambda table_id: self.mark(table_id, force=True)

    # -- being told ---------------------------------------------------------------------------

    def _changed_here(self, table_id: int) -> None:
        if self.on_local_change is not None:
            live = self.tables._cache.get(table_id) or self.tables._recent.get(table_id)
            if live is not None:
                self.on_local_change(table_id, live.row.version, live.row.rev)
        self.mark(table_id)

    def changed_elsewhere(self, table_id: int, version: int, rev: int) -> None:
        """Another process committed this version: drop the copy kept here, push the new."""
        self.tables.forget_older(table_id, version, rev)
        self.mark(table_id)

    def mark(self, table_id: int, *, force: bool = False) -> None:
        if table_id not in self._by_table and not any(b.wants_list for b in self.boards):
            return
        self._pending[table_id] = self._pending.get(table_id, False) or force
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._drain(),
                                                                name="activity-fanout")

    async def _drain(self) -> None:
        while self._pending:
            table_id, force = next(iter(self._pending.items()))
            del self._pending[table_id]
            try:
                await self.push(table_id, force=force)
            except Exception:
                log.exception("table %s: pushing to open boards failed", table_id)

    async def _watch_questions(self) -> None:
        while True:
            await asyncio.sleep(QUESTIONS_EVERY)
            for table_id in list(self._by_table):
                try:
                    await self.service.questions_moved(table_id)
                except Exception as exc:  # a storage fault: looked at again next round
                    log.info("table %s: questions not read (%s)", table_id, type(exc).__name__)

    async def stop(self) -> None:
        if self.tables.listeners and self._changed_here in self.tables.listeners:
            self.tables.listeners.remove(self._changed_here)
        for task in (self._task, self._questions):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        for board in list(self.boards):
            await board.ws.close(code=1001, message=b"server stopping")
            self.drop(board)

    # -- pushing ------------------------------------------------------------------------------

    async def push(self, table_id: int, *, force: bool = False) -> int:
        """Send the table's newest state to every board watching it; returns how many."""
        watching = self._by_table.get(table_id)
        if watching:
            live = await self.tables.with_game(table_id)
            if live is None:
                return 0
            stamp = self.service.stamp(live)
            public = await self.service.public_json(live)
            head = f'{{"type":"state","table":{table_id},"state":'
            by_seat: dict[Any, str] = {}
            sent = 0
            for board in list(watching):
                if not force and board.sent.get(table_id) == stamp:
                    continue
                user = board.session.user_id
                seat = live.row.seat_of(user)
                text = by_seat.get(seat)
                if text is None:
                    text = by_seat[seat] = head + self.service.state_json(live, public, user) + "}"
                board.sent[table_id] = stamp
                if board.send(text):
                    sent += 1
                else:
                    await self._too_slow(board)
            self.pushed += sent
        else:
            sent = 0
        await self._push_lists(table_id)
        return sent

    async def _push_lists(self, table_id: int) -> None:
        listing = [b for b in self.boards if b.wants_list]
        if not listing:
            return
        live = await self.tables.get(table_id)
        if live is None:
            return
        where = {live.row.channel_id, live.row.thread_id}
        for board in listing:
            if board.session.channel_id in where:
                await self.send_list(board)

    async def send_list(self, board: Board) -> None:
        listing = await self.service.channel_tables(board.session)
        board.send(self.service_json({"type": "tables", **listing}))

    @staticmethod
    def service_json(value: Any) -> str:
        from .views import dumps
        return dumps(value)

    async def _too_slow(self, board: Board) -> None:
        log.info("an open board fell behind; closing it (the page reconnects)")
        self.drop(board)
        await board.ws.close(code=4408, message=b"too slow")

    # -- boards -------------------------------------------------------------------------------

    def add(self, board: Board) -> None:
        self.boards.add(board)
        if self._questions is None:
            self._questions = asyncio.get_running_loop().create_task(
                self._watch_questions(), name="activity-questions")
        board.writer = asyncio.get_running_loop().create_task(board.write(),
                                                              name="activity-board")

    def drop(self, board: Board) -> None:
        self.boards.discard(board)
        for table_id in board.watching:
            watchers = self._by_table.get(table_id)
            if watchers is not None:
                watchers.discard(board)
                if not watchers:
                    del self._by_table[table_id]
                    self.service.forget(table_id)
        board.watching.clear()
        if board.writer is not None:
            board.writer.cancel()

    async def watch(self, board: Board, table_ids: list[int]) -> None:
        """The board now watches ``table_ids`` (of its channel only); each is sent at once."""
        wanted: list[int] = []
        for table_id in table_ids[:WATCH_MAX]:
            try:
                await self.service.live(table_id, board.session)
            except (Refused, TableError) as exc:
                if isinstance(exc, Refused):
                    board.send(self.service_json({"type": "error", "table": table_id,
                                                  **exc.body()}))
                continue
            wanted.append(table_id)
        for table_id in board.watching - set(wanted):
            watchers = self._by_table.get(table_id)
            if watchers is not None:
                watchers.discard(board)
                if not watchers:
                    del self._by_table[table_id]
        board.watching = set(wanted)
        board.sent = {k: v for k, v in board.sent.items() if k in board.watching}
        for table_id in wanted:
            self._by_table.setdefault(table_id, set()).add(board)
            board.sent.pop(table_id, None)
            await self.push(table_id)
