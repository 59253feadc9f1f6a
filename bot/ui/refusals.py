"""Answering a refused click: most refusals are one ephemeral line, but a click on a public
message that is behind the table is the sign of a board that missed a turn, so that message
is repaired first and the player told what changed.

Mixed into ``GameCog``, which gives ``tables``, ``board_link`` and the status hooks."""
from __future__ import annotations

import logging
from typing import Any

import discord

from ..games import IllegalAction
from ..i18n import t
from ..store import StoreFailure
from ..domain.tables import TableError
from .host import CogPart
from .permissions import REQUIRED
from .reconcile import SurfaceBlocked
from .replies import ephemeral, refuse
from .routing import Route

log = logging.getLogger(__name__)


class RefusalMixin(CogPart):
    async def refuse(self, interaction: discord.Interaction, exc: TableError | IllegalAction,
                     route_: Route | None = None) -> None:
        """Answer a refused click. A click on a public message that is behind the table (a
        board that missed a turn) repairs that message first and says what changed."""
        if isinstance(exc, TableError) and exc.code == "stale" and route_ is not None \
                and interaction.message is not None and not interaction.message.flags.ephemeral:
            await self._refresh_behind(interaction, route_.table)
            return
        await refuse(interaction, exc, self.game_key)

    async def _refresh_behind(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = interaction.locale
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            repaired = await self.bot.reconciler.sync(table_id)
        except SurfaceBlocked as exc:
            await ephemeral(interaction, "⚠️ " + self.blocked_text(exc.missing, locale))
            return
        except (discord.HTTPException, StoreFailure, OSError) as exc:
            log.warning("table %s: refresh on a click failed: %s", table_id, type(exc).__name__)
            await ephemeral(interaction, "⚠️ " + t("error.refresh_failed", locale))
            return
        live = await self.tables.with_game(table_id)
        if live is None or live.game is None:
            await ephemeral(interaction, "⚠️ " + t("error.stale", locale))
            return
        if not repaired:
            await ephemeral(interaction, "⚠️ " + t("error.stale", locale) + "\n"
                            + t("board.current", locale, link=self.board_link(live)))
            return
        status = (self.result_text(live, locale) if live.row.status == "finished"
                  else self.status_text(live, locale))
        await ephemeral(interaction, t("board.refreshed", locale, status=status,
                                       link=self.board_link(live)))

    def blocked_text(self, missing: list[str], locale: Any) -> str:
        if not missing:
            names = ", ".join(f"**{t(f'perm.{name}', locale)}**"
                              for name in (*REQUIRED, "send_messages_in_threads"))
            return t("error.missing_permissions_unknown", locale, permissions=names)
        names = ", ".join(f"**{t(f'perm.{name}', locale)}**" for name in missing)
        return t("error.missing_permissions", locale, permissions=names)
