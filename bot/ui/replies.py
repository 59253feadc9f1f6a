"""Ephemeral answers in the clicking user's language, whatever state the interaction is in."""
from __future__ import annotations

from typing import Any

import discord

from ..games import IllegalAction
from ..i18n import has, t
from ..tables import TableError


async def ephemeral(interaction: discord.Interaction, text: str, *,
                    view: discord.ui.View | None = None) -> None:
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(text, **kwargs)
    else:
        await interaction.response.send_message(text, **kwargs)


def error_text(exc: TableError | IllegalAction, game: str, locale: Any) -> str:
    if isinstance(exc, TableError):
        return t(f"error.{exc.code}", locale, **exc.params)
    for key in (f"{game}.illegal.{exc.code}", f"illegal.{exc.code}"):
        if has(key):
            return t(key, locale, **exc.params)
    return t("illegal.generic", locale, reason=str(exc))


async def refuse(interaction: discord.Interaction, exc: TableError | IllegalAction,
                 game: str) -> None:
    await ephemeral(interaction, "⚠️ " + error_text(exc, game, interaction.locale))
