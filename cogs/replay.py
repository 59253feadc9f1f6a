"""/replay: watch any finished game of this server (or this group DM or DM) again, move by move, privately."""
from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.ui.places import everywhere, played_here
from bot.ui.replies import ephemeral
from bot.ui.translator import command_name, command_text, named_options

if TYPE_CHECKING:
    from bot.client import TabletopBot

#: the largest game number /replay takes: Discord's largest integer (2**53 - 1, JavaScript's
#: safe integers). Discord refuses a command whose max_value is above it, and the whole
#: command sync with it; no game number comes near it.
GAME_ID_MAX = 2**53 - 1


class Replay(commands.Cog):
    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot

    @everywhere
    @app_commands.command(name=command_name("replay"),
                          description=command_text("cmd.replay.description"))
    @app_commands.describe(game_id=command_text("cmd.replay.game_id"))
    @named_options
    async def replay(self, interaction: discord.Interaction,
                     game_id: app_commands.Range[int, 1, GAME_ID_MAX]) -> None:
        live = await self.bot.tables.with_game(game_id)
        if live is None or not played_here(live.row.guild_id, (live.row.channel_id, live.row.thread_id),
                                           interaction):
            await ephemeral(interaction, t("error.no_table", interaction.locale))
            return
        cog = self.bot.router.cog(live.row.game)
        if cog is None or live.row.status != "finished" or live.game is None:
            await ephemeral(interaction, t("error.replay_unfinished", interaction.locale))
            return
        await cog.show_replay(interaction, live, 0)


async def setup(bot: "TabletopBot") -> None:
    await bot.add_cog(Replay(bot))
