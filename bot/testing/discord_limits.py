"""Discord's published limits, enforced by the stand-in exactly as Discord answers them.

- **Global budget**: a bot token gets 50 requests per second in all, whatever process sends
  them. Interaction callbacks and the interaction's webhook (follow-ups, edits of its
  messages) are not counted. Past it: 429, ``"global": true``, ``X-RateLimit-Scope: global``.
- **Per-route buckets**: each route (with its major parameter: the channel, the guild, the
  webhook) has a bucket announced in ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``;
  past it: 429 with ``retry_after`` and ``X-RateLimit-Scope: user``.
- **Invalid requests**: 10,000 answers of 401, 403 or 429 (a 429 of scope ``shared`` excepted)
  within 10 minutes ban the bot's address for an hour: every request then gets Cloudflare's 429,
  a plain-text page without Discord's ``Via`` header.
- **Messages**: content ≤ 2,000 characters, ≤ 10 embeds of ≤ 6,000 characters in all, ≤ 5 rows
  of ≤ 5 components, ≤ 25 options in a select, attachments ≤ 10 MiB in all.
- **Interactions**: the first answer within 3 s, the token usable for 15 minutes.

Discord does not publish per-route numbers (they are read from the headers); the buckets below
are the ones Discord announces for these routes.
"""
from __future__ import annotations

import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

GLOBAL_PER_SECOND = 50
INVALID_LIMIT = 10_000
INVALID_WINDOW = 600.0
BAN_SECONDS = 3600.0
INTERACTION_DEADLINE = 3.0
INTERACTION_TOKEN_LIFETIME = 15 * 60.0
CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
ROW_COMPONENTS_MAX = 5
SELECT_OPTIONS_MAX = 25
ATTACHMENTS_MAX_BYTES = 10 * 1024 * 1024

#: (method, route) -> (bucket name, requests, per seconds); the route's major parameter
#: (channel, guild, webhook and token) makes one bucket of each
ROUTE_BUCKETS: dict[tuple[str, str], tuple[str, int, float]] = {
    ("POST", "/channels/{channel_id}/messages"): ("create-message", 5, 5.0),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): ("edit-message", 5, 5.0),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): ("delete-message", 5, 1.0),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): ("start-thread", 10, 10.0),
    ("PUT", "/applications/{application_id}/commands"): ("bulk-commands", 2, 20.0),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): ("bulk-commands", 2, 20.0),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): ("webhook", 5, 2.0),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): ("webhook", 5, 2.0),
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): ("webhook-get", 50, 1.0),
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): ("webhook", 5, 2.0),
}
DEFAULT_BUCKET = ("default", 5, 1.0)

_SNOWFLAKE = re.compile(r"^\d+$")
_MAJOR = {"channels": "channel_id", "guilds": "guild_id"}


def route_of(path: str) -> tuple[str, str]:
    """A path's route template and its major parameter: ``/channels/7/messages/9`` ->
    (``/channels/{channel_id}/messages/{message_id}``, ``"7"``)."""
    parts = path.split("?", 1)[0].strip("/").split("/")
    out, major = [], ""
    for i, part in enumerate(parts):
        before = parts[i - 1] if i else ""
        if before in _MAJOR and _SNOWFLAKE.match(part):
            out.append("{" + _MAJOR[before] + "}")
            major = major or part
        elif before == "webhooks" and _SNOWFLAKE.match(part):
            out.append("{webhook_id}")
            major = part
        elif i >= 2 and parts[i - 2] == "webhooks":
            out.append("{webhook_token}")
            major += "/" + part
        elif before == "interactions" and _SNOWFLAKE.match(part):
            out.append("{interaction_id}")
        elif i >= 2 and parts[i - 2] == "interactions":
            out.append("{interaction_token}")
        elif _SNOWFLAKE.match(part):
            name = {"messages": "message_id", "applications": "application_id",
                    "users": "user_id", "commands": "command_id"}.get(before, "id")
            out.append("{" + name + "}")
        else:
            out.append(part)
    return "/" + "/".join(out), major


def exempt_from_global(route: str) -> bool:
    """Interaction callbacks and the interaction's own webhook are not counted."""
    return route.startswith(("/interactions/", "/webhooks/{webhook_id}/{webhook_token}"))


@dataclass
class Bucket:
    limit: int
    per: float
    remaining: int
    reset_at: float
    name: str


@dataclass
class Throttle:
    """One 429 the stand-in gave: when, on what, of which scope."""
    at: float
    method: str
    path: str
    scope: str


@dataclass
class RateLimits:
    """The rate-limit side of Discord for any number of bot tokens."""

    clock: Callable[[], float]
    enabled: bool = True
    #: how much faster than real time the rate-limit windows pass (1: Discord's own pace).
    #: The counts stay Discord's; a test suite may run the windows faster so that a game
    #: played click after click does not wait out real seconds per board edit.
    time_scale: float = 1.0
    global_per_second: int = GLOBAL_PER_SECOND
    #: counted requests' arrival times, per token
    counted: dict[str, deque] = field(default_factory=dict)
    #: every counted request's arrival time (for "at most N in any second" checks)
    counted_log: list[float] = field(default_factory=list)
    buckets: dict[tuple[str, str, str], Bucket] = field(default_factory=dict)
    invalid: deque = field(default_factory=deque)
    invalid_total: int = 0
    banned_until: float = 0.0
    throttled: list[Throttle] = field(default_factory=list)
    #: route buckets held at 0 remaining until a time (a fault a test injects)
    held: dict[str, float] = field(default_factory=dict)

    # -- the invalid-request counter ------------------------------------------------------

    def note_status(self, status: int, scope: str | None = None) -> None:
        if status in (401, 403) or (status == 429 and scope != "shared"):
            now = self.clock()
            self.invalid.append(now)
            self.invalid_total += 1
            self._prune_invalid(now)
            if len(self.invalid) >= INVALID_LIMIT:
                self.banned_until = now + BAN_SECONDS

    def _prune_invalid(self, now: float) -> None:
        while self.invalid and self.invalid[0] <= now - INVALID_WINDOW:
            self.invalid.popleft()

    def banned(self) -> bool:
        return self.clock() < self.banned_until

    @property
    def invalid_in_window(self) -> int:
        self._prune_invalid(self.clock())
        return len(self.invalid)

    # -- budgets ----------------------------------------------------------------------------

    def window_clock(self) -> float:
        """Time as the rate-limit windows see it (``time_scale`` times real time)."""
        return self.clock() * self.time_scale

    def admit(self, token: str, method: str, path: str) -> tuple[int, dict[str, str], Any] | dict[str, str]:
        """Take a request through the global budget and its route's bucket: the headers to
        answer with when it may go on, or the whole 429 answer when it may not."""
        route, major = route_of(path)
        name, limit, per = ROUTE_BUCKETS.get((method, route), DEFAULT_BUCKET)
        if not self.enabled:
            return {}
        now = self.window_clock()
        if not exempt_from_global(route):
            window = self.counted.setdefault(token, deque())
            while window and window[0] <= now - 1.0:
                window.popleft()
            if len(window) >= self.global_per_second:
                retry = (window[0] + 1.0 - now) / self.time_scale
                return self._refuse(now, method, path, "global", max(retry, 0.001), {})
        key = (name, major, token)
        bucket = self.buckets.get(key)
        if bucket is None or now >= bucket.reset_at:
            bucket = self.buckets[key] = Bucket(limit, per, limit, now + per, name)
        held_until = self.held.get(name, 0.0) * self.time_scale
        if now < held_until:
            bucket.remaining = 0
            bucket.reset_at = max(bucket.reset_at, held_until)
        reset_after = max(bucket.reset_at - now, 0.0) / self.time_scale
        headers = {"X-RateLimit-Limit": str(bucket.limit),
                   "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                   "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                   "X-RateLimit-Bucket": f"{name}-bucket"}
        if bucket.remaining <= 0:
            headers["X-RateLimit-Remaining"] = "0"
            return self._refuse(now, method, path, "user", max(reset_after, 0.001), headers)
        bucket.remaining -= 1
        headers["X-RateLimit-Remaining"] = str(bucket.remaining)
        if not exempt_from_global(route):
            self.counted[token].append(now)
            self.counted_log.append(self.clock())
        return headers

    def _refuse(self, now: float, method: str, path: str, scope: str, retry: float,
                headers: dict[str, str]) -> tuple[int, dict[str, str], Any]:
        retry = round(retry, 3) or 0.001
        self.throttled.append(Throttle(self.clock(), method, path, scope))
        self.note_status(429, scope)
        headers = dict(headers, **{"Retry-After": f"{retry:.3f}", "X-RateLimit-Scope": scope,
                                   "Via": "1.1 google"})
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        return 429, headers, {"message": "You are being rate limited.", "retry_after": retry,
                              "global": scope == "global", "code": 0}

    def hold(self, bucket: str, seconds: float) -> None:
        """Keep a route's bucket at 0 remaining for ``seconds`` (real time): a fault."""
        self.held[bucket] = self.clock() + seconds

    def max_in_any_second(self, since: float = 0.0) -> int:
        """The most counted requests that arrived within one real second, from ``since`` on."""
        times = [t for t in self.counted_log if t >= since]
        best, start = 0, 0
        for end, at in enumerate(times):
            while times[start] <= at - 1.0:
                start += 1
            best = max(best, end - start + 1)
        return best

    def throttles(self, scope: str | None = None) -> list[Throttle]:
        return [t for t in self.throttled if scope is None or t.scope == scope]


# -- message limits --------------------------------------------------------------------------

def _add_error(errors: dict[str, Any], path: list[str], code: str, message: str) -> None:
    """Put one error into Discord's ``errors`` tree at ``path`` (several may share a branch)."""
    node = errors
    for part in path:
        node = node.setdefault(part, {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _embed_length(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def message_errors(body: Any, files: list[tuple[str, bytes]]) -> tuple[int, dict[str, Any]] | None:
    """What Discord answers a message body (create, edit, interaction response, follow-up)
    that breaks its size limits: (status, error body), or None when it is within them."""
    if sum(len(data) for _, data in files) > ATTACHMENTS_MAX_BYTES:
        return 413, {"code": 40005, "message": "Request entity too large"}
    if not isinstance(body, dict):
        return None
    errors: dict[str, Any] = {}
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_MAX:
        _add_error(errors, ["content"], "BASE_TYPE_MAX_LENGTH",
                             f"Must be {CONTENT_MAX} or fewer in length.")
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        _add_error(errors, ["embeds"], "BASE_TYPE_MAX_LENGTH",
                             f"Must be {EMBEDS_MAX} or fewer in length.")
    elif sum(_embed_length(e) for e in embeds) > EMBED_TOTAL_MAX:
        _add_error(errors, ["embeds"], "MAX_EMBED_SIZE_EXCEEDED",
                             "Embed size exceeds maximum size of 6000")
    rows = body.get("components") or []
    if len(rows) > ROWS_MAX:
        _add_error(errors, ["components"], "BASE_TYPE_MAX_LENGTH",
                             f"Must be {ROWS_MAX} or fewer in length.")
    for r, row in enumerate(rows[:ROWS_MAX]):
        items = row.get("components") or []
        if len(items) > ROW_COMPONENTS_MAX:
            _add_error(errors, ["components", str(r), "components"], "BASE_TYPE_MAX_LENGTH",
                                 f"Must be {ROW_COMPONENTS_MAX} or fewer in length.")
        for c, item in enumerate(items):
            if len(item.get("options") or []) > SELECT_OPTIONS_MAX:
                _add_error(errors, ["components", str(r), "components", str(c), "options"],
                                     "BASE_TYPE_MAX_LENGTH",
                                     f"Must be {SELECT_OPTIONS_MAX} or fewer in length.")
    if not errors:
        return None
    return 400, {"code": 50035, "message": "Invalid Form Body", "errors": errors}
