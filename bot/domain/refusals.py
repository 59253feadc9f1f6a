"""The sentence a refused request is answered with, in the asker's language: the same for a
click in the thread and an action in the Activity. No Discord here, so every client of the
tables (the cogs, the Activity's page server) shares it."""
from __future__ import annotations

from typing import Any

from ..games import IllegalAction
from ..i18n import has, t
from ..store import StoreFailure
from .live import TableError


def error_text(exc: TableError | IllegalAction | StoreFailure, game: str, locale: Any) -> str:
    if isinstance(exc, StoreFailure):
        return t("error.store_failed", locale)
    if isinstance(exc, TableError):
        return t(f"error.{exc.code}", locale, **exc.params)
    for key in (f"{game}.illegal.{exc.code}", f"illegal.{exc.code}"):
        if has(key):
            return t(key, locale, **exc.params)
    return t("illegal.generic", locale, reason=str(exc))
