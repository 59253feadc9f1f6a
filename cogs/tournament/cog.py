"""/tournament: a server's own Swiss, round robin, knockout or Narabi duplicate, run by the bot.

The tournament's message (posted by ``/tournament create``) shows what it is, who joined and
when it starts, with Join / Leave / Check in / Standings buttons. Rounds open ordinary tables
(``bot/domain/tournaments.py``) whose threads, boards and pings are the tables' own; what the
channel is told comes from ``surfaces.py``.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.domain.tournaments import (TURN_LIMITS, TournamentError, TournamentService,
                                    pair_in_thread)
from bot.games import game_class
from bot.i18n import t
from bot.runtime.thinkpool import ThinkFailed, ThinkTimeout
from bot.runtime.tournaments import TournamentClock
from bot.store import StoreFailure
from bot.store.tournaments import TournamentRow
from bot.ui.limits import CONTENT, clip
from bot.ui.permissions import missing_for_game
from bot.ui.places import needs_server
from bot.ui.replies import ephemeral, update_message
from bot.ui.style import NO_MENTIONS, ai_name, display_name
from bot.ui.translator import command_name, command_text, named_options
from render.tournament import number

from .surfaces import (CHECKIN_CHOICES, CLOCK_CHOICES, FORMAT_CHOICES, GAME_CHOICES,
                       LEVEL_CHOICES, TournamentSurfaces, escape, stamp)

if TYPE_CHECKING:
    from bot.client import TabletopBot

log = logging.getLogger(__name__)

#: the pairing a worker process runs, and how long it may take
PAIR_CALL = "bot.tournaments.rounds:pair_round_call"
PAIR_TIMEOUT = 60.0

async def which_tournament(interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[int]]:
    """The server's tournaments (newest first) matching what was typed, by name or number."""
    found = await interaction.client.store.tournaments_of(  # type: ignore[attr-defined]
        interaction.guild_id, ("open", "running", "paused", "finished"))
    typed = current.strip().lower().lstrip("#")
    return [app_commands.Choice(name=clip(f"#{x.id} {x.name}", 100), value=x.id)
            for x in found if typed in x.name.lower() or typed in str(x.id)][:25]


class Tournaments(TournamentSurfaces, commands.Cog):
    group = needs_server(app_commands.Group(name=command_name("tournament"),
                                            description=command_text("cmd.tournament.description")))

    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot
        self.service = TournamentService(bot.store, bot.tables, pair=self._pair)
        self.clock = TournamentClock(self.service, on_table=bot.reconciler.mark,
                                     on_tournament=self.mark)
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task] = set()

    async def _pair(self, *args: Any) -> list[tuple[int, ...]]:
        """A round's pairing in an AI worker process (a Swiss of 64 takes up to ~0.6 s of
        CPU), or in a thread when the pool cannot take it."""
        try:
            return await self.bot.pool.call(PAIR_CALL, *args, timeout=PAIR_TIMEOUT)
        except (ThinkFailed, ThinkTimeout) as exc:
            log.warning("tournament pairing in a worker failed (%s); pairing in a thread",
                        type(exc).__name__)
            return await pair_in_thread(*args)

    async def cog_load(self) -> None:
        for tournament_id in await self.bot.store.tournaments_behind():
            self.mark(tournament_id)
        self.clock.start()

    async def cog_unload(self) -> None:
        await self.clock.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- buttons ----------------------------------------------------------------------------

    async def on_button(self, interaction: discord.Interaction, tournament_id: int,
                        verb: str) -> None:
        try:
            if verb == "standings":
                await self._show_standings(interaction, tournament_id)
                return
            if verb == "start":
                tour = await self._organizer(interaction, tournament_id)
                if tour.status != "open":
                    raise TournamentError("started")
                await interaction.response.defer()
                await self.bot.store.postpone_tournament(tour.id, self.bot.store.clock())
                await self.clock.run_due()
                self.mark(tour.id)
                return
            user = interaction.user
            if verb == "join":
                await self.service.join(tournament_id, user.id, display_name(user),
                                        str(interaction.locale))
            elif verb == "leave":
                await self.service.leave(tournament_id, user.id)
            elif verb == "checkin":
                await self.service.check_in(tournament_id, user.id)
            tour = await self.service.require(tournament_id)
            embed, view = await self.message_of(tour)
            await update_message(interaction, embed=embed, view=view)
            if interaction.message is not None and interaction.message.id == tour.message_id:
                await self.bot.store.set_tournament_message(tour.id, tour.message_id, tour.rev)
            self.mark(tour.id)
        except TournamentError as exc:
            await self.refuse(interaction, exc)
        except StoreFailure:
            await ephemeral(interaction, "⚠️ " + t("error.store_failed", interaction.locale))

    async def refuse(self, interaction: discord.Interaction, exc: TournamentError) -> None:
        await ephemeral(interaction, "⚠️ " + t(f"tournament.error.{exc.code}", interaction.locale,
                                               **exc.params))

    async def _organizer(self, interaction: discord.Interaction,
                         tournament_id: int) -> TournamentRow:
        """The tournament, if the member may run it: its creator or Manage Server."""
        tour = await self.service.require(tournament_id)
        if tour.guild_id != interaction.guild_id:
            raise TournamentError("no_tournament")
        perms = interaction.permissions
        if interaction.user.id != tour.organizer_id and not (perms and perms.manage_guild):
            raise TournamentError("organizer_only")
        return tour

    async def _show_standings(self, interaction: discord.Interaction,
                              tournament_id: int) -> None:
        standing = await self.service.standing(tournament_id)
        tour = standing.tournament
        if tour.guild_id != interaction.guild_id:
            raise TournamentError("no_tournament")
        locale = str(interaction.locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        name = f"**{escape(tour.name)}**"
        # The standings of the rounds that are over, never of the one under way.
        lines = [t("tournament.standings.title", locale, name=name, round=standing.through,
                   rounds=tour.rounds or "?") if standing.through else
                 t("tournament.standings.none", locale, name=name, rounds=tour.rounds or "?")]
        me = next((r for r in standing.rows if r.id == interaction.user.id), None)
        if me is not None:
            lines.append(t("tournament.standings.you", locale, rank=me.rank, score=number(me.score),
                           buchholz=number(me.buchholz), sb=number(me.sonneborn_berger)))
        current = [g for g in standing.games if g.round == tour.round and g.points is None
                   and g.table_id is not None]
        for g in current[:10]:
            players = " – ".join(escape(standing.name_of(u)) for u in g.seats)
            lines.append(t("tournament.standings.playing", locale, board=g.board, players=players,
                           table=g.table_id))
        if tour.format != "knockout":
            lines.append("-# " + t("tournament.legend", locale))
        await interaction.followup.send(clip("\n".join(lines), CONTENT), ephemeral=True,
                                        file=await self.picture(standing, locale),
                                        allowed_mentions=NO_MENTIONS)

    # -- commands ------------------------------------------------------------------------------

    async def _pick(self, interaction: discord.Interaction, tournament: int | None) -> int:
        if tournament is not None:
            return tournament
        found = await self.bot.store.tournaments_of(
            interaction.guild_id, ("open", "running", "paused", "finished"), limit=25)
        here = [x for x in found if x.channel_id == interaction.channel_id] or found
        if not here:
            raise TournamentError("no_tournament")
        return here[0].id

    @group.command(name=command_name("create"), description=command_text("cmd.tournament.create"))
    @app_commands.describe(
        game=command_text("cmd.tournament.game"), format=command_text("cmd.tournament.format"),
        name=command_text("cmd.tournament.name"), rounds=command_text("cmd.tournament.rounds"),
        players=command_text("cmd.tournament.players"), clock=command_text("cmd.tournament.clock"),
        rated=command_text("cmd.tournament.rated"), starts_in=command_text("cmd.tournament.starts_in"),
        checkin=command_text("cmd.tournament.checkin"),
        round_every=command_text("cmd.tournament.round_every"),
        variant=command_text("cmd.tournament.variant"))
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, clock=CLOCK_CHOICES,
                          checkin=CHECKIN_CHOICES)
    @named_options
    async def create(self, interaction: discord.Interaction, game: str, format: str,
                     name: app_commands.Range[str, 1, 80] | None = None,
                     rounds: app_commands.Range[int, 1, 20] | None = None,
                     players: app_commands.Range[int, 2, 5] | None = None,
                     clock: int = 600, rated: bool = True,
                     starts_in: app_commands.Range[int, 1, 10080] = 15, checkin: int = 0,
                     round_every: app_commands.Range[int, 5, 10080] | None = None,
                     variant: bool = False) -> None:
        if isinstance(interaction.channel, discord.Thread):
            await self.refuse(interaction, TournamentError("not_in_thread"))
            return
        missing = missing_for_game(interaction.app_permissions, in_thread=False)
        if missing:
            await ephemeral(interaction, "⚠️ " + t("error.missing_permissions", interaction.locale,
                                                   permissions=", ".join(
                f"**{t(f'perm.{name}', interaction.locale)}**" for name in missing)))
            return
        locale = await self._public_locale(interaction)
        try:
            cls = game_class(game)
        except (KeyError, ValueError):
            await self.refuse(interaction, TournamentError("bad_game"))
            return
        per_table = players or (cls.min_seats if cls.cooperative else 2)
        # The variant is the game's yes/no option (Narabi's advanced mode, Sàréná's fair deal).
        options = {spec.name: variant for spec in cls.options_spec[:1]
                   if tuple(spec.choices) == (False, True)}
        title = name or t("tournament.default_name", locale, game=t(f"{game}.name", locale))
        if clock not in TURN_LIMITS or checkin not in (0, 10, 30, 60):
            await self.refuse(interaction, TournamentError("bad_options"))
            return
        try:
            tour = await self.service.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                organizer_id=interaction.user.id, name=title, game=game, options=options,
                fmt=format, rounds=rounds or (5 if format in ("swiss", "duplicate") else None),
                per_table=per_table, turn_limit=float(clock) or None, rated=rated,
                starts_at=self.bot.store.clock() + starts_in * 60,
                checkin=checkin * 60.0 or None,
                round_every=round_every * 60.0 if round_every else None, locale=locale,
                seed=secrets.randbits(62))
        except TournamentError as exc:
            await self.refuse(interaction, exc)
            return
        embed, view = await self.message_of(tour)
        await interaction.response.send_message(
            t("tournament.created", locale, organizer=interaction.user.mention,
              when=stamp(tour.starts_at)),
            embed=embed, view=view or discord.utils.MISSING, allowed_mentions=NO_MENTIONS)
        message = await interaction.original_response()
        await self.bot.store.set_tournament_message(tour.id, message.id, tour.rev)
        self.clock.wake()

    @group.command(name=command_name("standings"),
                   description=command_text("cmd.tournament.standings"))
    @app_commands.describe(tournament=command_text("cmd.tournament.which"))
    @app_commands.autocomplete(tournament=which_tournament)
    @named_options
    async def standings(self, interaction: discord.Interaction,
                        tournament: int | None = None) -> None:
        try:
            await self._show_standings(interaction, await self._pick(interaction, tournament))
        except TournamentError as exc:
            await self.refuse(interaction, exc)

    @group.command(name=command_name("pause"), description=command_text("cmd.tournament.pause"))
    @app_commands.describe(tournament=command_text("cmd.tournament.which"))
    @app_commands.autocomplete(tournament=which_tournament)
    @named_options
    async def pause(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._control(interaction, tournament, "pause")

    @group.command(name=command_name("resume"), description=command_text("cmd.tournament.resume"))
    @app_commands.describe(tournament=command_text("cmd.tournament.which"))
    @app_commands.autocomplete(tournament=which_tournament)
    @named_options
    async def resume(self, interaction: discord.Interaction,
                     tournament: int | None = None) -> None:
        await self._control(interaction, tournament, "resume")

    @group.command(name=command_name("cancel"), description=command_text("cmd.tournament.cancel"))
    @app_commands.describe(tournament=command_text("cmd.tournament.which"))
    @app_commands.autocomplete(tournament=which_tournament)
    @named_options
    async def cancel(self, interaction: discord.Interaction,
                     tournament: int | None = None) -> None:
        await self._control(interaction, tournament, "cancel")

    @group.command(name=command_name("drop"), description=command_text("cmd.tournament.drop"))
    @app_commands.describe(player=command_text("cmd.tournament.player"),
                           tournament=command_text("cmd.tournament.which"))
    @app_commands.autocomplete(tournament=which_tournament)
    @named_options
    async def drop(self, interaction: discord.Interaction, player: discord.User,
                   tournament: int | None = None) -> None:
        await self._control(interaction, tournament, "drop", player=player.id)

    @group.command(name=command_name("result"), description=command_text("cmd.tournament.result"))
    @app_commands.describe(round=command_text("cmd.tournament.round"),
                           table=command_text("cmd.tournament.table"),
                           winner=command_text("cmd.tournament.winner"),
                           draw=command_text("cmd.tournament.draw"),
                           tournament=command_text("cmd.tournament.which"))
    @app_commands.autocomplete(tournament=which_tournament)
    @named_options
    async def result(self, interaction: discord.Interaction,
                     round: app_commands.Range[int, 1, 99], table: app_commands.Range[int, 1, 999],
                     winner: discord.User | None = None, draw: bool = False,
                     tournament: int | None = None) -> None:
        if (winner is None) == (not draw):
            await self.refuse(interaction, TournamentError("winner_or_draw"))
            return
        await self._control(interaction, tournament, "result", round=round, board=table,
                            winner=None if winner is None else winner.id)

    @group.command(name=command_name("ai"), description=command_text("cmd.tournament.ai"))
    @app_commands.describe(level=command_text("cmd.tournament.level"),
                           tournament=command_text("cmd.tournament.which"))
    @app_commands.autocomplete(tournament=which_tournament)
    @app_commands.choices(level=LEVEL_CHOICES)
    @named_options
    async def ai(self, interaction: discord.Interaction, level: str,
                 tournament: int | None = None) -> None:
        await self._control(interaction, tournament, "ai", level=level)

    async def _control(self, interaction: discord.Interaction, tournament: int | None,
                       what: str, **params: Any) -> None:
        """An organizer's change: done, answered privately, announced in the channel."""
        try:
            tour = await self._organizer(interaction, await self._pick(interaction, tournament))
            by = interaction.user.id
            stopped: list[int] = []
            said: dict[str, Any] = {}
            if what == "pause":
                await self.service.pause(tour.id, by)
            elif what == "resume":
                await self.service.resume(tour.id, by)
            elif what == "cancel":
                stopped = await self.service.cancel(tour.id, by)
            elif what == "drop":
                await self.service.drop(tour.id, params["player"], by)
            elif what == "ai":
                await self.service.add_ai(tour.id, by, params["level"],
                                          ai_name(params["level"], tour.locale))
                # Its name is numbered by the store: the newest AI entrant has the lowest id.
                joined = min((e for e in await self.bot.store.entrants(tour.id)
                              if not e.person), key=lambda e: e.user_id)
                said["name"] = escape(joined.name)
            else:
                closed = await self.service.set_result(tour.id, params["round"], params["board"],
                                                       params["winner"], by)
                stopped = [closed] if closed is not None else []
        except TournamentError as exc:
            await self.refuse(interaction, exc)
            return
        await ephemeral(interaction, "✅ " + t(f"tournament.done.{what}", interaction.locale,
                                              **said))
        for table_id in stopped:
            self.bot.reconciler.mark(table_id)
        self.mark(tour.id)
        self.clock.wake()

    async def _public_locale(self, interaction: discord.Interaction) -> str:
        chosen = await self.bot.store.guild_language(interaction.guild_id)
        return chosen or str(interaction.guild_locale or interaction.locale)
