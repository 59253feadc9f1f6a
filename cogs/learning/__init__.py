"""/puzzle solve and /puzzle stats, and the buttons of lessons and puzzles.

A puzzle is solved privately, in ephemeral messages, with the buttons of a Sensei turn: a
piece, then where it goes, then Send. The answer so far travels in the buttons' custom_ids
(``pz:<attempt>:<verb>:<plan>``), the attempt (the puzzle shown, hinted or not, open or
closed) is in the store, so a click after a restart, a double click or a click by someone
else is checked against it. Answers are judged in the think pool: a Sensei answer is checked
against every reply.

Puzzles come from this server's finished games first (the person's own missed wins before
others'), then from the built-in set, never one the person already finished.
"""
from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.domain import puzzle_rating
from bot.i18n import t
from bot.ui.lessons import PATTERN as LESSON_PATTERN, LessonButton
from bot.ui.pictures import upload
from bot.ui.places import everywhere
from bot.ui.replies import ephemeral
from bot.ui.translator import command_name, command_text, named_options
from render.alt.tables import chart as chart_words
from render.chart import rating_chart

from .flow import PATTERN, PuzzleFlow, pz

if TYPE_CHECKING:
    from bot.client import TabletopBot

CHART_FILE = "puzzles.png"
#: the games with puzzles one can play here
GAMES = ("sensei", "narabi", "sarena")
GAME_CHOICES = [app_commands.Choice(name=command_text(f"{g}.name"), value=g) for g in GAMES]


class PuzzleButton(ui.DynamicItem[ui.Button], template=PATTERN):
    def __init__(self, attempt: int, verb: str, arg: str = "") -> None:
        super().__init__(ui.Button(custom_id=pz(attempt, verb, arg)))
        self.attempt, self.verb, self.arg = attempt, verb, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button,
                             match: re.Match[str], /) -> "PuzzleButton":
        return cls(int(match["attempt"]), match["verb"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.ui.router import answer_errors

        await answer_errors(interaction, PuzzleFlow(interaction.client).click(  # type: ignore[arg-type]
            interaction, self.attempt, self.verb, self.arg), self.custom_id)


@everywhere
class Puzzles(commands.GroupCog, group_name=command_name("puzzle"),
              group_description=command_text("cmd.puzzle.description")):
    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=command_name("solve"),
                          description=command_text("cmd.puzzle.solve.description"))
    @app_commands.describe(game=command_text("cmd.puzzle.game"))
    @app_commands.choices(game=GAME_CHOICES)
    @named_options
    async def solve(self, interaction: discord.Interaction, game: str = "sensei") -> None:
        if game not in GAMES:
            await ephemeral(interaction, t("error.bad_options", interaction.locale))
            return
        await PuzzleFlow(self.bot).start(interaction, game)

    @app_commands.command(name=command_name("answer"),
                          description=command_text("cmd.puzzle.answer.description"))
    @app_commands.describe(notation=command_text("cmd.puzzle.answer.notation"))
    @named_options
    async def answer(self, interaction: discord.Interaction,
                     notation: app_commands.Range[str, 1, 60]) -> None:
        await PuzzleFlow(self.bot).typed(interaction, notation)

    @app_commands.command(name=command_name("stats"),
                          description=command_text("cmd.puzzle.stats.description"))
    async def stats(self, interaction: discord.Interaction) -> None:
        locale = str(interaction.locale)
        lines, series = [t("puzzle.stats.title", locale)], []
        for game in GAMES:
            name = t(f"{game}.name", locale)
            rating = await self.bot.store.puzzle_rating(interaction.user.id, game)
            if rating is None:
                lines.append(t("puzzle.stats.none", locale, game=name))
                continue
            lines.append(t("puzzle.stats.line", locale, game=name,
                           rating=f"{puzzle_rating.shown(rating):.1f}",
                           sigma=f"{rating.sigma:.1f}", solved=rating.solved,
                           tried=rating.solved + rating.failed, streak=rating.streak,
                           best=rating.best_streak))
            history = await self.bot.store.puzzle_history(interaction.user.id, game)
            if len(history) >= 2:
                series.append((name, history))
        file = None
        if series:
            png = await asyncio.get_running_loop().run_in_executor(
                None, rating_chart, series, locale, "render.chart.title.puzzles")
            file = upload(png, CHART_FILE,
                          chart_words(series, locale, "render.chart.title.puzzles"))
        await ephemeral(interaction, "\n".join(lines), file=file)


async def setup(bot: "TabletopBot") -> None:
    bot.add_dynamic_items(LessonButton, PuzzleButton)
    bot.router.accept(re.compile(LESSON_PATTERN))
    bot.router.accept(re.compile(PATTERN))
    await bot.add_cog(Puzzles(bot))
