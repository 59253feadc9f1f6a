"""The base every game cog extends: lobby, start, board message, private info, resign, rematch.

A game cog adds its commands and the components particular to its game (``game_components``,
``handle``) and says how its events and views read (``describe``, ``private_text`` …).
"""
from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping

import discord
from discord import app_commands
from discord.ext import commands

from ..games import Game, IllegalAction
from ..i18n import t
from ..tables import LiveTable, Outcome, TableError
from .replies import ephemeral, refuse
from .routing import Route, button, route, view_of
from .translator import command_text

if TYPE_CHECKING:
    from ..client import TabletopBot

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()
LOBBY_VERBS = ("join", "leave", "start", "cancel")
COLOUR = {"lobby": 0x5865F2, "playing": 0x57F287, "finished": 0xFEE75C, "cancelled": 0x99AAB5}


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:64]


class GameCog(commands.GroupCog):
    game_key: ClassVar[str]
    #: catalog key of the "My …" button; None for a game without private information
    private_button: ClassVar[str | None] = None

    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot
        self._board_locks: dict[int, asyncio.Lock] = {}
        super().__init__()

    @property
    def tables(self):
        return self.bot.tables

    async def cog_load(self) -> None:
        self.bot.router.register(self)
        self._boards_checked = False

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a restart, post the board of any game that started but never got one (the
        bot stopped between committing the start and posting): its buttons live there."""
        if self._boards_checked:
            return
        self._boards_checked = True
        for table_id in self.tables.unfinished_ids(self.game_key):
            live = await self.tables.get(table_id)
            if live is not None and live.row.status == "playing" and live.row.board_message_id is None:
                try:
                    await self.refresh_board(live)
                except discord.HTTPException as exc:
                    log.warning("table %s: could not post its board: %s", table_id, exc)

    async def cog_unload(self) -> None:
        self.bot.router.unregister(self.game_key)

    # == commands every game has ============================================================

    @app_commands.command(name="rules", description=command_text("cmd.rules.description"))
    async def rules_command(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(t(f"{self.game_key}.rules", interaction.locale),
                                                ephemeral=True)

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

    async def after_finish(self, live: LiveTable) -> None:
        """Extra work once a game ends (e.g. a solver), called off the click's path."""

    # == helpers ===========================================================================

    def cid(self, table_id: int, verb: str, *args: Any) -> str:
        return route(self.game_key, table_id, verb, *args)

    def name(self, live: LiveTable, seat: int) -> str:
        return discord.utils.escape_markdown(live.row.seats[seat].name)

    def mention(self, live: LiveTable, seat: int) -> str:
        return f"<@{live.user_of(seat)}>"

    def game(self, live: LiveTable) -> Game:
        assert live.game is not None
        return live.game

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.bot.get_partial_messageable(channel_id)

    # == routing ===========================================================================

    async def on_route(self, interaction: discord.Interaction, route_: Route) -> None:
        try:
            handler = {
                "join": self._join, "leave": self._leave, "start": self._start,
                "cancel": self._cancel, "mine": self._mine, "resign": self._resign_ask,
                "resign_ok": self._resign_confirm, "rematch": self._rematch,
            }.get(route_.verb)
            if handler is not None:
                await handler(interaction, route_)
            else:
                await self.handle(interaction, route_)
        except (TableError, IllegalAction) as exc:
            await refuse(interaction, exc, self.game_key)

    async def live_of(self, route_: Route) -> LiveTable:
        live = await self.tables.get(route_.table)
        if live is None or live.row.game != self.game_key:
            raise TableError("no_table")
        return live

    async def playing(self, interaction: discord.Interaction, route_: Route, *,
                      check_version: bool = True,
                      my_turn: bool = False) -> tuple[LiveTable, Game, int]:
        """The running table, its game and the clicker's seat, for a click that only looks
        (the action itself is re-validated under the lock by ``perform``)."""
        live = await self.live_of(route_)
        seat = self.seat_or_raise(live, interaction.user.id)
        if live.row.status != "playing" or live.game is None:
            raise TableError("game_over" if live.row.status == "finished" else "not_running")
        if check_version and self.version_of(route_) != live.row.version:
            raise TableError("stale")
        if my_turn and live.game.to_move != seat:
            raise TableError("not_your_turn")
        return live, live.game, seat

    def seat_or_raise(self, live: LiveTable, user_id: int) -> int:
        seat = live.row.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        return seat

    async def table_here(self, interaction: discord.Interaction) -> LiveTable:
        """The running table of this game, in this channel or thread, where the user plays
        (for typed moves). Several can share a channel only when threads are not allowed:
        then the one waiting for this user is meant."""
        user_id = interaction.user.id
        mine = await self.tables.playing_in(self.game_key, interaction.channel_id or 0, user_id)
        if len(mine) > 1:
            waiting = [live for live in mine if live.game.to_move == live.row.seat_of(user_id)]
            if len(waiting) != 1:
                raise TableError("which_table", tables=", ".join(f"#{live.id}" for live in mine))
            mine = waiting
        if not mine:
            raise TableError("no_table_here", game=t(f"{self.game_key}.name", interaction.locale))
        return mine[0]

    async def show_step(self, interaction: discord.Interaction, content: str,
                        view: discord.ui.View | None) -> None:
        """Step through a private flow: replace the ephemeral message clicked, or open one."""
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.response.edit_message(content=content, view=view)
        else:
            await ephemeral(interaction, content, view=view)

    @staticmethod
    def version_of(route_: Route) -> int:
        try:
            return int(route_.args()[0])
        except (IndexError, ValueError):
            raise TableError("stale") from None

    # == lobby =============================================================================

    def lobby_embed(self, live: LiveTable, locale: str) -> discord.Embed:
        row, cls = live.row, live.cls
        title = t("lobby.title", locale, game=t(f"{self.game_key}.name", locale), table=row.id)
        embed = discord.Embed(title=title, colour=COLOUR.get(row.status, 0))
        players = "\n".join(
            f"{s.seat + 1}. <@{s.user_id}>" + (" 👑" if s.user_id == row.host_id else "")
            for s in row.seats) or "—"
        seats_range = (str(cls.min_seats) if cls.min_seats == cls.max_seats
                       else f"{cls.min_seats}–{cls.max_seats}")
        embed.add_field(name=t("lobby.players", locale, count=len(row.seats), seats=seats_range),
                        value=players, inline=False)
        options = self.options_text(row.options, locale)
        if options:
            embed.add_field(name=t("lobby.options", locale), value=options, inline=False)
        status_key = {"lobby": "lobby.waiting" if not live.seat_count_ok() else "lobby.ready",
                      "playing": "lobby.started", "cancelled": "lobby.cancelled",
                      "finished": "lobby.finished"}[row.status]
        embed.set_footer(text=t(status_key, locale, min=cls.min_seats))
        return embed

    def lobby_view(self, live: LiveTable, locale: str) -> discord.ui.View | None:
        if live.row.status != "lobby":
            return None
        tid = live.id
        full = len(live.row.seats) >= live.cls.max_seats
        return view_of(
            button(self.cid(tid, "join"), t("button.join", locale), style=discord.ButtonStyle.success,
                   disabled=full),
            button(self.cid(tid, "leave"), t("button.leave", locale)),
            button(self.cid(tid, "start"), t("button.start", locale),
                   style=discord.ButtonStyle.primary, disabled=not live.seat_count_ok()),
            button(self.cid(tid, "cancel"), t("button.cancel", locale),
                   style=discord.ButtonStyle.danger),
        )

    async def open_lobby(self, interaction: discord.Interaction, options: Mapping[str, Any],
                         *, seats: list[tuple[int, str]] | None = None,
                         rematch_of: int | None = None,
                         channel_id: int | None = None,
                         invited: discord.abc.User | None = None) -> LiveTable | None:
        """Post a lobby in ``channel_id`` (default: where the command was used)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            await ephemeral(interaction, t("error.guild_only", interaction.locale))
            return None
        here = channel_id is None or channel_id == interaction.channel_id
        channel_id = interaction.channel_id if channel_id is None else channel_id
        locale = str(interaction.guild_locale or interaction.locale)
        try:
            live = await self.tables.open_lobby(
                self.game_key, guild_id=interaction.guild_id, channel_id=channel_id,
                host_id=interaction.user.id, host_name=display_name(interaction.user),
                options=options, locale=locale, rematch_of=rematch_of, seats=seats,
                invited_id=invited.id if invited else None)
        except TableError as exc:
            await refuse(interaction, exc, self.game_key)
            return None
        content = t("lobby.open", locale, host=interaction.user.mention,
                    game=t(f"{self.game_key}.name", locale))
        if invited is not None:
            content = t("lobby.challenge", locale, host=interaction.user.mention,
                        player=invited.mention, game=t(f"{self.game_key}.name", locale))
        if seats:
            content = " ".join(f"<@{uid}>" for uid, _ in seats) + " — " + content
        payload = dict(embed=self.lobby_embed(live, locale), view=self.lobby_view(live, locale),
                       allowed_mentions=MENTION_USERS)
        if here:
            await interaction.response.send_message(content, **payload)
            message = await interaction.original_response()
        else:
            message = await self.channel(channel_id).send(content, **payload)
            link = f"https://discord.com/channels/{interaction.guild_id}/{channel_id}/{message.id}"
            await interaction.response.send_message(
                t("rematch.opened", locale, player=interaction.user.mention, link=link),
                allowed_mentions=NO_MENTIONS)
        await self.tables.set_lobby_message(live.id, message.id)
        return live

    async def _edit_lobby(self, interaction: discord.Interaction, live: LiveTable) -> None:
        locale = live.row.locale
        await interaction.response.edit_message(embed=self.lobby_embed(live, locale),
                                                view=self.lobby_view(live, locale))

    async def _join(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.tables.join(route_.table, interaction.user.id,
                                      display_name(interaction.user))
        await self._edit_lobby(interaction, live)

    async def _leave(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.tables.leave(route_.table, interaction.user.id)
        await self._edit_lobby(interaction, live)

    async def _cancel(self, interaction: discord.Interaction, route_: Route) -> None:
        perms = interaction.permissions
        live = await self.tables.cancel(route_.table, interaction.user.id,
                                        can_manage=bool(perms and perms.manage_guild))
        await self._edit_lobby(interaction, live)

    async def _start(self, interaction: discord.Interaction, route_: Route) -> None:
        async with self.tables.lock(route_.table):
            live = await self.live_of(route_)
            self.tables.check_startable(live, interaction.user.id)
            thread = await self._open_thread(interaction, live)
            live = await self.tables.start(route_.table, interaction.user.id,
                                           thread.id if thread else None)
            await self._edit_lobby(interaction, live)
        await self._announce_start(live)

    async def _open_thread(self, interaction: discord.Interaction,
                           live: LiveTable) -> discord.Thread | None:
        name = t("thread.name", live.row.locale, game=t(f"{self.game_key}.name", live.row.locale),
                 table=live.id)
        message = interaction.message
        if message is None or not isinstance(interaction.channel, discord.TextChannel):
            return None
        try:
            return await message.create_thread(name=name, auto_archive_duration=1440)
        except discord.HTTPException as exc:
            log.info("table %s: no thread (%s), playing in the channel", live.id, exc)
            return None

    async def _announce_start(self, live: LiveTable) -> None:
        locale = live.row.locale
        game = self.game(live)
        players = " ".join(self.mention(live, s.seat) for s in live.row.seats)
        first = game.to_move
        text = t("game.started", locale, players=players,
                 first=self.mention(live, first) if first is not None else "—")
        await self.channel(live.row.game_channel_id).send(text, allowed_mentions=MENTION_USERS)
        await self.refresh_board(live)
        for seat in range(len(live.row.seats)):
            view = game.private_view(seat)
            if view:
                await self.send_private(live, seat, self.private_text(live, seat, view, locale))

    # == the board message =================================================================

    def board_lock(self, table_id: int) -> asyncio.Lock:
        return self._board_locks.setdefault(table_id, asyncio.Lock())

    def board_view(self, live: LiveTable, locale: str) -> discord.ui.View:
        tid = live.id
        if live.row.status == "finished":
            return view_of(button(self.cid(tid, "rematch"), t("button.rematch", locale),
                                  style=discord.ButtonStyle.primary, emoji="🔁"))
        items = list(self.game_components(live, locale))
        if self.private_button:
            items.append(button(self.cid(tid, "mine"), t(self.private_button, locale), emoji="🔒"))
        items.append(button(self.cid(tid, "resign"), t(f"{self.game_key}.button.resign", locale),
                            style=discord.ButtonStyle.danger))
        return view_of(*items)

    def board_embed(self, live: LiveTable, locale: str) -> discord.Embed:
        title = t("lobby.title", locale, game=t(f"{self.game_key}.name", locale), table=live.id)
        if live.row.status == "finished":
            description = self.result_text(live, locale)
        else:
            description = self.status_text(live, locale)
        embed = discord.Embed(title=title, description=description[:4000],
                              colour=COLOUR.get(live.row.status, 0))
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed

    async def board_png(self, live: LiveTable) -> bytes:
        # Render from a snapshot of the public view, off the event loop.
        view = self.game(live).public_view()
        return await asyncio.get_running_loop().run_in_executor(
            None, self.render, view, live.names(), live.row.locale)

    async def refresh_board(self, live: LiveTable) -> None:
        """Bring the board message up to date with the latest state (one edit at a time)."""
        async with self.board_lock(live.id):
            locale = live.row.locale
            png = await self.board_png(live)
            file = discord.File(io.BytesIO(png), filename=BOARD_FILE)
            embed = self.board_embed(live, locale)
            view = self.board_view(live, locale)
            channel = self.channel(live.row.game_channel_id)
            if live.row.board_message_id is not None:
                try:
                    await channel.get_partial_message(live.row.board_message_id).edit(
                        embed=embed, attachments=[file], view=view)
                    return
                except discord.NotFound:
                    log.info("table %s: board message gone, posting a new one", live.id)
                    file = discord.File(io.BytesIO(png), filename=BOARD_FILE)
            message = await channel.send(embed=embed, file=file, view=view,
                                         allowed_mentions=NO_MENTIONS)
            await self.tables.set_board_message(live.id, message.id)

    # == private information ===============================================================

    async def send_private(self, live: LiveTable, seat: int, text: str) -> None:
        """DM a player their private state; say so in the game channel when DMs are closed."""
        if not text:
            return
        user_id = live.user_of(seat)
        try:
            dm = await self.bot.create_dm(discord.Object(user_id))
            await dm.send(text)
        except discord.Forbidden:
            if await self.tables.set_dm_open(live, seat, False):
                label = t(self.private_button or "button.mine", live.row.locale)
                await self.channel(live.row.game_channel_id).send(
                    t("dm.closed", live.row.locale, player=self.mention(live, seat), button=label),
                    allowed_mentions=MENTION_USERS)
        except discord.HTTPException as exc:
            log.warning("table %s: DM to seat %s failed: %s", live.id, seat, exc)
        else:
            await self.tables.set_dm_open(live, seat, True)

    async def _mine(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.live_of(route_)
        seat = self.seat_or_raise(live, interaction.user.id)
        if live.game is None:
            raise TableError("not_running")
        view = self.game(live).private_view(seat)
        await ephemeral(interaction, self.private_text(live, seat, view, str(interaction.locale)))

    # == playing ===========================================================================

    async def perform(self, interaction: discord.Interaction, table_id: int,
                      action: Mapping[str, Any], version: int | None) -> Outcome | None:
        """Apply and commit an action; on refusal answer ephemerally and return None.

        The caller acknowledges the click (the action is durable by then), then calls
        ``publish``.
        """
        try:
            return await self.tables.act(table_id, interaction.user.id, action,
                                         expected_version=version, game_key=self.game_key)
        except (TableError, IllegalAction) as exc:
            await refuse(interaction, exc, self.game_key)
            return None

    async def publish(self, outcome: Outcome) -> None:
        """Everything the table sees after an accepted action: log line, board, DMs, end."""
        live, locale = outcome.table, outcome.table.row.locale
        line = self.describe(outcome, locale)
        game = self.game(live)
        if line:
            nxt = game.to_move
            if outcome.result is None and nxt is not None and nxt != outcome.seat:
                line += " " + t("game.next", locale, player=self.mention(live, nxt))
            await self.channel(live.row.game_channel_id).send(line, allowed_mentions=MENTION_USERS)
        await self.refresh_board(live)
        for seat, (before, after) in outcome.private_changed.items():
            text = self.private_update_text(live, seat, before, after, locale)
            if text:
                await self.send_private(live, seat, text)
        if outcome.result is not None:
            await self.channel(live.row.game_channel_id).send(
                t("game.over", locale, summary=self.result_text(live, locale)),
                allowed_mentions=NO_MENTIONS)
            await self.after_finish(live)

    async def _resign_ask(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.live_of(route_)
        self.seat_or_raise(live, interaction.user.id)
        if live.row.status != "playing":
            raise TableError("game_over")
        locale = interaction.locale
        await ephemeral(interaction, t(f"{self.game_key}.resign.confirm", locale), view=view_of(
            button(self.cid(live.id, "resign_ok"), t(f"{self.game_key}.button.resign", locale),
                   style=discord.ButtonStyle.danger)))

    async def _resign_confirm(self, interaction: discord.Interaction, route_: Route) -> None:
        outcome = await self.perform(interaction, route_.table, {"type": "resign"}, None)
        if outcome is None:
            return
        await interaction.response.edit_message(content=t("resign.done", interaction.locale),
                                                view=None)
        await self.publish(outcome)

    async def _rematch(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.live_of(route_)
        if live.row.status != "finished":
            raise TableError("rematch_unfinished")
        self.seat_or_raise(live, interaction.user.id)
        # Same players in the same seats; whoever asked for the rematch hosts it.
        seats = [(s.user_id, s.name) for s in live.row.seats]
        await self.open_lobby(interaction, live.row.options, seats=seats, rematch_of=live.id,
                              channel_id=live.row.channel_id)
