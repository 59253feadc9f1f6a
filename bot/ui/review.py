"""The review viewer: a finished game's stored review, privately, page by page.

Page 0 sums up each player (faults and accuracy); page n shows turn n: its mover, its grade,
the mover's winning chances before and after it, the better turn where it was a fault, and a
picture of the position before it with the turn played and the better turn drawn as arrows.
The picture is the replay's (``GameCog.replay_view``): it shows only what the game showed, and
what its end revealed.

Buttons are ``<game>:<table>:review:<page>.<tag>`` (routed by the Router like every game
button); the tag keeps the buttons of one message apart and says where a click came from:
FROM_BOARD and FROM_REPLAY open a new private message (the replay's button opens the turn of
the replay's move, its ``page`` being that move's number), the others edit the viewer.
"""
from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import discord

from ..games import review as grading
from ..i18n import t
from ..markdown import escape, md
from ..runtime.reviews import has_review
from .limits import CONTENT, clip
from .pictures import upload
from .places import played_here
from .replies import ephemeral, update_message
from .routing import Route, button, route, view_of

if TYPE_CHECKING:
    from ..domain.tables import LiveTable

log = logging.getLogger(__name__)

VERB = "review"
SUMMARY, PREVIOUS, NEXT, NEXT_FAULT, LAST = 0, 1, 2, 3, 4
FROM_REPLAY, FROM_BOARD = 8, 9
TAGS = (SUMMARY, PREVIOUS, NEXT, NEXT_FAULT, LAST, FROM_REPLAY, FROM_BOARD)
REVIEW_FILE = "review.png"
#: the grades' marks, as chess writes them
MARKS = {"best": "✅", "good": "👍", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
NO_MENTIONS = discord.AllowedMentions.none()


def review_button(game: str, table_id: int, locale: Any, *, replay_step: int | None = None
                  ) -> discord.ui.Button | None:
    """The Review button of a finished board, or of the replay viewer at ``replay_step``;
    None for a game that has no review (a cooperative one)."""
    if not has_review(game):
        return None
    if replay_step is None:
        custom_id = route(game, table_id, VERB, 0, FROM_BOARD)
    else:
        custom_id = route(game, table_id, VERB, replay_step, FROM_REPLAY)
    return button(custom_id, t("button.review", locale), emoji="🔍")


def notation(game: str, actions: Sequence[Mapping[str, Any]]) -> str:
    """A turn in the game's own notation (``c2-c5 *d1-f3``, ``c3-c4``)."""
    moves = [a for a in actions if isinstance(a, Mapping) and "from" in a and "to" in a]
    if not moves:
        return "—"
    try:
        module = importlib.import_module(f"bot.games.{game}.notation")
        if hasattr(module, "format_turn"):
            return module.format_turn(moves)
        return " ".join(module.format_move(a) for a in moves)
    except Exception:  # a game without notation, or an odd action: plain squares
        return " ".join(f"{a['from']}-{a['to']}" for a in moves)


def percent(value: float, locale: Any) -> str:
    return t("review.percent", locale, value=round(value * 100))


def summary_lines(body: Mapping[str, Any], names: Sequence[str], locale: Any) -> list[str]:
    """One line per player: their faults and accuracy."""
    lines = []
    for row in body.get("players", ()):
        seat = int(row["seat"])
        name = escape(names[seat]) if seat < len(names) else f"#{seat + 1}"
        faults = [t(f"review.count.{kind}", locale, count=int(row[kind]))
                  for kind in reversed(grading.FAULTS) if row.get(kind)]
        if not row.get("turns"):
            lines.append(t("review.player.none", locale, player=name))
            continue
        text = ", ".join(faults) if faults else t("review.no_faults", locale)
        lines.append(t("review.player", locale, player=name, faults=text,
                       accuracy=t("review.percent", locale,
                                                 value=round(float(row["accuracy"])))))
    return lines


def next_fault(turns: Sequence[grading.TurnReview], page: int) -> int | None:
    """The page of the first fault after ``page`` (turn n is page n)."""
    for index in range(page, len(turns)):
        if turns[index].grade in grading.FAULTS:
            return index + 1
    return None


def page_of_step(turns: Sequence[grading.TurnReview], step: int) -> int:
    """The page of the turn holding the replay's move ``step`` (1-based; 0: the summary)."""
    for index, turn in enumerate(turns):
        if turn.first < step <= turn.first + turn.count:
            return index + 1
    return 0


def controls(game: str, table_id: int, page: int, turns: Sequence[grading.TurnReview],
             locale: Any) -> discord.ui.View:
    total = len(turns)
    fault = next_fault(turns, page)

    def cid(target: int, tag: int) -> str:
        return route(game, table_id, VERB, max(0, min(target, total)), tag)

    return view_of(
        button(cid(0, SUMMARY), t("review.button.summary", locale), emoji="📋",
               disabled=page == 0),
        button(cid(page - 1, PREVIOUS), "", emoji="◀", disabled=page == 0),
        button(cid(page + 1, NEXT), "", emoji="▶", disabled=page >= total),
        button(cid(fault or 0, NEXT_FAULT), t("review.button.next_fault", locale), emoji="⏭",
               disabled=fault is None))


def turn_text(game: str, turn: grading.TurnReview, names: Sequence[str], locale: Any) -> str:
    name = escape(names[turn.seat]) if turn.seat < len(names) else "?"
    lines = [t("review.turn.grade", locale, player=name, mark=MARKS.get(turn.grade, ""),
               grade=t(f"review.grade.{turn.grade}", locale)),
             t("review.turn.chances", locale, before=percent(turn.best, locale),
               after=percent(turn.value, locale)),
             md("review.turn.played", locale, turn=notation(game, turn.played))]
    if turn.better:
        lines.append(md("review.turn.better", locale, turn=notation(game, turn.better)))
        lines.append(t("review.legend.both", locale))
    else:
        lines.append(t("review.legend.played", locale))
    return "\n".join(lines)


class ReviewViewer:
    """Answers /review and the review buttons for every game (``bot.review_viewer``)."""

    def __init__(self, bot: Any) -> None:
        """``bot``: the TabletopBot (not imported: the client imports this floor)."""
        self.bot = bot

    async def on_click(self, interaction: discord.Interaction, route_: Route) -> None:
        """A review button (the Router sends every ``review`` verb here)."""
        args = route_.args()
        try:
            page, tag = int(args[0]), int(args[1])
        except (IndexError, ValueError):
            page, tag = -1, -1
        if len(args) != 2 or tag not in TAGS or page < 0:
            await ephemeral(interaction, "⚠️ " + t("error.unknown_button", interaction.locale))
            return
        fresh = tag in (FROM_BOARD, FROM_REPLAY)
        await self.show(interaction, route_.table, page, game=route_.game,
                        in_place=not fresh, from_step=tag == FROM_REPLAY)

    async def show(self, interaction: discord.Interaction, table_id: int, page: int = 0, *,
                   game: str | None = None, in_place: bool = False,
                   from_step: bool = False) -> None:
        locale = interaction.locale
        live = await self.bot.tables.with_game(table_id)
        if live is None or (game is not None and live.row.game != game) \
                or not played_here(live.row.guild_id, (live.row.channel_id, live.row.thread_id),
                                   interaction):
            await ephemeral(interaction, "⚠️ " + t("error.no_table", locale))
            return
        cog = self.bot.router.cog(live.row.game)
        if cog is None:
            await ephemeral(interaction, "⚠️ " + t("error.game_unavailable", locale))
            return
        name = t(f"{live.row.game}.name", locale)
        if not has_review(live.row.game):
            await ephemeral(interaction, t("review.none", locale, game=name))
            return
        if live.row.status != "finished" or live.game is None or live.row.seed is None:
            await ephemeral(interaction, t("review.unfinished", locale))
            return
        body = await self.bot.store.review(live.id)
        if body is None or body.get("version") != grading.VERSION:
            self.bot.reviewer.queue(live.id)  # in case it was lost: it is never computed twice
            await ephemeral(interaction, t("review.pending", locale, game=name, table=live.id))
            return
        turns = grading.turns_of(body)
        if from_step:
            page = page_of_step(turns, page)
        page = max(0, min(page, len(turns)))
        await self.answer(interaction, cog, live, body, turns, page,
                          in_place and self._ephemeral_message(interaction))

    @staticmethod
    def _ephemeral_message(interaction: discord.Interaction) -> bool:
        message = interaction.message
        return message is not None and message.flags.ephemeral

    async def answer(self, interaction: discord.Interaction, cog: Any, live: "LiveTable",
                     body: Mapping[str, Any], turns: list[grading.TurnReview], page: int,
                     in_place: bool) -> None:
        locale = interaction.locale
        game, names = live.row.game, live.names()
        title = t("review.title", locale, game=t(f"{game}.name", locale), table=live.id)
        file = None
        if page == 0:
            text = "\n".join([title, *summary_lines(body, names, locale), "",
                              t("review.explain", locale)])
        else:
            turn = turns[page - 1]
            text = (title + " — " + t("review.turn.title", locale, turn=page, total=len(turns))
                    + "\n" + turn_text(game, turn, names, locale))
            # Read to the one who asked, in their language (the reply is theirs alone).
            png = await cog.picture(live, await self.position(cog, live, turn), live.row.locale,
                                    reader=locale)
            file = upload(png, REVIEW_FILE)
        view = controls(game, live.id, page, turns, locale)
        if in_place:
            await update_message(interaction, content=clip(text, CONTENT), view=view,
                                 attachments=[file] if file else [],
                                 allowed_mentions=NO_MENTIONS)
        elif file is not None:
            await interaction.response.send_message(clip(text, CONTENT), view=view, file=file,
                                                    ephemeral=True, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(clip(text, CONTENT), view=view,
                                                    ephemeral=True, allowed_mentions=NO_MENTIONS)

    async def position(self, cog: Any, live: "LiveTable",
                       turn: grading.TurnReview) -> dict[str, Any]:
        """The public picture of the position before ``turn``, as the replay shows it, with
        the turn played and the better one to draw as arrows."""
        log_rows = await self.bot.store.actions(live.id)
        game = live.cls.replay(len(live.row.seats), live.row.options, live.row.seed,
                               log_rows[:turn.first])
        view = dict(cog.replay_view(game, live.game))  # type: ignore[arg-type]
        # The arrows are this turn's: the last turn's marks and any private step are left out.
        for key in ("last_turn", "last_move", "choice"):
            view.pop(key, None)
        view["review"] = {"played": moves_of(turn.played),
                          "better": moves_of(turn.better or [])}
        return view


def moves_of(actions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The moves of a turn the picture draws (from, to and kind only)."""
    return [{"from": str(a["from"]), "to": str(a["to"]), "kind": a.get("type", a.get("kind"))}
            for a in actions if isinstance(a, Mapping) and "from" in a and "to" in a]
