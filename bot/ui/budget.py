"""This process's share of the bot token's request budget, spent in order of urgency.

Discord lets a bot token make 50 requests per second in all, across every process that uses
it (interaction responses and follow-ups aside), and answers more with 429s, which count
towards a ban at 10,000 in 10 minutes. discord.py only reacts to a 429 after the fact, so the
bot paces itself ahead of it: every call through the bot's own token waits here for a place in
a sliding one-second window of ``per_second`` calls. With several processes each takes its
share (``DISCORD_REST_BUDGET`` / processes, see config), so together they stay under 50.
A call made while a person's interaction is being answered goes ahead of background work
(board repairs, DMs): a person waits for the one, nobody for the other.
"""
from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import time
from collections import deque
from typing import Any, Awaitable, Callable

#: Discord's global limit per bot token
DISCORD_PER_SECOND = 50
#: what the whole bot allows itself by default: a margin under Discord's 50 for the time
#: a request spends on the way (arrivals bunch up that leaving calls did not)
DEFAULT_PER_SECOND = 45.0

#: set while an interaction is being answered: its calls go first
URGENT: contextvars.ContextVar[bool] = contextvars.ContextVar("tabletop_urgent", default=False)


class Budget:
    def __init__(self, per_second: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if per_second <= 0:
            raise ValueError("a budget needs at least some calls per second")
        self.per_second = per_second
        self._clock = clock
        self._window: deque[float] = deque()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._wakeup: asyncio.TimerHandle | None = None
        #: calls let through, and how long calls waited in all (seconds)
        self.spent = 0
        self.waited = 0.0

    @property
    def _capacity(self) -> int:
        return max(1, int(self.per_second))

    def _window_seconds(self) -> float:
        # At most ``per_second`` calls in any second, as Discord counts them; below one call a
        # second, one call per 1/per_second seconds.
        return max(1.0, 1.0 / self.per_second)

    def _free(self, now: float) -> bool:
        return self._wait(now) <= 0.0

    def _wait(self, now: float) -> float:
        """Seconds until the next call may go: a place in the window, and its turn in a
        steady flow. Calls are spaced evenly rather than sent in bursts: requests bunch up on
        the way (a cold connection, a slow moment), and a burst that leaves within one second
        could arrive with the next one inside another."""
        span = self._window_seconds()
        while self._window and self._window[0] <= now - span:
            self._window.popleft()
        wait = 0.0
        if len(self._window) >= self._capacity:
            wait = self._window[0] + span - now
        if self._window:
            wait = max(wait, self._window[-1] + 1.0 / self.per_second - now)
        return wait

    async def acquire(self) -> None:
        now = self._clock()
        if not self._waiting and self._free(now):
            self._window.append(now)
            self.spent += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if URGENT.get() else 1, next(self._order), future))
        self._schedule()
        started = now
        # A call cancelled after it was given its place leaves the place spent: the window
        # only ever counts too many, never too few.
        await future
        self.waited += self._clock() - started

    def _schedule(self) -> None:
        if self._wakeup is not None or not self._waiting:
            return
        delay = self._wait(self._clock())
        self._wakeup = asyncio.get_running_loop().call_later(max(delay, 0.0), self._release)

    def _release(self) -> None:
        self._wakeup = None
        now = self._clock()
        while self._waiting and self._free(now):
            _, _, future = heapq.heappop(self._waiting)
            if future.cancelled():
                continue
            self._window.append(now)
            self.spent += 1
            future.set_result(None)
        self._schedule()


def pace(http: Any, budget: Budget) -> None:
    """Make every call through ``http`` (discord.py's HTTPClient: the bot token's calls, never
    an interaction's responses) wait for its place in ``budget``."""
    original: Callable[..., Awaitable[Any]] = http.request

    async def paced(route: Any, **kwargs: Any) -> Any:
        await budget.acquire()
        return await original(route, **kwargs)

    http.request = paced


def share(total_per_second: float, processes: int) -> float:
    """One process's part of the token's budget when ``processes`` share it."""
    return total_per_second / max(1, processes)
