"""A table before and around its game: the lobby message and its seats (joining, AI players,
the clock and what happens when it runs out), the start, players handing their seat to an AI
and coming back, the others' vote on an absent player, and the rematch.

Mixed into ``GameCog``. A game's start command calls ``open_with_ai`` (or ``open_lobby``)."""
from __future__ import annotations

from typing import Any, Mapping

import discord
from discord import app_commands

from ..games.ai import PLAYER_LEVELS
from ..games import game_class
from ..i18n import has, t
from ..markdown import Markdown, escape
from ..store import SeatRow
from ..domain.tables import LiveTable, TableError
from .host import CogPart
from .limits import clip, CONTENT
from .permissions import missing_for_game
from .remote import is_remote
from .replies import ephemeral, refuse, update_message
from .routing import Route, button, select, selected, view_of
from .style import AI_EMOJI, COLOUR, MENTION_USERS, NO_MENTIONS, ai_name, display_name, limit_text
from .translator import command_text

#: the time controls a lobby offers, in seconds per turn (0: none)
TURN_LIMITS = (0, 120, 600, 3600, 86_400, 259_200)
POLICIES = ("ai", "forfeit", "wait")
#: the level choice of the start commands' "ai" option
AI_CHOICES = [app_commands.Choice(name=command_text(f"ai.level.{level}"), value=level)
              for level in PLAYER_LEVELS]


def picked_of(interaction: discord.Interaction, offered: tuple[str, ...]) -> str:
    """The value picked in a select menu, one of those it ``offered``; anything else comes
    from a menu that is behind the lobby."""
    value = selected(interaction)
    if value not in offered:
        raise TableError("stale")
    return value


def picked_number(interaction: discord.Interaction) -> int:
    """The number picked in a select menu; a click without one is behind the lobby."""
    try:
        return int(selected(interaction) or "")
    except ValueError:
        raise TableError("stale") from None


def wants_thread(interaction: discord.Interaction) -> bool:
    """Whether a game started here gets a thread: in a text channel where the bot may open one."""
    return (isinstance(interaction.channel, discord.TextChannel)
            and interaction.app_permissions.create_public_threads)


class LobbyMixin(CogPart):
    # == the lobby message =================================================================

    def lobby_embed(self, live: LiveTable, locale: str) -> discord.Embed:
        row, cls = live.row, live.cls
        title = t("lobby.title", locale, game=t(f"{self.game_key}.name", locale), table=row.id)
        embed = discord.Embed(title=clip(title, 256), colour=COLOUR.get(row.status, 0))
        players = "\n".join(
            f"{s.seat + 1}. " + (f"<@{s.user_id}>" if s.person else
                                 f"{AI_EMOJI} {escape(s.name)}")
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

    def level_description(self, level: str, locale: str) -> str:
        """What an AI level is like, under its name in the lobby's menu: the game's own words
        (``<game>.ai.level.<level>.description``, e.g. Narabi's expert plays as hard) or the
        common ones."""
        key = f"{self.game_key}.ai.level.{level}.description"
        return t(key if has(key) else f"ai.level.{level}.description", locale)

    def lobby_view(self, live: LiveTable, locale: str) -> discord.ui.View | None:
        if live.row.status != "lobby":
            return None
        tid = live.id
        full = len(live.row.seats) >= live.cls.max_seats
        add_ai = None if full else select(
            self.cid(tid, "addai"),
            [discord.SelectOption(label=t(f"ai.level.{level}", locale), value=level,
                                  description=self.level_description(level, locale),
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
            raise TableError("missing_permissions", permissions=Markdown(", ".join(
                f"**{t(f'perm.{name}', interaction.locale)}**" for name in missing)))

    async def _refuse_in_a_tables_thread(self, interaction: discord.Interaction) -> None:
        """A start typed in a game's thread would open a second table in that thread (a thread
        cannot have threads), mixing two games' boards and turn lines: the thread is its
        table's, and the answer says where a new game goes."""
        kind = getattr(interaction.channel, "type", None)
        if kind not in (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                        discord.ChannelType.news_thread) or interaction.channel_id is None:
            return
        found = await self.tables.store.table_of_thread(interaction.channel_id)
        if found is not None:
            raise TableError("thread_of_table", table=found[0],
                             channel=Markdown(f"<#{found[1]}>"))

    async def open_lobby(self, interaction: discord.Interaction, options: Mapping[str, Any],
                         *, seats: list[SeatRow] | None = None,
                         rematch_of: int | None = None,
                         channel_id: int | None = None,
                         invited: discord.abc.User | None = None,
                         clock: tuple[float | None, str] | None = None) -> LiveTable | None:
        """Post a lobby in ``channel_id`` (default: where the command was used)."""
        if interaction.channel_id is None:
            await ephemeral(interaction, t("error.guild_only", interaction.locale))
            return None
        # Where the bot is not a member the table is the answer to this interaction.
        remote = is_remote(interaction)
        here = channel_id is None or channel_id == interaction.channel_id
        channel_id = interaction.channel_id if channel_id is None else channel_id
        locale = await self.public_locale(interaction)
        try:
            if remote:
                refusal = self.remote_refusal(interaction)
                if refusal is not None:
                    raise refusal
            elif here:
                await self._refuse_in_a_tables_thread(interaction)
                self.check_permissions(interaction)
            if seats is None:
                seats = [SeatRow(0, interaction.user.id, display_name(interaction.user),
                                 locale=str(interaction.locale))]
            live = await self.tables.open_lobby(
                self.game_key, guild_id=interaction.guild_id, channel_id=channel_id,
                host_id=interaction.user.id, host_name=display_name(interaction.user),
                options=options, locale=locale, rematch_of=rematch_of, seats=seats,
                invited_id=invited.id if invited else None, clock=clock,
                surface="remote" if remote else None)
        except TableError as exc:
            if exc.code == "lobby_exists":
                # Its message may be the thing that went missing: have it checked.
                self.bot.reconciler.mark(exc.params["table"])
            await refuse(interaction, exc, self.game_key)
            return None
        rev = live.row.rev
        payload = dict(embed=self.lobby_embed(live, locale), view=self.lobby_view(live, locale),
                       allowed_mentions=MENTION_USERS)
        if remote:
            if not await self.post_remote_lobby(interaction, live, self.lobby_content(live, locale),
                                                **payload):
                return None
        elif here:
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

    async def public_locale(self, interaction: discord.Interaction) -> str:
        """The language of a new table's public messages and pictures: the server's choice
        (``/config language``), else the server's Discord language."""
        chosen = await self.bot.store.guild_language(interaction.guild_id)
        return chosen or str(interaction.guild_locale or interaction.locale)

    # == seats, clock and policy ===========================================================

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

    async def _add_ai(self, interaction: discord.Interaction, route_: Route) -> None:
        level = picked_of(interaction, PLAYER_LEVELS)
        live = await self.live_of(route_)
        live = await self.tables.add_ai(route_.table, interaction.user.id, level,
                                        ai_name(level, live.row.locale))
        await self._edit_lobby(interaction, live)

    async def _remove_ai(self, interaction: discord.Interaction, route_: Route) -> None:
        seat = picked_number(interaction)
        live = await self.tables.remove_ai(route_.table, interaction.user.id, seat)
        await self._edit_lobby(interaction, live)

    async def _set_clock(self, interaction: discord.Interaction, route_: Route) -> None:
        limit = picked_number(interaction)
        if limit not in TURN_LIMITS:
            raise TableError("stale")
        live = await self.tables.set_time_control(route_.table, interaction.user.id,
                                                  turn_limit=float(limit) or None, set_limit=True)
        await self._edit_lobby(interaction, live)

    async def _set_policy(self, interaction: discord.Interaction, route_: Route) -> None:
        policy = picked_of(interaction, POLICIES)
        live = await self.tables.set_time_control(route_.table, interaction.user.id,
                                                  policy=policy)
        await self._edit_lobby(interaction, live)

    # == starting ==========================================================================

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
        use_thread = wants_thread(interaction) and not live.row.remote
        try:
            await self.tables.start(live.id, interaction.user.id, use_thread=use_thread)
        except TableError as exc:
            await refuse(interaction, exc, self.game_key)
            return
        self.bot.reconciler.mark(live.id)

    async def _start(self, interaction: discord.Interaction, route_: Route) -> None:
        """Deal and commit first (answering the click at once), then let the reconciler run
        the rest of the start: thread, lobby, announcement, board, private hands."""
        live = await self.live_of(route_)
        self.tables.check_startable(live, interaction.user.id)
        if not live.row.remote:
            self.check_permissions(interaction)
        if not interaction.response.is_done():  # a remote table's click is acknowledged
            await interaction.response.defer()
        use_thread = wants_thread(interaction) and not live.row.remote
        await self.tables.start(route_.table, interaction.user.id, use_thread=use_thread)
        self.bot.reconciler.mark(route_.table)

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

    # == absent players ====================================================================

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
