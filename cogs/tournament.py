"""/tournament: a server's own Swiss, round robin, knockout or Narabi duplicate, run by the bot.

The tournament's message (posted by ``/tournament create``) shows what it is, who joined and
when it starts, with Join / Leave / Check in / Standings buttons. Rounds open ordinary tables
(``bot/domain/tournaments.py``) whose threads, boards and pings are the tables' own; this cog
says in the tournament's channel what changed (a round, its end with the standings picture,
the organizers' changes) from the events the store kept, so a stop loses no announcement.
"""
from __future__ import annotations

import asyncio
import io
import logging
import re
import secrets
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.domain.tournaments import TURN_LIMITS, Standing, TournamentError, TournamentService
from bot.games import game_class
from bot.games.ai import PLAYER_LEVELS
from bot.games.registry import keys
from bot.i18n import t
from bot.runtime.tournaments import TournamentClock
from bot.store import StoreFailure
from bot.store.tournaments import TournamentRow
from bot.ui.limits import CONTENT, FIELD_VALUE, clip
from bot.ui.replies import ephemeral, update_message
from bot.ui.style import MENTION_USERS, NO_MENTIONS, ai_name, display_name, limit_text
from bot.ui.translator import command_name, command_text, named_options
from render.tournament import Line, number, standings_png

if TYPE_CHECKING:
    from bot.client import TabletopBot

log = logging.getLogger(__name__)

BUTTON_ID = r"tour:(?P<id>[0-9]{1,18}):(?P<verb>join|leave|checkin|standings|start)"
PICTURE = "standings.png"
COLOUR = {"open": 0x5865F2, "running": 0x57F287, "paused": 0xFEE75C, "finished": 0xFEE75C,
          "cancelled": 0x99AAB5}
#: entrants named on the tournament's message (the count says how many in all)
LISTED = 40

GAME_CHOICES = [app_commands.Choice(name=command_text(f"{key}.name"), value=key) for key in keys()]
FORMAT_CHOICES = [app_commands.Choice(name=command_text(f"tournament.format.{f}"), value=f)
                  for f in ("swiss", "round_robin", "knockout", "duplicate")]
CLOCK_CHOICES = [app_commands.Choice(name=command_text(f"tournament.clock.{limit}"), value=limit)
                 for limit in TURN_LIMITS]
CHECKIN_CHOICES = [app_commands.Choice(name=command_text(f"tournament.checkin.{m}"), value=m)
                   for m in (0, 10, 30, 60)]
LEVEL_CHOICES = [app_commands.Choice(name=command_text(f"ai.level.{level}"), value=level)
                 for level in PLAYER_LEVELS]


def stamp(moment: float, style: str = "F") -> str:
    """A moment every reader sees in their own time zone."""
    return f"<t:{int(moment)}:{style}>"


def escape(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


class TournamentButton(ui.DynamicItem[ui.Button], template=BUTTON_ID):
    """A button of a tournament's message; the tournament and the verb are in its custom_id,
    so it works after restarts, and every click is checked against the store."""

    def __init__(self, tournament_id: int, verb: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 emoji: str | None = None) -> None:
        super().__init__(ui.Button(label=label or None, style=style, emoji=emoji,
                                   custom_id=f"tour:{tournament_id}:{verb}"))
        self.tournament_id, self.verb = tournament_id, verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button,
                             match: re.Match[str], /) -> "TournamentButton":
        return cls(int(match["id"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Tournaments")  # type: ignore[union-attr]
        if cog is None:
            await ephemeral(interaction, t("error.unknown_button", interaction.locale))
            return
        with interaction.client.in_flight():  # type: ignore[union-attr]
            await cog.on_button(interaction, self.tournament_id, self.verb)


class Tournaments(commands.Cog):
    group = app_commands.Group(name=command_name("tournament"),
                               description=command_text("cmd.tournament.description"),
                               guild_only=True)

    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot
        self.service = TournamentService(bot.store, bot.tables)
        self.clock = TournamentClock(self.service, on_table=bot.reconciler.mark,
                                     on_tournament=self.mark)
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task] = set()

    async def cog_load(self) -> None:
        for tournament_id in await self.bot.store.tournaments_behind():
            self.mark(tournament_id)
        self.clock.start()

    async def cog_unload(self) -> None:
        await self.clock.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- what the channel shows ------------------------------------------------------------

    def mark(self, tournament_id: int) -> None:
        """The tournament changed: bring its message and announcements up to date soon."""
        if getattr(self.bot, "closing", False):
            return
        task = asyncio.get_running_loop().create_task(self._sync_logged(tournament_id),
                                                      name=f"tabletop-tournament-{tournament_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for the announcements under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _sync_logged(self, tournament_id: int) -> None:
        try:
            await self.sync(tournament_id)
        except (discord.HTTPException, StoreFailure, OSError) as exc:
            log.warning("tournament %s: could not announce (%s); will try again", tournament_id,
                        type(exc).__name__)
            await asyncio.sleep(10)
            self.mark(tournament_id)
        except Exception:
            log.exception("tournament %s: announcing failed", tournament_id)

    async def sync(self, tournament_id: int) -> None:
        """Post the events not announced yet, then bring the tournament's message up to date.
        Each is recorded as soon as it is out: a stop resumes where it was."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            tour = await self.bot.store.get_tournament(tournament_id)
            if tour is None:
                return
            channel = self.bot.get_partial_messageable(tour.channel_id)
            for event_id, kind, payload, _ in await self.bot.store.tournament_events(tour.id):
                await self._announce(channel, tour, kind, payload)
                await self.bot.store.event_delivered(event_id)
            tour = await self.bot.store.get_tournament(tournament_id)
            if tour is not None and tour.shown_rev < tour.rev:
                await self._refresh_message(channel, tour)

    async def _refresh_message(self, channel: Any, tour: TournamentRow) -> None:
        rev = tour.rev
        embed, view = await self.message_of(tour)
        if tour.message_id is not None:
            try:
                await channel.get_partial_message(tour.message_id).edit(embed=embed, view=view)
                await self.bot.store.set_tournament_message(tour.id, tour.message_id, rev)
                return
            except discord.NotFound:
                pass
        message = await channel.send(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        await self.bot.store.set_tournament_message(tour.id, message.id, rev)

    async def _announce(self, channel: Any, tour: TournamentRow, kind: str,
                        payload: dict[str, Any]) -> None:
        locale = tour.locale
        name = f"**{escape(tour.name)}**"
        by = f"<@{payload['by']}>" if payload.get("by") else ""
        mentions = NO_MENTIONS
        extra: dict[str, Any] = {}
        if kind == "created":
            return  # the tournament's own message says it
        if kind == "checkin":
            entrants = await self.bot.store.entrants(tour.id)
            people = " ".join(f"<@{e.user_id}>" for e in entrants if e.person)
            text = t("tournament.announce.checkin", locale, name=name,
                     until=stamp(tour.starts_at, "t")) + ("\n" + people if people else "")
            mentions = MENTION_USERS
        elif kind == "round":
            standing = await self.service.standing(tour.id)
            round_no = int(payload["round"])
            games = [g for g in standing.games if g.round == round_no]
            tables = sum(1 for g in games if g.table_id is not None)
            text = t("tournament.announce.round", locale, name=name, round=round_no,
                     rounds=tour.rounds, tables=tables)
            for g in games:
                if g.table_id is None:
                    text += "\n" + t("tournament.announce.bye", locale,
                                     player=escape(standing.name_of(g.seats[0])))
        elif kind == "round_end":
            standing = await self.service.standing(tour.id)
            text = t("tournament.announce.round_end", locale, name=name,
                     round=payload["round"])
            extra["file"] = await self.picture(standing, locale)
        elif kind == "finished":
            standing = await self.service.standing(tour.id)
            winner = payload.get("winner")
            text = t("tournament.announce.finished", locale, name=name,
                     winner=f"<@{winner}>" if winner and winner > 0 else
                     escape(standing.name_of(winner) if winner else "—"))
            extra["file"] = await self.picture(standing, locale)
        elif kind == "too_few":
            text = t("tournament.announce.too_few", locale, name=name, count=payload["count"])
        elif kind == "dropped":
            text = t("tournament.announce.dropped", locale, name=name,
                     player=f"<@{payload['player']}>", by=by)
        elif kind == "manual":
            standing = await self.service.standing(tour.id)
            seats = [escape(standing.name_of(uid)) for uid in payload["seats"]]
            score = " – ".join(number(p) for p in payload["points"])
            text = t("tournament.announce.manual", locale, name=name, round=payload["round"],
                     board=payload["board"], players=" – ".join(seats), score=score, by=by)
        elif kind in ("paused", "running", "cancelled"):
            text = t(f"tournament.announce.{kind}", locale, name=name, by=by or "—")
        else:
            log.warning("tournament %s: unknown event %r", tour.id, kind)
            return
        await channel.send(clip(text, CONTENT), allowed_mentions=mentions, **extra)

    async def picture(self, standing: Standing, locale: str) -> discord.File:
        tour = standing.tournament
        lines = [Line(r.rank, standing.name_of(r.id), r.score, r.buchholz, r.sonneborn_berger,
                      r.games, r.dropped) for r in standing.rows]
        png = await asyncio.get_running_loop().run_in_executor(
            None, lambda: standings_png(tour.name, lines, locale, round_no=tour.round,
                                        rounds=tour.rounds, finished=tour.status == "finished",
                                        tie_breaks=tour.format != "knockout"))
        return discord.File(io.BytesIO(png), filename=PICTURE)

    async def message_of(self, tour: TournamentRow) -> tuple[discord.Embed, ui.View | None]:
        locale = tour.locale
        entrants = await self.bot.store.entrants(tour.id)
        embed = discord.Embed(title=clip("🏆 " + tour.name, 256), colour=COLOUR[tour.status])
        game_cog = self.bot.router.cog(tour.game)
        options = game_cog.options_text(tour.options, locale) if game_cog is not None else ""
        game = t(f"{tour.game}.name", locale) + (f" ({options})" if options else "")
        fmt = t(f"tournament.format.{tour.format}", locale)
        if tour.rounds:
            fmt += " · " + t("tournament.rounds", locale, rounds=tour.rounds)
        lines = [t("tournament.field.game", locale, game=game),
                 t("tournament.field.format", locale, format=fmt),
                 t("tournament.field.table", locale, count=tour.per_table),
                 t("tournament.field.clock", locale, clock=limit_text(tour.turn_limit, locale)),
                 t("tournament.field.rated" if tour.rated else "tournament.field.unrated", locale)]
        if tour.status == "open":
            lines.append(t("tournament.field.starts", locale, when=stamp(tour.starts_at),
                           relative=stamp(tour.starts_at, "R")))
            if tour.checkin:
                lines.append(t("tournament.field.checkin", locale,
                               opens=stamp(tour.starts_at - tour.checkin, "t")))
        else:
            lines.append(t(f"tournament.status.{tour.status}", locale, round=tour.round,
                           rounds=tour.rounds or "?"))
        if tour.round_every:
            lines.append(t("tournament.field.every", locale,
                           clock=limit_text(tour.round_every, locale)))
        lines.append(t("tournament.field.organizer", locale, organizer=f"<@{tour.organizer_id}>"))
        if tour.winner_id is not None:
            lines.append(t("tournament.field.winner", locale, winner=(
                f"<@{tour.winner_id}>" if tour.winner_id > 0 else
                escape(next((e.name for e in entrants if e.user_id == tour.winner_id), "?")))))
        embed.description = "\n".join(lines)
        names = []
        for e in entrants[:LISTED]:
            who = f"<@{e.user_id}>" if e.person else f"🤖 {escape(e.name)}"
            if tour.checkin and e.checked_in and tour.status == "open":
                who += " ✅"
            if e.dropped is not None:
                who = f"~~{who}~~"
            names.append(who)
        if len(entrants) > LISTED:
            names.append(t("tournament.more", locale, count=len(entrants) - LISTED))
        embed.add_field(name=t("tournament.entrants", locale, count=len(entrants)),
                        value=clip(" ".join(names) or "—", FIELD_VALUE), inline=False)
        view = ui.View(timeout=None)
        if tour.status == "open":
            view.add_item(TournamentButton(tour.id, "join", t("button.join", locale),
                                           discord.ButtonStyle.success))
            view.add_item(TournamentButton(tour.id, "leave", t("button.leave", locale)))
            if tour.checkin:
                view.add_item(TournamentButton(tour.id, "checkin",
                                               t("tournament.button.checkin", locale),
                                               discord.ButtonStyle.primary, "✅"))
            view.add_item(TournamentButton(tour.id, "start", t("tournament.button.start", locale),
                                           discord.ButtonStyle.primary))
        if tour.round or tour.status == "finished":
            view.add_item(TournamentButton(tour.id, "standings",
                                           t("tournament.button.standings", locale), emoji="📊"))
        return embed, (view if view.children else None)

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
        lines = [t("tournament.standings.title", locale, name=f"**{escape(tour.name)}**",
                   round=tour.round, rounds=tour.rounds or "?")]
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
    @named_options
    async def standings(self, interaction: discord.Interaction,
                        tournament: int | None = None) -> None:
        try:
            await self._show_standings(interaction, await self._pick(interaction, tournament))
        except TournamentError as exc:
            await self.refuse(interaction, exc)

    @group.command(name=command_name("pause"), description=command_text("cmd.tournament.pause"))
    @app_commands.describe(tournament=command_text("cmd.tournament.which"))
    @named_options
    async def pause(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._control(interaction, tournament, "pause")

    @group.command(name=command_name("resume"), description=command_text("cmd.tournament.resume"))
    @app_commands.describe(tournament=command_text("cmd.tournament.which"))
    @named_options
    async def resume(self, interaction: discord.Interaction,
                     tournament: int | None = None) -> None:
        await self._control(interaction, tournament, "resume")

    @group.command(name=command_name("cancel"), description=command_text("cmd.tournament.cancel"))
    @app_commands.describe(tournament=command_text("cmd.tournament.which"))
    @named_options
    async def cancel(self, interaction: discord.Interaction,
                     tournament: int | None = None) -> None:
        await self._control(interaction, tournament, "cancel")

    @group.command(name=command_name("drop"), description=command_text("cmd.tournament.drop"))
    @app_commands.describe(player=command_text("cmd.tournament.player"),
                           tournament=command_text("cmd.tournament.which"))
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
            else:
                closed = await self.service.set_result(tour.id, params["round"], params["board"],
                                                       params["winner"], by)
                stopped = [closed] if closed is not None else []
        except TournamentError as exc:
            await self.refuse(interaction, exc)
            return
        await ephemeral(interaction, "✅ " + t(f"tournament.done.{what}", interaction.locale))
        for table_id in stopped:
            self.bot.reconciler.mark(table_id)
        self.mark(tour.id)
        self.clock.wake()

    async def _public_locale(self, interaction: discord.Interaction) -> str:
        chosen = await self.bot.store.guild_language(interaction.guild_id)
        return chosen or str(interaction.guild_locale or interaction.locale)


async def setup(bot: "TabletopBot") -> None:
    bot.add_dynamic_items(TournamentButton)
    bot.router.accept(re.compile(BUTTON_ID))
    await bot.add_cog(Tournaments(bot))
