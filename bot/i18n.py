"""The one translation function, over per-language catalogs (no Discord here: renderers use it).

Catalogs are flat JSON files ``<locale>.json`` (or ``<locale>.<part>.json``) in ``bot/locales/``
(runtime text) and in each game cog's ``locales/`` folder. English is complete; another language may cover any subset and
falls back to English key by key.
"""
from __future__ import annotations

import json
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FALLBACK = "en"
_ROOT = Path(__file__).resolve().parent.parent
CATALOG_DIRS = (_ROOT / "bot" / "locales", *sorted((_ROOT / "cogs").glob("*/locales")),
                _ROOT / "render" / "locales")


@lru_cache(maxsize=1)
def catalogs() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for folder in CATALOG_DIRS:
        for file in sorted(folder.glob("*.json")):
            entries = json.loads(file.read_text(encoding="utf-8"))
            target = merged.setdefault(file.name.split(".")[0], {})
            duplicated = set(target) & set(entries)
            if duplicated:
                raise RuntimeError(f"{file}: keys already defined elsewhere: {sorted(duplicated)}")
            target.update(entries)
    return merged


def language_of(locale: Any) -> str:
    """The catalog to use for a locale: a code such as 'pt-BR' or a ``discord.Locale``
    ('pt-BR' → 'pt-BR' if present, else 'pt', else English)."""
    if locale is None:
        return FALLBACK
    code = str(getattr(locale, "value", locale))
    known = catalogs()
    if code in known:
        return code
    short = code.split("-")[0]
    return short if short in known else FALLBACK


def has(key: str) -> bool:
    return key in catalogs()[FALLBACK]


def t(key: str, locale: Any = None, /, **params: Any) -> str:
    """The text for ``key`` in ``locale`` (English fallback), with ``params`` filled in."""
    books = catalogs()
    text = books.get(language_of(locale), {}).get(key)
    if text is None:
        text = books[FALLBACK].get(key)
    if text is None:
        log.warning("missing catalog key %s", key)
        return key
    try:
        return text.format(**params) if params else text
    except (KeyError, IndexError, ValueError):
        log.warning("catalog key %s does not fit params %s", key, sorted(params))
        return text
