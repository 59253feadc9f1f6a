"""The operator's gauges: the Prometheus metrics of one bot process.

On the hot path (every click) the cost is a dict insert when an interaction arrives and a pop
when its first answer leaves: every request discord.py sends, REST call or interaction
response, goes through one HTTP session, which is observed. Everything else is read from the
bot's own counters when Prometheus scrapes. Label values come from small fixed sets (game
keys, interaction kinds, AI levels, storage causes, status classes): never a user, a server,
a message or anything secret.
"""
from __future__ import annotations

import math
import time
from typing import Any, Callable, Iterable, Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, PlatformCollector, \
    ProcessCollector
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric

#: an interaction's ``type`` as Discord sends it -> the ``kind`` label
KINDS = {1: "ping", 2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
#: the first answer's time: Discord waits 3 s for it
ANSWER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0)
LAG_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0)
#: interactions waiting for their first answer that are kept at most (the rest, never
#: answered, are forgotten oldest first)
PENDING_LIMIT = 10_000
#: a label value for what is not one of the games
NO_GAME = "none"


class Metrics:
    """The process's registry and the hooks that feed it. ``state`` is read at scrape time:
    a callable returning the bot-wide figures (see :class:`BotFigures`)."""

    def __init__(self, cluster: str, games: Iterable[str]) -> None:
        self.cluster = cluster
        self._games = frozenset(games)
        self.registry = registry = CollectorRegistry(auto_describe=False)
        self.received = Counter(
            "tabletop_interactions_received", "Interactions received, by kind and game.",
            ["kind", "game"], registry=registry)
        self.answer = Histogram(
            "tabletop_interaction_answer_seconds",
            "Time from an interaction's receipt to its first answer (its _count: interactions "
            "answered), by kind and game.", ["kind", "game"], buckets=ANSWER_BUCKETS,
            registry=registry)
        self.requests = Counter(
            "tabletop_discord_requests",
            "Requests to Discord's API by whether they count towards the token's global limit "
            "(interaction answers and follow-ups do not) and status class.",
            ["counted", "status"], registry=registry)
        self.rate_limited = Counter(
            "tabletop_discord_rate_limited", "Discord's 429 answers by scope: global (the "
            "token's 50 a second), route (a route's bucket), shared (a resource's bucket, not "
            "held against the bot), cloudflare (the address is banned).", ["scope"],
            registry=registry)
        self.invalid = Counter(
            "tabletop_discord_invalid_requests", "Answers that count towards Discord's invalid "
            "request limit (10,000 in 10 minutes bans the address): 401, 403, and 429 but "
            "shared ones.", ["status"], registry=registry)
        self.think = Histogram(
            "tabletop_ai_think_seconds", "An AI move's think time, by game and level.",
            ["game", "level"], buckets=THINK_BUCKETS, registry=registry)
        self.caught_up = Histogram(
            "tabletop_reconcile_lag_seconds", "How long a table's messages were behind the "
            "store, from the change to the messages showing it.", buckets=LAG_BUCKETS,
            registry=registry)
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        self._pending: dict[str, tuple[float, Any]] = {}
        self._kinds: dict[tuple[str, str], tuple[Any, Any]] = {}
        self._statuses: dict[tuple[bool, int], Any] = {}

    # -- the hot path -----------------------------------------------------------------------

    def received_interaction(self, data: dict[str, Any]) -> None:
        """An INTERACTION_CREATE's payload, before anything handles it."""
        kind = KINDS.get(data.get("type"), "other")  # type: ignore[arg-type]
        inner = data.get("data") or {}
        name = inner.get("custom_id") if kind in ("component", "modal") else inner.get("name")
        game = name.partition(":")[0] if isinstance(name, str) else NO_GAME
        if game not in self._games:
            game = NO_GAME
        pair = self._kinds.get((kind, game))
        if pair is None:
            pair = self._kinds[kind, game] = (self.received.labels(kind, game),
                                              self.answer.labels(kind, game))
        pair[0].inc()
        pending = self._pending
        if len(pending) >= PENDING_LIMIT:
            for key in list(pending)[:PENDING_LIMIT // 10]:
                del pending[key]
        pending[str(data.get("id"))] = (time.perf_counter(), pair[1])

    def responded(self, url: str, counted: bool, status: int, headers: Any) -> None:
        """Discord's answer to one request (``status`` 0: no answer, the connection failed)."""
        key = (counted, status // 100)
        child = self._statuses.get(key)
        if child is None:
            child = self._statuses[key] = self.requests.labels(
                "yes" if counted else "no", f"{status // 100}xx" if status else "error")
        child.inc()
        if status >= 400:
            self._refused(status, headers)
        if not counted:
            at = url.find("/interactions/")
            if at >= 0 and url.find("/callback", at) > 0:
                start = at + len("/interactions/")
                entry = self._pending.pop(url[start:url.find("/", start)], None)
                if entry is not None and 200 <= status < 300:
                    entry[1].observe(time.perf_counter() - entry[0])

    def _refused(self, status: int, headers: Any) -> None:
        scope = None
        if status == 429:
            given = (headers.get("X-RateLimit-Scope") or "").lower() if headers else ""
            if given == "global" or (headers and headers.get("X-RateLimit-Global")):
                scope = "global"
            elif given == "shared":
                scope = "shared"
            else:
                scope = "route" if given else "cloudflare"
            self.rate_limited.labels(scope).inc()
        if status in (401, 403) or (status == 429 and scope != "shared"):
            self.invalid.labels(str(status)).inc()

    def thought(self, game: str, level: str, seconds: float) -> None:
        self.think.labels(game if game in self._games else NO_GAME, level).observe(seconds)

    # -- the exposition ---------------------------------------------------------------------

    def add(self, figures: Callable[[], Iterable[Metric]]) -> None:
        """Figures read from the bot when scraped."""
        self.registry.register(_Read(figures))

    def collect(self) -> Iterator[Metric]:
        """Every family with this process's ``cluster`` label (what ``/metrics`` shows)."""
        for family in self.registry.collect():
            family.samples = [s._replace(labels={**s.labels, "cluster": self.cluster})
                              for s in family.samples]
            yield family


class _Read:
    def __init__(self, figures: Callable[[], Iterable[Metric]]) -> None:
        self.collect = figures


def bot_figures(bot: Any, ready: Callable[[], str | None]) -> Callable[[], Iterable[Metric]]:
    """What the bot keeps counting anyway, read when scraped. ``ready`` is the health
    check's reason not to be ready (None: ready)."""

    def collect() -> Iterator[Metric]:
        tables = GaugeMetricFamily("tabletop_tables", "Live tables by game and status (lobby, "
                                   "playing).", labels=["game", "status"])
        counts: dict[tuple[str, str], int] = {}
        behind = 0
        cache = bot.tables._cache
        for live in list(cache.values()):
            row = live.row
            counts[row.game, row.status] = counts.get((row.game, row.status), 0) + 1
            behind += row.board_behind
        for (game, status), n in sorted(counts.items()):
            tables.add_metric([game, status], n)
        yield tables
        yield _gauge("tabletop_boards_behind", "Running tables whose board message shows an "
                     "older version than the store.", behind)
        moves = CounterMetricFamily("tabletop_moves", "Moves committed by game and by whom: "
                                    "person, ai, or timeout (the turn clock resigned a seat).",
                                    labels=["game", "by"])
        for (game, by), n in sorted(bot.tables.moves.items()):
            moves.add_metric([game, by], n)
        yield moves
        yield from _ai(bot)
        yield from _reconciler(bot.reconciler)
        yield from _store(bot.store)
        yield CounterMetricFamily("tabletop_discord_budget_calls", "Counted calls let through "
                                  "this process's share of the token's budget.",
                                  value=bot.budget.spent)
        yield CounterMetricFamily("tabletop_discord_budget_wait_seconds", "Seconds calls "
                                  "waited for a place in the budget, in all.",
                                  value=bot.budget.waited)
        yield _gauge("tabletop_interactions_in_flight", "Interactions being handled now.",
                     bot.in_flight_count)
        heartbeat = GaugeMetricFamily("tabletop_gateway_latency_seconds", "Discord's gateway "
                                      "heartbeat round trip (no sample until connected).")
        latency = bot.latency
        if isinstance(latency, float) and math.isfinite(latency):
            heartbeat.add_metric([], latency)
        yield heartbeat
        yield _gauge("tabletop_ready", "1 when /readyz answers 200.", ready() is None)

    return collect


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=float(value))


def _ai(bot: Any) -> Iterator[Metric]:
    queue = GaugeMetricFamily("tabletop_worker_queue", "Calls in the worker pools: running, "
                              "or waiting for a free worker; pool ai (searches, reviews, par) "
                              "or render (pictures).", labels=["pool", "state"])
    for name, pool in (("ai", bot.pool), ("render", bot.render_pool)):
        queue.add_metric([name, "running"], pool.busy)
        queue.add_metric([name, "waiting"], pool.waiting)
    yield queue
    player = bot.autoplayer
    thinking = GaugeMetricFamily("tabletop_ai_thinking", "AI moves being thought now, by "
                                 "level.", labels=["level"])
    for level, n in sorted(player.thinking.items()):
        thinking.add_metric([level], n)
    yield thinking
    yield CounterMetricFamily("tabletop_ai_fallbacks", "AI moves played at random because "
                              "the search failed or ran past the think limit.",
                              value=player.fallbacks)


def _reconciler(reconciler: Any) -> Iterator[Metric]:
    blocked = reconciler.blocked
    since = [t for table, t in list(reconciler.behind_since.items()) if table not in blocked]
    yield _gauge("tabletop_reconcile_behind", "Tables whose messages are waiting to be "
                 "brought up to date (tables Discord refuses the bot in aside).", len(since))
    yield _gauge("tabletop_reconcile_oldest_behind_seconds", "How long the table longest "
                 "behind has been waiting for its messages (0: none behind).",
                 time.monotonic() - min(since) if since else 0.0)
    yield _gauge("tabletop_reconcile_blocked", "Tables whose channel refuses the bot a "
                 "permission (retried every 10 minutes).", len(blocked))


def _store(store: Any) -> Iterator[Metric]:
    in_use, most = store.connections()
    connections = GaugeMetricFamily("tabletop_db_connections", "Database connections: in use, "
                                    "and the most this process may hold.",
                                    labels=["backend", "state"])
    connections.add_metric([store.kind, "in_use"], in_use)
    connections.add_metric([store.kind, "max"], most)
    yield connections
    errors = CounterMetricFamily("tabletop_storage_errors", "Storage failures by cause (full, "
                                 "read_only, locked, unreachable …).", labels=["cause"])
    for cause, n in sorted(store.failures.items()):
        errors.add_metric([cause], n)
    yield errors
    yield CounterMetricFamily("tabletop_store_commits", "Writes committed.",
                              value=store.commits)
