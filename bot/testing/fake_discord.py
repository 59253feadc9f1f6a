"""Discord without Discord: real discord.py objects, HTTP answered and recorded by a fake.

Both of discord.py's HTTP funnels are replaced: ``HTTPClient.request`` (REST calls) and
``AsyncWebhookAdapter.request`` (interaction responses and follow-ups). Every request is
recorded; messages the bot sends are kept per channel so a test can click the buttons that
are really on them, with interaction payloads shaped like the gateway's.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.webhook import async_ as webhook_async

APP_ID = 900000000000000001
BOT_ID = 900000000000000001
GUILD_ID = 800000000000000001
CHANNEL_ID = 700000000000000001
ALL_PERMISSIONS = str(discord.Permissions.all().value)
MEMBER_PERMISSIONS = str(discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True,
    read_message_history=True, use_application_commands=True).value)

_ids = itertools.count(1_000_000_000_000_000_000)


def snowflake() -> int:
    return next(_ids)


class _Response:
    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


@dataclass
class Request:
    method: str
    path: str
    json: Any = None
    files: list[tuple[str, bytes]] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Everything a person could read in this request (content, embeds, components)."""
        return json.dumps(self.json, ensure_ascii=False) if self.json is not None else ""


def user_payload(user_id: int, name: str) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0",
            "avatar": None, "bot": user_id == BOT_ID}


class FakeDiscord:
    """The recorded side of Discord: requests, messages, threads, closed DMs."""

    def __init__(self, guild_id: int = GUILD_ID) -> None:
        #: the server every interaction comes from (its shard is (guild_id >> 22) % count)
        self.guild_id = guild_id
        self.requests: list[Request] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.channel_of: dict[int, int] = {}
        self.threads: dict[int, dict[str, Any]] = {}
        self.dm_channels: dict[int, int] = {}   # dm channel id -> user id
        self.closed_dms: set[int] = set()
        self.deleted_channels: set[int] = set()
        self.deny_threads = False
        self.interaction_replies: dict[str, list[dict[str, Any]]] = {}
        self.acked_at: dict[str, float] = {}
        self.clicked_at: dict[str, float] = {}
        #: the bot's permissions in the channel, as interactions report them
        self.app_permissions = ALL_PERMISSIONS
        #: the server's Discord language, as interactions report it
        self.guild_locale = "en-US"
        #: channel ids where posting and editing are refused (a permission taken away)
        self.forbidden_channels: set[int] = set()
        #: seconds every REST call takes (Discord is not instant; the bench sets it)
        self.latency = 0.0
        #: a callable run before each REST request; it may raise to make the request fail
        self.before_request: Any = None
        self._deferred_thinking: set[str] = set()
        #: callables ``listener(event, message)`` told of every message "create", "edit" and
        #: "delete" (the playground shows them live)
        self.listeners: list[Any] = []

    def _notify(self, event: str, message: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            listener(event, message)

    # -- queries for tests ----------------------------------------------------------------

    def sent(self, method: str | None = None, path_part: str = "") -> list[Request]:
        return [r for r in self.requests
                if (method is None or r.method == method) and path_part in r.path]

    def channel_messages(self, channel_id: int) -> list[dict[str, Any]]:
        return [m for m in self.messages.values() if int(m["channel_id"]) == channel_id]

    def dms_to(self, user_id: int) -> list[dict[str, Any]]:
        channels = {c for c, u in self.dm_channels.items() if u == user_id}
        return [m for m in self.messages.values() if int(m["channel_id"]) in channels]

    def public_messages(self) -> list[dict[str, Any]]:
        dm = set(self.dm_channels)
        return [m for m in self.messages.values()
                if int(m["channel_id"]) not in dm and not (m.get("flags", 0) & 64)]

    def replies(self, token: str) -> list[dict[str, Any]]:
        return self.interaction_replies.get(token, [])

    # -- message bookkeeping --------------------------------------------------------------

    def _message(self, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]],
                 *, message_id: int | None = None, flags: int = 0) -> dict[str, Any]:
        message_id = message_id or snowflake()
        attachments = [{"id": str(snowflake()), "filename": name, "size": len(data),
                        "url": f"https://cdn.invalid/{name}", "proxy_url": f"https://cdn.invalid/{name}"}
                       for name, data in files]
        message = {
            "id": str(message_id), "channel_id": str(channel_id), "guild_id": str(self.guild_id),
            "author": user_payload(BOT_ID, "Tabletop"), "content": body.get("content") or "",
            "timestamp": "2026-11-21T00:00:00+00:00", "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": attachments,
            "embeds": body.get("embeds") or [], "pinned": False, "type": 0,
            "components": body.get("components") or [], "flags": body.get("flags", flags) or 0,
            "application_id": str(APP_ID),
        }
        self.messages[message_id] = message
        self.channel_of[message_id] = channel_id
        self._notify("create", message)
        return message

    def _edit(self, message_id: int, body: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        message = self.messages[message_id]
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if files or "attachments" in body:
            message["attachments"] = [{"id": str(snowflake()), "filename": name, "size": len(data),
                                       "url": f"https://cdn.invalid/{name}",
                                       "proxy_url": f"https://cdn.invalid/{name}"}
                                      for name, data in files]
        message["edited_timestamp"] = "2026-11-21T00:00:01+00:00"
        self._notify("edit", message)
        return message

    # -- the REST funnel ------------------------------------------------------------------

    def _body(self, kwargs: dict[str, Any]) -> tuple[Any, list[tuple[str, bytes]]]:
        body = kwargs.get("json")
        files: list[tuple[str, bytes]] = []
        for part in kwargs.get("form") or []:
            if part["name"] == "payload_json":
                body = json.loads(part["value"])
        for f in kwargs.get("files") or []:
            f.fp.seek(0)
            files.append((f.filename, f.fp.read()))
        return body, files

    def forbidden(self, code: int, message: str) -> discord.Forbidden:
        return discord.Forbidden(_Response(403, "Forbidden"), {"code": code, "message": message})

    async def rest(self, route: discord.http.Route, **kwargs: Any) -> Any:
        body, files = self._body(kwargs)
        method, path = route.method, route.url.split("/api/v10", 1)[-1]
        if self.latency:
            await asyncio.sleep(self.latency)
        if self.before_request is not None:
            self.before_request(method, path)
        self.requests.append(Request(method, path, body, files))
        parts = path.strip("/").split("/")
        if parts[0] == "channels" and len(parts) >= 2 and int(parts[1]) in self.forbidden_channels:
            raise self.forbidden(50013, "Missing Permissions")
        if parts[:2] == ["users", "@me"] and parts[2:] == ["channels"]:
            user_id = int(body["recipient_id"])
            channel_id = next((c for c, u in self.dm_channels.items() if u == user_id), None)
            channel_id = channel_id or snowflake()
            self.dm_channels[channel_id] = user_id
            return {"id": str(channel_id), "type": 1, "recipients": [user_payload(user_id, "u")],
                    "last_message_id": None}
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            channel_id = int(parts[1])
            if channel_id in self.deleted_channels:
                raise discord.NotFound(_Response(404, "Not Found"),
                                       {"code": 10003, "message": "Unknown Channel"})
            if len(parts) == 3 and method == "POST":
                if self.dm_channels.get(channel_id) in self.closed_dms:
                    raise self.forbidden(50007, "Cannot send messages to this user")
                return self._message(channel_id, body or {}, files)
            message_id = int(parts[3])
            if len(parts) == 4 and method in ("PATCH", "DELETE"):
                if message_id not in self.messages:
                    raise discord.NotFound(_Response(404, "Not Found"),
                                           {"code": 10008, "message": "Unknown Message"})
                if method == "DELETE":
                    self._notify("delete", self.messages.pop(message_id))
                    return None
                return self._edit(message_id, body or {}, files)
            if len(parts) == 5 and parts[4] == "threads" and method == "POST":
                if self.deny_threads:
                    raise self.forbidden(50013, "Missing Permissions")
                if message_id in self.threads:
                    raise discord.HTTPException(_Response(400, "Bad Request"), {
                        "code": 160004, "message": "A thread has already been created for this message"})
                thread_id = message_id  # Discord gives a thread started from a message its id
                thread = {"id": str(thread_id), "type": 11, "guild_id": str(self.guild_id),
                          "parent_id": str(channel_id), "name": body["name"],
                          "owner_id": str(BOT_ID), "message_count": 0, "member_count": 1,
                          "rate_limit_per_user": 0,
                          "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                              "archive_timestamp": "2026-11-21T00:00:00+00:00",
                                              "locked": False}}
                self.threads[thread_id] = thread
                return thread
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            return [dict(c, id=str(snowflake()), application_id=str(APP_ID), version="1")
                    for c in body]
        raise AssertionError(f"unexpected request {method} {path}")

    # -- the interaction/webhook funnel ---------------------------------------------------

    async def webhook(self, route: webhook_async.Route, *, payload: Any = None,
                      multipart: Any = None, files: Any = None, **_: Any) -> Any:
        body = payload
        got_files: list[tuple[str, bytes]] = []
        if multipart:
            for part in multipart:
                if part["name"] == "payload_json":
                    body = json.loads(part["value"])
        for f in files or []:
            f.fp.seek(0)
            got_files.append((f.filename, f.fp.read()))
        path = route.url.split("/api/v10", 1)[-1]
        self.requests.append(Request(route.method, path, body, got_files))
        parts = path.strip("/").split("/")
        if parts[0] == "interactions":
            token = parts[2]
            self.acked_at.setdefault(token, time.perf_counter())
            self.interaction_replies.setdefault(token, []).append(body)
            return self._callback(token, body, got_files)
        if parts[0] == "webhooks":
            token = parts[2]
            channel_id = self._interaction_channels[token]
            if len(parts) == 3 and route.method == "POST":  # follow-up
                if token in self._deferred_thinking:
                    # The first follow-up after "thinking…" replaces that placeholder.
                    self._deferred_thinking.discard(token)
                    message = self._edit(self._original[token], body or {}, got_files)
                    self.interaction_replies.setdefault(token, []).append(body)
                    return message
                flags = (body or {}).get("flags", 0)
                message = self._message(channel_id, body or {}, got_files, flags=flags)
                self.interaction_replies.setdefault(token, []).append(body)
                return message
            target = parts[4]
            message_id = (self._original[token] if target == "@original" else int(target))
            if route.method == "GET":
                return self.messages[message_id]
            if route.method == "PATCH":
                return self._edit(message_id, body or {}, got_files)
        raise AssertionError(f"unexpected webhook request {route.method} {path}")

    _interaction_channels: dict[str, int]
    _original: dict[str, int]
    _clicked_message: dict[str, int]

    def _callback(self, token: str, body: dict[str, Any], files: list[tuple[str, bytes]]) -> Any:
        kind = body["type"]
        data = body.get("data") or {}
        channel_id = self._interaction_channels[token]
        message = None
        if kind == 4:  # channel message
            message = self._message(channel_id, data, files, flags=data.get("flags", 0))
            self._original[token] = int(message["id"])
        elif kind == 7:  # update the clicked message
            message = self._edit(self._clicked_message[token], data, files)
            self._original[token] = int(message["id"])
        elif kind == 6:  # deferred update: the clicked message is the one to edit later
            self._original[token] = self._clicked_message[token]
        elif kind == 5:  # "thinking…": a placeholder the first follow-up fills in
            message = self._message(channel_id, {"content": ""}, [], flags=data.get("flags", 0))
            self._original[token] = int(message["id"])
            self._deferred_thinking.add(token)
        response = {"interaction": {"id": str(snowflake()), "type": 3,
                                    "response_message_id": message["id"] if message else None,
                                    "response_message_loading": kind == 5,
                                    "response_message_ephemeral": bool(data.get("flags", 0) & 64)}}
        if message is not None:
            response["resource"] = {"type": kind, "message": message}
        return response


@dataclass
class Member:
    id: int
    name: str
    permissions: str = MEMBER_PERMISSIONS
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


class Harness:
    """Drives a bot with gateway-shaped interactions and waits for everything it started."""

    def __init__(self, bot: discord.Client, fake: FakeDiscord) -> None:
        self.bot = bot
        self.fake = fake
        fake._interaction_channels = {}
        fake._original = {}
        fake._clicked_message = {}
        self._tokens = itertools.count(1)

    @classmethod
    async def start(cls, bot: discord.Client, fake: FakeDiscord | None = None) -> "Harness":
        fake = fake or FakeDiscord()
        bot.http.request = fake.rest  # type: ignore[method-assign]
        webhook_async.async_context.set(_Adapter(fake))
        bot._connection.application_id = APP_ID
        bot._connection.user = discord.ClientUser(state=bot._connection,
                                                  data=user_payload(BOT_ID, "Tabletop"))
        # Discord sends every server the bot is in at connection (GUILD_CREATE): a click then
        # finds its server in the cache instead of building a stand-in for it.
        bot._connection._add_guild_from_data({"id": str(fake.guild_id), "name": "Server",
                                              "owner_id": "1", "roles": [], "channels": []})
        harness = cls(bot, fake)
        await bot._async_setup_hook()
        await bot.setup_hook()
        return harness

    async def settle(self) -> None:
        """Wait until every task the bot started (command invokers, dynamic items) is done and
        every table's messages have been brought up to date (AI players' moves included)."""
        current = asyncio.current_task()
        reconciler = getattr(self.bot, "reconciler", None)
        autoplayer = getattr(self.bot, "autoplayer", None)
        for _ in range(100):
            pending = [t for t in asyncio.all_tasks() if t is not current and not t.done()
                       and (t.get_name().startswith(("discord-ui", "CommandTree", "discord.py: ")))]
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
            elif reconciler is not None and not reconciler.idle:
                await reconciler.wait_idle()
            elif autoplayer is not None and autoplayer.active:
                await autoplayer.wait_idle()  # AI players' moves, and what they announce
            else:
                return
        raise AssertionError("tasks did not settle")

    def _base(self, member: Member, channel_id: int, kind: int) -> tuple[str, dict[str, Any]]:
        token = f"tok{next(self._tokens)}"
        is_thread = channel_id in self.fake.threads
        channel = (dict(self.fake.threads[channel_id]) if is_thread else
                   {"id": str(channel_id), "type": 0, "guild_id": str(self.fake.guild_id), "name": "games",
                    "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None})
        self.fake._interaction_channels[token] = channel_id
        payload = {
            "id": str(snowflake()), "application_id": str(APP_ID), "type": kind, "token": token,
            "version": 1, "guild_id": str(self.fake.guild_id), "channel_id": str(channel_id),
            "channel": channel,
            "member": {"user": user_payload(member.id, member.name), "roles": [],
                       "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                       "permissions": member.permissions, "flags": 0, "nick": None},
            "locale": member.locale, "guild_locale": self.fake.guild_locale,
            "app_permissions": self.fake.app_permissions, "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.fake.guild_id)}, "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        return token, payload

    async def command(self, member: Member, name: str, sub: str | None = None, /,
                      channel_id: int = CHANNEL_ID, *, settle: bool = True,
                      **options: Any) -> str:
        """Invoke ``/name [sub] option=value …``; returns the interaction token."""
        token, payload = self._base(member, channel_id, 2)
        opts = [{"name": k, "type": _option_type(v), "value": v} for k, v in options.items()]
        if sub is not None:
            opts = [{"name": sub, "type": 1, "options": opts}]
        payload["data"] = {"id": str(snowflake()), "name": name, "type": 1, "options": opts}
        if any(isinstance(v, Member) for v in options.values()):
            resolved = {str(v.id): user_payload(v.id, v.name) for v in options.values()
                        if isinstance(v, Member)}
            payload["data"]["resolved"] = {"users": resolved, "members": {
                uid: {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                      "mute": False, "permissions": MEMBER_PERMISSIONS, "flags": 0}
                for uid in resolved}}
            for o in payload["data"]["options"][0]["options"] if sub else payload["data"]["options"]:
                if isinstance(o["value"], Member):
                    o["value"] = str(o["value"].id)
        self.bot._connection.parse_interaction_create(payload)
        if settle:
            await self.settle()
        return token

    async def click(self, member: Member, message: dict[str, Any], custom_id: str,
                    values: list[str] | None = None, *, settle: bool = True) -> str:
        """Click a component of ``message`` (its custom_id need not be on it: forged clicks)."""
        channel_id = int(message["channel_id"])
        token, payload = self._base(member, channel_id, 3)
        component_type = 3 if values is not None else 2
        payload["data"] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            payload["data"]["values"] = values
        payload["message"] = json.loads(json.dumps(message))
        self.fake._clicked_message[token] = int(message["id"])
        # when the event reaches the bot (building the payload above is the fake's own work)
        self.fake.clicked_at[token] = time.perf_counter()
        self.bot._connection.parse_interaction_create(payload)
        if settle:
            await self.settle()
        return token

    def reply_text(self, token: str) -> str:
        """What the clicking user saw in answer (content of every reply, joined)."""
        out = []
        for body in self.fake.replies(token):
            data = body.get("data", body) if isinstance(body, dict) else {}
            out.append(data.get("content") or "")
            for embed in data.get("embeds") or []:
                out.append(embed.get("description") or "")
        return "\n".join(out)

    def reply_flags(self, token: str) -> list[int]:
        return [(b.get("data", b) or {}).get("flags", 0) for b in self.fake.replies(token)]


def _option_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, Member):
        return 6
    return 3


class _Adapter(webhook_async.AsyncWebhookAdapter):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake

    async def request(self, route, session, **kwargs):  # type: ignore[override]
        return await self.fake.webhook(route, **kwargs)


def components_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


def find_component(message: dict[str, Any], verb: str) -> dict[str, Any]:
    for c in components_of(message):
        if c.get("custom_id", "").split(":")[2] == verb:
            return c
    raise AssertionError(f"no {verb} component on message: "
                         f"{[c.get('custom_id') for c in components_of(message)]}")
