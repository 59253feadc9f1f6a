"""Where an interaction comes from, as Discord tells it, and what the bot may do there.

Since June 2024 an app can be installed to a person's account (a *user install*). Its commands
then work in places the bot is not a member of: a group DM (channel type 3), a DM between two
people (type 1), a server that never added the bot. Discord's rules there, which the stand-in
enforces (``FakeDiscord.places``):

- Each interaction says where it is: ``context`` (0 a server, 1 the bot's own DM, 2 a group
  DM or a DM between people), ``authorizing_integration_owners`` (``"0"``: the server that
  installed the app, ``"1"``: the person who did) and ``app_permissions``.
- The bot token cannot read, post, edit or open threads in such a channel: 403, code 50001
  Missing Access. Only the interaction responses and the interaction's webhook (its token,
  15 minutes) reach it.
- A user-installed interaction may send at most 5 follow-ups (code 40094 past it).
- The interaction's token edits its own messages only: the message it answered with (or the
  one it updated), and its follow-ups. Whether Discord lets one interaction's token edit
  another's message is not documented; the stand-in refuses it (404 Unknown Message), so the
  bot cannot come to depend on it.
- ``app_permissions`` in a DM or group DM holds ATTACH_FILES, EMBED_LINKS and MENTION_EVERYONE
  (and USE_EXTERNAL_EMOJIS in the bot's DM): not SEND_MESSAGES, which means nothing there.
- A server may let its members use external apps only privately: every response there is made
  ephemeral, whatever flags it asked for (``force_ephemeral``).
- Anyone in the channel may click the app's buttons, installed or not; only those who
  installed the app see its commands (``Harness.command`` refuses the others).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

#: interaction contexts
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
#: integration types (the keys of ``authorizing_integration_owners``)
GUILD_INSTALL, USER_INSTALL = "0", "1"

MISSING_ACCESS = {"code": 50001, "message": "Missing Access"}
TOO_MANY_FOLLOWUPS = {"code": 40094, "message": "This interaction has hit the maximum number "
                                               "of follow up messages"}
#: follow-ups a user-installed interaction may send
USER_INSTALL_FOLLOWUPS = 5

PRIVATE_PERMISSIONS = str(discord.Permissions(attach_files=True, embed_links=True,
                                              mention_everyone=True).value)
BOT_DM_PERMISSIONS = str(discord.Permissions(attach_files=True, embed_links=True,
                                             mention_everyone=True,
                                             external_emojis=True).value)
#: what a server without the bot lets an external app do in a channel by default
EXTERNAL_APP_PERMISSIONS = str(discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True,
    read_message_history=True, external_emojis=True, use_application_commands=True).value)

KINDS = ("group_dm", "dm", "bot_dm", "foreign_guild")


@dataclass
class Place:
    """A channel the bot is not a member of (or its own DM), and who installed the app."""

    channel_id: int
    kind: str
    #: who installed the app to their account (the person whose commands work here)
    installer: int
    #: the people in a DM or group DM (the installer among them)
    recipients: list[int] = field(default_factory=list)
    #: a server that never added the bot
    guild_id: int | None = None
    #: the server lets external apps answer only privately
    force_ephemeral: bool = False
    app_permissions: str = ""

    def __post_init__(self) -> None:
        assert self.kind in KINDS, self.kind
        if not self.app_permissions:
            self.app_permissions = {"group_dm": PRIVATE_PERMISSIONS, "dm": PRIVATE_PERMISSIONS,
                                    "bot_dm": BOT_DM_PERMISSIONS,
                                    "foreign_guild": EXTERNAL_APP_PERMISSIONS}[self.kind]

    @property
    def context(self) -> int:
        return {"group_dm": PRIVATE_CHANNEL, "dm": PRIVATE_CHANNEL, "bot_dm": BOT_DM,
                "foreign_guild": GUILD}[self.kind]

    @property
    def channel_type(self) -> int:
        return {"group_dm": 3, "dm": 1, "bot_dm": 1, "foreign_guild": 0}[self.kind]

    @property
    def bot_reaches(self) -> bool:
        """Whether the bot token may use the channel: only its own DM with the person."""
        return self.kind == "bot_dm"

    def owners(self) -> dict[str, str]:
        return {USER_INSTALL: str(self.installer)}

    def channel_payload(self, names: dict[int, str]) -> dict[str, Any]:
        if self.kind == "foreign_guild":
            return {"id": str(self.channel_id), "type": 0, "guild_id": str(self.guild_id),
                    "name": "games", "position": 0, "permission_overwrites": [],
                    "nsfw": False, "parent_id": None}
        channel: dict[str, Any] = {
            "id": str(self.channel_id), "type": self.channel_type, "last_message_id": None,
            "recipients": [_user(u, names.get(u, f"user{u}")) for u in self.recipients]}
        if self.kind == "group_dm":
            channel.update(name="friends", owner_id=str(self.installer), icon=None)
        return channel

    def channel_of_path(self, path: str) -> int | None:
        """The channel a bot-token REST path touches, when it is this place's."""
        parts = path.split("?", 1)[0].strip("/").split("/")
        if len(parts) >= 2 and parts[0] == "channels" and parts[1] == str(self.channel_id):
            return self.channel_id
        return None


def _user(user_id: int, name: str) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0",
            "avatar": None, "bot": False}


class PlaceRules:
    """The places a fake Discord knows (channel id -> Place) and what they refuse."""

    def __init__(self) -> None:
        self.places: dict[int, Place] = {}
        #: bot-token requests refused because the bot cannot see the channel
        self.refused: list[tuple[str, str]] = []

    def add(self, place: Place) -> Place:
        self.places[place.channel_id] = place
        return place

    def get(self, channel_id: int) -> Place | None:
        return self.places.get(channel_id)

    def bot_refusal(self, method: str, path: str) -> dict[str, Any] | None:
        """Discord's answer to a bot-token request into a channel the bot is not in."""
        for place in self.places.values():
            if not place.bot_reaches and place.channel_of_path(path) is not None:
                self.refused.append((method, path))
                return MISSING_ACCESS
        return None

    def user_installed(self, channel_id: int) -> bool:
        """Every place here is reached through a person's install of the app."""
        return channel_id in self.places

    def forced_ephemeral(self, channel_id: int) -> bool:
        place = self.places.get(channel_id)
        return place is not None and place.force_ephemeral

    def strict_tokens(self, channel_id: int) -> bool:
        """Whether an interaction token there edits only its own messages (see the module)."""
        return channel_id in self.places

    def guild_id(self, channel_id: int, default: int) -> int | None:
        place = self.places.get(channel_id)
        return default if place is None else place.guild_id
