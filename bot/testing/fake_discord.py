"""Discord without Discord: real discord.py objects, HTTP answered and recorded by a fake.

The fake stands where discord.py keeps its HTTP session (``fake_http.FakeSession``), so every
REST call and every interaction response and follow-up passes through discord.py's own code,
rate-limit handling included, and is answered as strictly as Discord answers it: the global
budget, per-route buckets and 429s, the invalid-request ban, interaction deadlines and message
limits (``discord_limits``). Every request is recorded; messages the bot sends are kept per
channel so a test can click the buttons that are really on them, with interaction payloads
shaped like the gateway's (``harness.Harness`` sends those and drives the bot).
"""
from __future__ import annotations

import asyncio
import datetime
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from .discord_limits import (INTERACTION_DEADLINE, INTERACTION_TOKEN_LIFETIME, RateLimits,
                             message_errors, route_of)
from .discord_spec import SPEC
from .fake_apps import AppStandIn
from .fake_http import Answer, FakeSession
from .attachments import attachments_of
from .interaction_metadata import stamp
from .places import TOO_MANY_FOLLOWUPS, USER_INSTALL_FOLLOWUPS, PlaceRules

APP_ID = 900000000000000001
BOT_ID = 900000000000000001
GUILD_ID = 800000000000000001
CHANNEL_ID = 700000000000000001
ALL_PERMISSIONS = str(discord.Permissions.all().value)
MEMBER_PERMISSIONS = str(discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True,
    read_message_history=True, use_application_commands=True).value)

_ids = itertools.count(1_000_000_000_000_000_000)
#: how fast the rate-limit windows of a new fake pass (see RateLimits.time_scale); the test
#: suite speeds them up, the bench and the playground keep Discord's pace
TIME_SCALE = 1.0


def snowflake() -> int:
    return next(_ids)


@dataclass
class Request:
    method: str
    path: str
    json: Any = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    #: when it reached Discord (the fake's clock), and what Discord answered
    at: float = 0.0
    status: int = 200
    #: made with a person's OAuth2 token or the client's credentials, not the bot token
    oauth: bool = False

    @property
    def counted(self) -> bool:
        """Whether it counts against the bot token's global budget (interaction callbacks and
        the interaction's own webhook do not, nor calls made with a person's OAuth2 token)."""
        return not self.oauth and not self.path.startswith(("/interactions/", "/webhooks/"))

    @property
    def text(self) -> str:
        """Everything a person could read in this request (content, embeds, components)."""
        return json.dumps(self.json, ensure_ascii=False) if self.json is not None else ""


def user_payload(user_id: int, name: str) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0",
            "avatar": None, "bot": user_id == BOT_ID}


class FakeDiscord:
    """The recorded side of Discord: requests, messages, threads, closed DMs."""

    def __init__(self, guild_id: int = GUILD_ID, *, time_scale: float | None = None) -> None:
        #: the server every interaction comes from (its shard is (guild_id >> 22) % count)
        self.guild_id = guild_id
        #: the bot token bots driven by this fake authenticate with (one budget per token)
        self.token = "fake-bot-token"
        self._offset = 0.0
        self.limits = RateLimits(self.now, time_scale=TIME_SCALE if time_scale is None
                                 else time_scale)
        #: interaction token -> what Discord knows of that interaction
        self.interactions: dict[str, InteractionRecord] = {}
        self._original: dict[str, int] = {}
        #: tokens answered after Discord's 3 s, and tokens used after their 15 minutes
        self.late_answers: list[str] = []
        self.expired_token_uses: list[str] = []
        #: callables told of every message created, edited or deleted: (event, message)
        self.listeners: list[Any] = []
        self.requests: list[Request] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.channel_of: dict[int, int] = {}
        self.threads: dict[int, dict[str, Any]] = {}
        self.dm_channels: dict[int, int] = {}   # dm channel id -> user id
        self.closed_dms: set[int] = set()
        #: people the bot shares no server with: a DM to them fails (50007)
        self.strangers: set[int] = set()
        #: channels the bot is not a member of (group DMs, DMs, servers without it)
        self.places = PlaceRules()
        self.deleted_channels: set[int] = set()
        self.deny_threads = False
        self.interaction_replies: dict[str, list[dict[str, Any]]] = {}
        #: follow-ups that posted a new public message in the interaction's channel
        self.public_followups: dict[str, list[dict[str, Any]]] = {}
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
        #: the application: its commands, Activities, OAuth2 codes and tokens
        self.apps = AppStandIn(self, app_id=APP_ID, ids=snowflake, refusal=Refusal)

    # -- queries for tests ----------------------------------------------------------------

    def sent(self, method: str | None = None, path_part: str = "") -> list[Request]:
        return [r for r in self.requests
                if (method is None or r.method == method) and path_part in r.path]

    def counted(self, since: int = 0) -> list[Request]:
        """The requests from index ``since`` on that count against the global budget."""
        return [r for r in self.requests[since:] if r.counted]

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
                 *, message_id: int | None = None, flags: int = 0,
                 record: "InteractionRecord | None" = None,
                 original: int | None = None) -> dict[str, Any]:
        message_id = message_id or snowflake()
        attachments = attachments_of(files, snowflake, body)
        message = {
            "id": str(message_id), "channel_id": str(channel_id),
            "guild_id": str(self.places.guild_id(channel_id, self.guild_id) or "") or None,
            "author": user_payload(BOT_ID, "Tabletop"), "content": body.get("content") or "",
            "timestamp": "2026-11-21T00:00:00+00:00", "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": attachments,
            "embeds": body.get("embeds") or [], "pinned": False, "type": 0,
            "components": body.get("components") or [], "flags": body.get("flags", flags) or 0,
            "application_id": str(APP_ID),
        }
        if record is not None:
            stamp(message, record, original_response_id=original)
        self.messages[message_id] = message
        self.channel_of[message_id] = channel_id
        self._tell("create", message)
        return message

    def _delete(self, message_id: int) -> None:
        message = self.messages.pop(message_id)
        self._tell("delete", message)

    def _tell(self, event: str, message: dict[str, Any]) -> None:
        for listener in self.listeners:
            listener(event, message)

    def _edit(self, message_id: int, body: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        message = self.messages[message_id]
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if files or "attachments" in body:
            message["attachments"] = attachments_of(files, snowflake, body)
        message["edited_timestamp"] = "2026-11-21T00:00:01+00:00"
        self._tell("edit", message)
        return message

    # -- the one funnel: every request discord.py sends -----------------------------------

    def now(self) -> float:
        """Discord's clock: real time, moved on by ``advance`` (token expiry tests)."""
        return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        self._offset += seconds

    def session(self) -> FakeSession:
        return FakeSession(self.handle)

    async def handle(self, method: str, path: str, headers: dict[str, str], body: Any,
                     files: list[tuple[str, bytes]]) -> Answer:
        """Answer one HTTP request as Discord would: limits first, then the route."""
        if self.latency:
            await asyncio.sleep(self.latency)
        route, _ = route_of(path)
        limits = self.limits
        if limits.enabled and limits.banned():
            # Cloudflare's ban: a plain page, no Via header, so discord.py gives up at once.
            return 429, {"Retry-After": str(int(limits.banned_until - self.now()))}, \
                "error code: 1015"
        interaction = route.startswith(("/interactions/", "/webhooks/{webhook_id}/{webhook_token}"))
        token = headers.get("Authorization", "")
        if self.apps.is_oauth(path, headers):
            self.requests.append(Request(method, path, body, at=self.now(), oauth=True))
            status, answer = self.apps.oauth(method, path, headers, body)
            self.requests[-1].status = status
            return self._answer(status, answer, self.apps.answer_headers(status))
        if not interaction:
            if not token.startswith("Bot "):
                return self._answer(401, {"message": "401: Unauthorized", "code": 0})
            if self.before_request is not None:
                self.before_request(method, path)
            if (missing := self.places.bot_refusal(method, path)) is not None:
                self.requests.append(Request(method, path, body, files, at=self.now(), status=403))
                return self._answer(403, missing)
        admitted = limits.admit(token or path, method, path)
        if isinstance(admitted, tuple):
            return admitted
        request = Request(method, path, body, files, at=self.now())
        self.requests.append(request)
        try:
            # judged as Discord judges it: its published description, then the message limits
            refused = SPEC.check(method, path, body, uploads=len(files)) or (
                message_errors(body, files) if self._carries_message(method, route) else None)
            if refused is not None:
                raise Refusal(*refused)
            result = (await self._interaction_route(method, path, body, files) if interaction
                      else self._rest_route(method, path, body, files))
        except Refusal as exc:
            request.status = exc.status
            return self._answer(exc.status, exc.body, admitted)
        return self._answer(200 if result is not None else 204, result, admitted)

    def _answer(self, status: int, body: Any, headers: dict[str, str] | None = None) -> Answer:
        self.limits.note_status(status)
        return status, dict(headers or {}), body

    @staticmethod
    def _carries_message(method: str, route: str) -> bool:
        return (method in ("POST", "PATCH") and (
            route in ("/channels/{channel_id}/messages",
                      "/channels/{channel_id}/messages/{message_id}")
            or route.startswith(("/interactions/", "/webhooks/"))))

    # -- REST routes ------------------------------------------------------------------------

    def _rest_route(self, method: str, path: str, body: Any, files: list[tuple[str, bytes]]) -> Any:
        parts = path.strip("/").split("/")
        if parts[0] == "channels" and len(parts) >= 2 and int(parts[1]) in self.forbidden_channels:
            raise Refusal(403, {"code": 50013, "message": "Missing Permissions"})
        if parts[:2] == ["users", "@me"] and parts[2:] == ["channels"] and method == "POST":
            user_id = int(body["recipient_id"])
            channel_id = next((c for c, u in self.dm_channels.items() if u == user_id), None)
            channel_id = channel_id or snowflake()
            self.dm_channels[channel_id] = user_id
            return {"id": str(channel_id), "type": 1, "recipients": [user_payload(user_id, "u")],
                    "last_message_id": None}
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            channel_id = int(parts[1])
            if channel_id in self.deleted_channels:
                raise Refusal(404, {"code": 10003, "message": "Unknown Channel"})
            if len(parts) == 3 and method == "POST":
                if self.dm_channels.get(channel_id) in self.closed_dms | self.strangers:
                    raise Refusal(403, {"code": 50007, "message": "Cannot send messages to this user"})
                return self._message(channel_id, body or {}, files)
            message_id = int(parts[3])
            if len(parts) == 4 and method in ("PATCH", "DELETE"):
                if message_id not in self.messages:
                    raise Refusal(404, {"code": 10008, "message": "Unknown Message"})
                if method == "DELETE":
                    self._delete(message_id)
                    return None
                return self._edit(message_id, body or {}, files)
            if len(parts) == 5 and parts[4] == "threads" and method == "POST":
                if self.deny_threads:
                    raise Refusal(403, {"code": 50013, "message": "Missing Permissions"})
                if message_id in self.threads:
                    raise Refusal(400, {"code": 160004, "message": "A thread has already been "
                                        "created for this message"})
                return self._thread(channel_id, message_id, body)
        if parts[0] == "channels" and len(parts) == 3 and parts[2] == "threads" \
                and method == "POST":
            # A thread without a starter message (its id is new, not a message's).
            if self.deny_threads:
                raise Refusal(403, {"code": 50013, "message": "Missing Permissions"})
            # Its id tells when it was made, as Discord's do.
            made = discord.utils.time_snowflake(datetime.datetime.now(datetime.timezone.utc))
            return self._thread(int(parts[1]), made + next(_ids) % (1 << 22), body)
        if parts[0] == "guilds" and parts[2:] == ["threads", "active"] and method == "GET":
            return {"threads": [dict(th) for th in self.threads.values()
                                if th["guild_id"] == parts[1]
                                and not th["thread_metadata"]["archived"]],
                    "members": []}
        if parts in (["applications", "@me"], ["oauth2", "applications", "@me"]) \
                and method == "GET":
            return self.apps.application()
        if parts[0] == "applications" and parts[1:2] == [str(APP_ID)]:
            handled, answer = self.apps.route(method, parts, body)
            if handled:
                return answer
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            return [dict(c, id=str(snowflake()), application_id=str(APP_ID), version="1")
                    for c in body]
        raise Refusal(404, {"message": "404: Not Found", "code": 0})

    def _thread(self, channel_id: int, message_id: int, body: dict[str, Any]) -> dict[str, Any]:
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

    # -- interaction routes: the callback, then the interaction's webhook --------------------

    async def _interaction_route(self, method: str, path: str, body: Any,
                                 files: list[tuple[str, bytes]]) -> Any:
        parts = path.strip("/").split("/")
        token = parts[2]
        record = self.interactions.get(token)
        if record is None:
            raise Refusal(404, {"code": 10015 if parts[0] == "webhooks" else 10062,
                                "message": "Unknown Webhook" if parts[0] == "webhooks"
                                else "Unknown interaction"})
        age = self.now() - record.created
        if parts[0] == "interactions":
            if token in self.acked_at:
                raise Refusal(400, {"code": 40060,
                                    "message": "Interaction has already been acknowledged."})
            if age > INTERACTION_DEADLINE:
                self.late_answers.append(token)
                raise Refusal(404, {"code": 10062, "message": "Unknown interaction"})
            result = self._callback(token, body, files)  # a refused answer acknowledges nothing
            self.acked_at[token] = time.perf_counter()
            self.interaction_replies.setdefault(token, []).append(body)
            return result
        if age > INTERACTION_TOKEN_LIFETIME:
            self.expired_token_uses.append(token)
            raise Refusal(401, {"code": 50027, "message": "Invalid Webhook Token"})
        if token not in self.acked_at:
            raise Refusal(404, {"code": 10015, "message": "Unknown Webhook"})
        channel_id = record.channel_id
        if len(parts) == 3 and method == "POST":  # follow-up
            record.followups += 1
            if record.followups > USER_INSTALL_FOLLOWUPS and self.places.user_installed(channel_id):
                raise Refusal(400, TOO_MANY_FOLLOWUPS)
            if self.places.forced_ephemeral(channel_id):
                body = dict(body or {}, flags=(body or {}).get("flags", 0) | 64)
            if token in self._deferred_thinking:
                # The first follow-up after "thinking…" replaces that placeholder.
                self._deferred_thinking.discard(token)
                message = self._edit(self._original[token], body or {}, files)
                self.interaction_replies.setdefault(token, []).append(body)
                return message
            flags = (body or {}).get("flags", 0)
            message = self._message(channel_id, body or {}, files, flags=flags, record=record,
                                    original=self._original.get(token))
            record.own.add(int(message["id"]))
            # A public follow-up is a new message in the channel for everyone, not an answer
            # to the person (the bot posts turn lines this way, outside its budget).
            replies = self.interaction_replies if flags & 64 else self.public_followups
            replies.setdefault(token, []).append(body)
            return message
        if len(parts) == 5 and parts[3] == "messages":
            target = parts[4]
            message_id = self._original.get(token) if target == "@original" else int(target)
            foreign = (self.places.strict_tokens(channel_id) and message_id is not None
                       and message_id != self._original.get(token) and message_id not in record.own)
            if message_id is None or message_id not in self.messages or foreign:
                raise Refusal(404, {"code": 10008, "message": "Unknown Message"})
            if method == "GET":
                return self.messages[message_id]
            if method == "PATCH":
                return self._edit(message_id, body or {}, files)
            if method == "DELETE":
                self._delete(message_id)
                return None
        raise Refusal(404, {"message": "404: Not Found", "code": 0})

    def _callback(self, token: str, body: dict[str, Any], files: list[tuple[str, bytes]]) -> Any:
        kind = body["type"]
        data = body.get("data") or {}
        record = self.interactions[token]
        channel_id = record.channel_id
        message = None
        if kind == 4:  # channel message (private where the server forces it)
            if self.places.forced_ephemeral(channel_id):
                data = dict(data, flags=data.get("flags", 0) | 64)
            message = self._message(channel_id, data, files, flags=data.get("flags", 0),
                                    record=record)
            self._original[token] = int(message["id"])
        elif kind == 7:  # update the clicked message
            if record.message_id is None or record.message_id not in self.messages:
                raise Refusal(404, {"code": 10008, "message": "Unknown Message"})
            message = self._edit(record.message_id, data, files)
            self._original[token] = int(message["id"])
        elif kind == 6:  # deferred update: the clicked message is the one to edit later
            self._original[token] = record.message_id
        elif kind == 5:  # "thinking…": a placeholder the first follow-up fills in
            message = self._message(channel_id, {"content": ""}, [], flags=data.get("flags", 0),
                                    record=record)
            self._original[token] = int(message["id"])
            self._deferred_thinking.add(token)
        elif kind == 12:  # LAUNCH_ACTIVITY: an instance in this channel, the clicker in it
            if not self.apps.activities_enabled:
                raise Refusal(400, {"code": 50035, "message": "Invalid Form Body", "errors": {
                    "type": {"_errors": [{"code": "INTERACTION_CALLBACK_TYPE_INVALID",
                                          "message": "Activities are not enabled"}]}}})
            instance_id = self.apps.launch(token, record)
            return {"interaction": {"id": str(snowflake()), "type": record.kind,
                                    "activity_instance_id": instance_id,
                                    "response_message_id": None,
                                    "response_message_loading": False,
                                    "response_message_ephemeral": False},
                    "resource": {"type": 12, "activity_instance": {"id": instance_id}}}
        response = {"interaction": {"id": str(snowflake()), "type": record.kind,
                                    "response_message_id": message["id"] if message else None,
                                    "response_message_loading": kind == 5,
                                    "response_message_ephemeral": bool(data.get("flags", 0) & 64)}}
        if message is not None:
            response["resource"] = {"type": kind, "message": message}
        return response


class Refusal(Exception):
    """Discord's error answer to a request: status and JSON body."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(status, body)
        self.status, self.body = status, body


@dataclass
class InteractionRecord:
    """What Discord knows of an interaction it sent: where, when, from which message."""
    channel_id: int
    created: float
    kind: int
    message_id: int | None = None
    #: who sent it (a user object with their locale): what an Activity launched by it knows
    user: dict[str, Any] | None = None
    #: its id, a command's full name ("sensei move"), the installations that authorised it
    interaction_id: int = field(default_factory=lambda: snowflake())
    name: str = ""
    owners: dict[str, str] = field(default_factory=lambda: {"0": str(GUILD_ID)})
    #: follow-ups it sent, and the ids of those that made a message
    followups: int = 0
    own: set[int] = field(default_factory=set)


@dataclass
class Member:
    id: int
    name: str
    permissions: str = MEMBER_PERMISSIONS
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


def components_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


def find_component(message: dict[str, Any], verb: str) -> dict[str, Any]:
    for c in components_of(message):
        if c.get("custom_id", "").split(":")[2] == verb:
            return c
    raise AssertionError(f"no {verb} component on message: "
                         f"{[c.get('custom_id') for c in components_of(message)]}")
