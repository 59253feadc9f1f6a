"""Where a command works. Discord offers an application's commands where the application is
installed (to a server, or to a person's account: "user install") and in the interaction
contexts each command declares (a server, the bot's DM, a group DM or a DM between friends).

Every command of this bot is offered everywhere and installable both ways, so a person who
installed the app can start a game in any group chat. What belongs to one server (its
settings, tournaments, leaderboard, stats and history) is still offered everywhere, and answers
elsewhere with a sentence saying it needs a server that has added the bot, rather than being a
command that is simply missing (``needs_server``; the answer is ``bot.client.Tree``'s).
"""
from __future__ import annotations

from typing import Any, TypeVar

import discord
from discord import app_commands

T = TypeVar("T")

#: the key a server-only command carries in its ``extras``
NEEDS_SERVER = "needs_server"


def _installs() -> app_commands.AppInstallationType:
    return app_commands.AppInstallationType(guild=True, user=True)


def _contexts() -> app_commands.AppCommandContext:
    return app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


def everywhere(obj: T) -> T:
    """Installable to a server and to a person's account, usable in servers, the bot's DM,
    group DMs and DMs between friends. Applies to a command or group (put it above
    ``@app_commands.command``) or to a cog class (a ``GroupCog``'s group).

    Each gets its own flag objects: discord.py's decorators change an inherited class's
    objects in place, which would change every cog sharing them."""
    if isinstance(obj, (app_commands.Command, app_commands.Group, app_commands.ContextMenu)):
        obj.allowed_installs = _installs()
        obj.allowed_contexts = _contexts()
    else:
        setattr(obj, "__discord_app_commands_installation_types__", _installs())
        setattr(obj, "__discord_app_commands_contexts__", _contexts())
    return obj


def needs_server(obj: T) -> T:
    """Offered everywhere, but works only in a server that has added the bot; elsewhere it
    answers with a sentence (``error.needs_server``). A top-level command or group only."""
    if not isinstance(obj, (app_commands.Command, app_commands.Group)):
        raise TypeError("needs_server applies to a command or group: put it above "
                        "@app_commands.command")
    obj.extras[NEEDS_SERVER] = True
    return everywhere(obj)


def server_only(command: Any) -> bool:
    """Whether ``command`` (or the group it is under) works only in a server with the bot."""
    while command is not None:
        if getattr(command, "extras", {}).get(NEEDS_SERVER):
            return True
        command = getattr(command, "parent", None)
    return False


def install_warning(application: Any) -> str | None:
    """The log line for an application that cannot be installed to a person's account (its
    ``integration_types_config`` has no ``"1"``: "User Install" is off in the Developer Portal),
    None when it can (or nothing is known of it)."""
    if application is None or application.user_integration_config is not None:
        return None
    return ("User Install is off for this application: people cannot add it to their account, "
            "so it cannot be played in group DMs, DMs or servers that did not add the bot. "
            "Turn it on in the Developer Portal: Installation -> Installation Contexts -> "
            "User Install (see docs/owners/invite.md)")


def in_server_with_bot(interaction: discord.Interaction) -> bool:
    """A server channel of a server that installed the application (not a server that
    only a person's install reaches, not a DM or group DM)."""
    # Discord names the server among the interaction's authorizing owners only when the
    # server itself installed the application (a DM or group DM has no server at all).
    return interaction.is_guild_integration()


def played_here(guild_id: int | None, channel_ids: tuple[int | None, ...],
                interaction: discord.Interaction) -> bool:
    """Whether a game stored with ``guild_id`` and ``channel_ids`` (its channel, its thread)
    was played where ``interaction`` comes from: the same server, or, outside servers, the
    same group DM or DM (every DM has no server: the channel is what tells them apart)."""
    if interaction.guild_id is not None:
        return guild_id == interaction.guild_id
    return guild_id is None and interaction.channel_id is not None \
        and interaction.channel_id in channel_ids
