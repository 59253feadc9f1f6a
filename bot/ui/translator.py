"""Slash-command names and descriptions in every language that has a catalog entry."""
from __future__ import annotations

import inspect
from typing import Any

import discord
from discord import app_commands

from .. import i18n


def command_text(key: str) -> app_commands.locale_str:
    """A command name/description: the English text, tagged with its key for the Translator."""
    return app_commands.locale_str(i18n.t(key), key=key)


def command_name(name: str) -> app_commands.locale_str:
    """A command or option name: English, tagged with its catalog key ``cmd.name.<name>`` so
    Discord shows the translated name (lowercase, no spaces, at most 32 characters)."""
    return app_commands.locale_str(name, key=f"cmd.name.{name}")


def named_options(func: Any) -> Any:
    """Give every option of a command its translatable name (put it under the decorators)."""
    params = [p for p in inspect.signature(func).parameters if p not in ("self", "interaction")]
    return app_commands.rename(**{p: command_name(p) for p in params})(func) if params else func


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
