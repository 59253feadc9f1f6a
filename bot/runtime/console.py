"""The operator's console: ``/metrics`` (Prometheus), ``/healthz`` (alive) and ``/readyz``
(ready to serve) on a port of their own, served from the bot's event loop.

aiohttp rather than prometheus_client's own server: it is already there (discord.py runs on
it), it serves the health answers beside the metrics, and a scrape reads the bot's state on
the loop that changes it, never from another thread in the middle of a change.

``Console.start`` and ``Console.stop`` are all the bot calls (from its setup and its close).
"""
from __future__ import annotations

import json
import logging
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ..games.registry import games
from .health import Health
from .metrics import Metrics, bot_figures

log = logging.getLogger(__name__)


class _ObservedSession:
    """discord.py's HTTP session, each answer told to the metrics on its way back."""

    def __init__(self, inner: Any, metrics: Metrics) -> None:
        self._inner = inner
        self._metrics = metrics

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def request(self, method: str, url: str, **kwargs: Any) -> "_Observed":
        counted = (kwargs.get("headers") or {}).get("Authorization", "").startswith("Bot ")
        return _Observed(self._inner.request(method, url, **kwargs), self._metrics, url, counted)


class _Observed:
    def __init__(self, exchange: Any, metrics: Metrics, url: str, counted: bool) -> None:
        self._exchange, self._metrics, self._url, self._counted = exchange, metrics, url, counted

    async def __aenter__(self) -> Any:
        try:
            response = await self._exchange.__aenter__()
        except Exception:
            self._metrics.responded(self._url, self._counted, 0, None)
            raise
        self._metrics.responded(self._url, self._counted, response.status, response.headers)
        return response

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._exchange.__aexit__(*exc)


#: the console's web paths, each with the name of its handler
ROUTES = {"/metrics": "_scrape", "/healthz": "_live", "/readyz": "_ready"}


class Console:
    def __init__(self, bot: Any, host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        #: the port asked for (0: any free one); the one listened on once started
        self.port = port
        self.metrics = Metrics(bot.settings.cluster, games())
        self.health = Health(bot)
        self.metrics.add(bot_figures(bot, self.health.not_ready))
        self._runner: web.AppRunner | None = None
        self._observing = False

    async def start(self) -> None:
        """Observe the bot and listen (before the bot connects: a probe sees it starting)."""
        if self._runner is not None:
            return
        if not self._observing:
            self._observing = True
            self._observe()
        app = web.Application()
        for path, handler in ROUTES.items():
            app.router.add_get(path, getattr(self, handler))
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            log.error("METRICS_PORT: cannot listen on %s:%s (%s); the bot runs without its "
                      "metrics", self.host, self.port, exc.strerror or exc)
            return
        self._runner = runner
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]
        log.info("metrics on http://%s:%s/metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    def _observe(self) -> None:
        bot, metrics = self.bot, self.metrics
        self._wrap_session()
        state = bot._connection
        parse = state.parse_interaction_create

        def parse_interaction_create(data: Any) -> None:
            metrics.received_interaction(data)
            parse(data)

        # The gateway reads its parsers from this table; the stand-in calls the method.
        state.parse_interaction_create = parse_interaction_create
        if "INTERACTION_CREATE" in getattr(state, "parsers", {}):
            state.parsers["INTERACTION_CREATE"] = parse_interaction_create
        bot.autoplayer.on_think = metrics.thought
        bot.reconciler.on_caught_up = metrics.caught_up.observe
        self.health.listen()

        async def connected(*_: Any) -> None:
            self._wrap_session()  # a new login makes a new session

        bot.add_listener(connected, "on_connect")

    def _wrap_session(self) -> None:
        http = self.bot.http
        session = getattr(http, "_HTTPClient__session", None)
        if session and not isinstance(session, _ObservedSession):
            http._HTTPClient__session = _ObservedSession(session, self.metrics)

    async def _scrape(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.metrics),  # type: ignore[arg-type]
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _live(self, request: web.Request) -> web.Response:
        return _json(200, {"status": "alive"})

    async def _ready(self, request: web.Request) -> web.Response:
        reason = self.health.not_ready()
        if reason is None:
            return _json(200, {"status": "ready"})
        return _json(503, {"status": "not ready", "reason": reason})


def _json(status: int, body: dict[str, str]) -> web.Response:
    return web.Response(status=status, text=json.dumps(body), content_type="application/json")
