"""Sends each routed click to the cog of its game; answers clicks nothing can route."""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Awaitable, Protocol

import discord

from ..i18n import t
from ..store import StoreFailure
from .launch import VERB as LAUNCH, launch_board
from .replies import ephemeral
from .review import VERB as REVIEW, ReviewViewer
from .routing import Route, message_has_component

if TYPE_CHECKING:
    from ..domain.tables import LiveTable, TableService

log = logging.getLogger(__name__)


class RoutedCog(Protocol):
    """What the router, and those who find a game's cog through it, call on that cog.
    ``GameCog`` is one; the router sits below the cogs, so it names these instead of
    importing it."""
    game_key: str

    async def on_route(self, interaction: discord.Interaction, route_: Route) -> None: ...

    async def sync_surfaces(self, table_id: int) -> bool: ...

    async def show_replay(self, interaction: discord.Interaction, live: "LiveTable",
                          wanted: int) -> None: ...

    async def ai_prepare(self, live: "LiveTable", seat: int, level: str, view: dict[str, Any],
                         think: Any) -> dict[str, Any] | float: ...


async def answer_errors(interaction: discord.Interaction, work: Awaitable[None],
                        what: str) -> None:
    """Run an interaction's handler so that it is answered whatever goes wrong: a storage
    fault gets "nothing was saved, try again", anything else "something went wrong"; the
    cause goes to the log (without the interaction's content)."""
    try:
        await work
    except StoreFailure:
        await _last_word(interaction, t("error.store_failed", interaction.locale))
    except Exception:
        log.exception("error while handling %s", what[:100])
        await _last_word(interaction, t("error.internal", interaction.locale))


async def _last_word(interaction: discord.Interaction, text: str) -> None:
    try:
        await ephemeral(interaction, "⚠️ " + text)
    except discord.HTTPException as exc:
        log.warning("could not answer an interaction after an error: %s", exc.status)


class Router:
    def __init__(self, tables: "TableService") -> None:
        self._cogs: dict[str, RoutedCog] = {}
        self.other_routes: list[re.Pattern[str]] = []
        self._tables = tables

    def register(self, cog: RoutedCog) -> None:
        self._cogs[cog.game_key] = cog

    def accept(self, pattern: "re.Pattern[str]") -> None:
        """Custom ids another dynamic item answers (not ``<game>:<table>:<verb>``)."""
        self.other_routes.append(pattern)

    def cog(self, game_key: str) -> RoutedCog | None:
        return self._cogs.get(game_key)

    def unregister(self, game_key: str) -> None:
        self._cogs.pop(game_key, None)

    async def dispatch(self, interaction: discord.Interaction, route: Route) -> None:
        cog = self._cogs.get(route.game)
        if cog is None:
            await ephemeral(interaction, t("error.game_unavailable", interaction.locale))
            return
        bot = interaction.client
        if getattr(bot, "closing", False):
            await ephemeral(interaction, "⚠️ " + t("error.restarting", interaction.locale))
            return
        with bot.in_flight(interaction):  # type: ignore[attr-defined]
            # A finished game's review is the same for every game: one viewer answers it.
            work = (ReviewViewer(bot).on_click(interaction, route)  # type: ignore[arg-type]
                    if route.verb == REVIEW else launch_board(interaction, route)
                    if route.verb == LAUNCH else cog.on_route(interaction, route))
            await answer_errors(interaction, work, route.custom_id)

    async def sync_table(self, table_id: int) -> bool:
        """Bring the Discord surfaces of a table up to date (see Reconciler)."""
        live = await self._tables.get(table_id)
        cog = None if live is None else self._cogs.get(live.row.game)
        return False if cog is None else await cog.sync_surfaces(table_id)

    async def on_component(self, interaction: discord.Interaction) -> None:
        """Every component click: a route on the clicked message goes to its game's cog;
        garbage or forged custom_ids (not on the message that was clicked) are answered rather
        than left to time out silently."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = (interaction.data or {}).get("custom_id", "")
        if not isinstance(custom_id, str):
            custom_id = ""
        on_message = message_has_component(interaction, custom_id)
        route = Route.parse(custom_id) if on_message else None
        if route is not None:
            await self.dispatch(interaction, route)
            return
        if on_message and any(p.fullmatch(custom_id) for p in self.other_routes):
            return  # a cog's own dynamic item (e.g. leaderboard pages) takes it
        log.info("unroutable component %r from user %s", custom_id[:100], interaction.user.id)
        await ephemeral(interaction, t("error.unknown_button", interaction.locale))
