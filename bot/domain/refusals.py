"""The sentence a refused request is answered with, in the asker's language: the same for a
click in the thread and an action in the Activity. No Discord here, so every client of the
tables (the cogs, the Activity's page server) shares it."""
from __future__ import annotations

from typing import Any, Callable

from ..games import IllegalAction
from ..i18n import has, t
from ..store import StoreFailure
from .live import TableError


def error_text(exc: TableError | IllegalAction | StoreFailure, game: str, locale: Any, *,
               fill: Callable[..., str] = t) -> str:
    """``fill`` puts the parameters into the catalog's sentence: plain text for a page, or
    Markdown-escaped for Discord, since a refusal may quote what was typed."""
    if isinstance(exc, StoreFailure):
        return t("error.store_failed", locale)
    if isinstance(exc, TableError):
        return fill(f"error.{exc.code}", locale, **exc.params)
    for key in (f"{game}.illegal.{exc.code}", f"illegal.{exc.code}"):
        if has(key):
            return fill(key, locale, **exc.params)
    return fill("illegal.generic", locale, reason=str(exc))
