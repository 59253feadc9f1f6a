"""The bot's side of the stand-in: ``Harness`` puts a ``FakeDiscord`` where a discord.py bot
keeps its HTTP session (``install``) and drives the bot with gateway-shaped interactions (slash
commands, clicks on the components really on a message), then waits until everything the bot
started is done.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import time
from typing import Any

import discord
from discord.webhook import async_ as webhook_async

from .fake_discord import (APP_ID, BOT_ID, CHANNEL_ID, MEMBER_PERMISSIONS, FakeDiscord,
                           InteractionRecord, Member, snowflake, user_payload)
from .offered import authorize

#: interaction tokens, unique across every harness of the process (a restarted bot on the same
#: fake must not answer an older interaction's token)
_tokens = itertools.count(1)


class Harness:
    """Drives a bot with gateway-shaped interactions and waits for everything it started."""

    def __init__(self, bot: discord.Client, fake: FakeDiscord) -> None:
        self.bot = bot
        self.fake = fake
        #: display names of the people in places (DM recipients), by user id
        self.names: dict[int, str] = {}

    @classmethod
    async def start(cls, bot: discord.Client, fake: FakeDiscord | None = None) -> "Harness":
        fake = fake or FakeDiscord()
        install(bot, fake)
        bot._connection.application_id = APP_ID
        bot._connection.user = discord.ClientUser(state=bot._connection,
                                                  data=user_payload(BOT_ID, "Tabletop"))
        # Discord sends every server the bot is in at connection (GUILD_CREATE): a click then
        # finds its server in the cache instead of building a stand-in for it.
        bot._connection._add_guild_from_data({"id": str(fake.guild_id), "name": "Server",
                                              "owner_id": "1", "roles": [], "channels": []})
        harness = cls(bot, fake)
        options = getattr(bot, "activity_options", None)
        if options is not None:
            # An Activity server started with this bot asks the stand-in, not Discord, who
            # its visitors are.
            options.setdefault("oauth_session", fake.session())
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
        token = f"tok{next(_tokens)}"
        place = self.fake.places.get(channel_id)
        if place is not None:
            return token, self._place_base(token, member, place, kind)
        is_thread = channel_id in self.fake.threads
        channel = (dict(self.fake.threads[channel_id]) if is_thread else
                   {"id": str(channel_id), "type": 0, "guild_id": str(self.fake.guild_id), "name": "games",
                    "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None})
        interaction_id = snowflake()
        self.fake.interactions[token] = InteractionRecord(
            channel_id, self.fake.now(), kind,
            user=dict(user_payload(member.id, member.name), locale=member.locale),
            interaction_id=interaction_id, owners={"0": str(self.fake.guild_id)})
        payload = {
            "id": str(interaction_id), "application_id": str(APP_ID), "type": kind, "token": token,
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

    def _place_base(self, token: str, member: Member, place: Any, kind: int) -> dict[str, Any]:
        """An interaction from a place the bot is not a member of (see ``places``)."""
        self.fake.interactions[token] = InteractionRecord(
            place.channel_id, self.fake.now(), kind,
            user=dict(user_payload(member.id, member.name), locale=member.locale))
        payload: dict[str, Any] = {
            "id": str(snowflake()), "application_id": str(APP_ID), "type": kind, "token": token,
            "version": 1, "channel_id": str(place.channel_id),
            "channel": place.channel_payload(self.names), "locale": member.locale,
            "app_permissions": place.app_permissions, "entitlements": [],
            "authorizing_integration_owners": place.owners(), "context": place.context,
            "attachment_size_limit": 8 * 1024 * 1024}
        if place.guild_id is not None:
            payload.update(guild_id=str(place.guild_id), guild_locale=self.fake.guild_locale,
                           member={"user": user_payload(member.id, member.name), "roles": [],
                                   "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                                   "mute": False, "permissions": member.permissions,
                                   "flags": 0, "nick": None})
        else:
            payload["user"] = user_payload(member.id, member.name)
        return payload

    async def command(self, member: Member, name: str, sub: str | None = None, /,
                      channel_id: int = CHANNEL_ID, *, settle: bool = True,
                      **options: Any) -> str:
        """Invoke ``/name [sub] option=value …``; returns the interaction token."""
        place = self.fake.places.get(channel_id)
        if place is not None and member.id != place.installer:
            # Discord offers an app's commands only to those who installed it.
            raise AssertionError(f"{member.name} has not installed the app: no /{name} here")
        token, payload = self._base(member, channel_id, 2)
        opts = [{"name": k, "type": _option_type(v), "value": v} for k, v in options.items()]
        if sub is not None:
            opts = [{"name": sub, "type": 1, "options": opts}]
        payload["data"] = {"id": str(snowflake()), "name": name, "type": 1, "options": opts}
        self.fake.interactions[token].name = name if sub is None else f"{name} {sub}"
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
        return await self.send_command(token, payload, settle=settle)

    async def send_command(self, token: str, payload: dict[str, Any], *,
                           settle: bool = True) -> str:
        """Send a slash command interaction, as Discord would only if it offers that command
        there (``offered``: its contexts and install types; ``NotOffered`` otherwise)."""
        try:
            authorize(self.fake.apps, payload, payload["data"]["name"], self._declared)
        except AssertionError:
            self.fake.interactions.pop(token, None)  # Discord never sent it
            raise
        self.bot._connection.parse_interaction_create(payload)
        if settle:
            await self.settle()
        return token

    def _declared(self, name: str) -> dict[str, Any] | None:
        """The bot's own declaration of a top-level command (when nothing was synced)."""
        tree = getattr(self.bot, "tree", None)
        command = tree.get_command(name) if tree is not None else None
        return command.to_dict(tree) if command is not None else None

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
        self.fake.interactions[token].message_id = int(message["id"])
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


def install(bot: discord.Client, fake: FakeDiscord) -> None:
    """Put ``fake`` where ``bot`` keeps its HTTP session, authenticated with the fake's token.
    Interactions built afterwards take the same session for their responses."""
    bot.http.token = fake.token
    # What static_login sets up before the first request.
    bot.http._global_over = asyncio.Event()
    bot.http._global_over.set()
    bot.http._HTTPClient__session = fake.session()  # type: ignore[attr-defined]
    # A test before this one may have left another adapter in this context.
    webhook_async.async_context.set(webhook_async.AsyncWebhookAdapter())
