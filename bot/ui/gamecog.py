"""The base every game cog extends: lobby, start, board message, private info, resign, rematch.

A game cog adds its commands and the components particular to its game (``game_components``,
``handle``) and says how its events and views read (``describe``, ``private_text`` …).

This module holds what a game's author reads first: the commands every game has, the hooks a
game fills in, the helpers its handlers use, and which handler a shared verb goes to. The
shared work itself is one part per job, each in its own module, mixed into ``GameCog``:

- ``lobby``: the lobby and its seats (AI players, clock, policy), absent players, start, rematch
- ``turns``: the clicker's table and seat, a turn's private steps, committing it, resigning
- ``publish``: what the table sees (board, turn lines, DMs), repairs, pictures
- ``refusals``: answering a refused click
- ``replay``: watching a finished game again
- ``remote``: a table where the bot is not a member (one message, kept current by interactions)
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable, ClassVar, Mapping

import discord
from discord import app_commands
from discord.ext import commands

from ..games import Game, IllegalAction
from ..i18n import t
from ..markdown import Markdown, escape, md
from ..domain.tables import LiveTable, Outcome, TableError
from .host import Host
from .lobby import LobbyMixin
from .places import everywhere
from .publish import PublishMixin
from .refusals import RefusalMixin
from .remote import RemoteMixin
from .replay import ReplayMixin
from .replies import ephemeral, refuse
from .routing import Route, route
from .style import AI_EMOJI, ai_name
from .translator import command_name, command_text
from .turns import TurnMixin

LOBBY_VERBS = ("join", "leave", "start", "cancel")


# Every game plays everywhere Discord is: its group is offered in servers, DMs and group DMs,
# installed to a server or to a person's account.
@everywhere
class GameCog(RemoteMixin, LobbyMixin, TurnMixin, PublishMixin, RefusalMixin, ReplayMixin,
              commands.GroupCog):
    game_key: ClassVar[str]
    #: catalog key of the "My …" button; None for a game without private information
    private_button: ClassVar[str | None] = None

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._board_locks: dict[int, asyncio.Lock] = {}
        super().__init__()

    @property
    def tables(self):
        return self.bot.tables

    async def cog_load(self) -> None:
        self.bot.router.register(self)

    async def cog_unload(self) -> None:
        self.bot.router.unregister(self.game_key)

    # == commands every game has ===========================================================

    @app_commands.command(name=command_name("rules"), description=command_text("cmd.rules.description"))
    async def rules_command(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(t(f"{self.game_key}.rules", interaction.locale),
                                                ephemeral=True)

    @app_commands.command(name=command_name("board"), description=command_text("cmd.board.description"))
    async def board_command(self, interaction: discord.Interaction) -> None:
        """Post the current board again as the newest message of the game's thread (and retire
        the old one), for a board that scrolled far up."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        ids = await self.bot.store.running_in(self.game_key, interaction.channel_id or 0)
        if not ids:
            raise_here = TableError("no_table_here", game=t(f"{self.game_key}.name",
                                                            interaction.locale))
            await refuse(interaction, raise_here, self.game_key)
            return
        links, remote = [], False
        for table_id in ids:
            async with self.bot.reconciler.lock(table_id):
                live = await self.tables.with_game(table_id)
                if live is None or live.game is None:
                    continue
                # (A remote table's board stays its one message, brought up to date.)
                remote = remote or live.row.remote
                await self.refresh_board(live, repost=True)
                links.append(self.board_link(live))
        await ephemeral(interaction, t("board.current" if remote else "board.reposted",
                                       interaction.locale, link="\n".join(links)))

    @app_commands.command(name=command_name("learn"), description=command_text("cmd.learn.description"))
    async def learn_command(self, interaction: discord.Interaction) -> None:
        """A guided first game, privately (see ``bot.ui.lessons``)."""
        from .lessons import LessonFlow

        lesson = self.lesson()
        if lesson is None:
            await ephemeral(interaction, t("learn.none", interaction.locale))
            return
        await LessonFlow(self, lesson).begin(interaction)

    # == hooks a game fills in =============================================================

    #: the game's board picture: ``renderer(public_view, names, locale) -> PNG bytes``
    renderer: ClassVar[Callable[..., bytes]]

    def render(self, view: dict[str, Any], names: list[str], locale: str = "en") -> bytes:
        return self.renderer(view, names, locale)

    def status_text(self, live: LiveTable, locale: str) -> str:
        """One or two lines above the board picture: turn, whose move."""
        raise NotImplementedError

    def game_components(self, live: LiveTable, locale: str) -> list[discord.ui.Item]:
        """The game's own buttons on the board message while it runs."""
        return []

    def describe(self, outcome: Outcome, locale: str) -> str | None:
        """The one-line log entry for an accepted action (None for nothing)."""
        return None

    def private_text(self, live: LiveTable, seat: int, view: Mapping[str, Any], locale: str) -> str:
        return ""

    def private_update_text(self, live: LiveTable, seat: int, before: Mapping[str, Any],
                            after: Mapping[str, Any], locale: str) -> str | None:
        return self.private_text(live, seat, after, locale)

    def result_text(self, live: LiveTable, locale: str) -> str:
        raise NotImplementedError

    def options_text(self, options: Mapping[str, Any], locale: str) -> str:
        return ""

    async def handle(self, interaction: discord.Interaction, route_: Route) -> None:
        """A game-specific verb."""
        await ephemeral(interaction, t("error.unknown_button", interaction.locale))

    def lesson(self) -> Any:
        """The game's guided first game (a ``bot.ui.lessons.Lesson``), or None."""
        return None

    async def after_finish(self, live: LiveTable) -> None:
        """Extra work once a game ends (e.g. a solver), called off the click's path."""

    async def ai_prepare(self, live: LiveTable, seat: int, level: str, view: dict[str, Any],
                         think: Any) -> dict[str, Any] | float:
        """The view an AI of this game thinks on (a game adds public facts here), or seconds
        to wait before it plays."""
        return view

    # == helpers ===========================================================================

    def cid(self, table_id: int, verb: str, *args: Any) -> str:
        return route(self.game_key, table_id, verb, *args)

    def name(self, live: LiveTable, seat: int) -> Markdown:
        """The seat's name as Discord shows it literally, whatever it holds."""
        return escape(live.row.seats[seat].name)

    def mention(self, live: LiveTable, seat: int) -> Markdown:
        """A ping for a person; an AI player's name (nobody to notify)."""
        seat_row = live.row.seats[seat]
        if not seat_row.person:
            return Markdown(f"{AI_EMOJI} **{escape(seat_row.name)}**")
        if seat_row.ai is not None:
            # Their seat is being played by an AI meanwhile: name both, ping nobody.
            return md("ai.playing_for", live.row.locale, player=Markdown(f"<@{seat_row.user_id}>"),
                      ai=ai_name(seat_row.ai, live.row.locale))
        return Markdown(f"<@{seat_row.user_id}>")

    def game(self, live: LiveTable) -> Game:
        assert live.game is not None
        return live.game

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.bot.get_partial_messageable(channel_id)

    def board_link(self, live: LiveTable) -> Markdown:
        return Markdown(f"https://discord.com/channels/{live.row.guild_id or '@me'}/"
                f"{live.row.game_channel_id}/{live.row.board_message_id}")

    # == routing ===========================================================================

    async def on_route(self, interaction: discord.Interaction, route_: Route) -> None:
        remote = await self.acknowledge_remote(interaction, route_)
        try:
            handler = {
                "join": self._join, "leave": self._leave, "start": self._start,
                "cancel": self._cancel, "mine": self._mine, "resign": self._resign_ask,
                "resign_ok": self._resign_confirm, "rematch": self._rematch,
                "replay": self._replay,
                "addai": self._add_ai, "rmai": self._remove_ai,
                "clock": self._set_clock, "policy": self._set_policy,
                "back": self._come_back, "absent": self._vote_absent,
            }.get(route_.verb)
            if handler is not None:
                await handler(interaction, route_)
            else:
                await self.handle(interaction, route_)
        except (TableError, IllegalAction) as exc:
            await self.refuse(interaction, exc, route_)
        if remote:  # whatever the store holds now, the table's message shows it
            self.bot.reconciler.mark(route_.table)
