"""Answers to interactions in the clicking user's language, whatever state the interaction is
in (answered, deferred or not yet), always within Discord's limits."""
from __future__ import annotations

import asyncio
from typing import Any, Awaitable, TypeVar

import discord

from ..games import IllegalAction
from ..markdown import md
from ..store import StoreFailure
from ..domain import refusals
from ..domain.tables import TableError
from .limits import CONTENT, EMBED_DESCRIPTION, clip
from .pictures import upload

T = TypeVar("T")


def error_text(exc: TableError | IllegalAction | StoreFailure, game: str, locale: Any) -> str:
    """The refusal sentence for a Discord message: every parameter Markdown-escaped (md)."""
    return refusals.error_text(exc, game, locale, fill=md)


async def ephemeral(interaction: discord.Interaction, text: str, *,
                    view: discord.ui.View | None = None,
                    file: discord.File | None = None,
                    embeds: list[discord.Embed] | None = None) -> None:
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    if embeds:
        kwargs["embeds"] = embeds
    text = clip(text, CONTENT)
    if interaction.response.is_done():
        await interaction.followup.send(text, **kwargs)
    else:
        await interaction.response.send_message(text, **kwargs)


#: seconds a private step's picture may take before the click or command is deferred
#: (Discord allows three; a loaded machine or a cold render worker can take longer)
PICTURE_WAIT = 1.5


async def in_time(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """``work`` (drawing a picture), without costing the interaction its answer: past
    PICTURE_WAIT it is deferred (a command: "thinking…", which the answer then fills in; a
    click: the clicked message, which the answer then edits)."""
    task = asyncio.ensure_future(work)
    await asyncio.wait({task}, timeout=PICTURE_WAIT)
    if not task.done() and not interaction.response.is_done():
        if interaction.type == discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    return await task


async def private_step(interaction: discord.Interaction, text: str, view: discord.ui.View | None,
                       picture: bytes | None, filename: str, *, below: str = "") -> None:
    """The next step of a private flow (a lesson, a puzzle): the ephemeral message clicked is
    replaced in place; from a command or a public message, a new ephemeral one is sent.
    A ``Picture`` goes with its alt text.

    ``below``: words that go under the picture, just above the buttons. A client scrolls a
    message's end into view after a click, so words above a tall picture leave the screen;
    these stay beside the buttons they are about. They are an embed after the picture's own
    (Discord draws a message's embeds in order, and an embed's image under its text)."""
    file = upload(picture, filename) if picture else None
    embeds: list[discord.Embed] = []
    if below and file is not None:
        embeds = [discord.Embed().set_image(url=f"attachment://{filename}"),
                  discord.Embed(description=clip(below, EMBED_DESCRIPTION))]
    elif below:
        text = "\n\n".join(x for x in (text, below) if x)
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await update_message(interaction, content=clip(text, CONTENT), view=view,
                             attachments=[file] if file else [], embeds=embeds)
    else:
        await ephemeral(interaction, text, view=view, file=file, embeds=embeds)


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
