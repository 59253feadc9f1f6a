"""Answers to interactions in the clicking user's language, whatever state the interaction is
in (answered, deferred or not yet), always within Discord's limits."""
from __future__ import annotations

from typing import Any

import discord

from ..games import IllegalAction
from ..markdown import md
from ..store import StoreFailure
from ..domain import refusals
from ..domain.tables import TableError
from .limits import CONTENT, clip
from .pictures import upload


def error_text(exc: TableError | IllegalAction | StoreFailure, game: str, locale: Any) -> str:
    """The refusal sentence for a Discord message: every parameter Markdown-escaped (md)."""
    return refusals.error_text(exc, game, locale, fill=md)


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


async def private_step(interaction: discord.Interaction, text: str, view: discord.ui.View | None,
                       picture: bytes | None, filename: str) -> None:
    """The next step of a private flow (a lesson, a puzzle): the ephemeral message clicked is
    replaced in place; from a command or a public message, a new ephemeral one is sent.
    A ``Picture`` goes with its alt text."""
    file = upload(picture, filename) if picture else None
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await update_message(interaction, content=clip(text, CONTENT), view=view,
                             attachments=[file] if file else [])
    else:
        await ephemeral(interaction, text, view=view, file=file)


async def update_message(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the message whose component was clicked (after a deferral too)."""
    if "content" in fields and fields["content"] is not None:
        fields["content"] = clip(fields["content"], CONTENT)
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def refuse(interaction: discord.Interaction, exc: TableError | IllegalAction | StoreFailure,
                 game: str) -> None:
    await ephemeral(interaction, "⚠️ " + error_text(exc, game, interaction.locale))
