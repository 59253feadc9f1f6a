"""/leaderboard: a game's ratings in this server, ten to a page, with the clicker's own place."""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.games import game_class
from bot.i18n import t
from bot.games.registry import is_game, keys
from bot.ui.places import needs_server
from bot.ui.replies import ephemeral, update_message
from bot.ui.translator import command_name, command_text, named_options

if TYPE_CHECKING:
    from bot.client import TabletopBot

PAGE = 10
#: rated games only: a cooperative game keeps no rating
RATED_CHOICES = [app_commands.Choice(name=command_text(f"{key}.name"), value=key)
                 for key in keys() if not game_class(key).cooperative]


async def page_text(bot: "TabletopBot", guild_id: int | None, game: str, page: int,
                    user_id: int, locale: object) -> tuple[str, int, int]:
    """The page's text, the page shown (clamped) and the number of pages."""
    name = t(f"{game}.name", locale)
    _, count = await bot.store.leaderboard(guild_id, game, 0, 0)
    if not count:
        return t("leaderboard.empty", locale, game=name), 0, 1
    pages = math.ceil(count / PAGE)
    page = max(0, min(page, pages - 1))
    rows, _ = await bot.store.leaderboard(guild_id, game, page * PAGE, PAGE)
    lines = [t("leaderboard.title", locale, game=name, page=page + 1, pages=pages)]
    for place, (uid, rating) in enumerate(rows, start=page * PAGE + 1):
        lines.append(t("leaderboard.line", locale, place=place, player=f"<@{uid}>",
                       rating=f"{rating.shown:.1f}", games=rating.games))
    mine = await bot.store.rating_of(guild_id, game, user_id)
    if mine is None:
        lines.append(t("leaderboard.you_none", locale, game=name))
    else:
        rating, place, total = mine
        lines.append(t("leaderboard.you", locale, place=place, count=total,
                       rating=f"{rating.shown:.1f}"))
    return "\n".join(lines), page, pages


def pager(game: str, page: int, pages: int) -> ui.View | None:
    if pages <= 1:
        return None
    view = ui.View(timeout=None)
    view.add_item(LeaderboardPage(game, page - 1, "◀", disabled=page == 0))
    view.add_item(LeaderboardPage(game, page + 1, "▶", disabled=page >= pages - 1))
    return view


PAGE_ID = r"lb:(?P<game>[a-z][a-z0-9_]{1,15}):(?P<page>[0-9]{1,5})"


class LeaderboardPage(ui.DynamicItem[ui.Button], template=PAGE_ID):
    """◀ ▶ of a leaderboard: the page to show is in the custom_id, so it works after restarts."""

    def __init__(self, game: str, page: int, emoji: str = "▶", disabled: bool = False) -> None:
        super().__init__(ui.Button(emoji=emoji, custom_id=f"lb:{game}:{max(page, 0)}",
                                   disabled=disabled, style=discord.ButtonStyle.secondary))
        self.game, self.page = game, max(page, 0)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button,
                             match: re.Match[str], /) -> "LeaderboardPage":
        return cls(match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: TabletopBot = interaction.client  # type: ignore[assignment]
        if not is_game(self.game):
            await ephemeral(interaction, t("error.unknown_button", interaction.locale))
            return
        text, page, pages = await page_text(bot, interaction.guild_id, self.game, self.page,
                                            interaction.user.id, interaction.locale)
        await update_message(interaction, content=text, view=pager(self.game, page, pages),
                             allowed_mentions=discord.AllowedMentions.none())


class Leaderboard(commands.Cog):
    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot

    @needs_server
    @app_commands.command(name=command_name("leaderboard"),
                          description=command_text("cmd.leaderboard.description"))
    @app_commands.describe(game=command_text("cmd.leaderboard.game"))
    @app_commands.choices(game=RATED_CHOICES)
    @named_options
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        if not is_game(game) or game_class(game).cooperative:
            await ephemeral(interaction, t("error.bad_options", interaction.locale))
            return
        text, page, pages = await page_text(self.bot, interaction.guild_id, game, 0,
                                            interaction.user.id, interaction.locale)
        await interaction.response.send_message(
            text, ephemeral=True, view=pager(game, page, pages) or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: "TabletopBot") -> None:
    bot.add_dynamic_items(LeaderboardPage)
    bot.router.accept(re.compile(PAGE_ID))
    await bot.add_cog(Leaderboard(bot))
