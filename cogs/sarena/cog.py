"""/sarena: lobby, secret colours, moving a pile in three taps (Move → pile → direction).

Nothing public may tell who owns which colour, nor show a chip face that has never been up:
everything shown to the table is built from ``public_view``; the colour of a seat is read
only for the "My colour" answer, the DM at start and the reveal at the end.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Mapping

import discord
from discord import app_commands

from bot.games import IllegalAction
from bot.games.sarena import parse_move
from bot.games.sarena.board import SIZE, SQUARE_INDEX
from bot.games.sarena.chips import COLOURS
from bot.i18n import t
from bot.markdown import md
from bot.ui.translator import command_name, command_text, named_options
from bot.domain.tables import LiveTable, Outcome, TableError
from bot.ui.gamecog import GameCog
from bot.ui.lobby import AI_CHOICES
from bot.ui.replies import ephemeral, refuse
from bot.ui.routing import BUTTON_GRID, Choice, Route, button, choice_items, chosen, view_of
from render.sarena import render as render_board


COLOUR_MARK = {"white": "⚪", "black": "⚫", "red": "🔴", "yellow": "🟡"}
# Row 1 is drawn at the bottom of the picture, so a step to a higher row points up.
ARROWS = {(0, 1): "⬆️", (-1, 0): "⬅️", (1, 0): "➡️", (0, -1): "⬇️"}
DIRECTION_ORDER = tuple(ARROWS)
# Discord enforces it in the client; the refusal quotes the input, so it must stay short.
MOVE_TEXT_MAX = 20
ROW_GROUPS = ((1, 2, 3), (4, 5, 6))  # how the piles are split when one step cannot hold them


def _xy(square: str) -> tuple[int, int]:
    return SQUARE_INDEX[square] % SIZE, SQUARE_INDEX[square] // SIZE


def _step(src: str, dst: str) -> tuple[int, int]:
    (x0, y0), (x1, y1) = _xy(src), _xy(dst)
    return x1 - x0, y1 - y0


def _groups(movable: list[str]) -> list[list[str]]:
    """The piles each Move button of the board offers: all of them while they fit in one step
    as buttons; else (up to 36 early in a game) rows 1–3 and rows 4–6, 18 piles at most each,
    behind a Move button each, so that every move stays three taps."""
    if len(movable) <= BUTTON_GRID:
        return [movable]
    return [[s for s in movable if int(s[1]) in rows] for rows in ROW_GROUPS]


class SarenaCog(GameCog, group_name="sarena", group_description=command_text("cmd.sarena.description")):
    game_key = "sarena"
    renderer = staticmethod(render_board)
    private_button = "sarena.button.mine"

    # == commands ==========================================================================

    @app_commands.command(name=command_name("start"), description=command_text("cmd.start.description"))
    @app_commands.describe(fair=command_text("cmd.sarena.fair"), ai=command_text("cmd.option.ai"),
                           players=command_text("cmd.option.players"))
    @app_commands.choices(ai=AI_CHOICES)
    @named_options
    async def start_command(self, interaction: discord.Interaction, fair: bool = False,
                            ai: str | None = None,
                            players: app_commands.Range[int, 2, 4] | None = None) -> None:
        await self.open_with_ai(interaction, {"fair": fair}, ai, players)

    @app_commands.command(name=command_name("move"), description=command_text("cmd.sarena.move.description"))
    @app_commands.describe(move=command_text("cmd.sarena.move.notation"))
    @named_options
    async def move_command(self, interaction: discord.Interaction,
                           move: app_commands.Range[str, 1, MOVE_TEXT_MAX]) -> None:
        try:
            live = await self.table_here(interaction)
            action = parse_move(move)
        except (TableError, IllegalAction) as exc:
            await refuse(interaction, exc, self.game_key)
            return
        outcome = await self.perform(interaction, live.id, action, live.row.version)
        if outcome is None:
            return
        await ephemeral(interaction, self._done_text(outcome, str(interaction.locale)))
        await self.publish(outcome)

    # == how things read ===================================================================

    def options_text(self, options: Mapping[str, Any], locale: str) -> str:
        return t("sarena.option.fair_on" if options.get("fair") else "sarena.option.fair_off", locale)

    @staticmethod
    def colour(name: str, locale: str) -> str:
        return f"{COLOUR_MARK.get(name, '')} {t(f'sarena.colour.{name}', locale)}"

    def lesson(self):
        from .lesson import lesson

        return lesson()

    def status_text(self, live: LiveTable, locale: str) -> str:
        view = self.game(live).public_view()
        lines = [t("sarena.status", locale, move=view["move"],
                   player=self.mention(live, view["to_move"]), movable=len(view["movable"]))]
        last = view["last_move"]
        if last:
            key = "sarena.status.last_flip" if last["flipped"] else "sarena.status.last"
            lines.append(md(key, locale, player=self.name(live, last["seat"]),
                            **{"from": last["from"], "to": last["to"]}))
        if view["resigned"]:
            lines.append(t("sarena.status.resigned", locale,
                           players=", ".join(self.name(live, s) for s in view["resigned"])))
        return "\n".join(lines)

    def game_components(self, live: LiveTable, locale: str) -> list[discord.ui.Item]:
        groups = _groups(self.game(live).public_view()["movable"])
        labels = ([t("sarena.button.move", locale)] if len(groups) == 1 else
                  [t("sarena.button.move_rows", locale, first=rows[0], last=rows[-1])
                   for rows in ROW_GROUPS])
        return [button(self._move_cid(live, groups, part), label,
                       style=discord.ButtonStyle.primary, emoji="✋")
                for part, label in enumerate(labels)]

    def _move_cid(self, live: LiveTable, groups: list[list[str]], part: int) -> str:
        """The Move step of group ``part`` of the piles; the only group's has no part."""
        parts = (part,) if len(groups) > 1 else ()
        return self.cid(live.id, "move", live.row.version, *parts)

    def describe(self, outcome: Outcome, locale: str) -> str | None:
        live = outcome.table
        for event in outcome.events:
            if event["type"] == "moved":
                key = "sarena.log.flipped" if event["flipped"] else "sarena.log.moved"
                return md(key, locale, player=self.name(live, event["seat"]), to=event["to"],
                          height=event["height"], top=self.colour(event["top"], locale),
                          move=event["move"], **{"from": event["from"]})
            if event["type"] == "resigned":
                return md("sarena.log.resigned", locale, player=self.name(live, event["seat"]))
        return None

    def private_text(self, live: LiveTable, seat: int, view: Mapping[str, Any], locale: str) -> str:
        colour = view.get("colour")
        if colour is None:
            return ""
        lines = [t("sarena.private", locale, table=live.id, colour=self.colour(colour, locale))]
        unused = len(COLOURS) - len(live.row.seats)
        if unused:
            key = "sarena.private.unused_one" if unused == 1 else "sarena.private.unused_many"
            lines.append(t(key, locale, count=unused))
        return "\n".join(lines)

    def result_text(self, live: LiveTable, locale: str) -> str:
        view = self.game(live).public_view()
        result = view["result"]
        lines = [t(f"sarena.end.{result['reason']}", locale),
                 t("sarena.result.moves", locale, moves=view["moves_played"]),
                 t("sarena.result.colours", locale)]
        winners = set(result["winners"])
        for seat, colour in enumerate(result["colours"]):
            score = result["scores"][seat]
            params = dict(player=self.name(live, seat), colour=self.colour(colour, locale),
                          score=score, tiebreak=result["tiebreaks"][seat],
                          star=" 🏆" if seat in winners else "")
            key = "sarena.result.left" if score is None else "sarena.result.line"
            lines.append(t(key, locale, **params))
        names = ", ".join(f"**{self.name(live, s)}**" for s in result["winners"])
        if len(result["winners"]) == 1:
            lines.append(t("sarena.result.winner", locale, player=names))
        elif result["winners"]:
            lines.append(t("sarena.result.shared", locale, players=names))
        unused = [c for c in COLOURS if c not in result["colours"]]
        if unused:
            lines.append(t("sarena.result.unused", locale,
                           colours=", ".join(self.colour(c, locale) for c in unused)))
        return "\n".join(lines)

    # == moving: Move → pile → direction ===================================================

    async def handle(self, interaction: discord.Interaction, route_: Route) -> None:
        handler = {"move": self._move, "pile": self._pile, "go": self._go}.get(route_.verb)
        if handler is None:
            raise TableError("unknown_button")
        await handler(interaction, route_)

    @staticmethod
    def _targets(view: Mapping[str, Any], square: str) -> list[str]:
        targets = [m.split("-")[1] for m in view["legal"] if m.split("-")[0] == square]
        return sorted(targets, key=lambda dst: DIRECTION_ORDER.index(_step(square, dst)))

    async def _move(self, interaction: discord.Interaction, route_: Route) -> None:
        live, game, _ = await self.playing(interaction, route_, my_turn=True)
        locale = str(interaction.locale)
        view = game.public_view()
        groups = _groups(view["movable"])
        part = _part(route_)
        if not 0 <= part < len(groups):
            raise TableError("stale")
        choices = []
        for square in groups[part]:
            circle = view["board"][SQUARE_INDEX[square]]
            choices.append(Choice(square, t("sarena.pile.button", locale, square=square,
                                            height=circle["height"]),
                                  emoji=COLOUR_MARK.get(circle["top"])))
        items = view_of(*choice_items(
            choices, partial(self.cid, live.id, "pile", live.row.version),
            placeholder=t("sarena.move.placeholder", locale)))
        # The piles of this step ringed on the picture, the ones a button can pick.
        await self.show_step(interaction, t("sarena.move.pick", locale, move=view["move"]), items,
                             self.picture(live, dict(view, choice={"to": groups[part]}), locale))

    async def _pile(self, interaction: discord.Interaction, route_: Route) -> None:
        live, game, _ = await self.playing(interaction, route_, my_turn=True)
        locale = str(interaction.locale)
        square = chosen(interaction, route_, 1)
        view = game.public_view()
        if square not in view["movable"]:
            raise TableError("stale")
        circle = view["board"][SQUARE_INDEX[square]]
        version = live.row.version
        buttons = []
        for dst in self._targets(view, square):
            height = view["board"][SQUARE_INDEX[dst]]["height"]
            arrow = ARROWS[_step(square, dst)]
            if height:
                label = t("sarena.dest.onto", locale, to=dst, height=height)
                style = discord.ButtonStyle.primary
            else:
                label = t("sarena.dest.flip", locale, to=dst)
                style = discord.ButtonStyle.success
            buttons.append(button(self.cid(live.id, "go", version, square, dst), label,
                                  style=style, emoji=arrow))
        # Back to the same group of piles the pile was picked from.
        groups = _groups(view["movable"])
        part = next(i for i, group in enumerate(groups) if square in group)
        back = button(self._move_cid(live, groups, part), t("button.back", locale))
        text = t("sarena.move.where", locale, square=square, height=circle["height"],
                 top=self.colour(circle["top"], locale))
        await self.show_step(interaction, text, view_of(*buttons, back), self.picture(
            live, dict(view, choice={"from": square, "to": self._targets(view, square)}), locale))

    async def _go(self, interaction: discord.Interaction, route_: Route) -> None:
        args = route_.args()
        if len(args) != 3:
            raise TableError("unknown_button")
        version = self.version_of(route_)
        action = {"type": "move", "from": args[1], "to": args[2]}
        outcome = await self.perform(interaction, route_.table, action, version, route_)
        if outcome is None:
            return
        await self.show_step(interaction, self._done_text(outcome, str(interaction.locale)), None)
        await self.publish(outcome)

    def _done_text(self, outcome: Outcome, locale: str) -> str:
        event = outcome.events[0]
        return t("sarena.move.done", locale, to=event["to"], move=event["move"],
                 **{"from": event["from"]})


def _part(route_: Route) -> int:
    """Which group of piles a Move button opens (0 when the board has one Move button)."""
    args = route_.args()
    try:
        return int(args[1]) if len(args) > 1 else 0
    except ValueError:
        raise TableError("stale") from None
