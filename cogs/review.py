"""/review: a finished game's review (each turn graded by the game's expert), privately."""
from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.places import everywhere
from bot.ui.review import ReviewViewer
from bot.ui.translator import command_name, command_text, named_options

if TYPE_CHECKING:
    from bot.client import TabletopBot

#: Discord's largest integer (see cogs/replay.py)
GAME_ID_MAX = 2**53 - 1


class Review(commands.Cog):
    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot

    @everywhere
    @app_commands.command(name=command_name("review"),
                          description=command_text("cmd.review.description"))
    @app_commands.describe(game_id=command_text("cmd.review.game_id"))
    @named_options
    async def review(self, interaction: discord.Interaction,
                     game_id: app_commands.Range[int, 1, GAME_ID_MAX]) -> None:
        await ReviewViewer(self.bot).show(interaction, game_id)


async def setup(bot: "TabletopBot") -> None:
    await bot.add_cog(Review(bot))
