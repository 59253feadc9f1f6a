"""Lessons: a guided first game, played privately in ephemeral messages.

A lesson is a script over the real rules: each step is a position (built by playing scripted
turns from a fresh game), what to read about the rule that matters there, and the turns the
player may choose. A chosen turn is applied by the rules themselves before the lesson moves
on, so a script that drifts from the rules fails loudly (and in the tests). The other side's
turns are scripted too: the lesson always goes where its words say.

Why ephemeral messages rather than a private thread: a lesson then needs no permission to
create threads (many servers deny it), leaves nothing in any channel, and works in any
channel where the command works. What a thread would keep, the store keeps: the step each
person is at, so ``/<game> learn`` after a restart, or days later, continues there. Every
button carries the step it belongs to, and a click on an older step shows the current one.

The buttons are ``learn:<game>:<step>:<what>[:<plan>]``, answered by ``LessonButton`` (a
dynamic item, so they work after a restart): ``n`` next, ``c<i>`` choice i, ``a<i>`` a losing
choice played anyway, ``s`` show the step again, ``q`` leave, ``r`` start over, ``o`` the next
step after an outcome was shown. A game with a ``Planner`` (Sensei) has its turns planned with
the game's own controls, as at a table: ``p`` the plan so far, ``f`` a piece picked, ``d`` the
plan sent (then judged as the choice it equals).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

import discord
from discord import ui

from render.alt import describe

from ..games import Game, IllegalAction
from ..i18n import t
from ..markdown import md
from .pictures import Picture
from .replies import ephemeral, error_text, in_time, private_step
from .routing import button, view_of

PATTERN = (r"learn:(?P<game>[a-z][a-z0-9_]{1,15}):(?P<step>[0-9]{1,3}):(?P<what>[a-z][0-9]{0,2})"
           r"(?::(?P<arg>[A-Za-z0-9_.\-]{0,60}))?")
LESSON_FILE = "lesson.png"


class Planner(Protocol):
    """A game's own controls for planning a turn (Sensei: a piece, then where it goes), given
    by its cog so that a lesson's buttons are the game's buttons. ``send`` and ``undo``: the
    catalog keys of the game's Send and Undo buttons; ``ready`` and ``ready_win``: what its
    menu says when a planned turn can take no more (and wins)."""

    send: str
    undo: str
    ready: str
    ready_win: str

    def encode(self, plan: Sequence[Mapping[str, Any]]) -> str: ...

    def decode(self, code: str) -> list[dict[str, Any]]: ...

    def pieces(self, game: Game, seat: int, picked: Callable[[str], str],
               locale: str) -> tuple[list[ui.Item], str | None]: ...

    def targets(self, game: Game, seat: int, piece: str,
                planned: Callable[[dict[str, Any]], str], locale: str
                ) -> tuple[list[ui.Item], str, dict[str, Any]]: ...

    def planned(self, plan: Sequence[Mapping[str, Any]], locale: str) -> str: ...


@dataclass(frozen=True)
class Choice:
    """A turn the player may pick: its actions (without the closing end_turn), the catalog key
    of what is said when it is picked, and whether it is the lesson's way on."""
    label: str
    actions: tuple[Mapping[str, Any], ...]
    right: bool = True
    said: str | None = None


@dataclass(frozen=True)
class Step:
    """One screen: ``say`` (catalog key) over the position ``position()`` returns, with
    ``seat`` being the player's; ``choices`` (none: a Next button); ``reply`` the other side's
    turn after a right choice (told as notation); ``answered()`` the position after that reply
    when the next step does not start from it: it is drawn, the reply marked as the last
    turn, before the lesson moves on."""
    say: str
    position: Callable[[], Game]
    seat: int = 0
    choices: tuple[Choice, ...] = ()
    reply: str | Callable[[str], str] | None = None
    answered: Callable[[], Game] | None = None
    #: said after ``say`` (catalog key): e.g. how turns are written, the first time one is
    note: str | None = None
    #: values for ``say`` taken from the position (e.g. the player's own cards)
    facts: Callable[[Game, str], dict[str, Any]] | None = None


@dataclass(frozen=True)
class Lesson:
    game: str
    steps: tuple[Step, ...]
    #: the names under the picture, seat by seat
    names: Callable[[str], list[str]] = field(default=lambda locale: [])
    #: what a choice's actions read as in one line (the label is used when None)
    finish_turn: Callable[[Game, int], None] | None = None
    #: why a choice would lose at once (catalog key, values), or None
    loses: Callable[[Game, int, Sequence[Mapping[str, Any]]], tuple[str, dict] | None] | None = None
    #: the game's own controls for a turn; without them each choice is one button
    planner: Planner | None = None


def play_choice(lesson: Lesson, step: Step, choice: Choice) -> Game:
    """The step's position after the choice, by the rules (raises IllegalAction)."""
    game = step.position()
    for action in choice.actions:
        game.apply(step.seat, action)
    if lesson.finish_turn is not None:
        lesson.finish_turn(game, step.seat)
    return game


def cid(game: str, step: int, what: str, arg: str | None = None) -> str:
    return f"learn:{game}:{step}:{what}" + (f":{arg}" if arg is not None else "")


class LessonFlow:
    """Shows the steps of one game's lesson and answers their buttons."""

    def __init__(self, cog: Any, lesson: Lesson) -> None:
        # ``cog``: the game's GameCog (its store, renderer and ``draw``); not imported here,
        # as the GameCog's command imports this module.
        self.cog, self.lesson = cog, lesson
        #: the interaction being answered (a picture slow to draw defers it in time)
        self.interaction: discord.Interaction | None = None

    @property
    def store(self):
        return self.cog.bot.store

    async def begin(self, interaction: discord.Interaction) -> None:
        """``/<game> learn``: the first step, or where the person left off."""
        game, locale = self.lesson.game, str(interaction.locale)
        self.interaction = interaction
        stored = await self.store.lesson_step(interaction.user.id, game)
        if stored is not None and not stored[1] and stored[0] > 0:
            step = min(stored[0], len(self.lesson.steps) - 1)
            text = t("learn.resume", locale, step=step + 1, steps=len(self.lesson.steps))
            await ephemeral(interaction, text, view=view_of(
                button(cid(game, step, "s"), t("learn.button.continue", locale),
                       style=discord.ButtonStyle.primary, emoji="▶️"),
                button(cid(game, step, "r"), t("learn.button.restart", locale), emoji="🔁")))
            return
        await self.store.set_lesson_step(interaction.user.id, game, 0)
        await self.show(interaction, 0, "")

    def _header(self, index: int, locale: str) -> str:
        return t("learn.header", locale, game=t(f"{self.lesson.game}.name", locale),
                 step=index + 1, steps=len(self.lesson.steps))

    async def show(self, interaction: discord.Interaction, index: int, before: str,
                   position: Game | None = None) -> None:
        lesson, locale = self.lesson, str(interaction.locale)
        step = lesson.steps[index]
        game = position or step.position()
        facts = step.facts(game, locale) if step.facts else {}
        lines = [line for line in (before, t(step.say, locale, **facts),
                                   t(step.note, locale) if step.note else "") if line]
        items: list[ui.Item] = []
        if step.choices and lesson.planner is not None:
            await self._plan(interaction, index, "", lines=lines)
            return
        if step.choices:
            lines.append(t("learn.choose", locale))
            items += [button(cid(lesson.game, index, f"c{i}"), c.label,
                             style=discord.ButtonStyle.primary) for i, c in enumerate(step.choices)]
        elif index + 1 < len(lesson.steps):
            items.append(button(cid(lesson.game, index, "n"), t("learn.button.next", locale),
                                style=discord.ButtonStyle.primary, emoji="▶️"))
        else:
            items.append(button(cid(lesson.game, index, "n"), t("learn.button.finish", locale),
                                style=discord.ButtonStyle.success, emoji="🎓"))
        items.append(button(cid(lesson.game, index, "q"), t("learn.button.leave", locale),
                            emoji="🚪", row=4))
        await self._send(interaction, "\n\n".join(lines), view_of(*items),
                         await self._picture(game, locale), self._header(index, locale))

    async def _plan(self, interaction: discord.Interaction, index: int, code: str,
                    piece: str | None = None, lines: list[str] | None = None) -> None:
        """The step's turn planned with the game's own buttons, as at a table: the pieces
        that can move, or where ``piece`` may go; then Send turn."""
        lesson, locale = self.lesson, str(interaction.locale)
        planner, step = lesson.planner, lesson.steps[index]
        assert planner is not None
        try:
            plan = planner.decode(code)
            game = step.position()
            for action in plan:
                game.apply(step.seat, action)
        except (IllegalAction, ValueError, LookupError):
            plan, code, piece, game = [], "", None, step.position()
        if lines is None:
            facts = step.facts(game, locale) if step.facts else {}
            lines = [t(step.say, locale, **facts)]
        if plan:
            lines.append(planner.planned(plan, locale))
        choice = None
        g, last = lesson.game, 4
        items: list[ui.Item] = []
        if piece is not None:
            items, text, choice = planner.targets(
                game, step.seat, piece,
                lambda action: cid(g, index, "p", planner.encode([*plan, action])), locale)
        if items:
            lines.append(text)
            items.append(button(cid(g, index, "p", code), t("button.back", locale), row=last))
        else:
            # No piece picked, or one that cannot move (an old or forged button): the pieces.
            choice = None
            open_turn = game.result() is None and game.to_move == step.seat
            items, ask = planner.pieces(game, step.seat,
                                        lambda p: cid(g, index, "f", f"{code}.{p}"), locale) \
                if open_turn else ([], None)
            lines.append(t("learn.plan" if not plan else "learn.plan.send" if open_turn else
                           planner.ready_win if game.result() is not None else planner.ready,
                           locale))
            if ask:
                lines.append(ask)
            items.append(button(cid(g, index, "d", code), t(planner.send, locale),
                                style=discord.ButtonStyle.success, emoji="✅",
                                disabled=not plan, row=last))
            if plan:
                items.append(button(cid(g, index, "p", planner.encode(plan[:-1])),
                                    t(planner.undo, locale), emoji="↩️", row=last))
            items.append(button(cid(g, index, "q"), t("learn.button.leave", locale),
                                emoji="🚪", row=last))
        view = game.public_view()
        await self._send(interaction, "\n\n".join(lines), view_of(*items),
                         await self._picture_view(dict(view, choice=choice) if choice else view,
                                                  locale), self._header(index, locale))

    async def _picture(self, game: Game, locale: str) -> Picture:
        return await self._picture_view(game.public_view(), locale)

    async def _picture_view(self, view: dict[str, Any], locale: str) -> Picture:
        names = self.lesson.names(locale)
        drawing = self.cog.draw(self.cog.renderer_name, self.cog.render, view, names, locale)
        png = await (in_time(self.interaction, drawing) if self.interaction is not None
                     else drawing)
        return Picture(png, describe(self.lesson.game, view, names, locale))

    async def _send(self, interaction: discord.Interaction, text: str,
                    view: ui.View | None, picture: bytes | None, header: str = "") -> None:
        """The header above the picture; the words under it, beside the buttons, so they are
        in view after every click (see ``private_step``)."""
        await private_step(interaction, header, view, picture, LESSON_FILE, below=text)

    async def click(self, interaction: discord.Interaction, index: int, what: str,
                    arg: str = "") -> None:
        lesson, user, locale = self.lesson, interaction.user.id, str(interaction.locale)
        self.interaction = interaction
        last = len(lesson.steps) - 1
        if what == "r":
            await self.store.set_lesson_step(user, lesson.game, 0)
            await self.show(interaction, 0, "")
            return
        stored = await self.store.lesson_step(user, lesson.game)
        current = min(stored[0], last) if stored else 0
        if what == "q":
            await self._send(interaction, t("learn.left", locale, game=lesson.game,
                                            command=t("cmd.name.learn", locale)),
                             view_of(button(cid(lesson.game, current, "s"),
                                            t("learn.button.continue", locale), emoji="▶️")),
                             None)
            return
        if index != current or index > last:
            # An older message of the lesson (or a click already counted): where it stands now.
            await self.show(interaction, current, t("learn.moved_on", locale))
            return
        step = lesson.steps[index]
        if what == "s":
            await self.show(interaction, index, "")
            return
        if what == "n" and not step.choices:
            await self._advance(interaction, index, "")
            return
        if lesson.planner is not None and step.choices and what in ("p", "f", "d"):
            code, _, piece = arg.partition(".")
            if what != "d":
                await self._plan(interaction, index, code, piece if what == "f" else None)
                return
            what = self._sent(index, code)
            if what is None:
                way = next(c for c in step.choices if c.right)
                await self._send(interaction, md("learn.off_script", locale, turn=way.label),
                                 view_of(
                    button(cid(lesson.game, index, "s"), t("learn.button.retry", locale),
                           style=discord.ButtonStyle.primary, emoji="🔁")), None)
                return
        match = re.fullmatch(r"([ca])([0-9]{1,2})", what)
        if match is None or int(match[2]) >= len(step.choices):
            await self.show(interaction, index, "")
            return
        choice = step.choices[int(match[2])]
        if match[1] == "c" and lesson.loses is not None:
            reason = lesson.loses(step.position(), step.seat, choice.actions)
            if reason is not None:
                # The same question a real game asks before such a turn.
                await self._send(interaction, t("warn.loses", locale,
                                                reason=t(reason[0], locale, **reason[1])),
                                 view_of(button(cid(lesson.game, index, f"a{match[2]}"),
                                                t("warn.button.anyway", locale),
                                                style=discord.ButtonStyle.danger, emoji="⚠️"),
                                         button(cid(lesson.game, index, "s"),
                                                t("button.back", locale))),
                                 await self._picture(step.position(), locale))
                return
        said = t(choice.said, locale) if choice.said else ""
        try:
            after = play_choice(lesson, step, choice)
        except IllegalAction as exc:
            # A choice the rules refuse, on purpose: their own reason is the lesson.
            if choice.right:
                raise
            after, refused = step.position(), error_text(exc, lesson.game, locale)
        else:
            refused = ""
        if not choice.right:
            result = after.result()
            lost = result is not None and step.seat not in result.winners
            text = "\n\n".join(x for x in (
                t("learn.lost" if lost else "learn.not_this", locale), refused, said) if x)
            await self._send(interaction, text, view_of(
                button(cid(lesson.game, index, "s"), t("learn.button.retry", locale),
                       style=discord.ButtonStyle.primary, emoji="🔁"),
                button(cid(lesson.game, index, "q"), t("learn.button.leave", locale),
                       emoji="🚪")),
                await self._picture(after, locale))
            return
        before = "✅ " + (said or md("learn.played", locale, turn=choice.label))
        if step.reply:
            reply = step.reply if isinstance(step.reply, str) else step.reply(locale)
            before += "\n" + md("learn.reply", locale, turn=reply)
        await self._advance(interaction, index, before, after, step.answered)

    def _sent(self, index: int, code: str) -> str | None:
        """The choice a planned turn equals (``c<i>``), or None for a turn off the script."""
        planner, step = self.lesson.planner, self.lesson.steps[index]
        assert planner is not None
        try:
            plan = [dict(a) for a in planner.decode(code)]
        except (IllegalAction, ValueError, LookupError):
            return None
        for i, choice in enumerate(step.choices):
            if [dict(a) for a in choice.actions] == plan:
                return f"c{i}"
        return None

    async def _advance(self, interaction: discord.Interaction, index: int, before: str,
                       after: Game | None = None,
                       answered: Callable[[], Game] | None = None) -> None:
        """On to the next step. What just happened is drawn first when the next step starts
        elsewhere: the winning turn, or the position after the other side's reply (its move
        marked as the last turn), with Next."""
        lesson, user, locale = self.lesson, interaction.user.id, str(interaction.locale)
        if index + 1 >= len(lesson.steps):
            await self.store.set_lesson_step(user, lesson.game, index, expected=index,
                                             finished=True)
            text = "\n\n".join(x for x in (before, t(f"learn.{lesson.game}.done", locale)) if x)
            await self._send(interaction, text, None,
                             await self._picture(after, locale) if after is not None else None)
            return
        moved = await self.store.set_lesson_step(user, lesson.game, index + 1, expected=index)
        if not moved:
            stored = await self.store.lesson_step(user, lesson.game)
            await self.show(interaction, min(stored[0] if stored else 0, len(lesson.steps) - 1),
                            t("learn.moved_on", locale))
            return
        shown = answered() if answered is not None else after
        following = lesson.steps[index + 1].position()
        ended = shown is not None and shown.result() is not None
        if shown is not None and (ended or answered is not None) \
                and shown.public_view() != following.public_view():
            await self._send(interaction, before,
                             view_of(button(cid(lesson.game, index + 1, "s"),
                                            t("learn.button.next", locale),
                                            style=discord.ButtonStyle.primary, emoji="▶️")),
                             await self._picture(shown, locale), self._header(index, locale))
            return
        await self.show(interaction, index + 1, before)


class LessonButton(ui.DynamicItem[ui.Button], template=PATTERN):
    """Any button of a lesson, after a restart too: its game's cog answers it."""

    def __init__(self, game: str, step: int, what: str, arg: str | None = None) -> None:
        super().__init__(ui.Button(custom_id=cid(game, step, what, arg)))
        self.game, self.step, self.what, self.arg = game, step, what, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button,
                             match: re.Match[str], /) -> "LessonButton":
        return cls(match["game"], int(match["step"]), match["what"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from .router import answer_errors

        cog = interaction.client.router.cog(self.game)  # type: ignore[attr-defined]
        lesson = getattr(cog, "lesson", None)
        if cog is None or lesson is None:
            await ephemeral(interaction, t("error.unknown_button", interaction.locale))
            return
        await answer_errors(interaction, LessonFlow(cog, lesson()).click(
            interaction, self.step, self.what, self.arg or ""), self.custom_id)
