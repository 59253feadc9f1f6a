"""Watching a finished game again, privately: a viewer that steps through it move by move, and
a download of the whole game (an animated picture and its moves as text), both rebuilt from
the table's seed and action log rather than stored.

Mixed into ``GameCog``; a game may change what a step shows with ``replay_view``. The finished
board's Replay button and ``/replay`` open the viewer (``show_replay``)."""
from __future__ import annotations

import io
from typing import Any

import discord

from render.alt import fit

from ..games import Game
from ..i18n import t
from ..domain.tables import LiveTable, Outcome, TableError
from .host import CogPart
from .limits import CONTENT, clip
from .pictures import upload
from .publish import BOARD_FILE
from .replies import update_message
from .review import review_button
from .routing import Route, button, view_of
from .style import NO_MENTIONS


class ReplayMixin(CogPart):
    def replay_view(self, game: Game, final: Game) -> dict[str, Any]:
        """What a replay shows at one step (a game may reveal what the end revealed)."""
        return game.public_view()

    def replay_buttons(self, live: LiveTable, step: int, locale: str) -> list[discord.ui.Item]:
        """A game's own buttons under the replay viewer at ``step``, after the common five
        (Narabi's par line)."""
        return []

    async def _replay(self, interaction: discord.Interaction, route_: Route) -> None:
        """A private viewer stepping through a finished game, rebuilt from its seed and log."""
        live = await self.tables.with_game(route_.table)
        if live is None or live.row.game != self.game_key:
            raise TableError("no_table")
        if live.row.status != "finished" or live.game is None or live.row.seed is None:
            raise TableError("replay_unfinished")
        try:
            wanted = int(route_.args()[0])
        except (IndexError, ValueError):
            wanted = 0
        if route_.args()[1:] == ["4"]:
            await self.send_replay_files(interaction, live)
            return
        await self.show_replay(interaction, live, wanted)

    def replay_views(self, live: LiveTable, log_rows: list[tuple[int, dict[str, Any]]]
                     ) -> tuple[list[dict[str, Any]], list[str]]:
        """Every turn's position (one per change of player, plus the start and the end) and
        the log line of every action, rebuilt from the seed."""
        locale = live.row.locale
        game = live.cls.new(len(live.row.seats), live.row.options, live.row.seed)
        final = live.game
        views, lines = [self.replay_view(game, final)], []  # type: ignore[arg-type]
        for index, (seat, action) in enumerate(log_rows):
            mover = game.to_move
            events = game.apply(seat, dict(action))
            line = self.describe(Outcome(live, seat, dict(action), events, None), locale)
            if line:
                lines.append(f"{index + 1}. {discord.utils.remove_markdown(line)}")
            if game.to_move != mover or game.result() is not None or index == len(log_rows) - 1:
                views.append(self.replay_view(game, final))  # type: ignore[arg-type]
        return views, lines

    async def send_replay_files(self, interaction: discord.Interaction, live: LiveTable) -> None:
        """Download: the whole game as an animated picture and its moves as text."""
        from render.animation import animate

        await interaction.response.defer(ephemeral=True, thinking=True)
        log_rows = await self.bot.store.actions(live.id)
        views, lines = self.replay_views(live, log_rows)
        # In a worker the game's own renderer draws each frame (it pickles by name).
        in_worker = self.renderer_name is not None and "render" not in self.__dict__
        gif = await self.draw("render.animation:animate" if in_worker else None, animate, views,
                              live.names(), live.row.locale,
                              self.renderer if in_worker else self.render)
        title = t("replay.title", live.row.locale, game=t(f"{self.game_key}.name", live.row.locale),
                  table=live.id, step=len(log_rows), total=len(log_rows))
        text = discord.utils.remove_markdown(title) + "\n\n" + "\n".join(lines) + "\n"
        reader = interaction.locale
        alt = " ".join((t("alt.replay", reader, count=len(views)),
                        self.alt_text(live, views[-1], reader)))
        await interaction.followup.send(
            t("replay.download", interaction.locale), ephemeral=True,
            files=[upload(gif, f"{self.game_key}-{live.id}.gif", fit([alt])),
                   discord.File(io.BytesIO(text.encode()), filename=f"{self.game_key}-{live.id}.txt")])

    async def show_replay(self, interaction: discord.Interaction, live: LiveTable,
                          wanted: int) -> None:
        locale = str(interaction.locale)
        log_rows = await self.bot.store.actions(live.id)
        total = len(log_rows)
        step = max(0, min(wanted, total))
        seats, options, seed = len(live.row.seats), live.row.options, live.row.seed
        game = live.cls.replay(seats, options, seed, log_rows[:max(0, step - 1)])
        line = t("replay.start", locale)
        if step:
            seat, action = log_rows[step - 1]
            events = game.apply(seat, dict(action))
            line = self.describe(Outcome(live, seat, dict(action), events, None), locale) \
                or t("replay.move", locale, player=self.name(live, seat))
        view = self.replay_view(game, live.game)  # type: ignore[arg-type]
        png = await self.picture(live, view, live.row.locale, reader=locale)
        text = t("replay.title", locale, game=t(f"{self.game_key}.name", locale), table=live.id,
                 step=step, total=total) + "\n" + line
        tid = live.id
        # Four buttons, four custom ids: the second number only keeps them apart.
        controls = view_of(
            button(self.cid(tid, "replay", 0, 0), "", emoji="⏮", disabled=step == 0),
            button(self.cid(tid, "replay", max(step - 1, 0), 1), "", emoji="◀", disabled=step == 0),
            button(self.cid(tid, "replay", min(step + 1, total), 2), "", emoji="▶",
                   disabled=step >= total),
            button(self.cid(tid, "replay", total, 3), "", emoji="⏭", disabled=step >= total),
            button(self.cid(tid, "replay", step, 4), t("button.download", locale), emoji="⬇️"),
            review_button(self.game_key, tid, locale, replay_step=step),
            *self.replay_buttons(live, step, locale))
        picture = upload(png, BOARD_FILE)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await update_message(interaction, content=clip(text, CONTENT), view=controls,
                                 attachments=[picture], allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(clip(text, CONTENT), view=controls,
                                                    file=picture, ephemeral=True,
                                                    allowed_mentions=NO_MENTIONS)
