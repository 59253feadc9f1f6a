"""Commands that are not about one game: help, server stats, recent history."""
from __future__ import annotations

import asyncio
import math
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.games import game_class
from bot.i18n import t
from bot.markdown import escape
from bot.domain.records import coop_records, team_records
from render.alt.tables import chart as chart_words
from render.chart import rating_chart
from bot.games.registry import keys
from bot.store import DEFAULT_TURN_LIMIT
from bot.ui.lobby import POLICIES, TURN_LIMITS
from bot.ui.style import limit_text
from bot.ui.pictures import upload
from bot.ui.places import everywhere, needs_server
from bot.ui.replies import ephemeral, update_message
from bot.ui.translator import command_name, command_text, named_options

GAME_CHOICES = [app_commands.Choice(name=command_text(f"{key}.name"), value=key) for key in keys()]
LIMIT_CHOICES = [app_commands.Choice(name=command_text(f"cmd.config.limit.{limit}"), value=limit)
                 for limit in TURN_LIMITS]
#: each language named in itself, as a player looks for it
LANGUAGE_NAMES = {"en": "English", "pl": "Polski", "fr": "Français", "de": "Deutsch",
                  "nl": "Nederlands", "es": "Español", "ru": "Русский", "it": "Italiano"}
LANGUAGE_CHOICES = [app_commands.Choice(name=name, value=code)
                    for code, name in LANGUAGE_NAMES.items()] + [
    app_commands.Choice(name=command_text("cmd.config.language.discord"), value="discord")]
POLICY_CHOICES = [app_commands.Choice(name=command_text(f"cmd.config.policy.{p}"), value=p)
                  for p in POLICIES]

if TYPE_CHECKING:
    from bot.client import TabletopBot


HISTORY_PAGE = 10
HISTORY_ID = r"hist:(?P<game>[a-z][a-z0-9_]{1,15}|all):(?P<member>[0-9]{1,20}):(?P<page>[0-9]{1,5})"


async def history_page(bot: "TabletopBot", interaction: discord.Interaction, game: str | None,
                       member: int | None, page: int) -> tuple[str, ui.View | None]:
    """One page of the server's finished games, newest first, each linked to its thread."""
    locale = interaction.locale
    rows, total = await bot.store.recent_results(interaction.guild_id, HISTORY_PAGE,
                                                 page * HISTORY_PAGE, game, member)
    pages = max(1, math.ceil(total / HISTORY_PAGE))
    lines = [f"**{t('history.title', locale)}**" + (
        f" — {t('history.page', locale, page=page + 1, pages=pages)}" if pages > 1 else "")]
    legend = False
    for row in rows:
        result = row["result"]
        names = {s.seat: escape(s.name) for s in row["seats"]}
        if result["draw"] and not result["winners"]:
            outcome = t("history.draw", locale)
        elif result.get("reason") == "abandoned":
            outcome = t("history.abandoned", locale)
        elif not result["winners"]:
            outcome = t("history.coop_loss", locale)
        else:
            outcome = t("history.win", locale,
                        winners=", ".join(names[w] for w in result["winners"]))
        marked = [names[s.seat] + (" 🤖" if not s.person else "")
                  + (" ⏰" if s.person and (s.timed_out or s.ai_played) else "")
                  for s in row["seats"]]
        legend = legend or any(m != names[s.seat] for m, s in zip(marked, row["seats"]))
        # The number links to the game's thread; /replay takes the same number.
        link = (f"[{row['table_id']}](https://discord.com/channels/{interaction.guild_id}/"
                f"{row['channel_id']})")
        lines.append(t("history.line", locale, table=link,
                       game=t(f"{row['game']}.name", locale),
                       players=", ".join(marked), outcome=outcome))
    if not rows:
        lines.append(t("history.none", locale))
    elif legend:
        lines.append(f"-# {t('history.legend', locale)}")
    view = None
    if rows:
        view = ui.View(timeout=None)
        # Every game of the page can be replayed from here.
        view.add_item(HistoryReplay([
            discord.SelectOption(label=f"#{row['table_id']} {t(row['game'] + '.name', locale)}"[:100],
                                 value=str(row["table_id"]), emoji="🎞️") for row in rows],
            t("history.replay_placeholder", locale)))
        if pages > 1:
            key, who = game or "all", member or 0
            view.add_item(HistoryPage(key, who, page - 1, "◀", disabled=page == 0))
            view.add_item(HistoryPage(key, who, page + 1, "▶", disabled=page >= pages - 1))
    return "\n".join(lines), view


REPLAY_PICK_ID = r"histreplay"


class HistoryReplay(ui.DynamicItem[ui.Select], template=REPLAY_PICK_ID):
    """The /history page's "Replay a game…" menu: opens that game's replay viewer."""

    def __init__(self, options: list[discord.SelectOption] | None = None,
                 placeholder: str = "") -> None:
        super().__init__(ui.Select(custom_id="histreplay", options=options or [
            discord.SelectOption(label="-", value="0")], placeholder=placeholder[:150] or None,
            row=0))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Select,
                             match: "re.Match[str]", /) -> "HistoryReplay":
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: TabletopBot = interaction.client  # type: ignore[assignment]
        values = (interaction.data or {}).get("values") or []
        try:
            table_id = int(values[0])
        except (IndexError, ValueError):
            await ephemeral(interaction, t("error.unknown_button", interaction.locale))
            return
        live = await bot.tables.with_game(table_id)
        cog = None if live is None else bot.router.cog(live.row.game)
        if live is None or cog is None or live.row.guild_id != interaction.guild_id \
                or live.row.status != "finished" or live.game is None:
            await ephemeral(interaction, t("error.no_table", interaction.locale))
            return
        await cog.show_replay(interaction, live, 0)


class HistoryPage(ui.DynamicItem[ui.Button], template=HISTORY_ID):
    """◀ ▶ of /history: filters and page live in the custom_id (they work after restarts)."""

    def __init__(self, game: str, member: int, page: int, emoji: str = "▶",
                 disabled: bool = False) -> None:
        page = max(page, 0)
        super().__init__(ui.Button(emoji=emoji, custom_id=f"hist:{game}:{member}:{page}",
                                   disabled=disabled))
        self.game, self.member, self.page = game, member, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button,
                             match: "re.Match[str]", /) -> "HistoryPage":
        return cls(match["game"], int(match["member"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: TabletopBot = interaction.client  # type: ignore[assignment]
        game = None if self.game == "all" else self.game
        if game is not None and game not in keys():
            await ephemeral(interaction, t("error.unknown_button", interaction.locale))
            return
        text, view = await history_page(bot, interaction, game, self.member or None, self.page)
        await update_message(interaction, content=text, view=view,
                             allowed_mentions=discord.AllowedMentions.none())


class General(commands.Cog):
    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot

    @everywhere
    @app_commands.command(name=command_name("games"), description=command_text("cmd.general.help.description"))
    async def games(self, interaction: discord.Interaction) -> None:
        text = t("help.text", interaction.locale)
        perms = interaction.permissions
        if getattr(self.bot, "sync_refused", None) and perms and perms.manage_guild:
            # Discord refused this start's commands: those who run the server should know.
            text += "\n\n⚠️ " + t("help.sync_refused", interaction.locale)
        await interaction.response.send_message(text, ephemeral=True)

    @needs_server
    @app_commands.command(name=command_name("stats"), description=command_text("cmd.general.stats.description"))
    @app_commands.describe(member=command_text("cmd.general.stats.member"))
    @named_options
    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | None = None) -> None:
        locale = interaction.locale
        who = member or interaction.user
        mine = await self.bot.store.user_stats(interaction.guild_id, who.id)
        server = await self.bot.store.guild_stats(interaction.guild_id)
        lines = [f"**{t('stats.title', locale)}**"]
        for game, row in sorted(server.items()):
            lines.append(t("stats.server", locale, game=t(f"{game}.name", locale),
                           games=t("stats.games", locale, count=row["games"]),
                           players=t("stats.players", locale, count=row["players"])))
        for game, row in sorted(mine.items()):
            lines.append(t("stats.member", locale, member=who.mention,
                           game=t(f"{game}.name", locale), **row))
        for game in keys():
            if game_class(game).cooperative:
                played = await self.bot.store.coop_games(interaction.guild_id, game, who.id)
                if played:
                    lines.append(self._coop_line(who, game, coop_records(played), locale))
                    names = {uid: n for g in played for uid, n in g["names"].items()}
                    for team, record in team_records(played):
                        if len(played) > 1 or record["wins"] + record["losses"] > 0:
                            label = ", ".join(escape(names.get(u, "?"))
                                              for u in team)
                            lines.append(t("stats.coop.team", locale, team=label,
                                           wins=record["wins"], losses=record["losses"],
                                           best=", ".join(str(v) for v in record["best"].values())
                                           or t("stats.coop.none", locale),
                                           longest=record["longest"],
                                           par=self._par_text(record, locale)))
                continue
            rated = await self.bot.store.rating_of(interaction.guild_id, game, who.id)
            if rated is not None:
                rating, place, count = rated
                lines.append(t("stats.rating", locale, member=who.mention,
                               game=t(f"{game}.name", locale), rating=f"{rating.shown:.1f}",
                               place=place, count=count))
        series = []
        for game in keys():
            points = await self.bot.store.rating_history(interaction.guild_id, game, who.id)
            if points:
                series.append((t(f"{game}.name", locale), points))
        played, won = await self.bot.store.event_stats(interaction.guild_id, who.id)
        if played:
            lines.append(t("tournament.stats", locale, member=who.mention, played=played, won=won))
        if not server:
            lines.append(t("stats.none", locale))
        elif not mine:
            lines.append(t("stats.member_none", locale, member=who.mention))
        extra = {}
        if series:
            # A small picture of the ratings over time, drawn off the event loop.
            png = await asyncio.get_running_loop().run_in_executor(
                None, rating_chart, series, str(locale))
            extra["file"] = upload(png, "ratings.png", chart_words(series, str(locale)))
        await interaction.response.send_message("\n".join(lines), ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none(),
                                                **extra)

    @needs_server
    @app_commands.command(name=command_name("history"),
                          description=command_text("cmd.general.history.description"))
    @app_commands.describe(game=command_text("cmd.general.history.game"),
                           member=command_text("cmd.general.history.member"))
    @app_commands.choices(game=GAME_CHOICES)
    @named_options
    async def history(self, interaction: discord.Interaction, game: str | None = None,
                      member: discord.Member | None = None) -> None:
        text, view = await history_page(self.bot, interaction, game, member.id if member else None, 0)
        await interaction.response.send_message(text, ephemeral=True,
                                                view=view or discord.utils.MISSING,
                                                allowed_mentions=discord.AllowedMentions.none())

    @everywhere
    @app_commands.command(name=command_name("reminders"), description=command_text("cmd.reminders.description"))
    @app_commands.describe(dm=command_text("cmd.reminders.dm"))
    @named_options
    async def reminders(self, interaction: discord.Interaction, dm: bool) -> None:
        await self.bot.store.set_dm_reminders(interaction.user.id, dm)
        await ephemeral(interaction, t("reminders.on" if dm else "reminders.off",
                                       interaction.locale))

    config = needs_server(app_commands.Group(
        name=command_name("config"), description=command_text("cmd.config.description"),
        default_permissions=discord.Permissions(manage_guild=True)))

    @config.command(name=command_name("clock"), description=command_text("cmd.config.clock.description"))
    @app_commands.describe(game=command_text("cmd.config.game"),
                           limit=command_text("cmd.config.limit"),
                           policy=command_text("cmd.config.policy"))
    @app_commands.choices(game=GAME_CHOICES, limit=LIMIT_CHOICES, policy=POLICY_CHOICES)
    @named_options
    async def config_clock(self, interaction: discord.Interaction, game: str, limit: int,
                           policy: str | None = None) -> None:
        locale = interaction.locale
        perms = interaction.permissions
        # Server owners can let anyone see /config; changing it still needs Manage Server.
        if interaction.guild_id is None or not (perms and perms.manage_guild):
            await ephemeral(interaction, t("config.manage_only", locale))
            return
        if game not in keys() or limit not in TURN_LIMITS or policy not in (None, *POLICIES):
            await ephemeral(interaction, t("error.bad_options", locale))
            return
        await self.bot.store.set_guild_clock(interaction.guild_id, game, set_limit=True,
                                             turn_limit=float(limit) or None, policy=policy)
        chosen = await self.bot.store.guild_clock(interaction.guild_id, game)
        await ephemeral(interaction, t("config.saved", locale, game=t(f"{game}.name", locale),
                                       clock=self._clock_text(game, chosen, locale)))

    @config.command(name=command_name("language"),
                    description=command_text("cmd.config.language.description"))
    @app_commands.describe(language=command_text("cmd.config.language.option"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @named_options
    async def config_language(self, interaction: discord.Interaction, language: str) -> None:
        perms = interaction.permissions
        if interaction.guild_id is None or not (perms and perms.manage_guild):
            await ephemeral(interaction, t("config.manage_only", interaction.locale))
            return
        if language not in (*LANGUAGE_NAMES, "discord"):
            await ephemeral(interaction, t("error.bad_options", interaction.locale))
            return
        chosen = None if language == "discord" else language
        await self.bot.store.set_guild_language(interaction.guild_id, chosen)
        shown = str(interaction.guild_locale) if chosen is None else chosen
        # Said in the language just chosen: what the table will read from now on.
        await ephemeral(interaction, t("config.language_saved", shown,
                                       language=LANGUAGE_NAMES.get(chosen or "", shown)))

    @config.command(name=command_name("show"), description=command_text("cmd.config.show.description"))
    async def config_show(self, interaction: discord.Interaction) -> None:
        locale = interaction.locale
        lines = []
        for game in keys():
            chosen = await self.bot.store.guild_clock(interaction.guild_id, game)
            text = self._clock_text(game, chosen, locale)
            lines.append(t("config.line", locale, game=t(f"{game}.name", locale),
                           clock=text if chosen else t("config.default", locale, clock=text)))
        await ephemeral(interaction, t("config.show", locale, lines="\n".join(lines)))

    @staticmethod
    def _par_text(record: dict, locale) -> str:
        if record["over_par"] is None:
            return t("stats.coop.no_par", locale)
        return t("stats.coop.over_par", locale, over=f"{record['over_par']:+.1f}")

    @staticmethod
    def _coop_line(who: discord.abc.User, game: str, record: dict, locale) -> str:
        best = ", ".join(t("stats.coop.best_one", locale, players=players, turns=turns)
                         for players, turns in record["best"].items()) \
            or t("stats.coop.none", locale)
        over = General._par_text(record, locale)
        return t("stats.coop", locale, member=who.mention, game=t(f"{game}.name", locale),
                 wins=record["wins"], losses=record["losses"], best=best,
                 streak=record["streak"], longest=record["longest"], par=over)

    @staticmethod
    def _clock_text(game: str, chosen: tuple[float | None, str | None] | None, locale) -> str:
        from bot.games import game_class

        limit, policy = (DEFAULT_TURN_LIMIT, "ai") if chosen is None else chosen
        if not limit:
            return t("lobby.clock_value_off", locale)
        if game_class(game).cooperative:
            policy = "ai"
        return t("lobby.clock_value", locale,
                 limit=t("clock.per_turn", locale, time=limit_text(limit, locale)),
                 policy=t(f"clock.policy.{policy or 'ai'}", locale))


async def setup(bot: "TabletopBot") -> None:
    bot.add_dynamic_items(HistoryPage, HistoryReplay)
    bot.router.accept(re.compile(HISTORY_ID))
    bot.router.accept(re.compile(REPLAY_PICK_ID))
    await bot.add_cog(General(bot))
