"""The Activity's door: what is checked before the server spends anything on a sign-in, and
how long a session stays good once the person has left.

- **The sign-in throttle.** Every ``POST /api/session`` makes the server call Discord's
  ``/oauth2/token`` with the client secret; left open, anyone could spend the application's
  OAuth2 rate limit with junk codes, and real people's sign-ins would then fail. Attempts are
  counted per address and in total over a sliding minute, and only a few code exchanges may
  be in flight at once; past either, the answer is 429 with ``Retry-After``.
- **The instance id's shape.** It goes into a bot-token URL, so it must look like Discord's
  (``i-<launch id>-gc-<guild id>-<channel id>`` in a server, ``i-<launch id>-pc-<channel id>``
  in a DM or group DM) before any call is made with it: no ``.``, ``..`` or ``/`` ever reaches
  a URL.
- **Presence.** A session names an activity instance; the instance's participants are asked
  again at most every ``recheck`` seconds per instance (one bot-token call shared by everyone
  in it) and on each new live connection, so a person who left stops acting soon after.

The clock is injected; nothing here sleeps.
"""
from __future__ import annotations

import math
import re
import time
from collections import deque
from dataclasses import dataclass
from typing import Awaitable, Callable

from .discord_api import DiscordRefused

#: Discord's activity instance id (its documented example:
#: ``i-1276580072400224306-gc-912952092627435520-912954213460484116``): a launch id, then the
#: location: ``gc-<guild>-<channel>`` or ``pc-<channel>``
INSTANCE_ID = re.compile(r"i-[0-9]{1,20}-(?:gc-[0-9]{1,20}-[0-9]{1,20}|pc-[0-9]{1,20})")
#: the sliding window the attempts are counted over (seconds)
WINDOW = 60.0
#: a look younger than this counts as fresh for a new live connection (seconds): a page that
#: signs in and connects at once costs one call, and reconnecting sockets cannot spend more
FRESH = 10.0
#: addresses (and instances) remembered at most (the oldest idle ones are forgotten first)
ADDRESSES_KEPT = 20_000


def instance_id_ok(value: object) -> bool:
    return isinstance(value, str) and INSTANCE_ID.fullmatch(value) is not None


class SignInThrottle:
    """Counts sign-in attempts; ``admit`` answers None (go on) or the seconds to wait, and
    ``enter``/``leave`` bound the exchanges in flight."""

    def __init__(self, per_address: int, total: int, in_flight: int, *,
                 clock: Callable[[], float] = time.monotonic, window: float = WINDOW) -> None:
        self.per_address = per_address
        self.total = total
        self.in_flight_max = in_flight
        self.clock = clock
        self.window = window
        self._all: deque[float] = deque()
        self._by_address: dict[str, deque[float]] = {}
        self.in_flight = 0

    def _forget_old(self, times: deque[float], now: float) -> None:
        while times and times[0] <= now - self.window:
            times.popleft()

    def admit(self, address: str) -> float | None:
        """Counts one attempt from ``address`` when it is let in; else how long to wait."""
        now = self.clock()
        self._forget_old(self._all, now)
        mine = self._by_address.get(address)
        if mine is not None:
            self._forget_old(mine, now)
        if mine is not None and len(mine) >= self.per_address:
            return mine[0] + self.window - now
        if len(self._all) >= self.total:
            return self._all[0] + self.window - now
        if mine is None:
            if len(self._by_address) >= ADDRESSES_KEPT:
                self._prune(now)
            mine = self._by_address.setdefault(address, deque())
        mine.append(now)
        self._all.append(now)
        return None

    def _prune(self, now: float) -> None:
        for key in list(self._by_address):
            times = self._by_address[key]
            self._forget_old(times, now)
            if not times:
                del self._by_address[key]
        while len(self._by_address) >= ADDRESSES_KEPT:
            del self._by_address[next(iter(self._by_address))]

    def enter(self) -> bool:
        """One more code exchange waiting on Discord, if fewer than ``in_flight`` are (checked
        and taken with no await between, so concurrent sign-ins cannot all slip through)."""
        if self.in_flight >= self.in_flight_max:
            return False
        self.in_flight += 1
        return True

    def leave(self) -> None:
        self.in_flight -= 1


def retry_after(seconds: float) -> str:
    """``Retry-After`` as HTTP wants it: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


@dataclass
class _Seen:
    users: frozenset[str]
    at: float
    #: the instance is gone (Discord answered 404)
    ended: bool = False


class Presence:
    """Who is in each activity instance, as Discord last said, asked again when older than
    ``recheck`` seconds. ``fetch(instance_id)`` returns the users' ids, or None when the
    instance has ended; it raises when Discord could not answer (the last word then stands:
    a Discord outage does not end everyone's session)."""

    def __init__(self, fetch: Callable[[str], Awaitable[frozenset[str] | None]],
                 recheck: float, clock: Callable[[], float] = time.time) -> None:
        self.fetch = fetch
        self.recheck = recheck
        self.clock = clock
        self._seen: dict[str, _Seen] = {}
        #: calls made to Discord (the tests and the bench read it)
        self.asked = 0

    def saw(self, instance_id: str, users: frozenset[str]) -> None:
        """Discord's answer at sign-in counts as a look."""
        self._seen[instance_id] = _Seen(users, self.clock())
        if len(self._seen) > ADDRESSES_KEPT:
            del self._seen[next(iter(self._seen))]

    async def still_in(self, instance_id: str, user_id: int, *, fresh: bool = False) -> bool:
        """Whether ``user_id`` is still in the instance: from the last look unless it is older
        than ``recheck`` (or than ``FRESH`` when ``fresh`` is asked)."""
        now = self.clock()
        seen = self._seen.get(instance_id)
        age = None if seen is None else now - seen.at
        if age is None or age >= self.recheck or (fresh and age >= FRESH):
            seen = await self._look(instance_id, now, seen)
        if seen is None:
            return True  # never seen and Discord silent: the signed session stands
        return not seen.ended and str(user_id) in seen.users

    async def _look(self, instance_id: str, now: float, old: _Seen | None) -> _Seen | None:
        self.asked += 1
        try:
            users = await self.fetch(instance_id)
        except DiscordRefused:  # Discord's outage: keep the last word, look again soon
            if old is not None:
                old.at = now - self.recheck + min(self.recheck, 30.0)
            return old
        seen = _Seen(frozenset() if users is None else users, now, ended=users is None)
        self._seen[instance_id] = seen
        return seen
