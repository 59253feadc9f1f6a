"""Which channel permissions a game needs, and which of them the bot lacks."""
from __future__ import annotations

import discord

#: what a game's channel must grant the bot (names of ``discord.Permissions`` flags; the
#: catalog has ``perm.<name>`` for each, as Discord's settings call them)
REQUIRED = ("view_channel", "send_messages", "embed_links", "attach_files",
            "read_message_history")
MISSING_ACCESS = 50001


def missing_for_game(perms: discord.Permissions | None, *, in_thread: bool) -> list[str]:
    """The required permissions ``perms`` lacks. In a thread, or in a channel where the bot
    will open one, messages go to threads and need "Send Messages in Threads" as well."""
    if perms is None:
        return []
    needed = list(REQUIRED)
    if in_thread or perms.create_public_threads:
        needed.append("send_messages_in_threads")
    if in_thread:
        needed.remove("send_messages")
    return [name for name in needed if not getattr(perms, name)]


def missing_in_channel(client: discord.Client, guild_id: int | None,
                       channel_id: int) -> list[str] | None:
    """The required permissions the bot lacks in a channel it has cached (None if not cached)."""
    guild = client.get_guild(guild_id) if guild_id else None
    channel = guild.get_channel_or_thread(channel_id) if guild else None
    if guild is None or channel is None or guild.me is None:
        return None
    return missing_for_game(channel.permissions_for(guild.me),
                            in_thread=isinstance(channel, discord.Thread))


def missing_from_error(exc: discord.Forbidden) -> list[str]:
    """What a refusal tells of what is missing: Discord's "Missing Permissions" does not say
    which (empty list: the whole list is named for the server owner to check)."""
    return ["view_channel"] if exc.code == MISSING_ACCESS else []
