"""A drawn picture with the words that tell it: the PNG bytes and their alt text, uploaded
together as an attachment whose ``description`` a screen reader reads aloud.

``Picture`` is the bytes themselves (a ``bytes`` subclass), so code that only draws, measures
or compares a picture keeps working; ``upload`` makes the ``discord.File`` with its
description, which Discord caps at 1,024 characters (``render.alt.LIMIT``)."""
from __future__ import annotations

import io

import discord

from render.alt import LIMIT


class Picture(bytes):
    """PNG (or GIF) bytes and ``alt``, what they show in words."""

    alt: str

    def __new__(cls, data: bytes, alt: str) -> "Picture":
        picture = super().__new__(cls, data)
        picture.alt = alt
        return picture


def upload(data: bytes, filename: str, alt: str | None = None) -> discord.File:
    """The attachment for ``data``: its description is ``alt``, or the alt text the picture
    carries (a ``Picture``); none for bytes without words."""
    description = alt if alt is not None else getattr(data, "alt", None)
    return discord.File(io.BytesIO(data), filename=filename,
                        description=description[:LIMIT] if description else None)
