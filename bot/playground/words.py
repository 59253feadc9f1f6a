"""The page's own words (labels, notices, alt texts, the answers its message box gives) in the
language of the browser: the ``playground.*`` keys of the bot's catalogs, chosen by the same
Accept-Language reading that sets the locale of the page's interactions (``people``)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from bot.i18n import FALLBACK, catalogs, language_of

from .people import discord_locale

PREFIX = "playground."


def language(accept_language: str | None) -> str:
    """The catalog language for a browser: the one its interactions are answered in."""
    return language_of(discord_locale(accept_language))


class Number(int):
    """A whole number written the way its language writes numbers (2,000 · 2 000 · 2.000),
    still a number for the choice of a plural form."""

    language: str = FALLBACK

    def __format__(self, spec: str) -> str:
        from babel.numbers import format_decimal
        return format_decimal(int(self), locale=self.language.replace("-", "_"))


def format_number(value: int, language: str) -> Number:
    number = Number(value)
    number.language = language
    return number


@lru_cache(maxsize=None)
def page_words(language: str) -> dict[str, Any]:
    """Every ``playground.*`` entry (prefix dropped) in ``language``, English where missing;
    a plural entry stays a dict of forms (the page picks the form with Intl.PluralRules)."""
    books = catalogs()
    own = books.get(language, {})
    return {key[len(PREFIX):]: own.get(key, entry)
            for key, entry in books[FALLBACK].items() if key.startswith(PREFIX)}
