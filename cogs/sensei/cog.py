"""/sensei: lobby and challenge, a turn built one action at a time, typed turns, draws."""
from __future__ import annotations

from typing import Any, Mapping

import discord
from discord import app_commands

from bot.games import IllegalAction
from bot.games.sensei import Sensei, check_turn, format_turn, parse_turn
from bot.i18n import t
from bot.ui.translator import command_name, command_text, named_options
from bot.tables import LiveTable, Outcome, TableError
from bot.ui.gamecog import AI_CHOICES, GameCog
from bot.ui.replies import ephemeral, error_text, refuse
from render.sensei import render as render_board
from bot.ui.routing import Route, button, select, view_of

#: the select value standing for the character in the "what moves" step (squares are a1…g7)
CHARACTER = "char"
COLOURS = ("green", "red")
SEAT_MARK = ("🟢", "🔴")
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
                           first=command_text("cmd.sensei.first"))


@app_commands.guild_only()
class SenseiCog(GameCog, group_name="sensei", group_description=command_text("cmd.sensei.description")):
    game_key = "sensei"
    renderer = staticmethod(render_board)

    # == commands ==========================================================================

    @app_commands.command(name=command_name("start"), description=command_text("cmd.start.description"))
    @app_commands.describe(**OPTION_DESCRIPTIONS, ai=command_text("cmd.option.ai"))
    @app_commands.choices(version=VERSION_CHOICES, setup=SETUP_CHOICES, board=BOARD_CHOICES,
                          first=FIRST_CHOICES, ai=AI_CHOICES)
    @app_commands.guild_only()
    @named_options
    async def start_command(self, interaction: discord.Interaction, version: str = "arashi",
                            setup: str = "standard", board: str = "plain",
                            first: str = "random", ai: str | None = None) -> None:
        await self.open_with_ai(interaction, dict(version=version, setup=setup, board=board,
                                                  first=first), ai)

    @app_commands.command(name=command_name("challenge"),
                          description=command_text("cmd.sensei.challenge.description"))
    @app_commands.describe(opponent=command_text("cmd.sensei.challenge.opponent"),
                           **OPTION_DESCRIPTIONS)
    @app_commands.choices(version=VERSION_CHOICES, setup=SETUP_CHOICES, board=BOARD_CHOICES,
                          first=FIRST_CHOICES)
    @app_commands.guild_only()
    @named_options
    async def challenge_command(self, interaction: discord.Interaction, opponent: discord.Member,
                                version: str = "arashi", setup: str = "standard",
                                board: str = "plain", first: str = "random") -> None:
        if opponent.id == interaction.user.id:
            await refuse(interaction, TableError("sensei_self_challenge"), self.game_key)
            return
        if opponent.bot:
            await refuse(interaction, TableError("sensei_bot_challenge"), self.game_key)
            return
        await self.open_lobby(interaction, dict(version=version, setup=setup, board=board,
                                                first=first), invited=opponent)

    @app_commands.command(name=command_name("move"), description=command_text("cmd.sensei.move.description"))
    @app_commands.describe(notation=command_text("cmd.sensei.move.notation"))
    @app_commands.guild_only()
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
        try:
            outcome = await self.tables.act_many(live.id, interaction.user.id, actions,
                                                 expected_version=version, game_key=self.game_key)
        except (TableError, IllegalAction) as exc:
            await ephemeral(interaction, "⚠️ " + self._refusal_text(exc, locale))
            return
        await ephemeral(interaction, t("sensei.move.done", locale, actions=format_turn(actions)))
        await self.publish(outcome)

    def _refusal_text(self, exc: TableError | IllegalAction, locale: str) -> str:
        reason = error_text(exc, self.game_key, locale)
        if isinstance(exc, IllegalAction) and "index" in exc.params:
            return t("sensei.illegal.in_turn", locale, index=exc.params["index"],
                     move=exc.params["move"], reason=reason)
        return reason

    # == how things read ===================================================================

    def options_text(self, options: Mapping[str, Any], locale: str) -> str:
        return "\n".join(
            t("sensei.option.line", locale, name=t(f"sensei.option.{name}", locale),
              value=t(f"sensei.{name}.{options[name]}", locale))
            for name in ("version", "setup", "board", "first") if name in options)

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
            t("sensei.status.turn", locale, turn=game.turn, player=self.mention(live, seat),
              mark=SEAT_MARK[seat], colour=self.colour(seat, locale)),
            t("sensei.status.players", locale, green=self.name(live, 0), red=self.name(live, 1)),
        ]
        if game.current:
            lines.append(t("sensei.status.done", locale, actions=format_turn(game.current)))
        lines.append(self._left_text(game, locale))
        if game.draw_offer is not None:
            lines.append(t("sensei.status.draw_offer", locale,
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
        parts = [t(keys[e["type"]], locale, turn=e["turn"], player=self.name(live, e["seat"]),
                   actions=" ".join(e.get("actions", ())))
                 for e in outcome.events if e["type"] in keys]
        return "\n".join(parts) or None

    def result_text(self, live: LiveTable, locale: str) -> str:
        result = self.game(live).result()
        if result is None:
            return ""
        details = result.details
        params: dict[str, Any] = {"square": details.get("square", ""),
                                  "count": details.get("count", 0)}
        if result.winners:
            winner = result.winners[0]
            params["winner"] = self._named(live, winner, locale)
            params["loser"] = self._named(live, details.get("loser", 1 - winner), locale)
        lines = [t(f"sensei.end.{result.reason}", locale, **params)]
        if result.reason == "barrier":
            lines.append(t("sensei.result.barrier", locale,
                           barrier=" ".join(details.get("barrier", ())),
                           touching=" ".join(details.get("touching", ()))))
            if details.get("both"):
                lines.append(t("sensei.result.both_barriers", locale))
        return "\n".join(lines)

    def _named(self, live: LiveTable, seat: int, locale: str) -> str:
        return t("sensei.player", locale, player=self.name(live, seat),
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
        handler = {"move": self._move, "pick": self._pick, "to": self._to, "end": self._end,
                   "undo": self._undo, "offer": self._offer, "accept": self._accept,
                   "decline": self._decline}.get(route_.verb)
        if handler is None:
            raise TableError("unknown_button")
        await handler(interaction, route_)

    def _step(self, live: LiveTable, game: Sensei, seat: int, locale: str
              ) -> tuple[str, discord.ui.View | None]:
        """What the player to move sees next: what is done, what is left, what can move."""
        tid, version = live.id, live.row.version
        lines = [t("sensei.step.title", locale, turn=game.turn, mark=SEAT_MARK[seat],
                   colour=self.colour(seat, locale))]
        if game.current:
            lines.append(t("sensei.status.done", locale, actions=format_turn(game.current)))
        lines.append(self._left_text(game, locale))
        stones = game.movable_stones(seat)
        options = [discord.SelectOption(label=t("sensei.step.stone_option", locale, square=sq),
                                        value=sq, emoji=SEAT_MARK[seat]) for sq in stones]
        jumps = bool(game.character_targets(seat))
        if jumps:
            at = game.public_view()["characters"][seat]
            options.append(discord.SelectOption(
                label=t("sensei.step.character_option", locale, square=at), value=CHARACTER,
                emoji="⛩️"))
        pick = None
        if options:
            key = ("sensei.step.pick" if stones and jumps else
                   "sensei.step.pick_stone" if stones else "sensei.step.pick_character")
            lines.append(t(key, locale))
            pick = select(self.cid(tid, "pick", version), options,
                          placeholder=t("sensei.step.pick_placeholder", locale))
        else:
            lines.append(t("sensei.step.nothing_movable", locale))
        undo = None
        if game.current:
            undo = button(self.cid(tid, "undo", version), t("sensei.button.undo", locale),
                          emoji="↩️")
        end = button(self.cid(tid, "end", version), t("sensei.button.end_turn", locale),
                     style=discord.ButtonStyle.success, disabled=not game.current)
        return "\n".join(lines), view_of(pick, end, undo)

    async def _move(self, interaction: discord.Interaction, route_: Route) -> None:
        live, game, seat = await self.playing(interaction, route_, my_turn=True)
        await self.show_step(interaction, *self._step(live, game, seat, str(interaction.locale)))

    async def _pick(self, interaction: discord.Interaction, route_: Route) -> None:
        live, game, seat = await self.playing(interaction, route_, my_turn=True)
        locale = str(interaction.locale)
        picked = _value(interaction)
        if picked == CHARACTER:
            frm = game.public_view()["characters"][seat]
            kind, targets = "c", game.character_targets(seat)
            text = t("sensei.step.character_to", locale, square=frm)
        else:
            frm = picked
            kind, targets = "s", game.stone_destinations(seat, picked)
            text = t("sensei.step.stone_to", locale, square=frm)
        if not targets:
            # Only a forged value or a position changed under an old menu gets here.
            raise TableError("stale")
        options = [discord.SelectOption(label=square, value=square) for square in targets]
        await self.show_step(interaction, text, view_of(
            select(self.cid(live.id, "to", live.row.version, kind, frm), options,
                   placeholder=t("sensei.step.to_placeholder", locale)),
            button(self.cid(live.id, "move", live.row.version), t("button.back", locale))))

    async def _to(self, interaction: discord.Interaction, route_: Route) -> None:
        args = route_.args()
        if len(args) != 3 or args[1] not in ("s", "c"):
            raise TableError("stale")
        kind = "stone" if args[1] == "s" else "character"
        action = {"type": kind, "from": args[2], "to": _value(interaction)}
        await self._act(interaction, route_, action)

    async def _end(self, interaction: discord.Interaction, route_: Route) -> None:
        await self._act(interaction, route_, {"type": "end_turn"})

    async def _undo(self, interaction: discord.Interaction, route_: Route) -> None:
        await self._act(interaction, route_, {"type": "undo"})

    async def _act(self, interaction: discord.Interaction, route_: Route,
                   action: dict[str, Any]) -> None:
        """Apply one action of the turn, then show the player the next step, then the table."""
        outcome = await self.perform(interaction, route_.table, action, self.version_of(route_),
                                     route_)
        if outcome is None:
            return
        locale = str(interaction.locale)
        live, game, seat = outcome.table, outcome.table.game, outcome.seat
        assert isinstance(game, Sensei)
        done = [e for e in outcome.events
                if e["type"] in ("stone_moved", "character_moved", "undone", "turn_ended")]
        lines = []
        for event in done:
            if event["type"] == "turn_ended":
                lines.append(t("sensei.step.turn_played", locale, turn=event["turn"],
                               actions=" ".join(event["actions"])))
            elif event["type"] == "undone":
                lines.append(t("sensei.step.undone", locale, action=event["notation"]))
        view = None
        # The turn goes on, or a new one starts at once when the opponent had to pass.
        if game.to_move == seat:
            text, view = self._step(live, game, seat, locale)
            lines.append(text)
        await self.show_step(interaction, "\n".join(lines), view)
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


def _value(interaction: discord.Interaction) -> str:
    values = (interaction.data or {}).get("values") or []
    if not values or not isinstance(values[0], str):
        raise TableError("stale")
    return values[0]
