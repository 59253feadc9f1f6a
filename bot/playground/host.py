"""The bot, the Discord stand-in and its Harness, seen from the page: who sent which
interaction (so an ephemeral reply shows only to them), who may see which message, and a
live feed of changes per open page."""
from __future__ import annotations

import asyncio
import re
from urllib.parse import urlencode
from collections import deque
from typing import Any

from bot.i18n import t
from bot.testing.fake_discord import BOT_ID, CHANNEL_ID, FakeDiscord, Member, snowflake
from bot.testing.harness import Harness
from bot.testing.places import Place

from . import people
from .commands import (CommandError, Parsed, catalog, entries, parse, too_long,
                       translated_catalog)
from .shape import shape
from .uploads import Uploads

EPHEMERAL = 64
#: the stand-in records every request (uploads' bytes included); a playground left running
#: keeps only the newest (the uploads it still shows are kept by ``Uploads``)
KEEP_REQUESTS = 64
#: Discord shows "This interaction failed" when the bot has not answered within 3 s
ANSWER_WINDOW = 3.0
_TOKEN = re.compile(r"^/(?:interactions/\d+|webhooks/\d+)/([^/]+)")


class Viewer:
    """One open page: whose eyes it is, and its queue of live events."""

    def __init__(self, member: Member) -> None:
        self.member = member
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=2000)

    def send(self, event: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:  # a page that stopped reading: it reloads everything
            self.queue = asyncio.Queue(maxsize=2000)
            self.queue.put_nowait({"type": "reload"})


class Playground:
    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.bot = harness.bot
        self.fake: FakeDiscord = harness.fake
        self.channel_id = CHANNEL_ID
        self.people: dict[int, Member] = {}
        self.owner: dict[int, int] = {}           # ephemeral message id -> user id
        self.tokens: dict[str, tuple[int, str]] = {}  # interaction token -> (user id, "/cmd")
        self.notes: dict[int, dict[str, Any]] = {}    # what people typed (not commands)
        # the last clicks received and what became of them (what a failure report shows)
        self.recent_clicks: deque[tuple[str, int, str, str]] = deque(maxlen=8)
        self.uploads = Uploads()
        self.viewers: set[Viewer] = set()
        self.guild_locale_set = False
        self.commands = catalog(self.bot.tree)
        self.suggestions = entries(self.commands)
        #: the same with each language's descriptions and choice names (set once started)
        self.translated: list[dict[str, Any]] = self.commands
        self._threads_seen = 0
        self.fake.listeners.append(self._on_message)
        # A group chat where Ana installed the app to her account (the bot is no member):
        # everyone who opens a page is in it; only Ana sees the app's commands there.
        installer = people.member("Ana")
        self.group = self.fake.places.add(Place(snowflake(), "group_dm", installer.id,
                                                recipients=[installer.id]))
        self.harness.names[installer.id] = installer.name

    @classmethod
    async def start(cls, settings: Any, store: Any) -> "Playground":
        from bot.client import TabletopBot
        bot = TabletopBot(settings, store, sync_commands=False)
        fake = FakeDiscord()
        if settings.activity_enabled:
            # The Activity signs people in against the stand-in, and its page uses the SDK's
            # DiscordSDKMock: decided here, by the server, never by the page.
            fake.apps.enable_activities()
            bot.activity_options["mock"] = True
        playground = cls(await Harness.start(bot, fake))
        playground.translated = await translated_catalog(playground.bot.tree)
        return playground

    def suggestions_for(self, locale: str) -> list[dict[str, Any]]:
        """What the page suggests as one types a command, in the page's language."""
        return entries(self.translated, locale)

    def hang_up(self) -> None:
        """Tell every open page the playground stops (their live feeds end)."""
        for viewer in list(self.viewers):
            viewer.send({"type": "closed"})

    async def close(self) -> None:
        self.hang_up()
        self.fake.listeners.remove(self._on_message)
        await self.bot.close()

    # -- people ---------------------------------------------------------------------------

    def member(self, name: str | None, locale: str = "en-US") -> Member:
        person = people.member(people.clean_name(name), locale)
        if person.id not in self.group.recipients:
            self.group.recipients.append(person.id)
            self.harness.names[person.id] = person.name
        if person.id not in self.people:
            self.people[person.id] = person
            self._broadcast({"type": "users", "users": self.users()})
        if not self.guild_locale_set:  # the server's language: the browser that came first
            self.fake.guild_locale, self.guild_locale_set = locale, True
        return person

    def users(self) -> dict[str, str]:
        names = {str(uid): m.name for uid, m in self.people.items()}
        names[str(BOT_ID)] = "Tabletop"
        return names

    def find_user(self, text: str) -> Member | None:
        text = text.strip().lstrip("@")
        if m := re.fullmatch(r"<@!?(\d+)>", text):
            return self.people.get(int(m.group(1)))
        return next((m for m in self.people.values() if m.name.casefold() == text.casefold()), None)

    # -- what the page sends --------------------------------------------------------------

    async def command(self, who: Member, text: str, channel_id: int) -> dict[str, Any]:
        """A line from the message box: a slash command becomes an interaction; other text
        is shown as the person's message (the bot reads no messages, as on Discord)."""
        if not text.strip():
            return {"ok": True}
        if (message := too_long(text, who.locale)) is not None:
            return {"error": message}
        channel_id = self._known_channel(channel_id, who)
        if not text.lstrip().startswith("/"):
            note = self._note(who, text, channel_id)
            self._broadcast_message(note)
            return {"ok": True}
        if text.strip() == "/launch" and self.fake.apps.activities_enabled:
            return self._entry_point(who, channel_id)
        try:
            parsed: Parsed = parse(text.strip(), self.commands, self.find_user)
        except CommandError as exc:
            return {"error": exc.text(who.locale)}
        name, *subs = parsed.path
        if channel_id == self.group.channel_id and who.id != self.group.installer:
            # Discord offers an app's commands only to those who installed it; all may click.
            return {"error": t("playground.error.not_installed", who.locale,
                               user=self.harness.names.get(self.group.installer, "Ana"))}
        if len(subs) > 1:
            return {"error": t("playground.error.one_subcommand", who.locale)}
        token = await self.harness.command(who, name, *subs, channel_id=channel_id,
                                           settle=False, **parsed.options)
        self.tokens[token] = (who.id, parsed.label)
        answer = await self._answered(token, who.locale)
        if token in self.fake._original:
            # The page follows a thread opened from its own command's message (a table
            # started at once against the AI), and no one else's.
            answer["message"] = str(self.fake._original[token])
        return answer

    async def click(self, who: Member, message_id: int, custom_id: str,
                    values: list[str] | None) -> dict[str, Any]:
        message = self.fake.messages.get(message_id)
        if message is None or not self.visible(message, who.id):
            answer = {"error": t("playground.error.message_deleted", who.locale)}
        elif custom_id not in {c.get("custom_id") for row in message.get("components") or []
                               for c in row.get("components") or []}:
            # a client only clicks what it is shown
            answer = {"error": t("playground.error.component_gone", who.locale)}
        else:
            token = await self.harness.click(who, message, custom_id, values, settle=False)
            self.tokens[token] = (who.id, "")
            answer = await self._answered(token, who.locale)
        self.recent_clicks.append((who.name, message_id, custom_id,
                                   answer.get("error") or "answered"))
        return answer

    async def _answered(self, token: str, locale: str) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ANSWER_WINDOW
        while not self.fake.interaction_replies.get(token):
            if loop.time() > deadline:
                return {"error": t("playground.error.interaction_failed", locale)}
            await asyncio.sleep(0.02)
        url = self.activity_url(token)
        if url is None:
            return {"ok": True}
        user_id = self.tokens.get(token, (0, ""))[0]
        self._broadcast({"type": "activity", "url": url}, lambda uid: uid == user_id)
        return {"ok": True, "activity": {"url": url}}

    def _entry_point(self, who: Member, channel_id: int) -> dict[str, Any]:
        """The Entry Point command (``/launch``): Discord handles it itself, opening the
        Activity in the channel, where the page lists the channel's tables."""
        from bot.testing.fake_discord import user_payload
        user = dict(user_payload(who.id, who.name), locale=who.locale)
        token = f"entry-{snowflake()}"
        self.fake.apps.open_instance(channel_id, user, token)
        url = self.activity_url(token)
        if url is None:
            return {"error": "The Activity is not running."}
        self._broadcast({"type": "activity", "url": url}, lambda uid: uid == who.id)
        return {"ok": True, "activity": {"url": url}}

    def activity_url(self, token: str) -> str | None:
        """Where the pane opens the Activity the bot launched in answer to ``token``: the
        query Discord gives an Activity's page, and the clicker's one-time OAuth2 code (in the
        fragment, which no server sees) for the page's mocked ``authorize``."""
        server = getattr(self.bot, "activity_server", None)
        launch = next((l for l in reversed(self.fake.apps.launches) if l["token"] == token), None)
        if server is None or launch is None:
            return None
        query = urlencode({"instance_id": launch["instance_id"],
                           "channel_id": launch["channel_id"], "guild_id": self.fake.guild_id,
                           "frame_id": f"pg-{snowflake()}", "platform": "desktop"})
        return f"{server.url}?{query}#code={launch['code']}"

    def _known_channel(self, channel_id: int, who: Member) -> int:
        if channel_id in self.fake.threads or self.fake.dm_channels.get(channel_id) == who.id \
                or channel_id == self.group.channel_id:
            return channel_id
        return self.channel_id

    def _note(self, who: Member, text: str, channel_id: int) -> dict[str, Any]:
        note = {"id": str(snowflake()), "channel_id": str(channel_id), "content": text,
                "author": {"id": str(who.id), "username": who.name, "bot": False},
                "embeds": [], "components": [], "attachments": [], "flags": 0}
        self.notes[int(note["id"])] = note
        return note

    # -- who sees what --------------------------------------------------------------------

    def visible(self, message: dict[str, Any], user_id: int) -> bool:
        channel_id = int(message["channel_id"])
        if channel_id in self.fake.dm_channels:
            return self.fake.dm_channels[channel_id] == user_id
        if message.get("flags", 0) & EPHEMERAL:
            return self.owner.get(int(message["id"])) == user_id
        return True

    def snapshot(self, viewer: Member) -> dict[str, Any]:
        messages = [m for m in list(self.fake.messages.values()) + list(self.notes.values())
                    if self.visible(m, viewer.id)]
        messages.sort(key=lambda m: int(m["id"]))
        return {"type": "state", "me": {"id": str(viewer.id), "name": viewer.name},
                "users": self.users(), "channels": self.channels(viewer.id),
                "messages": [self._shape(m) for m in messages[-600:]]}

    def channels(self, user_id: int) -> dict[str, Any]:
        dm = next((c for c, u in self.fake.dm_channels.items() if u == user_id), None)
        seated = self.bot.tables.threads_seating(user_id)
        return {"main": {"id": str(self.channel_id), "name": "games"},
                # "seated": the person plays there (a page follows them into a tournament
                # table's thread, which starts from no message of theirs)
                "threads": [{"id": str(t["id"]), "name": t["name"], "parent": t["parent_id"],
                             "seated": int(t["id"]) in seated}
                            for t in self.fake.threads.values()],
                "dm": str(dm) if dm is not None else None,
                "group": {"id": str(self.group.channel_id), "name": t(
                    "playground.group_dm", self.people.get(user_id, people.member("Ana")).locale,
                    user=self.harness.names.get(self.group.installer, "Ana"))}}

    def _shape(self, message: dict[str, Any]) -> dict[str, Any]:
        # whose interaction a message hangs on is what the stand-in stored, as Discord does
        return shape(message, self.uploads)

    # -- live -----------------------------------------------------------------------------

    def _on_message(self, event: str, message: dict[str, Any]) -> None:
        message_id = int(message["id"])
        if event == "delete":
            self.uploads.drop(message_id)
            self._broadcast({"type": "delete", "id": str(message_id)},
                            lambda user_id: self.visible(message, user_id))
            return
        requests = self.fake.requests
        if event == "create" and requests:
            found = _TOKEN.match(requests[-1].path)
            if found and found.group(1) in self.tokens:
                user_id, _ = self.tokens[found.group(1)]
                if message.get("flags", 0) & EPHEMERAL:
                    self.owner[message_id] = user_id
        self.uploads.keep(message, requests)
        if len(requests) > 4 * KEEP_REQUESTS:
            del requests[:-KEEP_REQUESTS]
        self._broadcast_message(message)

    def _broadcast_message(self, message: dict[str, Any]) -> None:
        if len(self.fake.threads) != self._threads_seen or int(message["channel_id"]) in self.fake.dm_channels:
            self._threads_seen = len(self.fake.threads)
            for viewer in self.viewers:
                viewer.send({"type": "channels", "channels": self.channels(viewer.member.id)})
        shaped = self._shape(message)
        self._broadcast({"type": "message", "message": shaped},
                        lambda user_id: self.visible(message, user_id))

    def _broadcast(self, event: dict[str, Any], who: Any = None) -> None:
        for viewer in list(self.viewers):
            if who is None or who(viewer.member.id):
                viewer.send(event)
