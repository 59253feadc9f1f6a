"""The base every game cog extends: lobby, start, board message, private info, resign, rematch.

A game cog adds its commands and the components particular to its game (``game_components``,
``handle``) and says how its events and views read (``describe``, ``private_text`` …).
"""
from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable, ClassVar, Mapping

import discord
from discord import app_commands
from discord.ext import commands

from ..games.ai import PLAYER_LEVELS
from ..games import Game, IllegalAction, game_class
from ..i18n import t
from ..store import SeatRow, StoreFailure
from ..domain.tables import LiveTable, Outcome, TableError, closed_error
from ..runtime.thinkpool import ThinkFailed, ThinkTimeout
from .limits import clip, CONTENT, EMBED_DESCRIPTION, THREAD_NAME
from .dms import DmsClosed
from .permissions import REQUIRED, missing_for_game, missing_from_error, missing_in_channel
from .reconcile import SurfaceBlocked
from .replies import ephemeral, refuse, update_message
from .review import review_button
from .routing import Route, button, route, select, view_of
from .translator import command_name, command_text

if TYPE_CHECKING:
    from ..client import TabletopBot

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
#: the picture of a private step (a planned move, a choice being made)
STEP_FILE = "step.png"
#: seconds a step waits for its picture before deferring its click (Discord allows three)
STEP_PICTURE_WAIT = 1.5
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()
LOBBY_VERBS = ("join", "leave", "start", "cancel")
#: Discord: "A thread has already been created for this message" (its id is the message's)
THREAD_EXISTS = 160004
UNKNOWN_CHANNEL = 10003
COLOUR = {"lobby": 0x5865F2, "playing": 0x57F287, "finished": 0xFEE75C, "cancelled": 0x99AAB5}
#: the time controls a lobby offers, in seconds per turn (0: none)
TURN_LIMITS = (0, 120, 600, 3600, 86_400, 259_200)
POLICIES = ("ai", "forfeit", "wait")


def limit_text(seconds: float | None, locale: str) -> str:
    """A time per turn as people say it: "2 min", "24 h", "no time limit"."""
    if not seconds:
        return t("clock.off", locale)
    if seconds < 3600:
        return t("clock.minutes", locale, n=f"{seconds / 60:g}")
    return t("clock.hours", locale, n=f"{seconds / 3600:g}")


def when_text(deadline: float) -> str:
    """A moment every reader sees in their own time zone, relative ("in 3 hours")."""
    return f"<t:{int(deadline)}:R>"


#: the level choice of the start commands' "ai" option
AI_CHOICES = [app_commands.Choice(name=command_text(f"ai.level.{level}"), value=level)
              for level in PLAYER_LEVELS]
AI_EMOJI = "🤖"


def ai_name(level: str, locale: str) -> str:
    """How an AI player is named at a table (in the server's language)."""
    return t("ai.name", locale, level=t(f"ai.level.{level}", locale))


def selected(interaction: discord.Interaction) -> str | None:
    """The value picked in a select menu."""
    values = (interaction.data or {}).get("values") or []
    return str(values[0]) if values else None


def chosen(interaction: discord.Interaction, route_: Route, index: int) -> str | None:
    """What a step's click chose: a button carries it as argument ``index`` of its custom_id,
    the select that stands in for too many buttons as its value (``choice_items``)."""
    args = route_.args()
    return args[index] if len(args) > index else selected(interaction)


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

    async def cog_unload(self) -> None:
        self.bot.router.unregister(self.game_key)

    # == commands every game has ============================================================

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
        links = []
        for table_id in ids:
            async with self.bot.reconciler.lock(table_id):
                live = await self.tables.with_game(table_id)
                if live is None or live.game is None:
                    continue
                await self.refresh_board(live, repost=True)
                links.append(self.board_link(live))
        await ephemeral(interaction, t("board.reposted", interaction.locale,
                                       link="\n".join(links)))

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
        """A ping for a person; an AI player's name (nobody to notify)."""
        seat_row = live.row.seats[seat]
        if not seat_row.person:
            return f"{AI_EMOJI} **{discord.utils.escape_markdown(seat_row.name)}**"
        if seat_row.ai is not None:
            # Their seat is being played by an AI meanwhile: name both, ping nobody.
            return t("ai.playing_for", live.row.locale, player=f"<@{seat_row.user_id}>",
                     ai=ai_name(seat_row.ai, live.row.locale))
        return f"<@{seat_row.user_id}>"

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

    async def refuse(self, interaction: discord.Interaction, exc: TableError | IllegalAction,
                     route_: Route | None = None) -> None:
        """Answer a refused click. A click on a public message that is behind the table (a
        board that missed a turn) repairs that message first and says what changed."""
        if isinstance(exc, TableError) and exc.code == "stale" and route_ is not None \
                and interaction.message is not None and not interaction.message.flags.ephemeral:
            await self._refresh_behind(interaction, route_.table)
            return
        await refuse(interaction, exc, self.game_key)

    async def _refresh_behind(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = interaction.locale
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            repaired = await self.bot.reconciler.sync(table_id)
        except SurfaceBlocked as exc:
            await ephemeral(interaction, "⚠️ " + self.blocked_text(exc.missing, locale))
            return
        except (discord.HTTPException, StoreFailure, OSError) as exc:
            log.warning("table %s: refresh on a click failed: %s", table_id, type(exc).__name__)
            await ephemeral(interaction, "⚠️ " + t("error.refresh_failed", locale))
            return
        live = await self.tables.with_game(table_id)
        if live is None or live.game is None:
            await ephemeral(interaction, "⚠️ " + t("error.stale", locale))
            return
        if not repaired:
            await ephemeral(interaction, "⚠️ " + t("error.stale", locale) + "\n"
                            + t("board.current", locale, link=self.board_link(live)))
            return
        status = (self.result_text(live, locale) if live.row.status == "finished"
                  else self.status_text(live, locale))
        await ephemeral(interaction, t("board.refreshed", locale, status=status,
                                       link=self.board_link(live)))

    def blocked_text(self, missing: list[str], locale: Any) -> str:
        if not missing:
            names = ", ".join(f"**{t(f'perm.{name}', locale)}**"
                              for name in (*REQUIRED, "send_messages_in_threads"))
            return t("error.missing_permissions_unknown", locale, permissions=names)
        names = ", ".join(f"**{t(f'perm.{name}', locale)}**" for name in missing)
        return t("error.missing_permissions", locale, permissions=names)

    def board_link(self, live: LiveTable) -> str:
        return (f"https://discord.com/channels/{live.row.guild_id or '@me'}/"
                f"{live.row.game_channel_id}/{live.row.board_message_id}")

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
            raise closed_error(live.row.status)
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
                        view: discord.ui.View | None,
                        picture: Awaitable[bytes] | None = None) -> None:
        """Step through a private flow: replace the ephemeral message clicked, or open one.
        ``picture`` (being drawn) shows the position being decided; a step without one clears
        the last. A picture that queues behind many boards in the render workers must not cost
        the click its answer: past STEP_PICTURE_WAIT the click is deferred, then the step
        follows once the picture is drawn."""
        message = interaction.message
        in_place = message is not None and message.flags.ephemeral
        file = None
        if picture is not None:
            drawing = asyncio.ensure_future(picture)
            await asyncio.wait({drawing}, timeout=STEP_PICTURE_WAIT)
            if not drawing.done() and not interaction.response.is_done():
                await (interaction.response.defer() if in_place else
                       interaction.response.defer(ephemeral=True, thinking=True))
            file = discord.File(io.BytesIO(await drawing), filename=STEP_FILE)
        if in_place:
            await update_message(interaction, content=clip(content, CONTENT), view=view,
                                 attachments=[file] if file else [])
        else:
            await ephemeral(interaction, content, view=view, file=file)

    async def picture(self, live: LiveTable, view: dict[str, Any], locale: str) -> bytes:
        """``view`` (a public view, perhaps with what a private step highlights) drawn like
        the board, off the event loop."""
        return await self.draw(self.renderer_name, self.render, view, live.names(), locale)

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
        embed = discord.Embed(title=clip(title, 256), colour=COLOUR.get(row.status, 0))
        players = "\n".join(
            f"{s.seat + 1}. " + (f"<@{s.user_id}>" if s.person else
                                 f"{AI_EMOJI} {discord.utils.escape_markdown(s.name)}")
            + (" 👑" if s.user_id == row.host_id else "")
            for s in row.seats) or "—"
        seats_range = (str(cls.min_seats) if cls.min_seats == cls.max_seats
                       else f"{cls.min_seats}–{cls.max_seats}")
        embed.add_field(name=t("lobby.players", locale, count=len(row.seats), seats=seats_range),
                        value=clip(players, 1024), inline=False)
        options = self.options_text(row.options, locale)
        if options:
            embed.add_field(name=t("lobby.options", locale), value=clip(options, 1024), inline=False)
        embed.add_field(name=t("lobby.clock", locale), value=self.clock_text(live, locale),
                        inline=False)
        if row.status == "cancelled" and row.closed_reason == "expired":
            status_key = "lobby.expired"
        else:
            status_key = {"lobby": "lobby.waiting" if not live.seat_count_ok() else "lobby.ready",
                          "playing": "lobby.started", "cancelled": "lobby.cancelled",
                          "finished": "lobby.finished"}[row.status]
        embed.set_footer(text=t(status_key, locale, min=cls.min_seats,
                                hours=f"{self.bot.settings.lobby_ttl_hours:g}"))
        return embed

    def clock_text(self, live: LiveTable, locale: str) -> str:
        row = live.row
        if not row.turn_limit:
            return t("lobby.clock_value_off", locale)
        policy = "ai" if live.cls.cooperative else row.timeout_policy
        return t("lobby.clock_value", locale, limit=t("clock.per_turn", locale,
                                                      time=limit_text(row.turn_limit, locale)),
                 policy=t(f"clock.policy.{policy}", locale))

    def lobby_view(self, live: LiveTable, locale: str) -> discord.ui.View | None:
        if live.row.status != "lobby":
            return None
        tid = live.id
        full = len(live.row.seats) >= live.cls.max_seats
        add_ai = None if full else select(
            self.cid(tid, "addai"),
            [discord.SelectOption(label=t(f"ai.level.{level}", locale), value=level,
                                  description=t(f"ai.level.{level}.description", locale),
                                  emoji=AI_EMOJI) for level in PLAYER_LEVELS],
            placeholder=t("lobby.add_ai", locale), row=1)
        ais = [s for s in live.row.seats if not s.person]
        remove_ai = None if not ais else select(
            self.cid(tid, "rmai"),
            [discord.SelectOption(label=f"{s.seat + 1}. {s.name}", value=str(s.seat), emoji=AI_EMOJI)
             for s in ais],
            placeholder=t("lobby.remove_ai", locale), row=2)
        return view_of(
            button(self.cid(tid, "join"), t("button.join", locale), style=discord.ButtonStyle.success,
                   disabled=full, row=0),
            button(self.cid(tid, "leave"), t("button.leave", locale), row=0),
            button(self.cid(tid, "start"), t("button.start", locale),
                   style=discord.ButtonStyle.primary, disabled=not live.seat_count_ok(), row=0),
            button(self.cid(tid, "cancel"), t("button.cancel", locale),
                   style=discord.ButtonStyle.danger, row=0),
            add_ai, remove_ai,
            select(self.cid(tid, "clock"),
                   [discord.SelectOption(label=limit_text(limit, locale), value=str(limit),
                                         emoji="⏱", default=(limit or None) == live.row.turn_limit)
                    for limit in TURN_LIMITS],
                   placeholder=t("lobby.clock_placeholder", locale), row=3),
            None if live.cls.cooperative or not live.row.turn_limit else select(
                self.cid(tid, "policy"),
                [discord.SelectOption(label=t(f"clock.policy.{p}", locale), value=p,
                                      description=t(f"clock.policy.{p}.description", locale),
                                      default=p == live.row.timeout_policy)
                 for p in POLICIES],
                placeholder=t("lobby.policy_placeholder", locale), row=4),
        )

    def lobby_content(self, live: LiveTable, locale: str) -> str:
        game = t(f"{self.game_key}.name", locale)
        host = f"<@{live.row.host_id}>"
        if live.row.invited_id is not None:
            content = t("lobby.challenge", locale, host=host, player=f"<@{live.row.invited_id}>",
                        game=game)
        else:
            content = t("lobby.open", locale, host=host, game=game)
        if live.row.rematch_of is not None:
            content = " ".join(f"<@{s.user_id}>" for s in live.row.seats if s.person) \
                + " — " + content
        return clip(content, CONTENT)

    def check_permissions(self, interaction: discord.Interaction) -> None:
        """Refuse, naming what to grant, before creating anything in a channel where the game
        could not be played."""
        missing = missing_for_game(interaction.app_permissions,
                                   in_thread=isinstance(interaction.channel, discord.Thread))
        if missing:
            raise TableError("missing_permissions", permissions=", ".join(
                f"**{t(f'perm.{name}', interaction.locale)}**" for name in missing))

    async def open_lobby(self, interaction: discord.Interaction, options: Mapping[str, Any],
                         *, seats: list[SeatRow] | None = None,
                         rematch_of: int | None = None,
                         channel_id: int | None = None,
                         invited: discord.abc.User | None = None,
                         clock: tuple[float | None, str] | None = None) -> LiveTable | None:
        """Post a lobby in ``channel_id`` (default: where the command was used)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            await ephemeral(interaction, t("error.guild_only", interaction.locale))
            return None
        here = channel_id is None or channel_id == interaction.channel_id
        channel_id = interaction.channel_id if channel_id is None else channel_id
        locale = await self.public_locale(interaction)
        try:
            if here:
                self.check_permissions(interaction)
            if seats is None:
                seats = [SeatRow(0, interaction.user.id, display_name(interaction.user),
                                 locale=str(interaction.locale))]
            live = await self.tables.open_lobby(
                self.game_key, guild_id=interaction.guild_id, channel_id=channel_id,
                host_id=interaction.user.id, host_name=display_name(interaction.user),
                options=options, locale=locale, rematch_of=rematch_of, seats=seats,
                invited_id=invited.id if invited else None, clock=clock)
        except TableError as exc:
            if exc.code == "lobby_exists":
                # Its message may be the thing that went missing: have it checked.
                self.bot.reconciler.mark(exc.params["table"])
            await refuse(interaction, exc, self.game_key)
            return None
        rev = live.row.rev
        payload = dict(embed=self.lobby_embed(live, locale), view=self.lobby_view(live, locale),
                       allowed_mentions=MENTION_USERS)
        if here:
            await interaction.response.send_message(self.lobby_content(live, locale), **payload)
            message = await interaction.original_response()
            await self.tables.set_surface(live, lobby_message_id=message.id, lobby_rev=rev)
        else:
            # Posted by the reconciler in the other channel; this click only says where.
            await interaction.response.defer(thinking=True)
            await self.bot.reconciler.sync(live.id)
            link = (f"https://discord.com/channels/{interaction.guild_id}/{channel_id}/"
                    f"{live.row.lobby_message_id}")
            await interaction.followup.send(
                t("rematch.opened", locale, player=interaction.user.mention, link=link),
                allowed_mentions=NO_MENTIONS)
        return live

    async def refresh_lobby(self, live: LiveTable) -> None:
        """Make the lobby message show the stored table (post it again if it is gone)."""
        rev, locale = live.row.rev, live.row.locale
        embed, view = self.lobby_embed(live, locale), self.lobby_view(live, locale)
        channel = self.channel(live.row.channel_id)
        if live.row.lobby_message_id is not None:
            try:
                await channel.get_partial_message(live.row.lobby_message_id).edit(
                    embed=embed, view=view)
                await self.tables.set_surface(live, lobby_rev=rev)
                return
            except discord.NotFound:
                if live.row.status != "lobby":
                    # A closed table's lobby message was deleted: nothing left to show.
                    await self.tables.set_surface(live, lobby_rev=rev)
                    return
            except discord.Forbidden as exc:
                await self._lost_permission(live, exc)
        if live.row.status != "lobby":
            return
        try:
            message = await channel.send(self.lobby_content(live, locale), embed=embed, view=view,
                                         allowed_mentions=MENTION_USERS)
        except discord.Forbidden as exc:
            await self._lost_permission(live, exc)
            raise  # unreachable: _lost_permission raises
        await self.tables.set_surface(live, lobby_message_id=message.id, lobby_rev=rev)

    async def _edit_lobby(self, interaction: discord.Interaction, live: LiveTable) -> None:
        locale, rev = live.row.locale, live.row.rev
        await update_message(interaction, embed=self.lobby_embed(live, locale),
                             view=self.lobby_view(live, locale))
        if interaction.message is not None and interaction.message.id == live.row.lobby_message_id:
            await self.tables.set_surface(live, lobby_rev=rev)
        if live.row.rev != rev or live.row.lobby_rev != rev:
            # Another click changed the lobby while this edit was on its way (edits can land
            # out of order), or this was not the lobby message: let the reconciler converge.
            self.bot.reconciler.mark(live.id)

    async def _join(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.tables.join(route_.table, interaction.user.id,
                                      display_name(interaction.user), str(interaction.locale))
        await self._edit_lobby(interaction, live)

    async def _leave(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.tables.leave(route_.table, interaction.user.id)
        await self._edit_lobby(interaction, live)

    async def _cancel(self, interaction: discord.Interaction, route_: Route) -> None:
        perms = interaction.permissions
        live = await self.tables.cancel(route_.table, interaction.user.id,
                                        can_manage=bool(perms and perms.manage_guild))
        await self._edit_lobby(interaction, live)

    async def public_locale(self, interaction: discord.Interaction) -> str:
        """The language of a new table's public messages and pictures: the server's choice
        (``/config language``), else the server's Discord language."""
        chosen = await self.bot.store.guild_language(interaction.guild_id)
        return chosen or str(interaction.guild_locale or interaction.locale)

    async def _add_ai(self, interaction: discord.Interaction, route_: Route) -> None:
        level = selected(interaction)
        if level not in PLAYER_LEVELS:
            raise TableError("stale")
        live = await self.live_of(route_)
        live = await self.tables.add_ai(route_.table, interaction.user.id, level,
                                        ai_name(level, live.row.locale))
        await self._edit_lobby(interaction, live)

    async def _remove_ai(self, interaction: discord.Interaction, route_: Route) -> None:
        try:
            seat = int(selected(interaction) or "")
        except ValueError:
            raise TableError("stale") from None
        live = await self.tables.remove_ai(route_.table, interaction.user.id, seat)
        await self._edit_lobby(interaction, live)

    async def _set_clock(self, interaction: discord.Interaction, route_: Route) -> None:
        try:
            limit = int(selected(interaction) or "")
        except ValueError:
            raise TableError("stale") from None
        if limit not in TURN_LIMITS:
            raise TableError("stale")
        live = await self.tables.set_time_control(route_.table, interaction.user.id,
                                                  turn_limit=float(limit) or None, set_limit=True)
        await self._edit_lobby(interaction, live)

    async def _set_policy(self, interaction: discord.Interaction, route_: Route) -> None:
        policy = selected(interaction)
        if policy not in POLICIES:
            raise TableError("stale")
        live = await self.tables.set_time_control(route_.table, interaction.user.id,
                                                  policy=policy)
        await self._edit_lobby(interaction, live)

    async def _come_back(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.tables.come_back(route_.table, interaction.user.id)
        await ephemeral(interaction, t("back.done", interaction.locale))
        self.bot.reconciler.mark(live.id)

    async def _vote_absent(self, interaction: discord.Interaction, route_: Route) -> None:
        live, votes, needed, handed = await self.tables.vote_absent(route_.table,
                                                                    interaction.user.id)
        seat = live.row.deadline_seat if live.row.deadline_seat is not None else (
            live.game.to_move if live.game is not None else None)
        player = self.name(live, seat) if seat is not None else "—"
        if handed:
            await ephemeral(interaction, t("vote.done", interaction.locale, player=player))
            self.bot.reconciler.mark(live.id)
        else:
            await ephemeral(interaction, t("vote.counted", interaction.locale, player=player,
                                           votes=votes, needed=needed))

    async def open_with_ai(self, interaction: discord.Interaction, options: Mapping[str, Any],
                           level: str | None, players: int | None = None) -> None:
        """A start command: a lobby, or with ``level`` a table filled with AI players of that
        level up to ``players`` seats (default: the fewest the game needs) that starts at once."""
        if level is None:
            await self.open_lobby(interaction, options)
            return
        cls = game_class(self.game_key)
        count = max(cls.min_seats, min(cls.max_seats, players or cls.min_seats))
        locale = await self.public_locale(interaction)
        seats = [SeatRow(0, interaction.user.id, display_name(interaction.user),
                         locale=str(interaction.locale))]
        seats += [SeatRow(i, -i, ai_name(level, locale), ai=level) for i in range(1, count)]
        live = await self.open_lobby(interaction, options, seats=seats)
        if live is None:
            return
        perms = interaction.app_permissions
        use_thread = (isinstance(interaction.channel, discord.TextChannel)
                      and perms.create_public_threads)
        try:
            await self.tables.start(live.id, interaction.user.id, use_thread=use_thread)
        except TableError as exc:
            await refuse(interaction, exc, self.game_key)
            return
        self.bot.reconciler.mark(live.id)

    async def ai_prepare(self, live: LiveTable, seat: int, level: str, view: dict[str, Any],
                         think: Any) -> dict[str, Any] | float:
        """The view an AI of this game thinks on (a game adds public facts here), or seconds
        to wait before it plays."""
        return view

    async def _start(self, interaction: discord.Interaction, route_: Route) -> None:
        """Deal and commit first (answering the click at once), then let the reconciler run
        the rest of the start: thread, lobby, announcement, board, private hands."""
        live = await self.live_of(route_)
        self.tables.check_startable(live, interaction.user.id)
        self.check_permissions(interaction)
        await interaction.response.defer()
        perms = interaction.app_permissions
        use_thread = (isinstance(interaction.channel, discord.TextChannel)
                      and perms.create_public_threads)
        await self.tables.start(route_.table, interaction.user.id, use_thread=use_thread)
        self.bot.reconciler.mark(route_.table)

    # == the reconciler's side: bringing a table's messages up to date =====================

    async def sync_surfaces(self, table_id: int) -> bool:
        """Deliver the table's outbox and re-render whatever shows an older version. Each step
        is recorded as soon as it is done, so a stop anywhere resumes where it was. True when
        anything was behind."""
        live = await self.tables.with_game(table_id)
        if live is None:
            return False
        items = await self.bot.store.outbox(table_id)
        lobby_behind = live.row.lobby_behind or (live.row.status == "lobby"
                                                 and live.row.lobby_message_id is None)
        board_behind = live.game is not None and live.row.board_behind
        # The board first, then the turn lines: the one counted call a move makes is the one
        # people wait for (a line through an interaction is not held back by the budget).
        before_board = [i for i in items if i[1] in ("thread", "announce", "question")]
        after_board = [i for i in items if i not in before_board]
        for item in before_board:
            await self._deliver_item(live, item)
        if live.game is not None and live.row.board_behind:
            await self.refresh_board(live)
        for item in after_board:
            await self._deliver_item(live, item)
        if live.row.lobby_behind or (live.row.status == "lobby" and live.row.lobby_message_id is None):
            await self.refresh_lobby(live)
        return bool(items) or lobby_behind or board_behind

    async def _deliver_item(self, live: LiveTable, item: tuple[int, str, dict[str, Any]]) -> None:
        item_id, kind, payload = item
        try:
            await self.deliver(live, kind, payload)
        except discord.Forbidden as exc:
            if exc.code == 50007:  # the user's DMs are closed: handled, nothing to retry
                pass
            else:
                await self._lost_permission(live, exc)
        await self.bot.store.outbox_done(item_id)

    async def _lost_permission(self, live: LiveTable, exc: discord.Forbidden) -> None:
        """Say where it can still be said that the bot cannot post in the game's channel,
        then keep the item for later (raises SurfaceBlocked)."""
        missing = (missing_in_channel(self.bot, live.row.guild_id, live.row.game_channel_id)
                   or missing_from_error(exc))
        if self.bot.reconciler.blocked.get(live.id) is None and live.row.thread_id is not None:
            try:
                await self.channel(live.row.channel_id).send(
                    t("notice.blocked", live.row.locale, table=live.id,
                      problem=self.blocked_text(missing, live.row.locale)),
                    allowed_mentions=NO_MENTIONS)
            except discord.HTTPException:
                pass  # the parent channel refuses too: clicks will tell the players
        raise SurfaceBlocked(live.id, missing) from None

    async def deliver(self, live: LiveTable, kind: str, payload: Mapping[str, Any]) -> None:
        """Post one outbox item. Games add their own kinds through ``deliver_extra``."""
        locale = live.row.locale
        if kind == "thread":
            await self._open_thread(live, bool(payload.get("use")))
        elif kind == "announce":
            await self._announce_start(live, payload.get("first", self.game(live).to_move))
        elif kind == "log":
            await self._post_log(live, payload)
        elif kind == "dm":
            seat = int(payload["seat"])
            game = self.game(live)
            # A DM is read by its player alone: in their language when the bot knows it.
            locale = live.row.seats[seat].locale or locale
            if payload.get("hand"):
                text = self.private_text(live, seat, game.private_view(seat), locale)
            else:
                text = self.private_update_text(live, seat, payload["before"], payload["after"],
                                                locale)
            if text and live.row.status == "playing":
                await self.send_private(live, seat, text)
        elif kind == "over":
            await self.post(live, t("game.over", locale, summary=self.result_text(live, locale)))
        elif kind == "after":
            self.bot.reviewer.queue(live.id)  # a game with a review module gets one computed
            await self.after_finish(live)
        elif kind in ("timeout", "remind", "remind_dm", "handed", "back"):
            await self._deliver_clock(live, kind, payload)
        else:
            await self.deliver_extra(live, kind, payload)

    async def _deliver_clock(self, live: LiveTable, kind: str, payload: Mapping[str, Any]) -> None:
        """What the turn clock and seats changing hands tell the table."""
        locale, seat = live.row.locale, int(payload["seat"])
        person = f"<@{live.user_of(seat)}>"
        if kind == "timeout":
            policy = payload.get("policy", "ai")
            await self.post(live, t(f"clock.timeout.{policy}", locale, player=person,
                                    ai=ai_name("medium", locale)), mentions=True)
        elif kind == "handed":
            await self.post(live, t("clock.handed", locale, player=person,
                                    ai=ai_name("medium", locale)), mentions=True)
        elif kind == "back":
            await self.post(live, t("clock.back", locale, player=person))
        elif live.row.status == "playing" and live.row.deadline == payload.get("deadline"):
            when = when_text(float(payload["deadline"]))
            if kind == "remind":
                await self.post(live, t(f"clock.remind.{int(payload['stage'])}", locale,
                                        player=person, when=when), mentions=True)
            else:
                mine = live.row.seats[seat].locale or locale
                text = t("clock.remind_dm", mine, game=t(f"{self.game_key}.name", mine),
                         table=live.id, when=when, link=self.board_link(live))
                try:
                    await self.bot.dms.send(live.user_of(seat), clip(text, CONTENT))
                except (DmsClosed, discord.HTTPException):
                    pass  # DMs closed: the ping in the thread is the reminder
                return
        if live.game is not None and live.row.status == "playing":
            # Who plays, the time left and the buttons changed with it.
            await self.refresh_board(live)

    async def deliver_extra(self, live: LiveTable, kind: str, payload: Mapping[str, Any]) -> None:
        log.warning("table %s: unknown outbox item %r dropped", live.id, kind)

    async def post(self, live: LiveTable, text: str, *, mentions: bool = False,
                   view: discord.ui.View | None = None) -> discord.Message:
        """A message in the game's channel, within Discord's limits. A deleted thread sends
        the game back to its channel rather than leaving it without a place to be played."""
        kwargs: dict[str, Any] = {"allowed_mentions": MENTION_USERS if mentions else NO_MENTIONS}
        if view is not None:
            kwargs["view"] = view
        else:
            # A plain line rides on a person's fresh interaction here, outside the budget.
            relayed = await self.bot.relay.send(live.row.game_channel_id, clip(text, CONTENT),
                                                kwargs["allowed_mentions"])
            if relayed is not None:
                return relayed
        try:
            return await self.channel(live.row.game_channel_id).send(clip(text, CONTENT), **kwargs)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_CHANNEL or live.row.thread_id is None:
                raise
            log.warning("table %s: its thread is gone; the game goes on in the channel", live.id)
            await self.tables.set_surface(live, thread_id=None, board_message_id=None)
            return await self.channel(live.row.game_channel_id).send(clip(text, CONTENT), **kwargs)

    async def _open_thread(self, live: LiveTable, use: bool) -> None:
        if not use or live.row.thread_id is not None or live.row.lobby_message_id is None:
            return
        locale = live.row.locale
        name = clip(t("thread.name", locale, game=t(f"{self.game_key}.name", locale),
                      table=live.id), THREAD_NAME)
        try:
            # The REST call itself: a partial lobby message carries no guild to build a Thread.
            data = await self.bot.http.start_thread_with_message(
                live.row.channel_id, live.row.lobby_message_id, name=name,
                auto_archive_duration=1440)
            thread_id = int(data["id"])
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS:
                # Made before a stop that came ahead of recording it: a thread opened from a
                # message has that message's id, so it is found, not left orphaned.
                thread_id = live.row.lobby_message_id
            else:
                log.info("table %s: no thread (%s), playing in the channel", live.id, exc.status)
                return
        await self.tables.set_surface(live, thread_id=thread_id)

    async def _announce_start(self, live: LiveTable, first: int | None) -> None:
        locale = live.row.locale
        players = " ".join(self.mention(live, s.seat) for s in live.row.seats)
        await self.post(live, t("game.started", locale, players=players,
                                first=self.mention(live, first) if first is not None else "—"),
                        mentions=True)

    async def _post_log(self, live: LiveTable, payload: Mapping[str, Any]) -> None:
        locale = live.row.locale
        outcome = Outcome(live, int(payload["seat"]), dict(payload["action"]),
                          list(payload["events"]), None)
        line = self.describe(outcome, locale)
        if not line:
            return
        nxt = payload.get("next")
        if nxt is not None and nxt != outcome.seat:
            line += " " + t("game.next", locale, player=self.mention(live, nxt))
        if live.row.board_message_id is not None and live.row.status == "playing":
            # However far the board has scrolled up, it is one tap away from the last turn.
            line += " · " + t("game.jump", locale, link=self.board_link(live))
        await self.post(live, line, mentions=True)

    # == the board message =================================================================

    def board_view(self, live: LiveTable, locale: str) -> discord.ui.View:
        tid = live.id
        if live.row.status == "finished":
            return view_of(button(self.cid(tid, "rematch"), t("button.rematch", locale),
                                  style=discord.ButtonStyle.primary, emoji="🔁"),
                           button(self.cid(tid, "replay", 0, 9), t("button.replay", locale),
                                  emoji="🎞️"),
                           review_button(self.game_key, tid, locale))
        items = list(self.game_components(live, locale))
        if self.private_button:
            items.append(button(self.cid(tid, "mine"), t(self.private_button, locale), emoji="🔒"))
        items.append(button(self.cid(tid, "resign"), t(f"{self.game_key}.button.resign", locale),
                            style=discord.ButtonStyle.danger))
        seats = live.row.seats
        if any(s.person and s.ai is not None for s in seats):
            items.append(button(self.cid(tid, "back"), t("button.im_back", locale), emoji="👋",
                                style=discord.ButtonStyle.success))
        if self.absent_vote_open(live):
            items.append(button(self.cid(tid, "absent"), t("button.absent", locale), emoji="🗳️"))
        return view_of(*items)

    @staticmethod
    def absent_vote_open(live: LiveTable) -> bool:
        """Whether the others may vote the player to move off to an AI: once half their time
        is gone, after their time ran out under the "wait" policy, or at any time without a
        clock (nothing else would ever move the table on)."""
        row, game = live.row, live.game
        to_move = game.to_move if game is not None else None
        if to_move is None or not row.seats[to_move].person or row.seats[to_move].ai is not None:
            return False
        if not any(s.person and s.seat != to_move for s in row.seats):
            return False
        waiting = row.deadline is None and row.deadline_seat == to_move
        return row.turn_limit is None or row.reminded >= 1 or waiting

    def board_embed(self, live: LiveTable, locale: str) -> discord.Embed:
        title = t("lobby.title", locale, game=t(f"{self.game_key}.name", locale), table=live.id)
        if live.row.status == "finished":
            description = self.result_text(live, locale)
        else:
            description = self.status_text(live, locale)
            row = live.row
            if row.deadline is not None and row.deadline_seat is not None:
                description += "\n" + t("board.deadline", locale,
                                        player=self.mention(live, row.deadline_seat),
                                        when=when_text(row.deadline))
        embed = discord.Embed(title=clip(title, 256), description=clip(description, EMBED_DESCRIPTION),
                              colour=COLOUR.get(live.row.status, 0))
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed

    async def draw(self, function: str | None, fallback: Callable[..., bytes],
                   *args: Any) -> bytes:
        """A picture drawn off the event loop: by ``function`` (module:name) in a render
        worker process, or by ``fallback`` in a thread when there is none (RENDER_WORKERS=0,
        a renderer replaced in a test or the bench) or the worker failed."""
        pool = getattr(self.bot, "render_pool", None)
        if function is not None and pool is not None and "render" not in self.__dict__:
            try:
                return await pool.call(function, *args)
            except (ThinkFailed, ThinkTimeout) as exc:
                log.warning("render worker failed (%s): drawing in a thread instead", exc)
        return await asyncio.get_running_loop().run_in_executor(None, fallback, *args)

    @property
    def renderer_name(self) -> str | None:
        renderer = type(self).__dict__.get("renderer")
        function = getattr(renderer, "__func__", renderer)
        if function is None or not getattr(function, "__module__", "").startswith("render."):
            return None
        return f"{function.__module__}:{function.__name__}"

    async def board_png(self, live: LiveTable) -> bytes:
        # Render from a snapshot of the public view, off the event loop.
        return await self.picture(live, self.game(live).public_view(), live.row.locale)

    async def refresh_board(self, live: LiveTable, *, repost: bool = False) -> None:
        """Make the board message show the stored version: edit it, or post a new one (and
        retire the old) when it cannot be edited or ``repost`` asks for the board to become
        the newest message. Records the version it now shows."""
        version, locale = live.row.version, live.row.locale
        png = await self.board_png(live)
        embed = self.board_embed(live, locale)
        view = self.board_view(live, locale)
        old = live.row.board_message_id
        if old is not None and not repost:
            try:
                await self.channel(live.row.game_channel_id).get_partial_message(old).edit(
                    embed=embed, attachments=[discord.File(io.BytesIO(png), filename=BOARD_FILE)],
                    view=view)
                await self.tables.set_surface(live, board_version=version)
                return
            except discord.NotFound:
                log.info("table %s: board message gone, posting a new one", live.id)
                old = None
            except discord.Forbidden as exc:
                if exc.code != 50005:  # "cannot edit a message authored by another user"
                    await self._lost_permission(live, exc)
            except discord.HTTPException as exc:
                log.info("table %s: board edit refused (%s), posting a new one", live.id, exc.status)
        try:
            message = await self.channel(live.row.game_channel_id).send(
                embed=embed, file=discord.File(io.BytesIO(png), filename=BOARD_FILE), view=view,
                allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as exc:
            await self._lost_permission(live, exc)
            raise  # unreachable: _lost_permission raises
        await self.tables.set_surface(live, board_message_id=message.id, board_version=version)
        if old is not None:
            try:  # retire the board that could not be edited: its buttons would mislead
                await self.channel(live.row.game_channel_id).get_partial_message(old).delete()
            except discord.HTTPException:
                pass

    # == private information ===============================================================

    async def send_private(self, live: LiveTable, seat: int, text: str) -> None:
        """DM a player their private state; say so in the game channel when DMs are closed."""
        if not text or not live.row.seats[seat].person:
            return
        user_id = live.user_of(seat)
        try:
            await self.bot.dms.send(user_id, clip(text, CONTENT))
        except (DmsClosed, discord.Forbidden):
            if await self.tables.set_dm_open(live, seat, False):
                label = t(self.private_button or "button.mine", live.row.locale)
                await self.post(live, t("dm.closed", live.row.locale,
                                        player=self.mention(live, seat), button=label),
                                mentions=True)
        except discord.HTTPException as exc:
            log.warning("table %s: DM to seat %s failed: %s", live.id, seat, exc.status)
        else:
            await self.tables.set_dm_open(live, seat, True)

    def told_privately(self, outcome: Outcome, locale: str) -> str:
        """What the mover's own hand gained, for the answer to their click (with
        ``perform(…, mover_told=True)`` no DM is queued for them)."""
        change = outcome.private_changed.get(outcome.seat)
        if change is None or outcome.table.row.status != "playing":
            return ""
        text = self.private_update_text(outcome.table, outcome.seat, *change, locale)
        return "\n" + text if text else ""

    async def _mine(self, interaction: discord.Interaction, route_: Route) -> None:
        if self.private_button is None:
            raise TableError("unknown_button")  # a forged click: this game has no private side
        live = await self.live_of(route_)
        seat = self.seat_or_raise(live, interaction.user.id)
        if live.row.status != "playing" or live.game is None:
            raise closed_error(live.row.status)
        view = self.game(live).private_view(seat)
        await ephemeral(interaction, self.private_text(live, seat, view, str(interaction.locale)))

    # == playing ===========================================================================

    async def perform(self, interaction: discord.Interaction, table_id: int,
                      action: Mapping[str, Any], version: int | None,
                      route_: Route | None = None, *, mover_told: bool = False) -> Outcome | None:
        """Apply and commit an action; on refusal answer ephemerally and return None.

        The caller acknowledges the click (the action is durable by then), then calls
        ``publish``. ``mover_told``: the caller's answer includes ``told_privately(outcome)``,
        so the mover gets no DM of what their own hand gained.
        """
        return await self.perform_all(interaction, table_id, [action], version, route_,
                                      mover_told=mover_told)

    async def perform_all(self, interaction: discord.Interaction, table_id: int,
                          actions: list[Mapping[str, Any]], version: int | None,
                          route_: Route | None = None, *,
                          mover_told: bool = False) -> Outcome | None:
        """``perform`` for several actions of one seat, applied as one unit or not at all."""
        try:
            outcome = await self.tables.act_many(table_id, interaction.user.id, actions,
                                                 expected_version=version, game_key=self.game_key,
                                                 mover_told=mover_told)
        except (TableError, IllegalAction) as exc:
            await self.refuse(interaction, exc, route_)
            return None
        # The turn line will go out as this interaction's follow-up, once it is answered.
        self.bot.relay.remember(interaction)
        return outcome

    async def publish(self, outcome: Outcome) -> None:
        """Everything the table sees after an accepted action (log line, board, private
        messages, the end) was queued by the commit; the reconciler posts it."""
        self.bot.reconciler.mark(outcome.table.id)

    async def _resign_ask(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.live_of(route_)
        self.seat_or_raise(live, interaction.user.id)
        if live.row.status != "playing":
            raise closed_error(live.row.status)
        locale = interaction.locale
        await ephemeral(interaction, t(f"{self.game_key}.resign.confirm", locale), view=view_of(
            button(self.cid(live.id, "resign_ok"), t(f"{self.game_key}.button.resign", locale),
                   style=discord.ButtonStyle.danger)))

    async def _resign_confirm(self, interaction: discord.Interaction, route_: Route) -> None:
        outcome = await self.perform(interaction, route_.table, {"type": "resign"}, None)
        if outcome is None:
            return
        await update_message(interaction, content=t("resign.done", interaction.locale), view=None)
        await self.publish(outcome)

    # == replays ===========================================================================

    def replay_view(self, game: Game, final: Game) -> dict[str, Any]:
        """What a replay shows at one step (a game may reveal what the end revealed)."""
        return game.public_view()

    async def _replay(self, interaction: discord.Interaction, route_: Route) -> None:
        """A private viewer stepping through a finished game, rebuilt from its seed and log."""
        live = await self.tables.with_game(route_.table)
        if live is None or live.row.game != self.game_key:
            raise TableError("no_table")
        if live.row.status != "finished" or live.game is None or live.row.seed is None:
            raise TableError("replay_unfinished")
        try:
            wanted = int(route_.args()[0])
        except (IndexError, ValueError):
            wanted = 0
        if route_.args()[1:] == ["4"]:
            await self.send_replay_files(interaction, live)
            return
        await self.show_replay(interaction, live, wanted)

    def replay_views(self, live: LiveTable, log_rows: list[tuple[int, dict[str, Any]]]
                     ) -> tuple[list[dict[str, Any]], list[str]]:
        """Every turn's position (one per change of player, plus the start and the end) and
        the log line of every action, rebuilt from the seed."""
        locale = live.row.locale
        game = live.cls.new(len(live.row.seats), live.row.options, live.row.seed)
        final = live.game
        views, lines = [self.replay_view(game, final)], []  # type: ignore[arg-type]
        for index, (seat, action) in enumerate(log_rows):
            mover = game.to_move
            events = game.apply(seat, dict(action))
            line = self.describe(Outcome(live, seat, dict(action), events, None), locale)
            if line:
                lines.append(f"{index + 1}. {discord.utils.remove_markdown(line)}")
            if game.to_move != mover or game.result() is not None or index == len(log_rows) - 1:
                views.append(self.replay_view(game, final))  # type: ignore[arg-type]
        return views, lines

    async def send_replay_files(self, interaction: discord.Interaction, live: LiveTable) -> None:
        """Download: the whole game as an animated picture and its moves as text."""
        from render.animation import animate

        await interaction.response.defer(ephemeral=True, thinking=True)
        log_rows = await self.bot.store.actions(live.id)
        views, lines = self.replay_views(live, log_rows)
        # In a worker the game's own renderer draws each frame (it pickles by name).
        in_worker = self.renderer_name is not None and "render" not in self.__dict__
        gif = await self.draw("render.animation:animate" if in_worker else None, animate, views,
                              live.names(), live.row.locale,
                              self.renderer if in_worker else self.render)
        title = t("replay.title", live.row.locale, game=t(f"{self.game_key}.name", live.row.locale),
                  table=live.id, step=len(log_rows), total=len(log_rows))
        text = discord.utils.remove_markdown(title) + "\n\n" + "\n".join(lines) + "\n"
        await interaction.followup.send(
            t("replay.download", interaction.locale), ephemeral=True,
            files=[discord.File(io.BytesIO(gif), filename=f"{self.game_key}-{live.id}.gif"),
                   discord.File(io.BytesIO(text.encode()), filename=f"{self.game_key}-{live.id}.txt")])

    async def show_replay(self, interaction: discord.Interaction, live: LiveTable,
                          wanted: int) -> None:
        locale = str(interaction.locale)
        log_rows = await self.bot.store.actions(live.id)
        total = len(log_rows)
        step = max(0, min(wanted, total))
        seats, options, seed = len(live.row.seats), live.row.options, live.row.seed
        game = live.cls.replay(seats, options, seed, log_rows[:max(0, step - 1)])
        line = t("replay.start", locale)
        if step:
            seat, action = log_rows[step - 1]
            events = game.apply(seat, dict(action))
            line = self.describe(Outcome(live, seat, dict(action), events, None), locale) \
                or t("replay.move", locale, player=self.name(live, seat))
        view = self.replay_view(game, live.game)  # type: ignore[arg-type]
        png = await self.picture(live, view, live.row.locale)
        text = t("replay.title", locale, game=t(f"{self.game_key}.name", locale), table=live.id,
                 step=step, total=total) + "\n" + line
        tid = live.id
        # Four buttons, four custom ids: the second number only keeps them apart.
        controls = view_of(
            button(self.cid(tid, "replay", 0, 0), "", emoji="⏮", disabled=step == 0),
            button(self.cid(tid, "replay", max(step - 1, 0), 1), "", emoji="◀", disabled=step == 0),
            button(self.cid(tid, "replay", min(step + 1, total), 2), "", emoji="▶",
                   disabled=step >= total),
            button(self.cid(tid, "replay", total, 3), "", emoji="⏭", disabled=step >= total),
            button(self.cid(tid, "replay", step, 4), t("button.download", locale), emoji="⬇️"),
            review_button(self.game_key, tid, locale, replay_step=step))
        picture = discord.File(io.BytesIO(png), filename=BOARD_FILE)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await update_message(interaction, content=clip(text, CONTENT), view=controls,
                                 attachments=[picture], allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(clip(text, CONTENT), view=controls,
                                                    file=picture, ephemeral=True,
                                                    allowed_mentions=NO_MENTIONS)

    async def _rematch(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.live_of(route_)
        if live.row.status != "finished":
            raise TableError("rematch_unfinished")
        self.seat_or_raise(live, interaction.user.id)
        # Same players in the same seats; whoever asked for the rematch hosts it.
        seats = [SeatRow(s.seat, s.user_id, s.name, ai=None if s.person else s.ai,
                         locale=s.locale) for s in live.row.seats]
        await self.open_lobby(interaction, live.row.options, seats=seats, rematch_of=live.id,
                              channel_id=live.row.channel_id,
                              clock=(live.row.turn_limit, live.row.timeout_policy))
