"""Commands that are not about one game: help, server stats, recent history."""
from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.ui.translator import command_text

if TYPE_CHECKING:
    from bot.client import TabletopBot


class General(commands.Cog):
    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot

    @app_commands.command(name="games", description=command_text("cmd.general.help.description"))
    async def games(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(t("help.text", interaction.locale), ephemeral=True)

    @app_commands.command(name="stats", description=command_text("cmd.general.stats.description"))
    @app_commands.describe(member=command_text("cmd.general.stats.member"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | None = None) -> None:
        locale = interaction.locale
        who = member or interaction.user
        mine = await self.bot.store.user_stats(interaction.guild_id, who.id)
        server = await self.bot.store.guild_stats(interaction.guild_id)
        lines = [f"**{t('stats.title', locale)}**"]
        for game, row in sorted(server.items()):
            lines.append(t("stats.server", locale, game=t(f"{game}.name", locale), **row))
        for game, row in sorted(mine.items()):
            lines.append(t("stats.member", locale, member=who.mention,
                           game=t(f"{game}.name", locale), **row))
        if len(lines) == 1:
            lines.append(t("stats.none", locale))
        await interaction.response.send_message("\n".join(lines), ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="history",
                          description=command_text("cmd.general.history.description"))
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        locale = interaction.locale
        rows = await self.bot.store.recent_results(interaction.guild_id)
        lines = [f"**{t('history.title', locale)}**"]
        for row in rows:
            result = row["result"]
            names = {s.seat: discord.utils.escape_markdown(s.name) for s in row["seats"]}
            if result["draw"] and not result["winners"]:
                outcome = t("history.draw", locale)
            elif not result["winners"]:
                outcome = t("history.coop_loss", locale)
            else:
                outcome = t("history.win", locale,
                            winners=", ".join(names[w] for w in result["winners"]))
            lines.append(t("history.line", locale, table=row["table_id"],
                           game=t(f"{row['game']}.name", locale),
                           players=", ".join(names.values()), outcome=outcome))
        if len(lines) == 1:
            lines.append(t("history.none", locale))
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: "TabletopBot") -> None:
    await bot.add_cog(General(bot))
