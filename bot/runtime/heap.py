"""Python's cycle collector, run between clicks instead of inside them.

Reference counting frees almost everything the moment it is dropped; the cycle collector only
finds garbage that refers to itself. CPython runs it after a count of allocations, which is to
say in the middle of a burst of clicks, because a burst is what allocates: with a few hundred
tables in memory a full collection was measured here at 80–120 ms, a middle one at 50 ms, the
young ones 6–9 ms each, four or five per burst of 200 clicks.

So the bot runs the collector itself. Automatic collection is off while the bot runs; once a
second, at a moment when no interaction is being answered, the young and middle generations
are collected; every ten minutes, at such a moment, everything is collected and the survivors
are frozen out of later collections (``gc.freeze``), so that those only walk what was made
since. A backstop keeps memory bounded on a bot that is never quiet: past a count of
allocations, the click that crosses it collects the young generations itself.
"""
from __future__ import annotations

import asyncio
import gc
import logging
import time

from .background import BackgroundLoop

log = logging.getLogger(__name__)

#: seconds between two collections of the young generations, at quiet moments
YOUNG_EVERY = 1.0
#: seconds between two full collections (and freezes), at quiet moments
INTERVAL = 600.0
#: allocations past which a collection runs even with clicks under way (CPython's default
#: automatic threshold is 700; a burst of 200 clicks allocates about 50,000)
BACKSTOP = 200_000
#: a full collection waits this long at most for a quiet moment
FULL_PATIENCE = 60.0
#: seconds without an interaction that make a quiet moment
QUIET_FOR = 0.05


def collect_and_freeze() -> float:
    """A full collection of everything, frozen or not, then the survivors frozen; returns the
    pause in seconds."""
    started = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return time.perf_counter() - started


class QuietCollector(BackgroundLoop):
    """The collector of a bot process: see the module's text. ``quiet`` is set while no
    interaction is being answered."""
    task_name = "tabletop-heap"

    def __init__(self, quiet: asyncio.Event, interval: float = INTERVAL,
                 young_every: float = YOUNG_EVERY) -> None:
        self.quiet = quiet
        self.interval = interval
        self.young_every = young_every
        self.rounds = 0
        self.young_rounds = 0
        self.backstops = 0

    def start(self) -> None:
        gc.disable()
        self.run_once()
        super().start()

    async def stop(self) -> None:
        await super().stop()
        gc.enable()  # the process gets its own collector back

    def run_once(self) -> None:
        pause = collect_and_freeze()
        self.rounds += 1
        log.debug("heap: full collection in %.0f ms, %d objects frozen", pause * 1000,
                  gc.get_freeze_count())

    def after_click(self) -> None:
        """Called as each interaction ends: the backstop of a bot that is never quiet."""
        if self._task is not None and gc.get_count()[0] > BACKSTOP:
            gc.collect(1)
            self.backstops += 1

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        last_full = loop.time()
        while True:
            await asyncio.sleep(self.young_every)
            due = loop.time() - last_full >= self.interval
            try:
                await asyncio.wait_for(self.quiet.wait(), FULL_PATIENCE if due else None)
                # The gap between two clicks of a burst is no quiet moment: it must last.
                await asyncio.sleep(QUIET_FOR)
                if not self.quiet.is_set() and not due:
                    continue
            except asyncio.TimeoutError:
                pass  # never quiet for a minute: collect all the same, rather than never
            if due:
                self.run_once()
                last_full = loop.time()
            elif gc.get_count()[0] > 0:
                gc.collect(1)
                self.young_rounds += 1
