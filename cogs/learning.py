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
import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot.domain import puzzle_rating
from bot.games import puzzles
from bot.games.sensei import Sensei, format_turn
from bot.i18n import t
from bot.ui.lessons import PATTERN as LESSON_PATTERN, LessonButton
from bot.ui.limits import CONTENT, clip
from bot.ui.replies import ephemeral, update_message
from bot.ui.routing import button, view_of
from bot.ui.translator import command_name, command_text, named_options
from cogs.sensei.cog import CHARACTER, LAST_ROW, SEAT_MARK, decode_plan, encode_plan
from bot.domain.tables import TableError
from render.chart import rating_chart
from render.sensei import render as render_sensei

if TYPE_CHECKING:
    from bot.client import TabletopBot

PATTERN = r"pz:(?P<attempt>[0-9]{1,18}):(?P<verb>[a-z]{2})(?::(?P<arg>[A-Za-z0-9_.\-]{0,60}))?"
PUZZLE_FILE = "puzzle.png"
CHART_FILE = "puzzles.png"
#: the games with puzzles one can play here
GAMES = ("sensei",)
GAME_CHOICES = [app_commands.Choice(name=command_text(f"{g}.name"), value=g) for g in GAMES]


def pz(attempt: int, verb: str, arg: str = "") -> str:
    return f"pz:{attempt}:{verb}" + (f":{arg}" if arg else "")


async def next_puzzle(bot: "TabletopBot", guild_id: int | None, user_id: int,
                      game: str) -> dict[str, Any] | None:
    """The next puzzle for this person: this server's own first, then the built-in set."""
    tried = await bot.store.tried_puzzles(user_id, game)
    from_games = await bot.store.game_puzzles(guild_id, game, user_id, tried, limit=1)
    if from_games:
        return from_games[0]
    for puzzle_id in puzzles.ids(game):
        if puzzle_id not in tried:
            return puzzles.load(puzzle_id).to_json()
    return None


class PuzzleFlow:
    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot

    async def start(self, interaction: discord.Interaction, game: str) -> None:
        locale = str(interaction.locale)
        found = await next_puzzle(self.bot, interaction.guild_id, interaction.user.id, game)
        if found is None:
            await self._send(interaction, t("puzzle.none_left", locale), None, None)
            return
        attempt = await self.bot.store.open_attempt(interaction.user.id, game, found)
        await self.step(interaction, attempt, puzzles.Puzzle.from_json(found), [], "")

    async def _picture(self, game: Sensei, seat: int, locale: str,
                       choice: dict[str, Any] | None = None) -> bytes:
        view = game.public_view()
        if choice:
            view = dict(view, choice=choice)
        names = [t("learn.you", locale) if s == seat else t("puzzle.opponent", locale)
                 for s in range(2)]
        return await asyncio.get_running_loop().run_in_executor(
            None, render_sensei, view, names, locale)

    async def _send(self, interaction: discord.Interaction, text: str,
                    view: ui.View | None, picture: bytes | None) -> None:
        file = discord.File(io.BytesIO(picture), filename=PUZZLE_FILE) if picture else None
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await update_message(interaction, content=clip(text, CONTENT), view=view,
                                 attachments=[file] if file else [])
        else:
            await ephemeral(interaction, text, view=view, file=file)

    def _trial(self, puzzle: puzzles.Puzzle, plan: list[dict[str, Any]]) -> Sensei:
        trial = puzzle.position()
        assert isinstance(trial, Sensei)
        for action in plan:
            trial.apply(puzzle.seat, action)
        return trial

    async def step(self, interaction: discord.Interaction, attempt: int,
                   puzzle: puzzles.Puzzle, plan: list[dict[str, Any]], before: str) -> None:
        """The puzzle with the turn planned so far: a button per piece that can still move,
        then Send, Undo, Hint."""
        locale, seat = str(interaction.locale), puzzle.seat
        trial = self._trial(puzzle, plan)
        colour = t(f"sensei.colour.{('green', 'red')[seat]}", locale)
        source = "puzzle.from_game" if puzzle.source.get("type") == "game" else "puzzle.builtin"
        lines = [line for line in (before, t("puzzle.title.sensei", locale, colour=colour,
                                                mark=SEAT_MARK[seat]),
                                   t(source, locale)) if line]
        if plan:
            lines.append(t("sensei.step.planned", locale, actions=format_turn(plan)))
        code = encode_plan(plan)
        items: list[ui.Item] = []
        open_turn = trial.result() is None and trial.to_move == seat and len(plan) < 3
        if open_turn:
            items += [button(pz(attempt, "fr", f"{code}.{sq}" if code else f".{sq}"), sq,
                             emoji=SEAT_MARK[seat]) for sq in trial.movable_stones(seat)]
            if trial.character_targets(seat):
                at = trial.public_view()["characters"][seat]
                items.append(button(pz(attempt, "fr", f"{code}.{CHARACTER}"), at, emoji="⛩️",
                                    style=discord.ButtonStyle.primary))
        items.append(button(pz(attempt, "sd", code), t("sensei.button.send", locale),
                            style=discord.ButtonStyle.success, disabled=not plan, emoji="✅",
                            row=LAST_ROW))
        if plan:
            items.append(button(pz(attempt, "pl", encode_plan(plan[:-1])),
                                t("sensei.button.undo", locale), emoji="↩️", row=LAST_ROW))
        items.append(button(pz(attempt, "ht", code), t("puzzle.button.hint", locale),
                            emoji="💡", row=LAST_ROW))
        items.append(button(pz(attempt, "gu", code), t("puzzle.button.give_up", locale),
                            emoji="🏳️", row=LAST_ROW))
        await self._send(interaction, "\n".join(lines), view_of(*items[:25]),
                         await self._picture(trial, seat, locale))

    async def click(self, interaction: discord.Interaction, attempt_id: int, verb: str,
                    arg: str) -> None:
        locale = str(interaction.locale)
        attempt = await self.bot.store.attempt(attempt_id)
        if attempt is None or attempt.user_id != interaction.user.id:
            await ephemeral(interaction, "⚠️ " + t("puzzle.not_yours", locale))
            return
        if verb == "nx":
            await self.start(interaction, attempt.game)
            return
        if attempt.status != "open":
            await self._send(interaction, t("puzzle.already_done", locale),
                             view_of(self._next(attempt_id, locale)), None)
            return
        puzzle = puzzles.Puzzle.from_json(attempt.puzzle)
        parts = arg.split(".")
        try:
            plan = decode_plan(parts[0])
            trial = self._trial(puzzle, plan)
        except (TableError, Exception):
            await self.step(interaction, attempt_id, puzzle, [], t("error.stale", locale))
            return
        if verb == "pl":
            await self.step(interaction, attempt_id, puzzle, plan, "")
        elif verb == "fr":
            await self._from(interaction, attempt_id, puzzle, plan, trial,
                             parts[1] if len(parts) > 1 else "")
        elif verb == "ht":
            await self.bot.store.mark_hinted(attempt_id)
            tip = puzzles.hint(puzzle)
            kind = "character" if tip.get("kind") == "character" else "stone"
            await self.step(interaction, attempt_id, puzzle, plan,
                            "💡 " + t(f"puzzle.hint.{kind}", locale, square=tip.get("square", "")))
        elif verb == "gu":
            await self._judged(interaction, attempt_id, puzzle, plan, None)
        elif verb == "sd":
            actions = list(plan)
            if trial.result() is None and trial.to_move == puzzle.seat:
                actions.append({"type": "end_turn"})
            verdict = await self._judge(puzzle, actions)
            if verdict["status"] == "incomplete":
                await self.step(interaction, attempt_id, puzzle, plan, "")
            elif verdict["status"] == "illegal":
                await self.step(interaction, attempt_id, puzzle, [],
                                "⚠️ " + t("puzzle.illegal", locale))
            else:
                await self._judged(interaction, attempt_id, puzzle, plan, verdict)
        else:
            await self.step(interaction, attempt_id, puzzle, plan, "")

    async def _judge(self, puzzle: puzzles.Puzzle, actions: list[dict[str, Any]]) -> dict[str, Any]:
        pool = getattr(self.bot, "pool", None)
        if pool is not None:
            return await pool.call("bot.runtime.puzzles:judge", puzzle.to_json(), actions)
        from bot.runtime.puzzles import judge

        return await asyncio.get_running_loop().run_in_executor(
            None, judge, puzzle.to_json(), actions)

    async def _from(self, interaction: discord.Interaction, attempt_id: int,
                    puzzle: puzzles.Puzzle, plan: list[dict[str, Any]], trial: Sensei,
                    picked: str) -> None:
        locale, seat = str(interaction.locale), puzzle.seat
        if picked == CHARACTER:
            frm = trial.public_view()["characters"][seat]
            kind, targets = "character", trial.character_targets(seat)
            text = t("sensei.step.character_to", locale, square=frm)
        else:
            frm, kind = picked, "stone"
            targets = trial.stone_destinations(seat, picked) if picked else []
            text = t("sensei.step.stone_to", locale, square=frm)
        if not targets:
            await self.step(interaction, attempt_id, puzzle, plan, "")
            return
        moves = [button(pz(attempt_id, "pl",
                           encode_plan([*plan, {"type": kind, "from": frm, "to": to}])), to)
                 for to in targets]
        back = button(pz(attempt_id, "pl", encode_plan(plan)), t("button.back", locale),
                      row=LAST_ROW)
        await self._send(interaction, text, view_of(*moves[:24], back),
                         await self._picture(trial, seat, locale, {"from": frm, "to": targets}))

    def _next(self, attempt_id: int, locale: str) -> ui.Button:
        return button(pz(attempt_id, "nx"), t("puzzle.button.next", locale),
                      style=discord.ButtonStyle.primary, emoji="🧩")

    async def _judged(self, interaction: discord.Interaction, attempt_id: int,
                      puzzle: puzzles.Puzzle, plan: list[dict[str, Any]],
                      verdict: dict[str, Any] | None) -> None:
        """Solved, wrong or given up: the rating moves once, then the answer is told."""
        locale = str(interaction.locale)
        solved = verdict is not None and verdict["status"] == "solved"
        moved = await self.bot.store.finish_attempt(attempt_id, solved, puzzle_rating.rate)
        if moved is None:
            await self._send(interaction, t("puzzle.already_done", locale),
                             view_of(self._next(attempt_id, locale)), None)
            return
        before, after = moved
        lines = []
        if solved:
            lines.append("🎉 " + t("puzzle.solved", locale, turn=format_turn(plan)))
        elif verdict is None:
            lines.append(t("puzzle.given_up", locale))
        else:
            reason = verdict.get("reason") or "no_win_after_reply"
            lines.append("❌ " + t(f"puzzle.wrong.{reason}", locale, turn=format_turn(plan),
                                  reply=format_turn(verdict.get("refutation") or []) or "—"))
        if not solved:
            lines.append(t("puzzle.solution", locale, turn=format_turn(puzzle.solution)))
        lines.append(t("puzzle.rating", locale, rating=f"{puzzle_rating.shown(after):.1f}",
                       change=f"{puzzle_rating.shown(after) - puzzle_rating.shown(before):+.1f}",
                       sigma=f"{after.sigma:.1f}", streak=after.streak))
        final = self._trial(puzzle, [])
        for action in (plan if solved else puzzle.solution):
            final.apply(puzzle.seat, action)
        await self._send(interaction, "\n".join(lines), view_of(self._next(attempt_id, locale)),
                         await self._picture(final, puzzle.seat, locale))


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


@app_commands.guild_only()
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
                None, rating_chart, series, locale)
            file = discord.File(io.BytesIO(png), filename=CHART_FILE)
        await ephemeral(interaction, "\n".join(lines), file=file)


async def setup(bot: "TabletopBot") -> None:
    bot.add_dynamic_items(LessonButton, PuzzleButton)
    bot.router.accept(re.compile(LESSON_PATTERN))
    bot.router.accept(re.compile(PATTERN))
    await bot.add_cog(Puzzles(bot))
