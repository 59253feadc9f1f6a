"""Players of the playground by name, and the Discord locale of a browser."""
from __future__ import annotations

import hashlib
import re

from bot.testing.fake_discord import Member, MEMBER_PERMISSIONS

import discord

DEFAULT_NAME = "You"
#: every person here may also use the server settings (/config): it is their own server
PERMISSIONS = str(int(MEMBER_PERMISSIONS) | discord.Permissions(manage_guild=True).value)
#: the eight languages of the bot, as Discord's locale codes
LOCALES = {"en": "en-US", "pl": "pl", "fr": "fr", "de": "de", "nl": "nl", "es": "es-ES",
           "ru": "ru", "it": "it"}
_NAME = re.compile(r"[^\w .\-]", re.UNICODE)


def clean_name(name: str | None) -> str:
    """A display name from ``?as=``: word characters, spaces, dots and dashes, 1–32 long."""
    name = _NAME.sub("", (name or "").strip())[:32].strip()
    return name or DEFAULT_NAME


def member_id(name: str) -> int:
    """The same name is the same Discord user, across restarts of ``play --data``."""
    digest = hashlib.sha256(name.casefold().encode()).digest()
    return 200_000_000_000_000_000 + int.from_bytes(digest[:7], "big")


def member(name: str, locale: str = "en-US") -> Member:
    name = clean_name(name)
    return Member(member_id(name), name, permissions=PERMISSIONS, locale=locale)


def discord_locale(accept_language: str | None) -> str:
    """The first of the browser's languages the bot speaks (by quality), else en-US."""
    ranked = []
    for n, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        language = tag.strip().lower().split("-")[0]
        if language in LOCALES and quality > 0:
            ranked.append((-quality, n, LOCALES[language]))
    return min(ranked)[2] if ranked else "en-US"
