"""Sends each routed click to the cog of its game; answers clicks nothing can route."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from ..i18n import t
from .replies import ephemeral
from .routing import Route, message_has_component

if TYPE_CHECKING:
    from .gamecog import GameCog

log = logging.getLogger(__name__)


class Router:
    def __init__(self) -> None:
        self._cogs: dict[str, GameCog] = {}

    def register(self, cog: "GameCog") -> None:
        self._cogs[cog.game_key] = cog

    def unregister(self, game_key: str) -> None:
        self._cogs.pop(game_key, None)

    async def dispatch(self, interaction: discord.Interaction, route: Route) -> None:
        cog = self._cogs.get(route.game)
        if cog is None:
            await ephemeral(interaction, t("error.game_unavailable", interaction.locale))
            return
        await cog.on_route(interaction, route)

    async def on_unrouted(self, interaction: discord.Interaction) -> None:
        """A component click the dynamic items will not take: garbage or forged custom_ids
        (not on the message that was clicked) would otherwise time out silently."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = (interaction.data or {}).get("custom_id", "")
        if not isinstance(custom_id, str):
            custom_id = ""
        if Route.parse(custom_id) is not None and message_has_component(interaction, custom_id):
            return
        log.info("unroutable component %r from user %s", custom_id[:100], interaction.user.id)
        await ephemeral(interaction, t("error.unknown_button", interaction.locale))
