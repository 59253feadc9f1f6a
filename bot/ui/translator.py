"""Slash-command names and descriptions in every language that has a catalog entry."""
from __future__ import annotations

import discord
from discord import app_commands

from .. import i18n


def command_text(key: str) -> app_commands.locale_str:
    """A command name/description: the English text, tagged with its key for the Translator."""
    return app_commands.locale_str(i18n.t(key), key=key)


class CatalogTranslator(app_commands.Translator):
    """Gives Discord the command descriptions in every language that has a catalog entry."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if key is None:
            return None
        language = i18n.language_of(locale)
        if language == i18n.FALLBACK:
            return None
        return i18n.catalogs()[language].get(key)
