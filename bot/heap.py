"""Python's cycle collector, kept off the clicks' path.

With a few hundred tables in memory a full collection walks every game state, member and
message the bot holds: measured here at 80–120 ms, and it fires in the middle of a burst of
clicks because a burst is what allocates. So the long-lived objects are collected once, then
frozen out of the collector's sight (``gc.freeze``), and automatic collections only ever walk
what was made since. Every few minutes, at a moment when no interaction is being answered, the
frozen objects are thawed, collected (cyclic garbage among them is freed) and frozen again.
Plain reference counting frees everything else at once, frozen or not.
"""
from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

#: allocations between two young collections (CPython's default is 700): a burst of clicks
#: then runs a handful of young collections instead of dozens
YOUNG_THRESHOLD = 10_000
#: seconds between two full collections at a quiet moment
INTERVAL = 600.0


def tune() -> None:
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)


def collect_and_freeze() -> float:
    """A full collection of everything, frozen or not, then the survivors frozen; returns the
    pause in seconds."""
    started = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return time.perf_counter() - started


class QuietCollector:
    """Runs :func:`collect_and_freeze` every ``interval`` seconds, once ``quiet`` is set (no
    interaction under way), so that the pause lands between clicks rather than inside one."""

    def __init__(self, quiet: asyncio.Event, interval: float = INTERVAL) -> None:
        self.quiet = quiet
        self.interval = interval
        self.rounds = 0
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        tune()
        self.run_once()
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="tabletop-heap")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    def run_once(self) -> None:
        pause = collect_and_freeze()
        self.rounds += 1
        log.debug("heap: full collection in %.0f ms, %d objects frozen", pause * 1000,
                  gc.get_freeze_count())

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            await self.quiet.wait()
            self.run_once()
