"""Direct messages without wasted calls: each DM channel opened once, closed DMs left alone.

Opening a DM channel is a call Discord counts; discord.py keeps only the 128 newest, so a bot
with many players would open the same channels again and again. A refused DM (the person
closed their DMs) is a 403, and 10,000 of those in 10 minutes get the bot banned for an hour:
after one refusal the person is not written to again for an hour (they still see everything
with the game's private button).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Callable

import discord

#: DM channels remembered (user id -> channel id); older ones are opened again when needed
KEEP = 100_000
#: after a refused DM, how long the person is left alone
CLOSED_FOR = 3600.0
#: Discord's code for "Cannot send messages to this user"
DMS_CLOSED = 50007


class DmsClosed(Exception):
    """The person does not take DMs from the bot (now, or recently)."""


class DirectMessages:
    def __init__(self, bot: discord.Client, clock: Callable[[], float]) -> None:
        self._bot = bot
        self._clock = clock
        self._channels: OrderedDict[int, int] = OrderedDict()
        self._closed: dict[int, float] = {}

    def closed(self, user_id: int) -> bool:
        at = self._closed.get(user_id)
        if at is None:
            return False
        if self._clock() - at > CLOSED_FOR:
            del self._closed[user_id]
            return False
        return True

    async def send(self, user_id: int, text: str) -> None:
        """DM ``text`` (already within Discord's limits). Raises DmsClosed when the person
        does not take DMs, discord.HTTPException for any other refusal."""
        if self.closed(user_id):
            raise DmsClosed(user_id)
        channel_id = self._channels.get(user_id)
        if channel_id is None:
            data = await self._bot.http.start_private_message(user_id)
            channel_id = int(data["id"])
            self._channels[user_id] = channel_id
            if len(self._channels) > KEEP:
                self._channels.popitem(last=False)
        else:
            self._channels.move_to_end(user_id)
        try:
            await self._bot.get_partial_messageable(channel_id).send(text)
        except discord.Forbidden as exc:
            if exc.code == DMS_CLOSED:
                self._closed[user_id] = self._clock()
                raise DmsClosed(user_id) from None
            raise
