"""Answers to interactions in the clicking user's language, whatever state the interaction is
in (answered, deferred or not yet), always within Discord's limits."""
from __future__ import annotations

from typing import Any

import discord

from ..games import IllegalAction
from ..i18n import has, t
from ..markdown import md
from ..store import StoreFailure
from ..domain.tables import TableError
from .limits import CONTENT, clip


async def ephemeral(interaction: discord.Interaction, text: str, *,
                    view: discord.ui.View | None = None,
                    file: discord.File | None = None) -> None:
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    text = clip(text, CONTENT)
    if interaction.response.is_done():
        await interaction.followup.send(text, **kwargs)
    else:
        await interaction.response.send_message(text, **kwargs)


async def update_message(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the message whose component was clicked (after a deferral too)."""
    if "content" in fields and fields["content"] is not None:
        fields["content"] = clip(fields["content"], CONTENT)
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


def error_text(exc: TableError | IllegalAction | StoreFailure, game: str, locale: Any) -> str:
    if isinstance(exc, StoreFailure):
        return t("error.store_failed", locale)
    # A refusal may quote what was typed: every parameter is escaped (md).
    if isinstance(exc, TableError):
        return md(f"error.{exc.code}", locale, **exc.params)
    for key in (f"{game}.illegal.{exc.code}", f"illegal.{exc.code}"):
        if has(key):
            return md(key, locale, **exc.params)
    return md("illegal.generic", locale, reason=str(exc))


async def refuse(interaction: discord.Interaction, exc: TableError | IllegalAction | StoreFailure,
                 game: str) -> None:
    await ephemeral(interaction, "⚠️ " + error_text(exc, game, interaction.locale))
