"""/sensei: lobby and challenge, a turn built one action at a time, typed turns, draws."""
from __future__ import annotations

from typing import Any, Mapping

import discord
from discord import app_commands

from bot.games import IllegalAction
from bot.games.sensei import Sensei, check_turn, format_turn, parse_turn
from bot.i18n import t
from bot.markdown import md
from bot.ui.translator import command_name, command_text, named_options
from bot.domain.tables import LiveTable, Outcome, TableError
from bot.ui.gamecog import GameCog
from bot.ui.lobby import AI_CHOICES
from bot.ui.replies import ephemeral, error_text, refuse
from render.sensei import render as render_board
from .warning import losing_reason, warns
from bot.ui.routing import Route, button, view_of
from .planning import (CHARACTER, SEAT_MARK, decode_plan, encode_plan, piece_buttons,
                       target_buttons)

__all__ = ["CHARACTER", "SEAT_MARK", "LAST_ROW", "SenseiCog", "encode_plan", "decode_plan"]

#: Send, Undo and Back sit on the last row, below the pieces and squares
LAST_ROW = 4
COLOURS = ("green", "red")
#: a whole turn is at most three actions (about 20 characters); Discord enforces this limit
MOVE_TEXT_MAX = 60


def _choices(option: str, values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    # The rules catalog already names every option value for the lobby; the choice names reuse
    # those sentences so a translator writes each of them once.
    return [app_commands.Choice(name=command_text(f"sensei.{option}.{value}"), value=value)
            for value in values]


VERSION_CHOICES = _choices("version", ("arashi", "shizukana"))
SETUP_CHOICES = _choices("setup", ("standard", "crossed"))
BOARD_CHOICES = _choices("board", ("plain", "storm"))
FIRST_CHOICES = _choices("first", ("random", "green", "red"))
OPTION_DESCRIPTIONS = dict(version=command_text("cmd.sensei.version"),
                           setup=command_text("cmd.sensei.setup"),
                           board=command_text("cmd.sensei.board"),
                           first=command_text("cmd.sensei.first"),
                           warn=command_text("cmd.sensei.warn"))


class SenseiCog(GameCog, group_name="sensei", group_description=command_text("cmd.sensei.description")):
    game_key = "sensei"
    renderer = staticmethod(render_board)

    # == commands ==========================================================================

    @app_commands.command(name=command_name("start"), description=command_text("cmd.start.description"))
    @app_commands.describe(**OPTION_DESCRIPTIONS, ai=command_text("cmd.option.ai"))
    @app_commands.choices(version=VERSION_CHOICES, setup=SETUP_CHOICES, board=BOARD_CHOICES,
                          first=FIRST_CHOICES, ai=AI_CHOICES)
    @named_options
    async def start_command(self, interaction: discord.Interaction, version: str = "arashi",
                            setup: str = "standard", board: str = "plain",
                            first: str = "random", ai: str | None = None,
                            warn: bool = False) -> None:
        await self.open_with_ai(interaction, dict(version=version, setup=setup, board=board,
                                                  first=first, **({"warn": True} if warn else {})), ai)

    @app_commands.command(name=command_name("challenge"),
                          description=command_text("cmd.sensei.challenge.description"))
    @app_commands.describe(opponent=command_text("cmd.sensei.challenge.opponent"),
                           **OPTION_DESCRIPTIONS)
    @app_commands.choices(version=VERSION_CHOICES, setup=SETUP_CHOICES, board=BOARD_CHOICES,
                          first=FIRST_CHOICES)
    @named_options
    async def challenge_command(self, interaction: discord.Interaction,
                                # a User where there is no server (a group DM, a DM)
                                opponent: discord.Member | discord.User,
                                version: str = "arashi", setup: str = "standard",
                                board: str = "plain", first: str = "random",
                                warn: bool = False) -> None:
        if opponent.id == interaction.user.id:
            await refuse(interaction, TableError("sensei_self_challenge"), self.game_key)
            return
        if opponent.bot:
            await refuse(interaction, TableError("sensei_bot_challenge"), self.game_key)
            return
        await self.open_lobby(interaction, dict(version=version, setup=setup, board=board,
                                                first=first, **({"warn": True} if warn else {})),
                              invited=opponent)

    @app_commands.command(name=command_name("move"), description=command_text("cmd.sensei.move.description"))
    @app_commands.describe(notation=command_text("cmd.sensei.move.notation"))
    @named_options
    async def move_command(self, interaction: discord.Interaction,
                           notation: app_commands.Range[str, 1, MOVE_TEXT_MAX]) -> None:
        locale = str(interaction.locale)
        try:
            live = await self.table_here(interaction)
            seat = self.seat_or_raise(live, interaction.user.id)
            game = self._sensei(live)
            if game.to_move != seat:
                raise TableError("not_your_turn")
            actions = parse_turn(notation)
            if game.current:
                # A typed turn is a whole turn: it does not silently continue one begun with
                # the buttons.
                raise IllegalAction("turn_started", "this turn was begun with the buttons",
                                    done=format_turn(game.current))
            version = live.row.version
            # Tried on a copy first so the refusal can name the first illegal action.
            events = check_turn(game, seat, actions)
        except (TableError, IllegalAction) as exc:
            await ephemeral(interaction, "⚠️ " + self._refusal_text(exc, locale))
            return
        if not any(e["type"] == "turn_ended" for e in events):
            actions.append({"type": "end_turn"})
        if warns(live):
            found = losing_reason(game, seat, actions)
            if found is not None:
                # Typed turns are asked about too; the button sends the same turn.
                plan = [a for a in actions if a["type"] != "end_turn"]
                reason = t(found[0], locale, **found[1])
                await ephemeral(interaction, t("warn.loses", locale, reason=reason),
                                view=view_of(button(
                                    self.cid(live.id, "sendok", version, encode_plan(plan)),
                                    t("warn.button.anyway", locale),
                                    style=discord.ButtonStyle.danger, emoji="⚠️")))
                return
        try:
            with self.bot.relay.committing(interaction, live.id):
                outcome = await self.tables.act_many(live.id, interaction.user.id, actions,
                                                     expected_version=version,
                                                     game_key=self.game_key)
                # The turn's line, and only it, goes out as this command's follow-up.
                self.bot.relay.remember_move(interaction, live.id, outcome.version)
        except (TableError, IllegalAction) as exc:
            await ephemeral(interaction, "⚠️ " + self._refusal_text(exc, locale))
            return
        await ephemeral(interaction, md("sensei.move.done", locale, actions=format_turn(actions)))
        await self.publish(outcome)

    def _refusal_text(self, exc: TableError | IllegalAction, locale: str) -> str:
        reason = error_text(exc, self.game_key, locale)
        if isinstance(exc, IllegalAction) and "index" in exc.params:
            return md("sensei.illegal.in_turn", locale, index=exc.params["index"],
                     move=exc.params["move"], reason=reason)
        return reason

    def lesson(self):
        from .lesson import lesson

        return lesson()

    # == how things read ===================================================================

    def options_text(self, options: Mapping[str, Any], locale: str) -> str:
        # The warning is shown only when chosen: off, a game against an AI still warns.
        shown = ("version", "setup", "board", "first", *(("warn",) if options.get("warn") else ()))
        return "\n".join(
            t("sensei.option.line", locale, name=t(f"sensei.option.{name}", locale),
              value=t(f"sensei.{name}.{options[name]}", locale))
            for name in shown if name in options)

    def _sensei(self, live: LiveTable) -> Sensei:
        game = live.game
        if live.row.status != "playing" or not isinstance(game, Sensei):
            raise TableError("game_over" if live.row.status == "finished" else "not_running")
        return game

    def colour(self, seat: int, locale: str) -> str:
        return t(f"sensei.colour.{COLOURS[seat]}", locale)

    def _left_text(self, game: Sensei, locale: str) -> str:
        # One sentence per count rather than "move(s)": the catalog has no plural rules.
        return t("sensei.left", locale,
                 stones=t(f"sensei.left.stones.{game.stone_moves_left()}", locale),
                 character=t(f"sensei.left.character.{int(game.character_move_left())}", locale))

    def status_text(self, live: LiveTable, locale: str) -> str:
        game = self.game(live)
        assert isinstance(game, Sensei)
        seat = game.active
        lines = [
            md("sensei.status.turn", locale, turn=game.turn, player=self.mention(live, seat),
              mark=SEAT_MARK[seat], colour=self.colour(seat, locale)),
            md("sensei.status.players", locale, green=self.name(live, 0), red=self.name(live, 1)),
        ]
        if game.current:
            lines.append(md("sensei.status.done", locale, actions=format_turn(game.current)))
        lines.append(self._left_text(game, locale))
        if game.draw_offer is not None:
            lines.append(md("sensei.status.draw_offer", locale,
                           player=self.name(live, game.draw_offer),
                           opponent=self.name(live, 1 - game.draw_offer)))
        return "\n".join(lines)

    def describe(self, outcome: Outcome, locale: str) -> str | None:
        live = outcome.table
        keys = {"turn_ended": "sensei.log.turn_ended", "passed": "sensei.log.passed",
                "resigned": "sensei.log.resigned", "draw_offered": "sensei.log.draw_offered",
                "draw_declined": "sensei.log.draw_declined",
                "draw_accepted": "sensei.log.draw_accepted"}
        # Single stone and character moves and undos are not logged: the board shows them,
        # and the log keeps one line per completed turn.
        parts = [md(keys[e["type"]], locale, turn=e["turn"], player=self.name(live, e["seat"]),
                   actions=" ".join(e.get("actions", ())))
                 for e in outcome.events if e["type"] in keys]
        return "\n".join(parts) or None

    def result_text(self, live: LiveTable, locale: str) -> str:
        result = self.game(live).result()
        if result is None:
            return ""
        details = result.details
        params: dict[str, Any] = {"square": details.get("square", ""),
                                  "count": details.get("count", 0),
                                  "turns": details.get("turns", 0)}
        if result.winners:
            winner = result.winners[0]
            params["winner"] = self._named(live, winner, locale)
            params["loser"] = self._named(live, details.get("loser", 1 - winner), locale)
        lines = [md(f"sensei.end.{result.reason}", locale, **params)]
        if result.reason == "barrier":
            lines.append(md("sensei.result.barrier", locale,
                           barrier=" ".join(details.get("barrier", ())),
                           touching=" ".join(details.get("touching", ()))))
            if details.get("both"):
                lines.append(t("sensei.result.both_barriers", locale))
        return "\n".join(lines)

    def _named(self, live: LiveTable, seat: int, locale: str) -> str:
        return md("sensei.player", locale, player=self.name(live, seat),
                 colour=self.colour(seat, locale))

    # == the board =========================================================================

    def game_components(self, live: LiveTable, locale: str) -> list[discord.ui.Item]:
        game = self.game(live)
        assert isinstance(game, Sensei)
        tid, version = live.id, live.row.version
        items: list[discord.ui.Item] = [
            button(self.cid(tid, "move", version), t("sensei.button.move", locale),
                   style=discord.ButtonStyle.primary, emoji="♟️"),
            button(self.cid(tid, "end", version), t("sensei.button.end_turn", locale),
                   style=discord.ButtonStyle.success, disabled=not game.current),
        ]
        if game.current:
            items.append(button(self.cid(tid, "undo", version), t("sensei.button.undo", locale),
                                emoji="↩️"))
        if game.draw_offer is None:
            items.append(button(self.cid(tid, "offer", version),
                                t("sensei.button.offer_draw", locale), emoji="🤝"))
        else:
            items.append(button(self.cid(tid, "accept", version),
                                t("sensei.button.accept_draw", locale),
                                style=discord.ButtonStyle.success, emoji="🤝"))
            items.append(button(self.cid(tid, "decline", version),
                                t("sensei.button.decline_draw", locale)))
        return items

    # == verbs =============================================================================

    async def handle(self, interaction: discord.Interaction, route_: Route) -> None:
        handler = {"move": self._plan, "plan": self._plan, "from": self._from,
                   "send": self._send, "sendok": self._send, "end": self._end,
                   "undo": self._undo,
                   "offer": self._offer, "accept": self._accept, "agree": self._agree,
                   "decline": self._decline}.get(route_.verb)
        if handler is None:
            raise TableError("unknown_button")
        await handler(interaction, route_)

    # A turn is planned in the player's private menu and sent whole: nothing is played, and the
    # opponent sees nothing, until "Send turn". The plan travels in the buttons' custom_ids
    # (``<version>.<plan>``), so the menu holds no state and survives a restart; every click
    # re-checks it against the stored game.

    def _planned(self, route_: Route, game: Sensei, seat: int) -> tuple[list[dict], Sensei]:
        """The plan a click carries and the game as it would be after it."""
        args = route_.args()
        plan = decode_plan(args[1] if len(args) > 1 else "")
        trial = game.copy()
        # The version was checked: a plan the rules refuse was forged, and is told why.
        for action in plan:
            trial.apply(seat, action)
        return plan, trial

    @staticmethod
    def _turn_open(game: Sensei, trial: Sensei, seat: int) -> bool:
        """Whether the planned turn can take another action (not ended by its third action or
        by a win)."""
        return trial.result() is None and trial.active == seat and trial.turn == game.turn

    def _plan_step(self, live: LiveTable, game: Sensei, seat: int, plan: list[dict],
                   trial: Sensei, locale: str) -> tuple[str, discord.ui.View]:
        """The menu for a plan: what is planned, what is left, a button per piece that can
        still move, then Send turn and Undo."""
        tid, version, code = live.id, live.row.version, encode_plan(plan)
        lines = [md("sensei.step.title", locale, turn=game.turn, mark=SEAT_MARK[seat],
                   colour=self.colour(seat, locale))]
        if game.current:
            lines.append(md("sensei.status.done", locale, actions=format_turn(game.current)))
        if plan:
            lines.append(md("sensei.step.planned", locale, actions=format_turn(plan)))
        items: list[discord.ui.Item] = []
        if self._turn_open(game, trial, seat):
            lines.append(self._left_text(trial, locale))
            pieces, ask = piece_buttons(
                trial, seat, lambda piece: self.cid(tid, "from", version, code, piece), locale)
            items += pieces
            lines.append(ask or t("sensei.step.nothing_movable", locale))
        else:
            wins = trial.result() is not None
            lines.append(t("sensei.step.ready_win" if wins else "sensei.step.ready", locale))
        actions = [button(self.cid(tid, "send", version, code),
                          t("sensei.button.send", locale), style=discord.ButtonStyle.success,
                          disabled=not (plan or game.current), emoji="✅", row=LAST_ROW)]
        if plan:
            actions.append(button(self.cid(tid, "plan", version, encode_plan(plan[:-1])),
                                  t("sensei.button.undo", locale), emoji="↩️", row=LAST_ROW))
        return "\n".join(lines), view_of(*items, *actions)

    async def _plan(self, interaction: discord.Interaction, route_: Route) -> None:
        live, game, seat = await self.playing(interaction, route_, my_turn=True)
        assert isinstance(game, Sensei)
        plan, trial = self._planned(route_, game, seat)
        locale = str(interaction.locale)
        text, view = self._plan_step(live, game, seat, plan, trial, locale)
        await self.show_step(interaction, text, view,
                             self.picture(live, trial.public_view(), locale))

    async def _from(self, interaction: discord.Interaction, route_: Route) -> None:
        """A piece picked: one button per square it may reach, each adding that move to the
        plan (a stone reaches at most 12 squares, a character at most 6 stones)."""
        live, game, seat = await self.playing(interaction, route_, my_turn=True)
        assert isinstance(game, Sensei)
        plan, trial = self._planned(route_, game, seat)
        args = route_.args()
        picked = args[2] if len(args) > 2 else ""
        locale = str(interaction.locale)
        tid, version = live.id, live.row.version
        moves, text, choice = target_buttons(
            trial, seat, picked,
            lambda action: self.cid(tid, "plan", version, encode_plan([*plan, action])), locale)
        if not moves:
            raise TableError("stale")
        back = button(self.cid(tid, "plan", version, encode_plan(plan)), t("button.back", locale),
                      row=LAST_ROW)
        # The picture rings the piece and marks every square it may reach.
        await self.show_step(interaction, text, view_of(*moves, back), self.picture(
            live, dict(trial.public_view(), choice=choice), locale))

    async def _send(self, interaction: discord.Interaction, route_: Route) -> None:
        live, game, seat = await self.playing(interaction, route_, my_turn=True)
        assert isinstance(game, Sensei)
        plan, trial = self._planned(route_, game, seat)
        actions = list(plan)
        if self._turn_open(game, trial, seat):
            actions.append({"type": "end_turn"})
        if route_.verb == "send" and warns(live):
            reason = losing_reason(trial, seat, actions[len(plan):])
            if reason is not None:
                await self._warn(interaction, live, plan, trial, reason)
                return
        outcome = await self.perform_all(interaction, live.id, actions, self.version_of(route_),
                                         route_)
        if outcome is not None:
            await self._after_act(interaction, outcome)

    async def _warn(self, interaction: discord.Interaction, live: LiveTable,
                    plan: list[dict], trial: Sensei, reason: tuple[str, dict[str, Any]]) -> None:
        """Ask before sending a turn the rules would make the sender lose at once. The
        reason names only what the board shows (Sensei hides nothing)."""
        locale = str(interaction.locale)
        tid, version, code = live.id, live.row.version, encode_plan(plan)
        text = t("warn.loses", locale, reason=t(reason[0], locale, **reason[1]))
        view = view_of(
            button(self.cid(tid, "sendok", version, code), t("warn.button.anyway", locale),
                   style=discord.ButtonStyle.danger, emoji="⚠️"),
            button(self.cid(tid, "plan", version, code), t("button.back", locale)))
        await self.show_step(interaction, text, view,
                             self.picture(live, trial.public_view(), locale))

    async def _end(self, interaction: discord.Interaction, route_: Route) -> None:
        await self._act(interaction, route_, {"type": "end_turn"})

    async def _undo(self, interaction: discord.Interaction, route_: Route) -> None:
        await self._act(interaction, route_, {"type": "undo"})

    async def _act(self, interaction: discord.Interaction, route_: Route,
                   action: dict[str, Any]) -> None:
        """End turn or Undo from the board, for a turn begun one action at a time (by an
        earlier version of the bot, which played each action as it was chosen)."""
        outcome = await self.perform(interaction, route_.table, action, self.version_of(route_),
                                     route_)
        if outcome is not None:
            await self._after_act(interaction, outcome)

    async def _after_act(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """Tell the player what was played, show the next plan when it is their turn again
        (the opponent had to pass), then the table."""
        locale = str(interaction.locale)
        live, game, seat = outcome.table, outcome.table.game, outcome.seat
        assert isinstance(game, Sensei)
        lines = []
        for event in outcome.events:
            if event["type"] == "turn_ended":
                lines.append(md("sensei.step.turn_played", locale, turn=event["turn"],
                               actions=" ".join(event["actions"])))
            elif event["type"] == "undone":
                lines.append(md("sensei.step.undone", locale, action=event["notation"]))
        if game.to_move != seat:
            await self.show_step(interaction, "\n".join(lines), None)
        else:
            text, view = self._plan_step(live, game, seat, [], game.copy(), locale)
            await self.show_step(interaction, "\n".join([*lines, text]), view,
                                 self.picture(live, game.public_view(), locale))
        await self.publish(outcome)

    async def _draw_verb(self, interaction: discord.Interaction, route_: Route, action: str,
                         done_key: str) -> None:
        outcome = await self.perform(interaction, route_.table, {"type": action},
                                     self.version_of(route_), route_)
        if outcome is None:
            return
        await ephemeral(interaction, t(done_key, interaction.locale))
        await self.publish(outcome)

    async def _offer(self, interaction: discord.Interaction, route_: Route) -> None:
        await self._draw_verb(interaction, route_, "offer_draw", "sensei.draw.offered")

    async def _accept(self, interaction: discord.Interaction, route_: Route) -> None:
        await self._draw_verb(interaction, route_, "accept_draw", "sensei.draw.accepted")

    async def _decline(self, interaction: discord.Interaction, route_: Route) -> None:
        await self._draw_verb(interaction, route_, "decline_draw", "sensei.draw.declined")

    async def _agree(self, interaction: discord.Interaction, route_: Route) -> None:
        # The regulation's offer (deliver_extra): a draw offer, or its acceptance when the
        # other player agreed first. Any version: the offer stands whatever was played since.
        outcome = await self.perform(interaction, route_.table, {"type": "offer_draw"}, None,
                                     route_)
        if outcome is None:
            return
        done = "sensei.draw.accepted" if outcome.result is not None else "sensei.draw.offered"
        await ephemeral(interaction, t(done, interaction.locale))
        await self.publish(outcome)

    async def deliver_extra(self, live: LiveTable, kind: str, payload: Mapping[str, Any]) -> None:
        if kind != "regulation":
            return await super().deliver_extra(live, kind, payload)
        if live.row.status != "playing":
            return  # ended meanwhile: the offer has nothing left to end
        locale = live.row.locale
        label = t("sensei.button.agree_draw", locale)
        text = md(f"sensei.regulation.{payload['reason']}", locale, button=label,
                  turns=payload.get("turns", 0))
        agree = button(self.cid(live.id, "agree"), label, style=discord.ButtonStyle.success,
                       emoji="🤝")
        await self.post(live, text, view=view_of(agree))

