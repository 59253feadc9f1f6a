"""A drawn picture with the words that tell it: the PNG bytes and their alt text, uploaded
together as an attachment whose ``description`` a screen reader reads aloud.

``Picture`` is the bytes themselves (a ``bytes`` subclass), so code that only draws, measures
or compares a picture keeps working; ``upload`` makes the ``discord.File`` with its
description, which Discord caps at 1,024 characters (``render.alt.LIMIT``)."""
from __future__ import annotations

import collections
import hashlib
import io
import pickle
from typing import Any

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


class DrawnCache:
    """The pictures last drawn by the ``render`` package's functions, by what they were drawn
    from, within ``budget`` bytes (the least recently used go first).

    A renderer is a pure function of its arguments, and the same picture is often asked for
    again: a board drawn again by a repair or a restart, the same position in a private step
    and on the board, a replay asked twice. Each costs a render worker several milliseconds
    of CPU; a look-up here costs a few microseconds."""

    def __init__(self, budget: int = 16 << 20) -> None:
        self.budget = budget
        self._pictures: collections.OrderedDict[bytes, bytes] = collections.OrderedDict()
        self._size = 0
        self.hits = self.misses = 0

    @staticmethod
    def key(function: str | None, args: tuple[Any, ...]) -> bytes | None:
        """What ``function`` (``module:name``) draws from ``args``, as a digest; None for what
        is not a renderer of the package or arguments that are not plain data."""
        if function is None or not function.startswith("render."):
            return None
        # pickle, not JSON: JSON would make a tuple a list and an int key a string, and two
        # arguments that a renderer may tell apart must never share a picture
        try:
            data = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return None
        return hashlib.blake2b(data, digest_size=16).digest()

    def get(self, key: bytes | None) -> bytes | None:
        if key is None:
            return None
        picture = self._pictures.get(key)
        if picture is None:
            self.misses += 1
            return None
        self.hits += 1
        self._pictures.move_to_end(key)
        return picture

    def put(self, key: bytes | None, picture: bytes) -> None:
        if key is None or key in self._pictures or len(picture) > self.budget:
            return
        self._pictures[key] = bytes(picture)
        self._size += len(picture)
        while self._size > self.budget:
            _, old = self._pictures.popitem(last=False)
            self._size -= len(old)


#: one per process: what is drawn does not depend on the table, the guild or the bot
DRAWN = DrawnCache()
