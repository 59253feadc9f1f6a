"""The par line in Narabi's replay viewer: the fewest switches that solve a finished game's
deal, one page per switch, each with the ring as it lies after it.

The par search (``bot.games.narabi.solver.par``) is pure and deterministic: the same deal
always gives the same line. Most deals take a few hundredths of a second, the hardest seen a
few seconds, so it runs in the worker pool (off the loop), once per table: the search that
``after_finish`` runs at the end is kept, and a viewer opened later (after a restart too)
starts one search that every click waits on. Nothing secret is shown: the viewer only opens
on a finished game, whose replay already shows every card and condition.
"""
from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Mapping

import discord

from bot.domain.tables import LiveTable, TableError
from bot.i18n import t
from bot.runtime.thinkpool import ThinkFailed, ThinkTimeout
from bot.ui.turns import STEP_PICTURE_WAIT
from bot.ui.routing import Route, button, view_of

if TYPE_CHECKING:
    from bot.games.narabi import Narabi
    from bot.ui.gamecog import GameCog as _Cog
else:
    _Cog = object

log = logging.getLogger(__name__)

SOLVER = "bot.games.narabi.solver:par"
#: finished tables whose par (line included) is kept in memory, the most recently used
PAR_CACHE = 256
PAR_EMOJI = "⛳"


class ParLine(_Cog):
    """Mixed into NarabiCog (a GameCog): the "par" verb, its button under the replay viewer
    and the kept searches."""

    # -- the search, once per table ----------------------------------------------------------

    @property
    def _pars(self) -> "OrderedDict[int, asyncio.Future[dict[str, Any]]]":
        pars = self.__dict__.get("_par_searches")
        if pars is None:
            pars = self.__dict__["_par_searches"] = OrderedDict()
        return pars

    def remember_par(self, table_id: int, found: Mapping[str, Any]) -> None:
        """Keep a search's answer (the one ``after_finish`` ran) for the viewer."""
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        done.set_result(dict(found))
        self._keep(table_id, done)

    def _keep(self, table_id: int, search: "asyncio.Future[dict[str, Any]]") -> None:
        self._pars[table_id] = search
        self._pars.move_to_end(table_id)
        while len(self._pars) > PAR_CACHE:
            self._pars.popitem(last=False)

    async def par_of(self, live: LiveTable) -> dict[str, Any]:
        """The par of a finished table's deal, ``solver.par``'s answer: searched once, in the
        worker pool; a search that failed (a worker lost) reads as "unknown" and is not kept."""
        search = self._pars.get(live.id)
        if search is None:
            search = asyncio.ensure_future(self._search(live))
            self._keep(live.id, search)
        else:
            self._pars.move_to_end(live.id)
        # Shielded: a click that gives up waiting does not stop the search the next one needs.
        return dict(await asyncio.shield(search))

    async def _search(self, live: LiveTable) -> dict[str, Any]:
        assert live.game is not None
        state = live.game.to_json()
        try:
            return await self.bot.pool.call(SOLVER, state)
        except (ThinkFailed, ThinkTimeout) as exc:
            log.warning("table %s: par search failed (%s)", live.id, exc)
            self._pars.pop(live.id, None)
            return {"best": None, "status": "unknown"}

    # -- the viewer --------------------------------------------------------------------------

    def replay_buttons(self, live: LiveTable, step: int, locale: str) -> list[discord.ui.Item]:
        return [button(self.cid(live.id, "par", 0, step, 0),
                       t("narabi.button.par", locale), emoji=PAR_EMOJI)]

    async def _par_line(self, interaction: discord.Interaction, route_: Route) -> None:
        """Page ``page`` of the par line (0: the deal); ``back`` is the replay's move to
        return to. Answers within Discord's three seconds even when the search has to run."""
        live = await self.tables.with_game(route_.table)
        if live is None or live.row.game != "narabi":
            raise TableError("no_table")
        if live.row.status != "finished" or live.game is None or live.row.seed is None:
            raise TableError("replay_unfinished")
        args = route_.args()
        if len(args) != 3 or not all(a.isdigit() for a in args):
            raise TableError("unknown_button")
        page, back = int(args[0]), int(args[1])
        searching = asyncio.ensure_future(self.par_of(live))
        await asyncio.wait({searching}, timeout=STEP_PICTURE_WAIT)
        if not searching.done() and not interaction.response.is_done():
            in_place = interaction.message is not None and interaction.message.flags.ephemeral
            await (interaction.response.defer() if in_place else
                   interaction.response.defer(ephemeral=True, thinking=True))
        found = await searching
        locale = str(interaction.locale)
        back_button = button(self.cid(live.id, "replay", back, 0),
                             t("narabi.button.replay_back", locale), emoji="↩️")
        if found["status"] != "found":
            text = (t("narabi.par.heading", locale, table=live.id) + "\n"
                    + t(f"narabi.best.{found['status']}", locale, limit=found.get("limit", "")))
            await self.show_step(interaction, text, view_of(back_button))
            return
        line = found["line"]
        total = len(line)
        page = min(page, total)
        game = self.par_position(live, line[:page])
        text = t("narabi.par.title", locale, table=live.id, step=page, total=total) + "\n"
        if page == 0:
            text += (t("narabi.best.found", locale, best=total) + "\n"
                     + t("narabi.par.start", locale))
        else:
            seat, card, target = line[page - 1]
            holder = game.seat_of(card)  # the card given now lies where the taken one was
            text += t("narabi.par.switch", locale, player=self.name(live, seat),
                      card=self.stone_of(game, card, locale),
                      other=self.name(live, holder),
                      target=self.stone_of(game, target, locale))
            if page == total:
                text += "\n" + t("narabi.par.solved", locale)
        cid = self.cid
        controls = view_of(
            button(cid(live.id, "par", 0, back, 0), "", emoji="⏮", disabled=page == 0),
            button(cid(live.id, "par", max(page - 1, 0), back, 1), "", emoji="◀",
                   disabled=page == 0),
            button(cid(live.id, "par", min(page + 1, total), back, 2), "", emoji="▶",
                   disabled=page >= total),
            button(cid(live.id, "par", total, back, 3), "", emoji="⏭", disabled=page >= total),
            back_button)
        view = self.replay_view(game, live.game)
        picture = self.picture(live, view, live.row.locale, reader=interaction.locale)
        await self.show_step(interaction, text, controls, picture)

    @staticmethod
    def par_position(live: LiveTable, switches: list[list[int]]) -> "Narabi":
        """The deal with ``switches`` played by the rules (the par line is a legal line: the
        solver moves in turn order with the conditions, as the game does)."""
        game = live.cls.replay(len(live.row.seats), live.row.options, live.row.seed, [])
        for seat, card, target in switches:
            game.apply(seat, {"type": "switch", "card": card, "target": target})
        return game  # type: ignore[return-value]
