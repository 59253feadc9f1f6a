"""A bot with its Activity server on, behind the stand-in, and a page's side of the Activity
without a browser (sign in as Discord's SDK would, call the API, keep a live socket open).
Shared by the tests and the bench."""
from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from typing import Any

import aiohttp

from .fake_apps import CLIENT_SECRET
from .fake_discord import FakeDiscord, Member, user_payload
from .harness import Harness


async def start_activity_bot(database: Path | str, fake: FakeDiscord | None = None, *,
                             ai_pause: float = 0.0, sync_commands: bool = True,
                             rest_budget: float | None = None, **settings: Any) -> Harness:
    """A bot on ``database`` with the Activity configured (any free port), its OAuth2 calls
    answered by the stand-in, whose application has Activities enabled."""
    from ..client import TabletopBot
    from ..config import Settings
    from ..store import Store

    fake = fake or FakeDiscord()
    fake.apps.enable_activities()
    is_url = isinstance(database, str) and "://" in database
    store = await Store.open(database)
    budget = rest_budget if rest_budget is not None else 45.0 * fake.limits.time_scale
    config = Settings(token="", database_path=Path("unused.sqlite3") if is_url else Path(database),
                      dev_guild_id=None, log_level="INFO", ai_workers=1,
                      ai_pause_seconds=ai_pause, ai_priority="normal", rest_budget=budget,
                      database_url=database if is_url else None, render_workers=0,
                      activity_port=0, discord_client_secret=CLIENT_SECRET, **settings)
    bot = TabletopBot(config, store, sync_commands=sync_commands)
    bot.reviewer.reviewed = lambda game: False
    return await Harness.start(bot, fake)


def code_for(h: Harness, member: Member, channel_id: int,
             instance_id: str | None = None) -> tuple[str, str]:
    """(code, instance id) for ``member``: joining ``instance_id``, or a new instance in
    ``channel_id`` (as the Entry Point command opens one)."""
    user = dict(user_payload(member.id, member.name), locale=member.locale)
    if instance_id is None:
        instance_id = h.fake.apps.open_instance(channel_id, user)
        return h.fake.apps.launches[-1]["code"], instance_id
    return h.fake.apps.join(instance_id, user), instance_id


class Page:
    """One person's Activity page, as HTTP calls."""

    def __init__(self, h: Harness, http: aiohttp.ClientSession) -> None:
        self.h = h
        self.http = http
        self.base = h.bot.activity_server.url.rstrip("/")
        self.session: str | None = None
        self.signed: dict[str, Any] = {}
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def sign_in(self, code: str, instance_id: str, lang: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"code": code, "instance_id": instance_id}
        if lang:
            body["lang"] = lang
        status, answer = await self.call("POST", "/api/session", body)
        assert status == 200, answer
        self.session = answer["session"]
        self.signed = answer
        return answer

    async def call(self, method: str, path: str, body: Any = None,
                   session: str | None = None) -> tuple[int, Any]:
        headers = {}
        token = session if session is not None else self.session
        if token:
            headers["Authorization"] = f"Bearer {token}"
        async with self.http.request(method, self.base + path, json=body,
                                     headers=headers) as response:
            text = await response.text()
            return response.status, json.loads(text) if text else None

    async def act(self, table_id: int, version: int, actions: list[dict[str, Any]],
                  nonce: str | None = None) -> tuple[int, Any]:
        return await self.call("POST", f"/api/tables/{table_id}/actions", {
            "version": version, "nonce": nonce or secrets.token_hex(8), "actions": actions})

    async def state(self, table_id: int) -> dict[str, Any]:
        status, answer = await self.call("GET", f"/api/tables/{table_id}")
        assert status == 200, answer
        return answer

    async def open_live(self, tables: list[int]) -> dict[str, Any]:
        """The live socket, watching ``tables``; returns its "ready" message."""
        self.ws = await self.http.ws_connect(self.base + "/api/live")
        await self.ws.send_str(json.dumps({"type": "hello", "session": self.session}))
        ready = await self.receive()
        await self.ws.send_str(json.dumps({"type": "subscribe", "tables": tables}))
        return ready

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        assert self.ws is not None
        message = await self.ws.receive(timeout=timeout)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        return json.loads(message.data)

    async def state_at(self, table_id: int, version: int, timeout: float = 10.0) -> dict[str, Any]:
        """The pushed state of ``table_id`` once it reaches ``version``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self.receive(max(0.01, deadline - loop.time()))
            if message.get("type") == "state" and message["table"] == table_id \
                    and message["state"]["version"] >= version:
                return message["state"]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
