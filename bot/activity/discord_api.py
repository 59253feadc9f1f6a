"""What the Activity's server asks Discord about a person: the OAuth2 code exchange (with the
client secret), who the token belongs to (``/users/@me``), and whether they are in the
activity instance they claim (with the bot's own token, through discord.py's HTTP client, so
its rate limits and the bot's budget apply).

The HTTP session is injectable: tests and the playground hand it the Discord stand-in's. No
token, code or secret is ever logged.
"""
from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)

API = "https://discord.com/api/v10"
TIMEOUT = aiohttp.ClientTimeout(total=10)


class DiscordRefused(Exception):
    """Discord said no (a bad or used code, an expired token, an unknown instance), or did not
    answer: ``status`` is its HTTP status (0: unreachable)."""

    def __init__(self, what: str, status: int, retry_after: float | None = None) -> None:
        super().__init__(f"{what}: HTTP {status}")
        self.what = what
        self.status = status
        #: Discord's ``Retry-After`` (seconds) on a 429, when it gave one
        self.retry_after = retry_after

    @property
    def busy(self) -> bool:
        """Discord could not serve it now (unreachable, rate limited, failing): the person's
        code may be good, so they are told to try again, never that it was refused."""
        return self.status == 0 or self.status == 429 or self.status >= 500


class DiscordOAuth:
    def __init__(self, client_id: int, client_secret: str, *, session: Any = None,
                 base: str = API) -> None:
        self.client_id = client_id
        self._secret = client_secret
        #: an ``aiohttp.ClientSession`` or anything with its ``request(method, url, **kw)``
        self.session = session
        self._owned = False
        self.base = base

    def _http(self) -> Any:
        if self.session is None:
            self.session = aiohttp.ClientSession(timeout=TIMEOUT)
            self._owned = True
        return self.session

    async def close(self) -> None:
        if self._owned and self.session is not None:
            await self.session.close()
        self.session = None

    async def _call(self, what: str, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        try:
            async with self._http().request(method, self.base + path, **kwargs) as response:
                status = response.status
                body = await response.json() if status < 300 else None
                wait = _seconds(response.headers.get("Retry-After")) if status == 429 else None
        except (aiohttp.ClientError, OSError, ValueError, TimeoutError) as exc:
            log.warning("Discord %s failed: %s", what, type(exc).__name__)
            raise DiscordRefused(what, 0) from None
        if status >= 300 or not isinstance(body, dict):
            log.info("Discord refused %s (HTTP %s)", what, status)
            raise DiscordRefused(what, status, wait)
        return body

    async def exchange(self, code: str) -> str:
        """The access token for an ``authorize`` code (form-encoded, as Discord requires)."""
        body = await self._call("token exchange", "POST", "/oauth2/token", data={
            "grant_type": "authorization_code", "code": code,
            "client_id": str(self.client_id), "client_secret": self._secret},
            headers={"Content-Type": "application/x-www-form-urlencoded"})
        token = body.get("access_token")
        if not isinstance(token, str) or not token:
            raise DiscordRefused("token exchange", 502)
        return token

    async def me(self, access_token: str) -> dict[str, Any]:
        return await self._call("user", "GET", "/users/@me",
                                headers={"Authorization": f"Bearer {access_token}"})


def _seconds(value: Any) -> float | None:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if 0 <= seconds < 3600 else None


async def activity_instance(http: discord.http.HTTPClient, application_id: int,
                            instance_id: str) -> dict[str, Any]:
    """``GET /applications/{app}/activity-instances/{instance}`` with the bot token."""
    route = discord.http.Route("GET", "/applications/{application_id}/activity-instances/"
                               "{instance_id}", application_id=application_id,
                               instance_id=instance_id)
    try:
        data = await http.request(route)
    except discord.HTTPException as exc:
        log.info("Discord refused the activity instance (HTTP %s)", exc.status)
        raise DiscordRefused("activity instance", exc.status) from None
    if not isinstance(data, dict):
        raise DiscordRefused("activity instance", 502)
    return data
