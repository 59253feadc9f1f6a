"""Reviews of finished games, computed once in the search processes and stored.

When a game with a review (``bot/games/<game>/review.py``) ends, its table is queued here; one
review at a time runs in the think pool as a background call, which never delays an AI's move
(see ``ThinkPool``): a review that has to give way is run again a little later. Reviews are
deterministic, so running one twice gives the same result; a stored review of the current
version is never computed again. Durable: on start, finished games lacking a review are queued.
"""
from __future__ import annotations

import asyncio
import functools
import importlib.util
import logging
from typing import Any, Callable, Iterable

from ..games import review as grading
from ..games.registry import keys
from ..store import Store, StoreFailure
from .background import BackgroundLoop
from .thinkpool import ThinkFailed, ThinkPool, ThinkPreempted, ThinkTimeout

log = logging.getLogger(__name__)

#: a review past this many seconds of search is abandoned (retried at the next start)
#: the games whose reviews hold puzzles (a missed forced win)
PUZZLE_GAMES = ("sensei",)
TIME_LIMIT = 900.0
#: seconds before a review that gave way to a search is tried again
RETRY_AFTER = 5.0


@functools.lru_cache(maxsize=None)
@functools.lru_cache(maxsize=None)
def has_review(game: str) -> bool:
    """Whether ``game`` has a review module (a cooperative game has none)."""
    try:
        return importlib.util.find_spec(f"bot.games.{game}.review") is not None
    except ModuleNotFoundError:
        return False


def review_module(game: str) -> str:
    return f"bot.games.{game}.review"


def review_function(game: str) -> str:
    return f"{review_module(game)}:review"


def puzzle_function(game: str) -> str | None:
    """What cuts puzzles out of a reviewed game of ``game`` (None: its reviews hold none)."""
    return "bot.runtime.puzzles:cut" if game in PUZZLE_GAMES else None


class Reviewer(BackgroundLoop):
    task_name = "tabletop-reviews"

    def __init__(self, store: Store, pool: ThinkPool, *,
                 function_of: Callable[[str], str] = review_function,
                 reviewed: Callable[[str], bool] = has_review,
                 retry_after: float = RETRY_AFTER,
                 cut_of: Callable[[str], str | None] = puzzle_function) -> None:
        self.store = store
        self.pool = pool
        self.function_of = function_of
        self.cut_of = cut_of
        self.reviewed = reviewed
        self.retry_after = retry_after
        self._queue: list[int] = []
        self._wake = asyncio.Event()
        #: reviews computed and stored by this process (for tests and the log)
        self.computed = 0

    def games(self) -> list[str]:
        return [key for key in keys() if self.reviewed(key)]

    def queue(self, table_id: int) -> None:
        """Review this finished game (nothing happens when it has a review or none is made)."""
        if table_id not in self._queue:
            self._queue.append(table_id)
            self._wake.set()

    def queue_all(self, table_ids: Iterable[int]) -> None:
        for table_id in table_ids:
            self.queue(table_id)

    @property
    def pending(self) -> int:
        return len(self._queue)

    async def resume(self) -> int:
        """Queue every finished game of this process lacking a current review."""
        games = self.games()
        missing = await self.store.unreviewed(games, grading.VERSION) if games else []
        self.queue_all(missing)
        if missing:
            log.info("%d finished games queued for review", len(missing))
        return len(missing)


    async def _loop(self) -> None:
        while True:
            if not self._queue:
                self._wake.clear()
                await self._wake.wait()
                continue
            table_id = self._queue[0]
            try:
                await self.review_one(table_id)
            except ThinkPreempted:
                await asyncio.sleep(self.retry_after)
                continue  # still first in the queue
            except (ThinkFailed, ThinkTimeout) as exc:
                log.warning("table %s: review failed (%s)", table_id, type(exc).__name__)
            except StoreFailure:
                pass  # logged by the store; the next start queues it again
            except Exception:
                log.exception("table %s: review failed", table_id)
            if self._queue and self._queue[0] == table_id:
                self._queue.pop(0)

    async def review_one(self, table_id: int) -> bool:
        """Compute and store one game's review; False when there is nothing to do."""
        version = await self.store.review_version(table_id)
        if version is not None and version >= grading.VERSION:
            return False
        if self.pool.processes == 0:
            # Without search processes a review would run in a thread and hold the event
            # loop's interpreter for a minute: no reviews on such a host.
            return False
        row = await self.store.get_table(table_id)
        if row is None or row.status != "finished" or row.seed is None \
                or not self.reviewed(row.game):
            return False
        actions = [(seat, dict(action)) for seat, action in await self.store.actions(table_id)]
        body: dict[str, Any] = await self.pool.call(
            self.function_of(row.game), len(row.seats), dict(row.options), row.seed, actions,
            timeout=TIME_LIMIT, background=True)
        stored = await self.store.save_review(table_id, body)
        if stored:
            self.computed += 1
            log.info("table %s: review stored", table_id)
            await self._cut_puzzles(row, actions, body)
        return stored

    async def _cut_puzzles(self, row: Any, actions: list[tuple[int, dict[str, Any]]],
                           body: dict[str, Any]) -> None:
        """The positions before the game's missed forced wins become this server's puzzles
        (``/puzzle``). A failure here costs the puzzles, never the review."""
        function = self.cut_of(row.game)
        if function is None:
            return
        try:
            found = await self.pool.call(
                function, row.game, len(row.seats), dict(row.options),
                row.seed, actions, body, row.id, timeout=TIME_LIMIT, background=True)
        except (ThinkFailed, ThinkTimeout, ThinkPreempted) as exc:
            log.warning("table %s: no puzzles cut (%s)", row.id, type(exc).__name__)
            return
        users = {s.seat: s.user_id for s in row.seats}
        rows = [(p["id"], row.game, users.get(p["source"].get("seat"), 0), p) for p in found]
        if rows:
            await self.store.save_game_puzzles(row.guild_id, row.id, rows)
            log.info("table %s: %d puzzles cut", row.id, len(rows))
