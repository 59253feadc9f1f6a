"""A table's public lines through people's own interactions, outside the bot's budget.

Discord counts every call the bot makes with its token against 50 per second for the whole
bot, but not an interaction's responses and follow-ups, and an interaction's token may post
follow-ups in its channel for 15 minutes. So the turn line of a move, the end of a game and
the clock's notices go out as a follow-up of the latest interaction someone made in the
table's channel while its token is fresh; only when there is none does the bot spend one of
its own calls. A token is never used near or past its 15 minutes.
"""
from __future__ import annotations

import logging
from typing import Callable

import discord

log = logging.getLogger(__name__)

#: Discord's lifetime of an interaction token
TOKEN_LIFETIME = 15 * 60.0
#: a token this close to its end is left alone: a slow send must not outlive it
MARGIN = 60.0
#: answers after which a follow-up is a new public message (not the "thinking…" placeholder)
_POSTABLE = {discord.InteractionResponseType.channel_message,
             discord.InteractionResponseType.message_update,
             discord.InteractionResponseType.deferred_message_update}


class Relay:
    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        #: channel id -> (when the interaction arrived, the interaction)
        self._latest: dict[int, tuple[float, discord.Interaction]] = {}
        #: posts sent through a relay, and posts that had to fall back to the bot's own call
        self.relayed = 0
        self.fallbacks = 0

    def remember(self, interaction: discord.Interaction) -> None:
        """A person's interaction in a server channel: the channel may post through it for a
        while, once it is answered."""
        channel_id = interaction.channel_id
        if channel_id is None or interaction.guild_id is None:
            return
        known = self._latest.get(channel_id)
        if known is not None and known[1] is interaction:
            return
        self._latest[channel_id] = (self._clock(), interaction)
        if len(self._latest) > 4096:
            self._prune()

    def _prune(self) -> None:
        cutoff = self._clock() - (TOKEN_LIFETIME - MARGIN)
        for channel_id in [c for c, (at, _) in self._latest.items() if at < cutoff]:
            del self._latest[channel_id]

    def usable(self, channel_id: int) -> discord.Interaction | None:
        got = self._latest.get(channel_id)
        if got is None:
            return None
        at, interaction = got
        if self._clock() - at > TOKEN_LIFETIME - MARGIN:
            del self._latest[channel_id]
            return None
        # Not answered yet (a follow-up would fail), or answered with "thinking…" (the first
        # follow-up would fill that private placeholder instead of posting).
        return interaction if interaction.response.type in _POSTABLE else None

    async def send(self, channel_id: int, text: str,
                   allowed_mentions: discord.AllowedMentions) -> discord.Message | None:
        """Post ``text`` in the channel through a fresh interaction; None when there is none
        or Discord refused it (the caller then posts with the bot's own call)."""
        interaction = self.usable(channel_id)
        if interaction is None:
            return None
        try:
            message = await interaction.followup.send(text, allowed_mentions=allowed_mentions,
                                                      wait=True)
        except discord.HTTPException as exc:
            # Expired, or the interaction's message is gone: never try this token again.
            log.info("channel %s: follow-up refused (%s), posting with the bot's own call",
                     channel_id, exc.status)
            self._latest.pop(channel_id, None)
            self.fallbacks += 1
            return None
        self.relayed += 1
        return message
