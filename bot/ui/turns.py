"""A turn as its player clicks through it: which table and seat a click is about, the private
steps of a move (ephemeral messages, each with the position being decided), committing the
action, resigning, and the player's own view of their hand.

Mixed into ``GameCog``; a game's handlers call these (``playing``, ``show_step``, ``perform``,
``publish`` …) rather than the table service, so that every game checks and commits alike."""
from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Mapping

import discord

from ..games import Game, IllegalAction
from ..i18n import t
from ..domain.tables import LiveTable, Outcome, TableError, closed_error
from .host import CogPart
from .limits import CONTENT, clip
from .pictures import upload
from .replies import ephemeral, update_message
from .routing import Route, button, view_of

#: the picture of a private step (a planned move, a choice being made)
STEP_FILE = "step.png"
#: seconds a step waits for its picture before deferring its click (Discord allows three)
STEP_PICTURE_WAIT = 1.5


class TurnMixin(CogPart):
    # == whose table, whose seat ===========================================================

    async def live_of(self, route_: Route) -> LiveTable:
        live = await self.tables.get(route_.table)
        if live is None or live.row.game != self.game_key:
            raise TableError("no_table")
        return live

    async def playing(self, interaction: discord.Interaction, route_: Route, *,
                      check_version: bool = True,
                      my_turn: bool = False) -> tuple[LiveTable, Game, int]:
        """The running table, its game and the clicker's seat, for a click that only looks
        (the action itself is re-validated under the lock by ``perform``)."""
        live = await self.live_of(route_)
        seat = self.seat_or_raise(live, interaction.user.id)
        if live.row.status != "playing" or live.game is None:
            raise closed_error(live.row.status)
        if check_version and self.version_of(route_) != live.row.version:
            raise TableError("stale")
        if my_turn and live.game.to_move != seat:
            raise TableError("not_your_turn")
        return live, live.game, seat

    def seat_or_raise(self, live: LiveTable, user_id: int) -> int:
        seat = live.row.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        return seat

    async def table_here(self, interaction: discord.Interaction) -> LiveTable:
        """The running table of this game, in this channel or thread, where the user plays
        (for typed moves). Several can share a channel only when threads are not allowed:
        then the one waiting for this user is meant."""
        user_id = interaction.user.id
        mine = await self.tables.playing_in(self.game_key, interaction.channel_id or 0, user_id)
        if len(mine) > 1:
            waiting = [live for live in mine if live.game.to_move == live.row.seat_of(user_id)]
            if len(waiting) != 1:
                raise TableError("which_table", tables=", ".join(f"#{live.id}" for live in mine))
            mine = waiting
        if not mine:
            raise TableError("no_table_here", game=t(f"{self.game_key}.name", interaction.locale))
        return mine[0]

    @staticmethod
    def version_of(route_: Route) -> int:
        try:
            return int(route_.args()[0])
        except (IndexError, ValueError):
            raise TableError("stale") from None

    # == the private steps of a turn =======================================================

    async def show_step(self, interaction: discord.Interaction, content: str,
                        view: discord.ui.View | None,
                        picture: Awaitable[bytes] | None = None) -> None:
        """Step through a private flow: replace the ephemeral message clicked, or open one.
        ``picture`` (being drawn) shows the position being decided; a step without one clears
        the last. A picture that queues behind many boards in the render workers must not cost
        the click its answer: past STEP_PICTURE_WAIT the click is deferred, then the step
        follows once the picture is drawn."""
        message = interaction.message
        in_place = message is not None and message.flags.ephemeral
        file = None
        if picture is not None:
            drawing = asyncio.ensure_future(picture)
            await asyncio.wait({drawing}, timeout=STEP_PICTURE_WAIT)
            if not drawing.done() and not interaction.response.is_done():
                await (interaction.response.defer() if in_place else
                       interaction.response.defer(ephemeral=True, thinking=True))
            file = upload(await drawing, STEP_FILE)
        if in_place:
            await update_message(interaction, content=clip(content, CONTENT), view=view,
                                 attachments=[file] if file else [])
        else:
            await ephemeral(interaction, content, view=view, file=file)

    def told_privately(self, outcome: Outcome, locale: str) -> str:
        """What the mover's own hand gained, for the answer to their click (with
        ``perform(…, mover_told=True)`` no DM is queued for them)."""
        change = outcome.private_changed.get(outcome.seat)
        if change is None or outcome.table.row.status != "playing":
            return ""
        text = self.private_update_text(outcome.table, outcome.seat, *change, locale)
        return "\n" + text if text else ""

    async def _mine(self, interaction: discord.Interaction, route_: Route) -> None:
        if self.private_button is None:
            raise TableError("unknown_button")  # a forged click: this game has no private side
        live = await self.live_of(route_)
        seat = self.seat_or_raise(live, interaction.user.id)
        if live.row.status != "playing" or live.game is None:
            raise closed_error(live.row.status)
        view = self.game(live).private_view(seat)
        locale = str(interaction.locale)
        extra, items = await self.private_questions(live, seat, locale)
        text = "\n\n".join(x for x in (self.private_text(live, seat, view, locale), extra) if x)
        await ephemeral(interaction, text, view=view_of(*items) if items else None)

    async def private_questions(self, live: LiveTable, seat: int,
                                locale: str) -> tuple[str, list[discord.ui.Item]]:
        """What the seat is asked and may answer privately, with its buttons (none here)."""
        return "", []

    # == playing ===========================================================================

    async def perform(self, interaction: discord.Interaction, table_id: int,
                      action: Mapping[str, Any], version: int | None,
                      route_: Route | None = None, *, mover_told: bool = False) -> Outcome | None:
        """Apply and commit an action; on refusal answer ephemerally and return None.

        The caller acknowledges the click (the action is durable by then), then calls
        ``publish``. ``mover_told``: the caller's answer includes ``told_privately(outcome)``,
        so the mover gets no DM of what their own hand gained.
        """
        return await self.perform_all(interaction, table_id, [action], version, route_,
                                      mover_told=mover_told)

    async def perform_all(self, interaction: discord.Interaction, table_id: int,
                          actions: list[Mapping[str, Any]], version: int | None,
                          route_: Route | None = None, *,
                          mover_told: bool = False) -> Outcome | None:
        """``perform`` for several actions of one seat, applied as one unit or not at all."""
        try:
            with self.bot.relay.committing(interaction, table_id):
                outcome = await self.tables.act_many(
                    table_id, interaction.user.id, actions, expected_version=version,
                    game_key=self.game_key, mover_told=mover_told)
                # This move's line, and only it, will go out as this interaction's follow-up.
                self.bot.relay.remember_move(interaction, table_id, outcome.version)
        except (TableError, IllegalAction) as exc:
            await self.refuse(interaction, exc, route_)
            return None
        return outcome

    async def publish(self, outcome: Outcome) -> None:
        """Everything the table sees after an accepted action (log line, board, private
        messages, the end) was queued by the commit; the reconciler posts it."""
        self.bot.reconciler.mark(outcome.table.id)

    async def _resign_ask(self, interaction: discord.Interaction, route_: Route) -> None:
        live = await self.live_of(route_)
        self.seat_or_raise(live, interaction.user.id)
        if live.row.status != "playing":
            raise closed_error(live.row.status)
        locale = interaction.locale
        await ephemeral(interaction, t(f"{self.game_key}.resign.confirm", locale), view=view_of(
            button(self.cid(live.id, "resign_ok"), t(f"{self.game_key}.button.resign", locale),
                   style=discord.ButtonStyle.danger)))

    async def _resign_confirm(self, interaction: discord.Interaction, route_: Route) -> None:
        outcome = await self.perform(interaction, route_.table, {"type": "resign"}, None)
        if outcome is None:
            return
        # Said as it happened: a cooperative table loses together, a table of three or more
        # may play on without the one who resigned.
        key = ("resign.done_abandoned" if outcome.table.cls.cooperative else
               "resign.done" if outcome.result is not None else "resign.done_left")
        await update_message(interaction, content=t(key, interaction.locale), view=None)
        await self.publish(outcome)
