"""Starting and stopping the Activity's server beside the bot: off unless configured
(``ACTIVITY_PORT`` and ``DISCORD_CLIENT_SECRET``), in the bot's process and event loop, with
the database bridge when the store is PostgreSQL (several processes)."""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

from aiohttp import web

from ..config import Settings
from .app import ActivityApp
from .discord_api import DiscordOAuth, DiscordRefused, activity_instance
from .door import Presence, SignInThrottle
from .hub import Hub
from .pgnotify import PgBridge
from .service import ActivityService, Runtime
from .sessions import Session, Sessions, derive_key

log = logging.getLogger(__name__)

#: how long a click on Open board says which table that person's Activity should open
LAUNCH_HINT_SECONDS = 600.0


class ActivityServer:
    """``bot`` gives ``tables``, ``reconciler``, ``autoplayer``, ``http`` (discord.py's, for
    the bot-token call) and ``application_id``: named here, never imported."""

    def __init__(self, bot: Any, settings: Settings, *, oauth_session: Any = None,
                 mock: bool = False, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.settings = settings
        self.clock = clock
        self.mock = mock
        runtime = Runtime(bot.tables, on_commit=bot.reconciler.mark,
                          poke_ai=bot.autoplayer.poke, acted=bot.relay.told)
        self.service = ActivityService(runtime, clock)
        self.hub = Hub(self.service)
        self.sessions = Sessions(derive_key(settings.discord_client_secret or "",
                                            settings.activity_session_secret),
                                 settings.activity_session_hours * 3600.0, clock)
        self.oauth = DiscordOAuth(self.client_id, settings.discord_client_secret or "",
                                  session=oauth_session)
        self.throttle = SignInThrottle(settings.activity_signin_per_address,
                                       settings.activity_signin_per_minute,
                                       settings.activity_signin_in_flight, clock=clock)
        self.presence = Presence(self._instance_users, settings.activity_recheck_seconds, clock)
        self._hints: dict[tuple[int, int], tuple[int, float]] = {}
        self.runner: web.AppRunner | None = None
        self.bridge: PgBridge | None = None
        self.port: int | None = None

    @property
    def client_id(self) -> int:
        return int(self.settings.discord_client_id or self.bot.application_id or 0)

    @property
    def url(self) -> str:
        host = self.settings.activity_host
        host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        return f"http://{host}:{self.port}/"

    async def start(self) -> None:
        local = self.mock or self.settings.activity_host in ("127.0.0.1", "localhost", "::1")
        app = ActivityApp(self.service, self.hub, self.sessions, authenticate=self.authenticate,
                          client_id=self.client_id, mock=self.mock, local=local,
                          launches=self.launched_table, throttle=self.throttle,
                          present=self.present,
                          recheck=self.settings.activity_recheck_seconds)
        self.runner = web.AppRunner(app.make(), access_log=None, shutdown_timeout=2.0)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.settings.activity_host,
                           self.settings.activity_port or 0)
        await site.start()
        self.port = self.runner.addresses[0][1]
        dsn = getattr(self.bot.tables.store.backend, "dsn", None)
        if self.bot.tables.store.kind == "postgresql" and dsn:
            self.bridge = PgBridge(dsn, self.hub.changed_elsewhere, self._caught_up)
            await self.bridge.start()
            self.hub.on_local_change = self.bridge.notify
        log.info("Activity server listening on port %s", self.port)

    def _caught_up(self) -> None:
        for table_id in list(self.hub._by_table):
            self.bot.tables.forget_older(table_id, 1 << 62, 0)
            self.hub.mark(table_id)

    async def stop(self) -> None:
        await self.hub.stop()
        if self.bridge is not None:
            await self.bridge.stop()
        if self.runner is not None:
            await self.runner.cleanup()
        await self.oauth.close()

    # -- who is this ----------------------------------------------------------------------------

    async def authenticate(self, code: str, instance_id: str) -> dict[str, Any]:
        """Discord's word on the person: the code exchanged for a token, the token's user, and
        that user among the activity instance's, whose channel the session is bound to."""
        token = await self.oauth.exchange(code)
        user = await self.oauth.me(token)
        instance = await activity_instance(self.bot.http, self.client_id, instance_id)
        users = frozenset(str(u) for u in instance.get("users") or ())
        self.presence.saw(instance_id, users)
        location = instance.get("location") or {}
        if str(user.get("id")) not in users or not str(location.get("channel_id", "")).isdigit():
            raise DiscordRefused("activity instance", 403)
        guild = location.get("guild_id")
        return {"user": user, "access_token": token,
                "channel_id": int(location["channel_id"]),
                "guild_id": int(guild) if str(guild or "").isdigit() else None}

    async def present(self, session: Session, fresh: bool = False) -> bool:
        """Whether the session's person is still in its activity instance (Discord's word, at
        most ``activity_recheck_seconds`` old; ``fresh``: asked again now)."""
        return await self.presence.still_in(session.instance_id, session.user_id, fresh=fresh)

    async def _instance_users(self, instance_id: str) -> frozenset[str] | None:
        try:
            instance = await activity_instance(self.bot.http, self.client_id, instance_id)
        except DiscordRefused as exc:
            if exc.status == 404:
                return None  # the instance ended: everyone left it
            raise
        return frozenset(str(u) for u in instance.get("users") or ())

    # -- which table a launch is for ------------------------------------------------------------

    def launched(self, user_id: int, channel_id: int, table_id: int) -> None:
        """Someone clicked Open board of ``table_id`` in ``channel_id``."""
        now = self.clock()
        self._hints[(user_id, channel_id)] = (table_id, now + LAUNCH_HINT_SECONDS)
        if len(self._hints) > 10_000:
            self._hints = {k: v for k, v in self._hints.items() if v[1] > now}

    def launched_table(self, user_id: int, channel_id: int) -> int | None:
        hint = self._hints.get((user_id, channel_id))
        return hint[0] if hint is not None and hint[1] > self.clock() else None
