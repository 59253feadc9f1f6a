"""/narabi: lobby, switching in three taps (Switch → card → target), private cards, asking,
the reveal at the end, the par line in the replay viewer (par_line.py)."""
from __future__ import annotations

import logging
from functools import partial
from typing import Any, Mapping

import discord
from discord import app_commands

from bot.games.ai import seat_view
from bot.runtime.autoplay import think_seed
from bot.games.narabi import Narabi
from bot.games.narabi.ai import answer_question
from bot.i18n import t
from bot.markdown import Markdown, escape, md
from bot.ui.translator import command_name, command_text, named_options
from bot.domain.tables import LiveTable, Outcome, TableError, closed_error
from bot.ui.gamecog import GameCog
from bot.ui.lobby import AI_CHOICES
from bot.ui.limits import BUTTON_LABEL, OPTION_LABEL, clip
from bot.ui.replies import update_message
from bot.ui.routing import Choice, Route, button, choice_items, chosen, select, view_of
from bot.ui.style import NO_MENTIONS
from render.narabi import render as render_board

from .par_line import ParLine

log = logging.getLogger(__name__)

COLOUR_MARK = {"white": "⚪", "dark": "⚫"}
#: seconds an AI teammate waits for a person's answer to its question before it plays anyway
QUESTION_WAIT = 60.0


class NarabiCog(ParLine, GameCog, group_name="narabi", group_description=command_text("cmd.narabi.description")):
    game_key = "narabi"
    renderer = staticmethod(render_board)
    private_button = "narabi.button.mine"

    # == commands ==========================================================================

    @app_commands.command(name=command_name("start"), description=command_text("cmd.start.description"))
    @app_commands.describe(advanced=command_text("cmd.narabi.advanced"),
                           ai=command_text("cmd.option.ai"),
                           players=command_text("cmd.option.players"))
    @app_commands.choices(ai=AI_CHOICES)
    @named_options
    async def start_command(self, interaction: discord.Interaction, advanced: bool = False,
                            ai: str | None = None,
                            players: app_commands.Range[int, 3, 5] | None = None) -> None:
        await self.open_with_ai(interaction, {"advanced": advanced}, ai, players)

    # == how things read ===================================================================

    def options_text(self, options: Mapping[str, Any], locale: str) -> str:
        key = "narabi.option.advanced_on" if options.get("advanced") else "narabi.option.advanced_off"
        return t(key, locale)

    def stone(self, card: Mapping[str, Any], locale: str) -> str:
        mark = COLOUR_MARK.get(card["colour"], "")
        label = str(card["number"]) if card["number"] is not None else t("narabi.blank", locale)
        return f"{mark}{label}"

    def stone_of(self, game: Narabi, card_id: int, locale: str) -> str:
        for row in game.public_view()["rows"]:
            for card in row:
                if card["id"] == card_id:
                    return self.stone(card, locale)
        return "?"

    def condition(self, condition_id: str, locale: str) -> str:
        return t(f"narabi.condition.{condition_id}", locale)

    def held_condition(self, live: LiveTable, seat: int, card: Mapping[str, Any],
                       locale: str) -> Markdown:
        """A card's condition as its holder reads it. "On your left" depends on where one sits
        and the ring picture is seen from above, so a seat condition also names the seat it
        means for this holder (the picture labels seats the same way)."""
        text = self.condition(card["condition"], locale)
        game = self.game(live)
        spec = game.cards.get(card["id"], {}).get("condition", {})
        if spec.get("kind") != "seat":
            return escape(text)
        target = (seat + spec["offset"]) % game.seats
        return md("narabi.condition.seat_named", locale, condition=escape(text),
                  seat=target + 1, player=self.name(live, target))

    def lesson(self):
        from .lesson import lesson

        return lesson(self)

    def status_text(self, live: LiveTable, locale: str) -> str:
        view = self.game(live).public_view()
        text = t("narabi.status", locale, turn=view["turn"], max=view["max_turns"],
                 player=self.mention(live, view["to_move"]))
        if view["advanced"]:
            text += "\n" + t("narabi.status.advanced", locale)
        return text

    def game_components(self, live: LiveTable, locale: str) -> list[discord.ui.Item]:
        version = live.row.version
        items = [button(self.cid(live.id, "switch", version), t("narabi.button.switch", locale),
                        style=discord.ButtonStyle.primary, emoji="🔀")]
        if not live.row.options.get("advanced"):
            items.append(button(self.cid(live.id, "ask", version), t("narabi.button.ask", locale),
                                emoji="❓"))
        return items

    def describe(self, outcome: Outcome, locale: str) -> str | None:
        live = outcome.table
        for event in outcome.events:
            if event["type"] == "switched":
                card = {"number": event["card_number"], "colour": event["card_colour"]}
                target = {"number": event["target_number"], "colour": event["target_colour"]}
                return md("narabi.log.switched", locale, player=self.name(live, event["seat"]),
                          card=self.stone(card, locale), other=self.name(live, event["target_seat"]),
                          target=self.stone(target, locale), turn=event["turn"],
                          max=self.game(live).public_view()["max_turns"])
            if event["type"] == "abandoned":
                return md("narabi.log.abandoned", locale, player=self.name(live, event["seat"]))
        return None

    def private_text(self, live: LiveTable, seat: int, view: Mapping[str, Any], locale: str) -> str:
        lines = [t("narabi.private.title", locale, table=live.id)]
        for i, card in enumerate(view.get("cards", []), start=1):
            lines.append(md("narabi.private.card", locale, position=i, stone=self.stone(card, locale),
                            condition=self.held_condition(live, seat, card, locale)))
        return "\n".join(lines)

    def private_update_text(self, live: LiveTable, seat: int, before: Mapping[str, Any],
                            after: Mapping[str, Any], locale: str) -> str | None:
        old = {c["id"] for c in before.get("cards", [])}
        new = [c for c in after.get("cards", []) if c["id"] not in old]
        if not new:
            return None
        lines = [md("narabi.private.received", locale, table=live.id, stone=self.stone(c, locale),
                    condition=self.held_condition(live, seat, c, locale)) for c in new]
        return "\n".join(lines)

    def result_text(self, live: LiveTable, locale: str) -> str:
        view = self.game(live).public_view()
        result = view["result"]
        details = result["details"]
        params = {"turns": details.get("turns", view["turn"]), "max": view["max_turns"],
                  "rating": t(f"narabi.rating.{details.get('rating', 'horrible')}", locale)}
        if "seat" in details:
            params["player"] = self.name(live, details["seat"])
        lines = [t(f"narabi.end.{result['reason']}", locale, **params)]
        if result["reason"] not in ("solved", "out_of_turns"):
            # Those two say how many switches it took; every other end says it here.
            lines.append(t("narabi.end.summary", locale, **params))
        lines.append(t("narabi.reveal.title", locale))
        for seat, row in enumerate(view["rows"]):
            cards = " · ".join(
                f"{escape(self.stone(c, locale))} {escape(self.condition(c['condition'], locale))}"
                for c in row)
            lines.append(f"**{self.name(live, seat)}**: {cards}")
        return "\n".join(lines)

    async def after_finish(self, live: LiveTable) -> None:
        state = self.game(live).to_json()
        # The par search is pure and CPU-bound: it runs with the AI searches, off the loop.
        found = await self.bot.pool.call("bot.games.narabi.solver:par", state)
        self.remember_par(live.id, found)  # the replay viewer's par line shows it
        if found["best"] is not None:
            await self.bot.store.set_par(live.id, found["best"])  # for players' records
        # "none" is proved (no solution within the turn limit); "unknown" is the search giving up.
        await self.post(live, t(f"narabi.best.{found['status']}", live.row.locale,
                                best=found["best"], limit=found.get("limit", "")))

    # == verbs =============================================================================

    async def handle(self, interaction: discord.Interaction, route_: Route) -> None:
        handler = {"switch": self._switch, "pick": self._pick, "confirm": self._confirm,
                   "ask": self._ask, "askcard": self._ask_card, "askwith": self._ask_with,
                   "answer": self._answer, "par": self._par_line}.get(route_.verb)
        if handler is None:
            raise TableError("unknown_button")  # type: ignore[unreachable]
        await handler(interaction, route_)

    def _card_label(self, game: Narabi, card_id: int, locale: str, owner_of: dict[int, int],
                    live: LiveTable, me: int, room: int = OPTION_LABEL) -> str:
        """"your ⚪7" or "Ana's ⚪7" in ``room`` characters: a long name gives way, not the stone."""
        stone = self.stone_of(game, card_id, locale)
        holder = owner_of[card_id]
        if holder == me:
            return t("narabi.card.mine", locale, stone=stone)
        name = live.row.seats[holder].name
        overflow = len(t("narabi.card.of", locale, player=name, stone=stone)) - room
        return t("narabi.card.of", locale, player=clip(name, len(name) - max(overflow, 0)),
                 stone=stone)

    def _target_label(self, game: Narabi, card_id: int, locale: str, owner_of: dict[int, int],
                      live: LiveTable, me: int) -> str:
        """"Ana's ⚪7 · place 2 of 4 in the row": a button has no description, so the place,
        which tells alike stones apart, ends the label."""
        place = " · " + self.place(game, card_id, locale)
        return self._card_label(game, card_id, locale, owner_of, live, me,
                                BUTTON_LABEL - len(place)) + place

    def _options(self, game: Narabi, ids: list[int], locale: str, owner_of: dict[int, int],
                 live: LiveTable, me: int) -> list[discord.SelectOption]:
        # Two stones can look alike: the place in the row tells every choice apart.
        return [discord.SelectOption(
            label=self._card_label(game, card_id, locale, owner_of, live, me),
            value=str(card_id), description=self.place(game, card_id, locale))
            for card_id in ids]

    @staticmethod
    def place(game: Narabi, card_id: int, locale: str) -> str:
        for row in game.rows:
            if card_id in row:
                return t("narabi.card.place", locale, place=row.index(card_id) + 1,
                         count=len(row))
        return ""

    @staticmethod
    def _owners(game: Narabi) -> dict[int, int]:
        return {c["id"]: seat for seat, row in enumerate(game.public_view()["rows"]) for c in row}

    async def _switch(self, interaction: discord.Interaction, route_: Route) -> None:
        """Step 1 of 2: the clicker's cards, one button each (their conditions are theirs to
        see, listed above the buttons: a button has no room for them)."""
        live, game, seat = await self.playing(interaction, route_, my_turn=True)
        locale = str(interaction.locale)
        playable = {a["card"] for a in game.legal_actions(seat)}
        mine = game.private_view(seat)["cards"]
        lines = [t("narabi.switch.pick", locale)]
        choices = []
        for place, card in enumerate(mine, start=1):
            lines.append(md("narabi.private.card", locale, position=place,
                            stone=self.stone(card, locale),
                            condition=self.held_condition(live, seat, card, locale)))
            note = "" if card["id"] in playable else " " + t("narabi.card.no_target", locale)
            label = f"{self.stone(card, locale)} · {self.place(game, card['id'], locale)}{note}"
            style = (discord.ButtonStyle.primary if card["id"] in playable
                     else discord.ButtonStyle.secondary)
            choices.append(Choice(str(card["id"]), label, style=style))
        await self.show_step(interaction, "\n".join(lines), view_of(*choice_items(
            choices, partial(self.cid, live.id, "pick", live.row.version),
            placeholder=t("narabi.switch.pick_placeholder", locale))),
            self.picture(live, game.public_view(), locale))

    async def _pick(self, interaction: discord.Interaction, route_: Route) -> None:
        """Step 2 of 2: the legal targets of the chosen card, one button each, a click on which
        switches; Back returns to step 1."""
        live, game, seat = await self.playing(interaction, route_)
        locale = str(interaction.locale)
        card = _int_choice(interaction, route_, 1)
        targets = [a["target"] for a in game.legal_actions(seat) if a["card"] == card]
        mine = {c["id"]: c for c in game.private_view(seat)["cards"]}
        if card not in mine:
            raise TableError("stale")
        back = button(self.cid(live.id, "switch", live.row.version), t("button.back", locale))
        header = md("narabi.switch.chosen", locale, stone=self.stone(mine[card], locale),
                    condition=self.held_condition(live, seat, mine[card], locale))
        if not targets:
            await self.show_step(interaction, header + "\n" + t("narabi.switch.no_target", locale),
                                 view_of(back))
            return
        owners = self._owners(game)
        choices = [Choice(str(target),
                          self._target_label(game, target, locale, owners, live, seat),
                          style=discord.ButtonStyle.success) for target in targets]
        view = view_of(*choice_items(
            choices, partial(self.cid, live.id, "confirm", live.row.version, card),
            placeholder=t("narabi.switch.target_placeholder", locale), extra=[back]))
        # The table as everyone sees it, the chosen card and the cards it may take framed.
        await self.show_step(interaction, header + "\n" + t("narabi.switch.target", locale), view,
                             self.picture(live, dict(game.public_view(), choice={
                                 "card": card, "targets": targets}), locale))

    async def _confirm(self, interaction: discord.Interaction, route_: Route) -> None:
        """The switch itself: a target's button (or its select, when the buttons do not fit)."""
        version = self.version_of(route_)
        action = {"type": "switch", "card": _int_arg(route_, 1),
                  "target": _int_choice(interaction, route_, 2)}
        outcome = await self.perform(interaction, route_.table, action, version, route_,
                                     mover_told=True)
        if outcome is None:
            return
        event = outcome.events[0]
        locale = str(interaction.locale)
        done = t("narabi.switch.done", locale, turn=event["turn"]) \
            + self.told_privately(outcome, locale)
        await self.show_step(interaction, done, None)
        await self.publish(outcome)

    # -- asking ----------------------------------------------------------------------------

    def _asking_or_raise(self, live: LiveTable) -> None:
        if not Narabi.asking_allowed_for(live.row.options):
            raise TableError("narabi_no_asking")

    async def _ask(self, interaction: discord.Interaction, route_: Route) -> None:
        live, game, seat = await self.playing(interaction, route_, check_version=False)
        self._asking_or_raise(live)
        locale = str(interaction.locale)
        owners = self._owners(game)
        theirs = [c for c, s in owners.items() if s != seat]
        options = self._options(game, theirs, locale, owners, live, seat)
        await self.show_step(interaction, t("narabi.ask.pick", locale), view_of(
            select(self.cid(live.id, "askcard", live.row.version), options,
                   placeholder=t("narabi.ask.pick_placeholder", locale))))

    async def _ask_card(self, interaction: discord.Interaction, route_: Route) -> None:
        live, game, seat = await self.playing(interaction, route_, check_version=False)
        self._asking_or_raise(live)
        locale = str(interaction.locale)
        card = _int_choice(interaction, route_, 1)
        owners = self._owners(game)
        asked = owners.get(card)
        if asked is None or asked == seat:
            raise TableError("stale")
        others = [c for c, s in owners.items() if s != asked]
        options = self._options(game, others, locale, owners, live, seat)
        text = t("narabi.ask.with", locale, player=self.name(live, asked),
                 stone=self.stone_of(game, card, locale))
        await self.show_step(interaction, text, view_of(
            select(self.cid(live.id, "askwith", live.row.version, card), options,
                   placeholder=t("narabi.ask.with_placeholder", locale)),
            button(self.cid(live.id, "ask", live.row.version), t("button.back", locale))))

    async def _ask_with(self, interaction: discord.Interaction, route_: Route) -> None:
        live, game, seat = await self.playing(interaction, route_, check_version=False)
        self._asking_or_raise(live)
        card, other = _int_arg(route_, 1), _int_choice(interaction, route_, 2)
        owners = self._owners(game)
        asked = owners.get(card)
        if asked is None or asked == seat or owners.get(other) in (None, asked):
            raise TableError("stale")
        question = {"card": card, "other": other}
        # An AI teammate answers at once, truthfully, from its own conditions only.
        answer = (answer_question(seat_view(game, asked), question)
                  if live.row.seats[asked].ai is not None else None)
        # Recorded with its post queued in one commit: the question reaches the thread even
        # if the bot stops right after this click is answered.
        await self.bot.store.add_question(live.id, game.public_view()["turn"], seat, asked,
                                          question, answer)
        await self.show_step(interaction, t("narabi.ask.sent_remote" if live.row.remote
                                            else "narabi.ask.sent", str(interaction.locale)), None)
        self.bot.reconciler.mark(live.id)

    async def deliver_extra(self, live: LiveTable, kind: str, payload: Mapping[str, Any]) -> None:
        if kind != "question":
            return await super().deliver_extra(live, kind, payload)
        question = await self.bot.store.get_question(int(payload["id"]))
        if question is None or live.row.status != "playing":
            return
        locale, qid = live.row.locale, question["id"]
        text = self._question_text(live, self.game(live), question["asker"], question["asked"],
                                   question["payload"]["card"], question["payload"]["other"],
                                   locale)
        if question["answer"] is not None:
            key = "narabi.ask.answer_yes" if question["answer"] else "narabi.ask.answer_no"
            await self.post(live, text + "\n" + t(key, locale,
                                                  player=self.name(live, question["asked"])))
            return
        if live.row.remote:  # no message of its own there: the asked answer privately
            await self.post(live, text + " " + t("narabi.ask.answer_privately", locale,
                                                 asked=self.name(live, question["asked"])),
                            mentions=True)
            return
        await self.post(live, text, mentions=True, view=view_of(
            button(self.cid(live.id, "answer", qid, 1), t("narabi.button.yes", locale),
                   style=discord.ButtonStyle.success),
            button(self.cid(live.id, "answer", qid, 0), t("narabi.button.no", locale),
                   style=discord.ButtonStyle.danger)))

    async def private_questions(self, live: LiveTable, seat: int,
                                locale: str) -> tuple[str, list[discord.ui.Item]]:
        """Where the table is one message, a question is answered from the asked player's
        own "My cards" answer: the latest one of this turn still open for them."""
        if not live.row.remote:
            return "", []
        game = self.game(live)
        turn = game.public_view()["turn"]
        open_ = [q for q in await self.bot.store.questions_of(live.id)
                 if q["asked"] == seat and q["answer"] is None and q["turn"] == turn]
        if not open_:
            return "", []
        q = open_[-1]
        text = t("narabi.ask.for_you", locale) + "\n" + self._question_text(
            live, game, q["asker"], q["asked"], q["card"], q["other"], locale)
        return text, [
            button(self.cid(live.id, "answer", q["id"], 1), t("narabi.button.yes", locale),
                   style=discord.ButtonStyle.success),
            button(self.cid(live.id, "answer", q["id"], 0), t("narabi.button.no", locale),
                   style=discord.ButtonStyle.danger)]

    def _question_text(self, live: LiveTable, game: Narabi, asker: int, asked: int, card: int,
                       other: int, locale: str) -> str:
        owners = self._owners(game)
        holder = owners.get(other)
        other_text = (t("narabi.card.of", locale, player=self.name(live, holder),
                        stone=self.stone_of(game, other, locale)) if holder is not None else "?")
        return t("narabi.ask.question", locale, asker=self.name(live, asker),
                 asked=self.mention(live, asked), stone=self.stone_of(game, card, locale),
                 other=other_text)

    async def _answer(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.live_of(route_)
        seat = self.seat_or_raise(live, interaction.user.id)
        qid, answer = _int_arg(route_, 0), _int_arg(route_, 1)
        question = await self.bot.store.get_question(qid)
        if question is None or question["table_id"] != live.id or answer not in (0, 1):
            raise TableError("unknown_button")  # type: ignore[arg-type]
        if question["asked"] != seat:
            raise TableError("narabi_not_asked")
        if live.row.status != "playing":
            raise closed_error(live.row.status)
        if not await self.bot.store.answer_question(qid, bool(answer)):
            raise TableError("narabi_answered")
        locale = live.row.locale
        key = "narabi.ask.answer_yes" if answer else "narabi.ask.answer_no"
        content = (interaction.message.content if interaction.message else "") + "\n" + t(
            key, locale, player=self.name(live, seat))
        await update_message(interaction, content=content, view=None,
                             allowed_mentions=NO_MENTIONS)
        if live.row.remote:  # the table's one message says it, at its next edit
            await self.bot.store.queue_outbox(live.id, [("question", {"id": qid})])
            self.bot.reconciler.mark(live.id)
        self.bot.autoplayer.poke(live.id)  # an AI teammate may be waiting for this answer

    # -- replays ------------------------------------------------------------------------------

    def replay_view(self, game: Narabi, final: Narabi) -> dict[str, Any]:  # type: ignore[override]
        """Every step of a replay shows the conditions face up: the end revealed them all."""
        view = game.public_view()
        revealed = {c["id"]: c.get("condition") for row in final.public_view()["rows"] for c in row}
        view["rows"] = [[dict(c, condition=revealed.get(c["id"]) or c.get("condition"))
                         for c in row] for row in view["rows"]]
        view["reveal"] = True
        return view

    # -- AI teammates ------------------------------------------------------------------------

    async def ai_prepare(self, live: LiveTable, seat: int, level: str, view: dict[str, Any],
                         think: Any) -> dict[str, Any] | float:
        """Give the AI the table's questions and answers; let it ask one question a turn when
        asking is allowed, and wait a while for a person's answer."""
        questions = await self.bot.store.questions_of(live.id)
        view["questions"] = [{k: q[k] for k in ("turn", "asker", "asked", "card", "other",
                                                "answer")} for q in questions]
        public = view["public"]
        if not public.get("asking_allowed") or level == "easy":
            return view
        mine = [q for q in questions if q["turn"] == public["turn"] and q["asker"] == seat]
        if mine:
            waiting = [q for q in mine if q["answer"] is None]
            if waiting:
                waited = self.bot.store.clock() - waiting[-1]["at"]
                if waited < QUESTION_WAIT:
                    return QUESTION_WAIT - waited
            return view
        seed = think_seed(live.row.seed, live.row.version)
        question = await think("bot.games.ai:choose_question", self.game_key, view, level, seed)
        if question is None:
            return view
        card, other = int(question["card"]), int(question["other"])
        owners = self._owners(self.game(live))
        asked = owners.get(card)
        if asked is None or asked == seat or owners.get(other) in (None, asked):
            return view
        answer = (answer_question(seat_view(self.game(live), asked), question)
                  if live.row.seats[asked].ai is not None else None)
        await self.bot.store.add_question(live.id, public["turn"], seat, asked,
                                          {"card": card, "other": other}, answer)
        self.bot.reconciler.mark(live.id)
        # Asked an AI: answered already, think again at once; asked a person: give them time.
        return 0.0 if answer is not None else QUESTION_WAIT


def _int_choice(interaction: discord.Interaction, route_: Route, index: int) -> int:
    try:
        return int(chosen(interaction, route_, index) or "")
    except ValueError:
        raise TableError("stale") from None


def _int_arg(route_: Route, index: int) -> int:
    try:
        return int(route_.args()[index])
    except (IndexError, ValueError):
        raise TableError("stale") from None
