"""A table where the bot is not a member: a group DM, a DM between friends, a server that never
added the bot (the app installed to a person's account).

There the bot token reaches nothing: Discord answers 403 Missing Access to every call into the
channel. So the table is one message, the answer to the start command; the lobby becomes the
board, and only interactions keep it current:

- a click on that message is acknowledged as an update of it (a deferred update, type 6), so
  its token may edit the message for 15 minutes; a person's private steps and refusals go to
  them alone, as ephemeral follow-ups (at most 5 an interaction);
- whatever the store commits later (the move sent from a private step, an AI's reply, the
  clock's verdict) is shown by editing the message through the freshest such token;
- when none is fresh (nobody clicked for longer than a token lives) the game goes on in the
  store, and the next click on the message brings it up to date, saying what happened since.

No thread, no DM, no reminders: private information is shown only in answer to its owner's own
click. The store knows the table is remote (``TableRow.surface``), so the next click after a
restart works like any other. This is a surface over the same tables as the thread's, like the
Activity: every rule and commit is the table service's.
"""
from __future__ import annotations

import logging
from collections import deque
from typing import Any, Callable

import discord

from ..i18n import t
from ..domain.tables import LiveTable, TableError
from .host import CogPart
from .limits import CONTENT, clip
from .pictures import upload
from .replies import ephemeral
from .routing import Route
from .style import MENTION_USERS

log = logging.getLogger(__name__)

#: Discord's lifetime of an interaction token, and the part of it left alone at its end
TOKEN_LIFETIME = 15 * 60.0
MARGIN = 60.0
#: what happened lately, above the board (a click after a long silence may find several)
RECENT_LINES = 6
#: clicks on the table's message that answer with a message of their own, not an edit of it
OWN_ANSWER = ("rematch", "replay")
#: outbox items with nothing to show where the bot is not a member (no thread, no DM, no
#: reminder: the lobby says so)
SILENT = ("thread", "dm", "remind", "remind_dm")
_EDITABLE = {discord.InteractionResponseType.channel_message,
             discord.InteractionResponseType.message_update,
             discord.InteractionResponseType.deferred_message_update}


def is_remote(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a place the bot is not a member of: outside any
    server, or in a server that did not install the app (only a person did)."""
    owners = getattr(interaction, "_integration_owners", {}) or {}
    if interaction.guild_id is None:
        return True
    return 0 not in owners and 1 in owners


class BoardTokens:
    """Per remote table, the freshest answered interaction whose token edits the table's
    message. Kept in memory only: a token is a credential, and lives 15 minutes anyway."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._latest: dict[int, tuple[float, discord.Interaction]] = {}

    def remember(self, table_id: int, interaction: discord.Interaction) -> None:
        self._latest[table_id] = (self.clock(), interaction)

    def forget(self, table_id: int) -> None:
        self._latest.pop(table_id, None)

    def usable(self, table_id: int) -> discord.Interaction | None:
        got = self._latest.get(table_id)
        if got is None:
            return None
        at, interaction = got
        if self.clock() - at > TOKEN_LIFETIME - MARGIN \
                or interaction.response.type not in _EDITABLE:
            return None
        return interaction


class RemoteMixin(CogPart):
    """Mixed into ``GameCog`` ahead of the thread's parts: where a table is remote, its
    surfaces go through here; everywhere else, through the thread's code unchanged."""

    @property
    def board_tokens(self) -> BoardTokens:
        tokens = getattr(self.bot, "board_tokens", None)
        if tokens is None:
            tokens = BoardTokens(lambda: self.bot.store.clock())  # a test may replace it
            setattr(self.bot, "board_tokens", tokens)
        return tokens

    def _recent(self, table_id: int) -> deque[str]:
        recent = self.__dict__.setdefault("_remote_recent", {})
        return recent.setdefault(table_id, deque(maxlen=RECENT_LINES))

    # == opening: the command's answer is the table ========================================

    def remote_refusal(self, interaction: discord.Interaction) -> TableError | None:
        """A place where the table could not be shown to everyone: a server that lets its
        members' apps answer only privately, or without pictures and embeds."""
        perms = interaction.app_permissions
        if not (perms.embed_links and perms.attach_files):
            return TableError("remote_private")
        if interaction.guild_id is not None and not perms.send_messages:
            return TableError("remote_private")
        return None

    async def post_remote_lobby(self, interaction: discord.Interaction, live: LiveTable,
                                content: str, **payload: Any) -> bool:
        """Answer the command with the lobby, which is the table from now on. Discord may
        refuse it or make it private (a server that forces external apps' answers ephemeral):
        then the table is discarded and the person told why. True when it is posted."""
        try:
            callback = await interaction.response.send_message(content, **payload)
        except discord.HTTPException as exc:
            log.info("table %s: Discord refused its message (%s); discarded", live.id, exc.status)
            await self.tables.discard_lobby(live.id)
            await self._say_privately(interaction, "remote_failed")
            return False
        resource = getattr(callback, "resource", None)
        flags = getattr(resource, "flags", None)
        private = bool(getattr(callback, "_ephemeral", False)
                       or (flags is not None and flags.ephemeral))
        message_id = getattr(callback, "message_id", None) or getattr(resource, "id", None)
        if private or message_id is None:
            await self.tables.discard_lobby(live.id)
            await self._say_privately(interaction, "remote_private", replace=True)
            return False
        await self.tables.set_surface(live, lobby_message_id=int(message_id),
                                      lobby_rev=live.row.rev)
        self.board_tokens.remember(live.id, interaction)
        return True

    async def _say_privately(self, interaction: discord.Interaction, code: str, *,
                             replace: bool = False) -> None:
        text = "⚠️ " + t(f"error.{code}", interaction.locale)
        try:
            if replace and interaction.response.is_done():
                # The answer Discord made private is the one place left to say it.
                await interaction.edit_original_response(content=text, embed=None, view=None)
            else:
                await ephemeral(interaction, text)
        except discord.HTTPException as exc:
            log.info("could not say why no table was made (%s)", exc.status)

    # == clicks on the table's message ========================================================

    async def acknowledge_remote(self, interaction: discord.Interaction, route_: Route) -> bool:
        """Before a click is handled: on a remote table's message, acknowledge it as an update
        of that message, so that its token keeps the table current; whatever the click
        answers then goes to the clicker as a follow-up. True for a remote table's click."""
        live = await self.tables.get(route_.table)
        if live is None or not live.row.remote:
            return False
        if self._on_table_message(interaction, live) and route_.verb not in OWN_ANSWER:
            await interaction.response.defer()
            self.board_tokens.remember(live.id, interaction)
        return True

    @staticmethod
    def _on_table_message(interaction: discord.Interaction, live: LiveTable) -> bool:
        message = interaction.message
        return (message is not None and not message.flags.ephemeral
                and message.id in (live.row.lobby_message_id, live.row.board_message_id))

    # == the reconciler's side ===============================================================

    async def sync_surfaces(self, table_id: int) -> bool:
        live = await self.tables.with_game(table_id)
        if live is None or not live.row.remote:
            return await super().sync_surfaces(table_id)  # type: ignore[misc]
        return await self.sync_remote(live)

    async def sync_remote(self, live: LiveTable) -> bool:
        """Show the stored table in its message through the freshest token, with what
        happened since it was last shown. Without a fresh token nothing is sent: the next
        click does it. True when the message was behind and is now up to date."""
        items = await self.bot.store.outbox(live.id)
        behind = bool(items) or live.row.lobby_rev < live.row.rev or (
            live.game is not None and live.row.board_version < live.row.version)
        if not behind or live.row.lobby_message_id is None:
            return False
        interaction = self.board_tokens.usable(live.id)
        if interaction is None:
            return False
        lines: list[str] = []
        self.__dict__.setdefault("_remote_lines", {})[live.id] = lines
        try:
            for item_id, kind, payload in items:
                if kind in SILENT:
                    continue
                await self.deliver(live, kind, payload)  # type: ignore[attr-defined]
                if kind == "after":  # done once: it queues a review and runs a solver
                    await self.bot.store.outbox_done(item_id)
        finally:
            self.__dict__["_remote_lines"].pop(live.id, None)
        self._recent(live.id).extend(line for line in lines if line)
        if not await self._edit_table_message(live, interaction):
            return False
        for item_id, kind, _ in items:
            if kind != "after":
                await self.bot.store.outbox_done(item_id)
        return True

    async def _edit_table_message(self, live: LiveTable, interaction: discord.Interaction) -> bool:
        rev, version, locale = live.row.rev, live.row.version, live.row.locale
        recent = "\n".join(self._recent(live.id))
        if live.game is None:
            fields: dict[str, Any] = dict(
                content=self.lobby_content(live, locale),  # type: ignore[attr-defined]
                embed=self.lobby_embed(live, locale),  # type: ignore[attr-defined]
                view=self.lobby_view(live, locale))  # type: ignore[attr-defined]
        else:
            from .publish import BOARD_FILE

            # words and buttons of the version the picture shows (see ``refresh_board``)
            embed = self.board_embed(live, locale)  # type: ignore[attr-defined]
            view = self.board_view(live, locale)  # type: ignore[attr-defined]
            png = await self.board_png(live)  # type: ignore[attr-defined]
            fields = dict(content=clip(recent, CONTENT), embed=embed, view=view,
                          attachments=[upload(png, BOARD_FILE)])
        try:
            await interaction.edit_original_response(allowed_mentions=MENTION_USERS, **fields)
        except discord.HTTPException as exc:
            # Expired or refused: this token is done; the next click brings the table up.
            log.info("table %s: its message could not be edited (%s)", live.id, exc.status)
            self.board_tokens.forget(live.id)
            return False
        surface: dict[str, Any] = {"lobby_rev": rev}
        if live.game is not None:
            surface.update(board_message_id=live.row.lobby_message_id, board_version=version)
        await self.tables.set_surface(live, **surface)
        return True

    # == the thread's parts, where a table is remote ========================================

    async def post(self, live: LiveTable, text: str, *, mentions: bool = False,
                   view: discord.ui.View | None = None) -> Any:
        lines = self.__dict__.get("_remote_lines", {}).get(live.id)
        if live.row.remote:
            if lines is not None:
                lines.append(text)
            return None
        return await super().post(live, text, mentions=mentions, view=view)  # type: ignore[misc]

    async def refresh_board(self, live: LiveTable, *, repost: bool = False,
                            lines: list[str] | None = None) -> None:
        if not live.row.remote:
            return await super().refresh_board(live, repost=repost,  # type: ignore[misc]
                                               lines=lines)
        if live.id not in self.__dict__.get("_remote_lines", {}):
            # (Inside a sync the board is edited once, after every line is gathered.)
            await self.sync_remote(live)
        return None

    async def refresh_lobby(self, live: LiveTable) -> None:
        if not live.row.remote:
            return await super().refresh_lobby(live)  # type: ignore[misc]
        return None

    def board_embed(self, live: LiveTable, locale: str) -> discord.Embed:
        embed = super().board_embed(live, locale)  # type: ignore[misc]
        if live.row.remote:
            embed.set_footer(text=t("remote.note", locale))
        return embed

    def lobby_content(self, live: LiveTable, locale: str) -> str:
        content = super().lobby_content(live, locale)  # type: ignore[misc]
        if live.row.remote:
            content = clip(content + "\n-# " + t("remote.note", locale), CONTENT)
        return content
