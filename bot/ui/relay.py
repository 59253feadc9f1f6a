"""A person's own turn line through that person's own interaction, and nothing else through it.

Discord does not count an interaction's follow-ups against the bot's 50 calls a second, but it
stores each with that interaction's ``interaction_metadata`` (its person, its original response)
and draws it as a reply to that person's command: "Ana used /sensei move". So a follow-up may
carry only what its person did: the line of the move committed by that very interaction. An
AI's move, a clock's notice and a game's end are the bot's own words; ``publish`` folds them
into the edit of the board message (the one counted call a move makes anyway), or posts them
with the bot's own call when someone must be pinged. A token is never used near or past its
15 minutes.
"""
from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from typing import Callable, Iterator

import discord

log = logging.getLogger(__name__)

#: Discord's lifetime of an interaction token
TOKEN_LIFETIME = 15 * 60.0
#: a token this close to its end is left alone: a slow send must not outlive it
MARGIN = 60.0
#: a person who acted at the table (or was pinged there) this recently is watching it: the
#: line that hands them the turn needs no ping (a ping is a new message, a counted call; an
#: edit of the board pings nobody)
WATCHING = 5 * 60.0
#: answers after which a follow-up is a new public message (not the "thinking…" placeholder)
_POSTABLE = {discord.InteractionResponseType.channel_message,
             discord.InteractionResponseType.message_update,
             discord.InteractionResponseType.deferred_message_update}
#: a move's line waits for its mover's click to be answered (a follow-up needs the answer sent
#: first) while the click's handler runs, however slow a loaded machine makes it: Discord
#: judges the answer's time, not this bot. A handler still running this long after it began
#: (hung on something) no longer holds the line back.
HELD_AT_MOST = 60.0
#: moves remembered at most (each is a few minutes' worth of one table's clicks)
_KEEP = 4096


class Relay:
    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        #: real time (a test's may be moved on): the store's clock may stand still in a test
        self.real_time: Callable[[], float] = time.monotonic
        #: (table id, version the move made) -> (when, the interaction that committed it)
        self._moves: dict[tuple[int, int], tuple[float, discord.Interaction]] = {}
        #: table id -> {person who acted or was pinged there: when, last}
        self._seen: dict[int, dict[int, float]] = {}
        #: interaction id -> (when its handler began, in real time; the tables whose lines
        #: waited for it), while the handler runs
        self._running: dict[int, tuple[float, set[int]]] = {}
        #: (table id, user id) -> the interaction committing that person's move there now
        self._committing: dict[tuple[int, int], discord.Interaction] = {}
        #: turn lines sent through their mover's interaction, and those that had to fall back
        self.relayed = 0
        self.fallbacks = 0

    def remember_move(self, interaction: discord.Interaction, table_id: int,
                      version: int) -> None:
        """``interaction`` committed ``version`` of the table: that move's line, and only
        it, may go out through it."""
        now = self._clock()
        self._seen.setdefault(table_id, {})[interaction.user.id] = now
        if interaction.guild_id is None or interaction.channel_id is None:
            return  # a DM, a group DM: not a table channel of a server (another surface)
        self._moves[(table_id, version)] = (now, interaction)
        if len(self._moves) > _KEEP:
            self._prune()

    def told(self, table_id: int, user_id: int) -> None:
        """``user_id`` was just pinged about the table, or acted there."""
        self._seen.setdefault(table_id, {})[user_id] = self._clock()
        if len(self._seen) > _KEEP:
            self._prune()

    def watching(self, table_id: int, user_id: int) -> bool:
        """Whether ``user_id`` acted at the table, or was pinged there, lately. Someone who
        moved a minute ago sees the board change; a ping is for whoever has been away longer
        (at most one every few minutes while they stay away)."""
        at = self._seen.get(table_id, {}).get(user_id)
        return at is not None and self._clock() - at <= WATCHING

    def _prune(self) -> None:
        now = self._clock()
        for key in [k for k, (at, _) in self._moves.items() if at < now - TOKEN_LIFETIME]:
            del self._moves[key]
        for table_id, seen in list(self._seen.items()):
            if all(at < now - WATCHING for at in seen.values()):
                del self._seen[table_id]

    def mover_of(self, table_id: int, version: int,
                 channel_id: int) -> discord.Interaction | None:
        """The interaction that committed ``version``, when a follow-up through it can still
        post in ``channel_id``."""
        got = self._moves.get((table_id, version))
        if got is None:
            return None
        at, interaction = got
        if self._clock() - at > TOKEN_LIFETIME - MARGIN:
            del self._moves[(table_id, version)]
            return None
        if interaction.channel_id != channel_id:
            return None  # the game moved (its thread was deleted): a follow-up would go astray
        # Not answered yet (a follow-up would fail), or answered with "thinking…" (the first
        # follow-up would fill that private placeholder instead of posting).
        return interaction if interaction.response.type in _POSTABLE else None

    def began(self, interaction: discord.Interaction) -> None:
        """The handler of ``interaction`` (a click, a command) starts."""
        self._running.setdefault(interaction.id, (self.real_time(), set()))

    def ended(self, interaction: discord.Interaction) -> set[int]:
        """The handler of ``interaction`` is over: the tables whose lines waited for its answer
        (to publish again: the line goes through it now, or, never answered, by the bot)."""
        return self._running.pop(interaction.id, (0.0, set()))[1]

    @contextmanager
    def committing(self, interaction: discord.Interaction, table_id: int) -> Iterator[None]:
        """While ``interaction`` commits its person's move at the table, until
        ``remember_move``: a repair may read the outbox as soon as the commit lands, before
        the handler gets on (the wider, the busier the machine)."""
        key = (table_id, interaction.user.id)
        self._committing[key] = interaction
        try:
            yield
        finally:
            if self._committing.get(key) is interaction:
                del self._committing[key]

    def awaiting_answer(self, table_id: int, version: int, user_id: int) -> bool:
        """Whether the line of ``user_id``'s move that made ``version`` waits for the
        interaction that committed it: not answered yet while its handler still runs, or
        still being committed. (Another table event may bring the repair in between.)
        ``ended`` names the table when the wait is over."""
        got = self._moves.get((table_id, version))
        if got is not None:
            interaction = got[1]
            if interaction.response.is_done():
                return False  # answered: ``mover_of`` says whether the line goes through it
        else:
            interaction = self._committing.get((table_id, user_id))
            if interaction is None:
                return False
        running = self._running.get(interaction.id)
        # A hung handler must not hold its line for ever.
        if running is None or self.real_time() - running[0] >= HELD_AT_MOST:
            return False
        running[1].add(table_id)
        return True

    async def send_own_line(self, table_id: int, version: int, channel_id: int, text: str,
                            allowed_mentions: discord.AllowedMentions) -> discord.Message | None:
        """Post the line of the move that made ``version`` through its mover's interaction;
        None when there is none or Discord refused it (the caller then speaks for itself)."""
        interaction = self.mover_of(table_id, version, channel_id)
        if interaction is None:
            return None
        self._moves.pop((table_id, version), None)  # one line per move
        try:
            message = await interaction.followup.send(text, allowed_mentions=allowed_mentions,
                                                      wait=True)
        except discord.HTTPException as exc:
            log.info("table %s: follow-up refused (%s), the bot posts the line itself",
                     table_id, exc.status)
            self.fallbacks += 1
            return None
        self.relayed += 1
        return message
