"""The private steps of a puzzle: Sensei, a turn planned piece by piece then sent; Narabi,
the par line switch by switch, judged after each; Sàréná, a pile then where it goes. The
answer so far travels in the buttons' custom_ids (``pz:<attempt>:<verb>:<answer>``); the
attempt (the puzzle shown, hinted or not, open or closed) is in the store, so a click after a
restart, a double click or someone else's click is checked against it. Answers are judged in
the think pool."""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.domain import puzzle_rating
from bot.domain.tables import TableError
from bot.games import IllegalAction, puzzles
from bot.games.sarena.notation import parse_move
from bot.games.sensei import format_turn, parse_turn
from bot.i18n import t
from bot.markdown import md
from bot.ui.pictures import Picture
from bot.ui.replies import ephemeral, error_text, in_time, private_step
from bot.ui.routing import button, view_of
from cogs.sensei.cog import LAST_ROW, SEAT_MARK, decode_plan, encode_plan
from cogs.sensei.planning import piece_buttons, target_buttons
from render.alt import describe
from render.narabi import render as render_narabi
from render.sarena import render as render_sarena
from render.sensei import render as render_sensei

from .answers import decode_switches, encode_switches, hint_mark, rating_text, world_text

if TYPE_CHECKING:
    from bot.client import TabletopBot

PATTERN = r"pz:(?P<attempt>[0-9]{1,18}):(?P<verb>[a-z]{2})(?::(?P<arg>[A-Za-z0-9_.\-]{0,60}))?"
PUZZLE_FILE = "puzzle.png"
#: seconds an answer waits for its verdict before deferring the click (Discord allows three)
JUDGE_WAIT = 1.5
#: the games whose puzzles may be answered in notation, and how the notation is read
TYPED = {"sensei": parse_turn, "sarena": lambda text: [parse_move(text)]}


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
    """A puzzle's private steps. Sensei: a turn planned piece by piece, then Send. Narabi:
    the par line switch by switch, every seat in turn, judged after each. Sàréná: a pile, then
    where it goes (one move)."""

    def __init__(self, bot: "TabletopBot") -> None:
        self.bot = bot
        #: the interaction being answered (a picture slow to draw defers it in time)
        self.interaction: discord.Interaction | None = None

    async def start(self, interaction: discord.Interaction, game: str) -> None:
        locale = str(interaction.locale)
        self.interaction = interaction
        found = await next_puzzle(self.bot, interaction.guild_id, interaction.user.id, game)
        if found is None:
            await self._send(interaction, t("puzzle.none_left", locale), None, None)
            return
        attempt = await self.bot.store.open_attempt(interaction.user.id, game, found)
        await self.step(interaction, attempt, puzzles.Puzzle.from_json(found), "", "")

    # == drawing ===========================================================================

    def _names(self, puzzle: puzzles.Puzzle, game: Any, locale: str) -> list[str]:
        if puzzle.game == "narabi":
            return [t("puzzle.seat", locale, seat=s + 1) for s in range(game.seats)]
        if puzzle.game == "sensei":
            # Called by colour, as the title says ("you play red"): the picture's sentences
            # are made for a third person ("2 · Red wins", never "You wins").
            return ["", ""]
        return [t("learn.you", locale) if s == puzzle.seat else t("puzzle.opponent", locale)
                for s in range(2)]

    async def _picture(self, puzzle: puzzles.Puzzle, game: Any, locale: str,
                       choice: dict[str, Any] | None = None) -> Picture:
        view = game.public_view()
        # Drawn like the game's boards: in the render workers, off the event loop.
        return await self._picture_of(puzzle, game, dict(view, choice=choice) if choice
                                      else view, locale)

    async def _send(self, interaction: discord.Interaction, text: str,
                    view: ui.View | None, picture: bytes | None) -> None:
        # The words under the picture, beside the buttons: a hint or a verdict is read where
        # the click was (see ``private_step``).
        await private_step(interaction, "", view, picture, PUZZLE_FILE, below=text)

    # == what an answer reads as ===========================================================

    def _stone(self, game: Any, card: int, locale: str) -> str:
        cog = self.bot.router.cog("narabi")
        return cog.stone_of(game, card, locale) if cog is not None else str(card)  # type: ignore[attr-defined]

    def _answer_text(self, puzzle: puzzles.Puzzle, answer: list[dict[str, Any]],
                     locale: str) -> str:
        if puzzle.game == "sensei":
            return format_turn(answer)
        if puzzle.game == "sarena":
            return " ".join(f"{a['from']}-{a['to']}" for a in answer)
        start = puzzle.position()
        return " · ".join(f"{self._stone(start, a['card'], locale)} ↔ "
                          f"{self._stone(start, a['target'], locale)}" for a in answer)

    def _decode(self, puzzle: puzzles.Puzzle, code: str) -> list[dict[str, Any]]:
        if puzzle.game == "sensei":
            return decode_plan(code)
        if puzzle.game == "narabi":
            return decode_switches(code)
        return []

    def _played(self, puzzle: puzzles.Puzzle, plan: list[dict[str, Any]]) -> Any:
        game = puzzle.position()
        for action in plan:
            game.apply(game.to_move if puzzle.game == "narabi" else puzzle.seat, action)
        return game

    # == the steps =========================================================================

    def _header(self, puzzle: puzzles.Puzzle, game: Any, locale: str) -> list[str]:
        source = "puzzle.from_game" if puzzle.source.get("type") == "game" else "puzzle.builtin"
        if puzzle.game == "sensei":
            colour = t(f"sensei.colour.{('green', 'red')[puzzle.seat]}", locale)
            title = t("puzzle.title.sensei", locale, colour=colour, mark=SEAT_MARK[puzzle.seat])
        elif puzzle.game == "sarena":
            mine = game.private_view(puzzle.seat)["colour"]
            title = t("puzzle.title.sarena", locale, colour=t(f"sarena.colour.{mine}", locale))
        else:
            title = t("puzzle.title.narabi", locale, par=puzzle.par)
        return [title, t(source, locale)]

    def _bottom(self, attempt: int, code: str, locale: str, *, send: bool = False,
                undo: str | None = None, hint: str | None = None) -> list[ui.Item]:
        items: list[ui.Item] = []
        if send:
            items.append(button(pz(attempt, "sd", code), t("sensei.button.send", locale),
                                style=discord.ButtonStyle.success, emoji="✅", row=LAST_ROW))
        if undo is not None:
            items.append(button(pz(attempt, "pl", undo), t("sensei.button.undo", locale),
                                emoji="↩️", row=LAST_ROW))
        items.append(button(pz(attempt, "ht", code), hint or t("puzzle.button.hint", locale),
                            emoji="💡", disabled=hint is not None,
                            row=LAST_ROW))
        items.append(button(pz(attempt, "gu", code), t("puzzle.button.give_up", locale),
                            emoji="🏳️", row=LAST_ROW))
        return items

    async def step(self, interaction: discord.Interaction, attempt: int,
                   puzzle: puzzles.Puzzle, code: str, before: str, *,
                   hinted: bool = False) -> None:
        """The puzzle with the answer so far. Once hinted, the hint is said last (just above
        the picture), marked on the picture and written on its own button, where the person
        looks after pressing it."""
        locale = str(interaction.locale)
        plan = self._decode(puzzle, code)
        game = self._played(puzzle, plan)
        lines = [line for line in (before, *self._header(puzzle, game, locale)) if line]
        items: list[ui.Item] = []
        hint = self._hint_text(puzzle, locale) if hinted else None
        if puzzle.game == "sensei":
            seat = puzzle.seat
            if plan:
                lines.append(md("sensei.step.planned", locale, actions=format_turn(plan)))
            if game.result() is None and game.to_move == seat and len(plan) < 3:
                pieces, ask = piece_buttons(
                    game, seat, lambda piece: pz(attempt, "fr", f"{code}.{piece}"), locale)
                items += pieces
                lines += [ask] if ask else []
            items = items[:20] + self._bottom(attempt, code, locale, send=bool(plan),
                                              undo=encode_plan(plan[:-1]) if plan else None,
                                              hint=hint)
        elif puzzle.game == "sarena":
            lines.append(t("puzzle.sarena.pick", locale))
            items = [button(pz(attempt, "fr", sq), sq, emoji="🟤")
                     for sq in game.public_view()["movable"]][:20]
            items += self._bottom(attempt, code, locale, hint=hint)
        else:
            for seat, row in enumerate(game.public_view()["rows"]):
                conditions = {c["id"]: c["condition"] for c in game.private_view(seat)["cards"]}
                lines.append(t("puzzle.narabi.seat", locale, seat=seat + 1, cards="\n".join(
                    f"• {self._stone(game, c['id'], locale)}: "
                    f"{self.bot.router.cog('narabi').condition(conditions[c['id']], locale)}"  # type: ignore[attr-defined]
                    for c in row)))
            if plan:
                lines.append(t("puzzle.narabi.done", locale,
                               switches=self._answer_text(puzzle, plan, locale)))
            seat = game.to_move
            lines.append(t("puzzle.narabi.to_move", locale, n=len(plan) + 1, par=puzzle.par,
                           seat=seat + 1))
            givable = sorted({a["card"] for a in game.legal_actions(seat)},
                             key=[c["id"] for c in game.public_view()["rows"][seat]].index)
            items = [button(pz(attempt, "fr", f"{code}.{card}"), self._stone(game, card, locale))
                     for card in givable][:20]
            items += self._bottom(attempt, code, locale,
                                  undo=encode_switches(plan[:-1]) if plan else None, hint=hint)
        if hint:
            lines.append("💡 " + hint)
        await self._send(interaction, "\n".join(lines), view_of(*items),
                         await self._picture(puzzle, game, locale, hint_mark(puzzle)
                                             if hinted and not plan else None))

    async def click(self, interaction: discord.Interaction, attempt_id: int, verb: str,
                    arg: str) -> None:
        locale = str(interaction.locale)
        self.interaction = interaction
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
        code, _, picked = arg.partition(".")
        try:
            plan = self._decode(puzzle, code)
            game = self._played(puzzle, plan)
        except (TableError, IllegalAction):
            # A forged or outdated answer: start the puzzle's answer again.
            await self.step(interaction, attempt_id, puzzle, "", t("error.stale", locale))
            return
        hinted = attempt.hinted
        if verb == "pl" and puzzle.game == "narabi" and plan:
            await self._after_switch(interaction, attempt, puzzle, code, plan)
        elif verb == "pl":
            await self.step(interaction, attempt_id, puzzle, code, "", hinted=hinted)
        elif verb == "fr":
            await self._from(interaction, attempt_id, puzzle, code, plan, game, picked)
        elif verb == "ht":
            await self.bot.store.mark_hinted(attempt_id)
            await self.step(interaction, attempt_id, puzzle, code, "", hinted=True)
        elif verb == "gu":
            await self._judged(interaction, attempt, puzzle, plan, None)
        elif verb == "sd":
            answer = list(plan)
            if puzzle.game == "sarena":
                answer = [{"type": "move", "from": code, "to": picked}]
            elif game.result() is None and game.to_move == puzzle.seat:
                answer.append({"type": "end_turn"})
            verdict = await self._judge(interaction, puzzle, answer)
            if verdict["status"] == "incomplete":
                await self.step(interaction, attempt_id, puzzle, code, "", hinted=hinted)
            elif verdict["status"] == "illegal":
                await self.step(interaction, attempt_id, puzzle, "",
                                "⚠️ " + t("puzzle.illegal", locale), hinted=hinted)
            else:
                await self._judged(interaction, attempt, puzzle,
                                   [a for a in answer if a["type"] != "end_turn"], verdict)
        else:
            await self.step(interaction, attempt_id, puzzle, code, "", hinted=hinted)

    async def typed(self, interaction: discord.Interaction, notation: str) -> None:
        """``/puzzle answer``: the newest open puzzle answered in notation (Sensei: a turn,
        ``c2-c5 *d1-c5``; Sàréná: a move, ``c3-c4``), judged like the buttons' answer."""
        locale = str(interaction.locale)
        self.interaction = interaction
        attempt = await self.bot.store.open_attempt_of(interaction.user.id)
        if attempt is None or attempt.game not in TYPED:
            await ephemeral(interaction, "⚠️ " + t("puzzle.typed.none", locale))
            return
        puzzle = puzzles.Puzzle.from_json(attempt.puzzle)
        try:
            answer = TYPED[attempt.game](notation)
        except IllegalAction as exc:
            await ephemeral(interaction, "⚠️ " + error_text(exc, attempt.game, locale))
            return
        verdict = await self._judge(interaction, puzzle,
                                    answer + ([{"type": "end_turn"}] if attempt.game == "sensei"
                                              else []))
        if verdict["status"] in ("incomplete", "illegal"):
            await ephemeral(interaction, "⚠️ " + t("puzzle.illegal", locale))
            return
        await self._judged(interaction, attempt, puzzle, answer, verdict)

    def _hint_text(self, puzzle: puzzles.Puzzle, locale: str) -> str:
        tip = puzzles.hint(puzzle)
        if puzzle.game == "sensei":
            kind = "character" if tip.get("kind") == "character" else "stone"
            return t(f"puzzle.hint.{kind}", locale, square=tip.get("square", ""))
        if puzzle.game == "sarena":
            return t("puzzle.hint.pile", locale, square=tip.get("square", ""))
        return t("puzzle.hint.switch", locale, seat=int(tip.get("seat", 0)) + 1,
                 card=self._stone(puzzle.position(), int(tip.get("card", 0)), locale))

    async def _after_switch(self, interaction: discord.Interaction, attempt: Any,
                            puzzle: puzzles.Puzzle, code: str,
                            plan: list[dict[str, Any]]) -> None:
        """Narabi: each switch is judged as it is made (par still in reach or not)."""
        verdict = await self._judge(interaction, puzzle, plan)
        if verdict["status"] == "incomplete":
            await self.step(interaction, attempt.id, puzzle, code, "", hinted=attempt.hinted)
        else:
            await self._judged(interaction, attempt, puzzle, plan, verdict)

    async def _judge(self, interaction: discord.Interaction, puzzle: puzzles.Puzzle,
                     actions: list[dict[str, Any]]) -> dict[str, Any]:
        """The verdict, from the think pool. A judgement queued behind busy searches must not
        cost the click its answer: past JUDGE_WAIT the click is deferred, then answered."""
        pool = getattr(self.bot, "pool", None)
        if pool is not None:
            work = pool.call("bot.runtime.puzzles:judge", puzzle.to_json(), actions)
        else:
            from bot.runtime.puzzles import judge

            work = asyncio.get_running_loop().run_in_executor(
                None, judge, puzzle.to_json(), actions)
        judging = asyncio.ensure_future(work)
        await asyncio.wait({judging}, timeout=JUDGE_WAIT)
        if not judging.done() and not interaction.response.is_done():
            await interaction.response.defer()
        return await judging

    async def _from(self, interaction: discord.Interaction, attempt_id: int,
                    puzzle: puzzles.Puzzle, code: str, plan: list[dict[str, Any]], game: Any,
                    picked: str) -> None:
        """A piece, pile or card picked: a button per place it may go."""
        locale = str(interaction.locale)
        if puzzle.game == "sensei":
            moves, text, choice = target_buttons(
                game, puzzle.seat, picked,
                lambda action: pz(attempt_id, "pl", encode_plan([*plan, action])), locale)
        elif puzzle.game == "sarena":
            frm = code
            targets = [a["to"] for a in game.legal_actions(game.to_move) if a["from"] == frm]
            text = t("puzzle.sarena.to", locale, square=frm)
            moves = [button(pz(attempt_id, "sd", f"{frm}.{to}"), to) for to in targets]
            choice = {"from": frm, "to": targets}
        else:
            card = int(picked) if picked.isdigit() else -1
            targets = [a["target"] for a in game.legal_actions(game.to_move) if a["card"] == card]
            text = t("puzzle.narabi.target", locale, card=self._stone(game, card, locale))
            moves = [button(pz(attempt_id, "pl", encode_switches(
                [*plan, {"type": "switch", "card": card, "target": target}])),
                self._stone(game, target, locale)) for target in targets]
            choice = {"card": card, "targets": targets}
        if not moves:
            await self.step(interaction, attempt_id, puzzle, code, "")
            return
        back = button(pz(attempt_id, "pl", "" if puzzle.game == "sarena" else code),
                      t("button.back", locale), row=LAST_ROW)
        await self._send(interaction, text, view_of(*moves[:24], back),
                         await self._picture(puzzle, game, locale, choice))

    def _next(self, attempt_id: int, locale: str) -> ui.Button:
        return button(pz(attempt_id, "nx"), t("puzzle.button.next", locale),
                      style=discord.ButtonStyle.primary, emoji="🧩")

    async def _judged(self, interaction: discord.Interaction, attempt: Any,
                      puzzle: puzzles.Puzzle, plan: list[dict[str, Any]],
                      verdict: dict[str, Any] | None) -> None:
        """Solved, wrong or given up. The first answer moves the rating, once; a wrong first
        answer then gets a second try (an attempt of its own, unrated), showing the reply
        that refutes it. The solution is shown only once no try is left."""
        locale = str(interaction.locale)
        solved = verdict is not None and verdict["status"] == "solved"
        second = attempt.retry_of is not None
        if second:
            moved: Any = await self.bot.store.close_unrated(attempt.id, solved)
        else:
            moved = await self.bot.store.finish_attempt(attempt.id, solved, puzzle_rating.rate)
        if not moved:
            await self._send(interaction, t("puzzle.already_done", locale),
                             view_of(self._next(attempt.id, locale)), None)
            return
        said = self._answer_text(puzzle, plan, locale)
        lines = []
        if solved:
            lines.append("🎉 " + md("puzzle.solved.second" if second else "puzzle.solved",
                                    locale, turn=said))
        elif verdict is None:
            lines.append(t("puzzle.given_up", locale))
        else:
            lines.append("❌ " + self._wrong_text(puzzle, said, verdict, locale))
        if second:
            lines.append(t("puzzle.rating.unchanged", locale))
        else:
            lines.append(rating_text(*moved, locale))
        if not solved and verdict is not None and not second:
            retry = await self.bot.store.open_attempt(attempt.user_id, attempt.game,
                                                      puzzle.to_json(), retry_of=attempt.id)
            lines.append(t("puzzle.retry", locale))
            view = view_of(button(pz(retry, "pl"), t("puzzle.button.retry", locale),
                                  style=discord.ButtonStyle.primary, emoji="🔁"),
                           button(pz(retry, "gu"), t("puzzle.button.give_up", locale),
                                  emoji="🏳️"))
            shown = self._refuted(puzzle, plan, verdict)
            await self._send(interaction, "\n".join(lines), view,
                             await self._picture(puzzle, shown, locale))
            return
        if not solved:
            lines.append(t("puzzle.solution", locale,
                           turn=self._answer_text(puzzle, puzzle.solution, locale)))
        final = self._played(puzzle, plan if solved else puzzle.solution)
        view = final.public_view()
        if not solved and puzzle.game != "narabi":
            # Played here only to be shown: the picture names it the solution, not a last turn.
            view = dict(self._ended(puzzle, final).public_view(), solution=True)
        await self._send(interaction, "\n".join(lines), view_of(self._next(attempt.id, locale)),
                         await self._picture_of(puzzle, final, view, locale))

    def _wrong_text(self, puzzle: puzzles.Puzzle, said: str, verdict: dict[str, Any],
                    locale: str) -> str:
        reason = verdict.get("reason") or "no_win_after_reply"
        refutation = verdict.get("refutation") or []
        if refutation and refutation[0].get("type") == "world":
            reply = world_text(refutation[0], locale)
        else:
            reply = self._answer_text(puzzle, refutation, locale) or "—"
        return t(f"puzzle.wrong.{reason}", locale, turn=said, reply=reply)

    def _refuted(self, puzzle: puzzles.Puzzle, plan: list[dict[str, Any]],
                 verdict: dict[str, Any]) -> Any:
        """The wrong answer played, then (Sensei) the reply that refutes it, drawn as the
        opponent's last turn."""
        game = self._ended(puzzle, self._played(puzzle, plan))
        if puzzle.game != "sensei" or game.result() is not None:
            return game
        reply = [a for a in verdict.get("refutation") or [] if a.get("type") != "world"]
        try:
            for action in reply:
                game.apply(1 - puzzle.seat, action)
            if game.result() is None and game.to_move == 1 - puzzle.seat:
                game.apply(1 - puzzle.seat, {"type": "end_turn"})
        except IllegalAction:
            return self._ended(puzzle, self._played(puzzle, plan))
        return game

    @staticmethod
    def _ended(puzzle: puzzles.Puzzle, game: Any) -> Any:
        """A Sensei turn closed, so the picture draws it as a whole turn."""
        if puzzle.game == "sensei" and game.result() is None and game.to_move == puzzle.seat \
                and game.current:
            game.apply(puzzle.seat, {"type": "end_turn"})
        return game

    async def _picture_of(self, puzzle: puzzles.Puzzle, game: Any, view: dict[str, Any],
                          locale: str) -> Picture:
        names = self._names(puzzle, game, locale)
        cog = self.bot.router.cog(puzzle.game)
        if cog is not None:
            drawing = cog.draw(cog.renderer_name, cog.render, view, names, locale)  # type: ignore[attr-defined]
        else:
            renderer = {"sensei": render_sensei, "narabi": render_narabi,
                        "sarena": render_sarena}[puzzle.game]
            drawing = asyncio.get_running_loop().run_in_executor(
                None, renderer, view, names, locale)
        png = await (in_time(self.interaction, drawing) if self.interaction is not None
                     else drawing)
        return Picture(png, describe(puzzle.game, view, names, locale))
