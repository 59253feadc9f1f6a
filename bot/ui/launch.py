"""Opening the Activity from Discord: the board message's **Open board** button (answered
with LAUNCH_ACTIVITY, interaction callback type 12) and, with Activities enabled, the
application's Entry Point command kept by the start-up command sync (Discord refuses, with
code 50240, a bulk overwrite of the global commands that leaves it out). Where the Activity is
not configured, neither appears."""
from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from ..i18n import t
from .replies import ephemeral
from .routing import Route, button

log = logging.getLogger(__name__)

VERB = "board"
PRIMARY_ENTRY_POINT = 4
#: Discord's code for a bulk overwrite that would remove the Entry Point command
ENTRY_POINT_REMOVED = 50240
#: Discord launches the Activity itself; the Activity then lists the channel's tables
DISCORD_LAUNCH_ACTIVITY = 2
#: what a kept Entry Point command may carry back into a bulk overwrite
_ENTRY_FIELDS = ("id", "type", "name", "name_localizations", "description",
                 "description_localizations", "handler", "contexts", "integration_types",
                 "default_member_permissions", "nsfw")


def enabled(bot: Any) -> bool:
    settings = getattr(bot, "settings", None)
    return bool(settings is not None and settings.activity_enabled)


def open_board_button(bot: Any, custom_id: str, locale: str) -> discord.ui.Button | None:
    """The board message's Open board button, only where the Activity is configured."""
    if not enabled(bot):
        return None
    return button(custom_id, t("button.open_board", locale), emoji="🎲",
                  style=discord.ButtonStyle.primary)


async def launch_board(interaction: discord.Interaction, route: Route) -> None:
    """Open board: the Activity opens beside the thread (Discord shows it to the clicker)."""
    bot: Any = interaction.client
    server = getattr(bot, "activity_server", None)
    if server is None:
        await ephemeral(interaction, t("error.unknown_button", interaction.locale))
        return
    if interaction.channel_id is not None:
        server.launched(interaction.user.id, interaction.channel_id, route.table)
    await interaction.response.launch_activity()


def entry_point_payload(kept: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Entry Point command to send with the others: the one Discord has (as it is), or
    one of ours that Discord handles by launching the Activity."""
    if kept:
        return [{k: v for k, v in kept[0].items() if k in _ENTRY_FIELDS and v is not None}]
    return [{"type": PRIMARY_ENTRY_POINT, "name": "launch",
             "description": t("activity.server.entry_point", "en"),
             "handler": DISCORD_LAUNCH_ACTIVITY, "contexts": [0, 1, 2], "integration_types": [0, 1]}]


async def sync_global(tree: app_commands.CommandTree, http: Any, application_id: int, *,
                      activity: bool) -> list[Any]:
    """The global commands sent at start-up: with the Activity, the Entry Point kept among
    them; without it, the tree alone, unless Discord refuses that because Activities are
    enabled in the Developer Portal (50240): then Discord's Entry Point is kept as it is."""
    if activity:
        return await sync_with_entry_point(tree, http, application_id)
    try:
        return await tree.sync()
    except discord.HTTPException as exc:
        if exc.code != ENTRY_POINT_REMOVED:
            raise
        log.info("Activities are enabled for this application: keeping its Entry Point command")
        return await sync_with_entry_point(tree, http, application_id)


async def sync_with_entry_point(tree: app_commands.CommandTree, http: Any,
                                application_id: int) -> list[dict[str, Any]]:
    """The global bulk overwrite with the Entry Point command kept in it."""
    commands = tree.get_commands()
    translator = tree.translator
    payload = ([await c.get_translated_payload(tree, translator) for c in commands]
               if translator else [c.to_dict(tree) for c in commands])
    existing = await http.get_global_commands(application_id)
    payload += entry_point_payload([c for c in existing if c.get("type") == PRIMARY_ENTRY_POINT])
    return await http.bulk_upsert_global_commands(application_id, payload=payload)
