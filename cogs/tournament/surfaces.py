"""What a tournament shows its channel: its message (what it is, who joined, when it starts,
with its buttons), the announcements of what changed (posted from the events the store kept, so
a stop loses none), and the standings picture."""
from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands, ui

from bot import markdown
from bot.domain.tournaments import TURN_LIMITS, Standing, TournamentService, played_of
from bot.games.ai import PLAYER_LEVELS
from bot.games.registry import keys
from bot.i18n import t
from bot.store import StoreFailure
from bot.store.tournaments import TournamentRow
from bot.tournaments import MATCH_GAMES, match_winner, matches
from bot.ui.limits import CONTENT, FIELD_VALUE, clip
from bot.ui.pictures import upload
from bot.ui.replies import ephemeral
from bot.ui.style import MENTION_USERS, NO_MENTIONS, limit_text
from bot.ui.translator import command_text
from render.alt.tables import standings as standings_words
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
#: seconds a round's message waits for its tables' threads (a round of 500 tables opens
#: its threads at Discord's pace, about five a second)
THREADS_WAIT = 120.0

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


def chunks(lines: list[str], limit: int) -> list[str]:
    """Lines joined into as few messages of at most ``limit`` characters as they fit in (a
    line too long alone is clipped)."""
    out: list[str] = []
    for line in lines:
        line = clip(line, limit)
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def escape(text: str) -> str:
    """A name as Discord shows it literally (bot.markdown's escape), and never a ping."""
    return discord.utils.escape_mentions(markdown.escape(text))


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
        with interaction.client.in_flight(interaction):  # type: ignore[union-attr]
            await cog.on_button(interaction, self.tournament_id, self.verb)



class TournamentSurfaces:
    """Mixed into the cog: brings a tournament's message and announcements up to date."""

    bot: "TabletopBot"
    service: TournamentService
    _locks: dict[int, asyncio.Lock]
    _tasks: set[asyncio.Task]

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
        elif kind in ("round", "replays"):
            standing = await self.service.standing(tour.id)
            round_no = int(payload["round"])
            games = [g for g in standing.games if g.round == round_no]
            if kind == "round":
                head = t("tournament.announce.round", locale, name=name, round=round_no,
                         rounds=tour.rounds, tables=sum(1 for g in games if g.table_id))
            else:
                boards = set(payload.get("boards") or ())
                games = [g for g in games if g.board in boards]
                head = t("tournament.announce.playoffs", locale, name=name, round=round_no,
                         games=MATCH_GAMES)
            # A big round's list runs over one message: the rest follows in as many as needed.
            for chunk in chunks([head, *await self._table_lines(standing, games)], CONTENT):
                await channel.send(chunk, allowed_mentions=NO_MENTIONS)
            return
        elif kind == "round_end":
            # Posted when the next round may be paired already: the standings are those of
            # the round that ended, without the next one's bye.
            standing = await self.service.standing(tour.id, through=int(payload["round"]))
            seeded = (self._seeded_through(standing, payload["round"])
                      if tour.format == "knockout" else [])
            if payload["round"] >= tour.rounds:
                # The tournament's end follows at once, with the same standings.
                if not seeded:
                    return
                text = "\n".join(seeded)
            else:
                text = "\n".join([t("tournament.announce.round_end", locale, name=name,
                                    round=payload["round"]), *seeded, *self._legend(tour)])
                extra["file"] = await self.picture(standing, locale)
        elif kind == "finished":
            standing = await self.service.standing(tour.id)
            winner = payload.get("winner")
            text = t("tournament.announce.finished", locale, name=name,
                     winner=f"<@{winner}>" if winner and winner > 0 else
                     escape(standing.name_of(winner) if winner else "—"))
            text = "\n".join([text, *self._legend(tour)])
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

    @staticmethod
    def _legend(tour: TournamentRow) -> list[str]:
        """What BH and SB in the picture mean, in small print (a knockout shows neither)."""
        return [] if tour.format == "knockout" else ["-# " + t("tournament.legend", tour.locale)]

    def _seeded_through(self, standing: Standing, round_no: int) -> list[str]:
        """Knockout slots still level after every game they could take: the seed decided."""
        rank = {e.user_id: e.rank for e in standing.entrants}
        out = []
        for board, games in matches(played_of(standing.games), round_no).items():
            last = games[-1]
            if len(games) >= MATCH_GAMES and last.points is not None \
                    and len(set(last.points)) == 1 and len(last.seats) > 1:
                winner = match_winner(games, rank)
                if winner is not None:
                    out.append(t("tournament.announce.seed", standing.tournament.locale,
                                 board=board, games=len(games),
                                 player=self._who(standing, winner)))
        return out

    async def _table_lines(self, standing: Standing, games: list[Any]) -> list[str]:
        """A line for each game: its table (a play-off by its first game's board), players
        and thread link, or the bye."""
        locale = standing.tournament.locale
        threads = await self._round_threads([g.table_id for g in games if g.table_id])
        lines = []
        for g in games:
            if g.table_id is None:
                lines.append(t("tournament.announce.bye", locale,
                               player=self._who(standing, g.seats[0])))
                continue
            players = " – ".join(self._who(standing, uid) for uid in g.seats)
            board = g.replay_of if g.replay_of is not None else g.board
            thread = threads.get(g.table_id)
            lines.append(t("tournament.announce.table", locale, board=board, players=players,
                           thread=f"<#{thread}>") if thread else
                         t("tournament.announce.table_here", locale, board=board,
                           players=players))
        return lines

    @staticmethod
    def _who(standing: Standing, uid: int) -> str:
        """A person as a mention (it names without pinging: the round's message allows
        none), an AI by its escaped name."""
        return f"<@{uid}>" if uid > 0 else "🤖 " + escape(standing.name_of(uid))

    async def _round_threads(self, table_ids: list[int]) -> dict[int, int]:
        """The round's threads, once every table has opened its own (or given up and plays
        in the channel): the round's message links them. Never waits longer than
        ``THREADS_WAIT``; a table still without one is listed as playing here."""
        loop = asyncio.get_running_loop()
        until = loop.time() + THREADS_WAIT
        while True:
            threads, waiting = await self.bot.store.round_threads(table_ids)
            if not waiting or loop.time() >= until or getattr(self.bot, "closing", False):
                return threads
            await asyncio.sleep(0.5)

    async def picture(self, standing: Standing, locale: str) -> discord.File:
        tour = standing.tournament
        lines = [Line(r.rank, standing.name_of(r.id), r.score, r.buchholz, r.sonneborn_berger,
                      r.games, r.dropped) for r in standing.rows]
        png = await asyncio.get_running_loop().run_in_executor(
            None, lambda: standings_png(tour.name, lines, locale, round_no=standing.through,
                                        rounds=tour.rounds, finished=tour.status == "finished",
                                        tie_breaks=tour.format != "knockout"))
        return upload(png, PICTURE, standings_words(
            tour.name, lines, locale, round_no=tour.round, rounds=tour.rounds,
            finished=tour.status == "finished"))

    async def message_of(self, tour: TournamentRow) -> tuple[discord.Embed, ui.View | None]:
        locale = tour.locale
        entrants = await self.bot.store.entrants(tour.id)
        embed = discord.Embed(title=clip("🏆 " + escape(tour.name), 256), colour=COLOUR[tour.status])
        game_cog = self.bot.router.cog(tour.game)
        # The pairing decides who moves first: a "random" first player is not an option here.
        shown = {k: v for k, v in tour.options.items() if not (k == "first" and v == "random")}
        options = game_cog.options_text(shown, locale) if game_cog is not None else ""
        game = t(f"{tour.game}.name", locale)
        fmt = t(f"tournament.format.{tour.format}", locale)
        if tour.rounds:
            fmt += " · " + t("tournament.rounds", locale, rounds=tour.rounds)
        lines = [t("tournament.field.game", locale, game=game),
                 # One line of options under the game, never a bracket over several lines.
                 *([" · ".join(options.splitlines())] if options else []),
                 t("tournament.field.format", locale, format=fmt),
                 t("tournament.field.table", locale, count=tour.per_table),
                 t("tournament.field.clock", locale, clock=t(
                     "clock.per_turn", locale, time=limit_text(tour.turn_limit, locale))
                   if tour.turn_limit else limit_text(None, locale)),
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
        # Commas between names: an AI player's name has spaces of its own.
        listed = ", ".join(names)
        if len(entrants) > LISTED:
            listed += " " + t("tournament.more", locale, count=len(entrants) - LISTED)
        embed.add_field(name=t("tournament.entrants", locale, count=len(entrants)),
                        value=clip(listed or "—", FIELD_VALUE), inline=False)
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

