"""AI players at the table: whenever a running table waits for a seat an AI holds, the AI thinks
(in the worker pool, on that seat's view only) and plays, at a pace people can follow.

One task per table with an AI to move, started by a change to the table (every commit tells
the listeners of ``TableService``) or by ``resume_all`` after a restart. A think whose table
changed meanwhile (a resignation, a seat handed back) is cancelled: its worker is stopped.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Awaitable, Callable

from ..games.ai import choose_action, seat_view
from ..games import IllegalAction
from ..store import StoreFailure
from ..domain.tables import LiveTable, TableError, TableService
from .thinkpool import ThinkPool, ThinkTimeout

log = logging.getLogger(__name__)

#: Called before a think with (table, seat, level, view, think); returns the view to think on
#: (a game may add public facts, e.g. Narabi's answered questions) or a number of seconds to
#: wait before looking again (the AI asked a teammate something and waits for the answer).
Prepare = Callable[[LiveTable, int, str, dict[str, Any], "Think"], Awaitable["dict[str, Any] | float"]]
Think = Callable[..., Awaitable[Any]]

#: a storage fault while committing an AI move is retried after this long (then doubled)
RETRY_SECONDS = 2.0


def think_seed(table_seed: int | None, version: int) -> int:
    """The AI's seed for a table at a version: the same choice if the move is thought again
    after a restart."""
    return ((table_seed or 0) * 1_000_003 + version) % (1 << 63)


class AutoPlayer:
    def __init__(self, tables: TableService, pool: ThinkPool, *, pause: float,
                 think_limit: float = 20.0, prepare: Prepare | None = None,
                 on_commit: Callable[[int], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self.tables = tables
        self.pool = pool
        self.pause = pause
        self.think_limit = think_limit
        self.prepare = prepare
        self.on_commit = on_commit
        self.clock = clock
        self.sleep = sleep
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._thinking: dict[int, asyncio.Future[Any]] = {}
        self._last_change: dict[int, float] = {}
        self._later: dict[int, asyncio.TimerHandle] = {}
        #: tables whose AI is only waiting out its pause before playing
        self._pausing: set[int] = set()
        #: tables whose AI is in the middle of its own turn (its next move follows at once)
        self._mid_turn: set[int] = set()
        self._stopped = False
        #: AI moves committed since start (for the bench and the logs)
        self.moves = 0
        #: moves played at random because the search failed or ran past the think limit
        self.fallbacks = 0
        #: AI moves being thought right now, by level
        self.thinking: dict[str, int] = {}
        #: told (game, level, seconds) after each move's think (the operator's metrics)
        self.on_think: Callable[[str, str, float], None] | None = None
        tables.listeners.append(self._on_change)

    # -- being told -----------------------------------------------------------------------

    def _on_change(self, table_id: int) -> None:
        live = self.tables._cache.get(table_id)
        if live is not None and not any(s.ai for s in live.row.seats) \
                and table_id not in self._tasks:
            return  # people only: nothing for an AI to do (the common case, kept cheap)
        self._last_change[table_id] = self.clock()
        # Whatever is being thought for this table was thought for a table that is gone.
        thinking = self._thinking.get(table_id)
        if thinking is not None and not thinking.done():
            thinking.cancel()
        self.poke(table_id)

    def poke(self, table_id: int) -> None:
        """Look at the table soon: play if an AI is to move."""
        if self._stopped:
            return
        task = self._tasks.get(table_id)
        if task is not None and not task.done():
            self._again.add(table_id)
            return
        self._tasks[table_id] = asyncio.get_running_loop().create_task(
            self._run(table_id), name=f"ai-table-{table_id}")

    def poke_later(self, table_id: int, delay: float) -> None:
        old = self._later.pop(table_id, None)
        if old is not None:
            old.cancel()
        self._later[table_id] = asyncio.get_running_loop().call_later(
            max(0.0, delay), self._later_due, table_id)

    def _later_due(self, table_id: int) -> None:
        self._later.pop(table_id, None)
        self.poke(table_id)

    async def resume_all(self) -> int:
        """After a restart: every running table where an AI holds a seat is looked at again
        (an AI turn that was being thought when the bot stopped is thought again)."""
        ids = await self.tables.store.tables_with_ai()
        for table_id in ids:
            self.poke(table_id)
        return len(ids)

    def _working(self) -> list[asyncio.Task[None]]:
        return [task for table_id, task in self._tasks.items()
                if not task.done() and table_id not in self._pausing]

    @property
    def active(self) -> int:
        """Tables whose AI is thinking or playing (not those only waiting out the pause)."""
        return len(self._working())

    async def wait_idle(self) -> None:
        """Until no AI is thinking or playing (tests and the bench); pauses are not work."""
        while True:
            working = self._working()
            if not working:
                return
            await asyncio.wait(working, timeout=0.05)

    async def stop(self) -> None:
        self._stopped = True
        for handle in self._later.values():
            handle.cancel()
        self._later.clear()
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def start_again(self) -> int:
        """After :meth:`stop`: AI players play again at every running table (the bench
        alternates quiet and loaded phases on one bot)."""
        self._stopped = False
        return await self.resume_all()

    # -- playing --------------------------------------------------------------------------

    async def _run(self, table_id: int) -> None:
        retry = RETRY_SECONDS
        try:
            while not self._stopped:
                self._again.discard(table_id)
                try:
                    played = await self._step(table_id)
                except StoreFailure as exc:
                    log.warning("table %s: AI move not stored (%s); trying again in %.0f s",
                                table_id, exc.cause, retry)
                    await self.sleep(retry)
                    retry = min(retry * 2, 60.0)
                    continue
                if not played and table_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: AI player failed", table_id)
        finally:
            if self._tasks.get(table_id) is asyncio.current_task():
                del self._tasks[table_id]

    async def _think(self, table_id: int, function: str, *args: Any) -> Any:
        """Run a pure search in the pool; cancelled (CancelledError) when the table changes."""
        inner = asyncio.ensure_future(self.pool.call(function, *args, timeout=self.think_limit))
        self._thinking[table_id] = inner
        try:
            await asyncio.wait({inner})
        finally:
            if self._thinking.get(table_id) is inner:
                del self._thinking[table_id]
            if not inner.done():
                inner.cancel()
        return inner.result()  # raises CancelledError if the table changed, or the failure

    async def _step(self, table_id: int) -> bool:
        """Play one AI move if an AI is to move; True when the table should be looked at again."""
        live = await self.tables.get(table_id)
        if live is None or live.row.status != "playing" or live.game is None:
            self._forget(table_id)
            return False
        game = live.game
        seat = game.to_move
        if seat is None or live.row.seats[seat].ai is None:
            return False
        level, version, key = live.row.seats[seat].ai, live.row.version, live.row.game
        seed = think_seed(live.row.seed, version)
        view: Any = seat_view(game, seat)

        async def think(function: str, *args: Any) -> Any:
            return await self._think(table_id, function, *args)

        try:
            if self.prepare is not None:
                view = await self.prepare(live, seat, level, view, think)
                if not isinstance(view, dict):
                    self.poke_later(table_id, float(view))
                    return False
            action = await self._timed(key, level, think("bot.games.ai:choose_action", key,
                                                           view, level, seed))
        except asyncio.CancelledError:
            if self._stopped or asyncio.current_task().cancelling():  # type: ignore[union-attr]
                raise
            return True  # the table changed while thinking: look again
        except Exception as exc:
            # A search that failed or ran past the safety limit must not stall the table.
            hint = (" (if the host is busy with other programs, try AI_PRIORITY=low)"
                    if isinstance(exc, ThinkTimeout) else "")
            log.warning("table %s: AI %s think failed (%s); playing a random legal move%s",
                        table_id, level, type(exc).__name__, hint)
            action = choose_action(key, view, "random", seed)
            self.fallbacks += 1
        wait = self.pause - (self.clock() - self._last_change.get(table_id, 0.0))
        if wait > 0 and table_id not in self._mid_turn:
            self._pausing.add(table_id)
            try:
                await self.sleep(wait)
            finally:
                self._pausing.discard(table_id)
        try:
            outcome = await self.tables.act_for_ai(table_id, seat, action, expected_version=version)
        except TableError:
            self._mid_turn.discard(table_id)
            return True  # the table moved on meanwhile: look again
        except IllegalAction as exc:
            # The code only: a refusal's sentence may name a card's secret condition.
            log.error("table %s: AI %s chose a refused action (%s)", table_id, level, exc.code)
            self._mid_turn.discard(table_id)
            return False
        self.moves += 1
        after = outcome.table.game
        if outcome.result is None and after is not None and after.to_move == seat:
            # A turn of several moves (Sensei) is played through and shown once, whole: its
            # line names every move and the board draws them as arrows, for one board edit
            # instead of one per move.
            self._mid_turn.add(table_id)
        else:
            self._mid_turn.discard(table_id)
            if self.on_commit is not None:
                self.on_commit(table_id)
        return True

    async def _timed(self, game: str, level: str, thought: Awaitable[Any]) -> Any:
        """The think's time, on the real clock (a search runs in real time whatever the
        table's clock says); a think cut short by a change to the table is not counted."""
        self.thinking[level] = self.thinking.get(level, 0) + 1
        started = time.perf_counter()
        cancelled = False
        try:
            return await thought
        except asyncio.CancelledError:
            cancelled = True
            raise
        finally:
            self.thinking[level] -= 1
            if self.on_think is not None and not cancelled:
                self.on_think(game, level, time.perf_counter() - started)

    def _forget(self, table_id: int) -> None:
        self._last_change.pop(table_id, None)
        self._mid_turn.discard(table_id)
        handle = self._later.pop(table_id, None)
        if handle is not None:
            handle.cancel()
