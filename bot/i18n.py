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
def catalogs() -> dict[str, dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
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


#: the languages the bot speaks (a catalog per language; English is complete)
LANGUAGES = ("en", "pl", "fr", "de", "nl", "es", "ru", "it")
#: in a plural entry, which parameter picks the form (default ``count``)
PLURAL_PARAM = "$n"


def has(key: str) -> bool:
    return key in catalogs()[FALLBACK]


@lru_cache(maxsize=None)
def plural_rule(language: str) -> Any:
    """CLDR plural rule of a language (Babel): a number -> "one", "few", "many", "other" …"""
    from babel import Locale

    return Locale.parse(language.replace("-", "_")).plural_form


def plural_categories(language: str) -> frozenset[str]:
    """The categories a plural entry of ``language`` must give."""
    return frozenset(plural_rule(language).tags) | {"other"}


def _form(entry: dict[str, str], language: str, params: dict[str, Any]) -> str:
    name = entry.get(PLURAL_PARAM, "count")
    value = params.get(name)
    try:
        # A score may be shown with a half ("2½"): it is 2.5 to the plural rules.
        shown = value.replace("½", ".5") if isinstance(value, str) else value
        number = abs(float(shown))  # type: ignore[arg-type]
        category = plural_rule(language)(int(number) if number == int(number) else number)
    except (TypeError, ValueError):
        category = "other"
    return entry.get(category) or entry["other"]


def template(key: str, locale: Any = None, /, **params: Any) -> str | None:
    """The unfilled text for ``key`` in ``locale`` (English fallback; of a plural entry, the
    form ``params`` pick), or None when no catalog has the key."""
    books = catalogs()
    language = language_of(locale)
    entry = books.get(language, {}).get(key)
    if entry is None:
        language = FALLBACK
        entry = books[FALLBACK].get(key)
    if entry is None:
        log.warning("missing catalog key %s", key)
        return None
    return _form(entry, language, params) if isinstance(entry, dict) else entry


def t(key: str, locale: Any = None, /, **params: Any) -> str:
    """The text for ``key`` in ``locale`` (English fallback), with ``params`` filled in. An
    entry may be a plural entry: ``{"one": …, "few": …, "other": …}`` with the form chosen by
    CLDR rules from the ``count`` parameter (or the one its ``"$n"`` names)."""
    text = template(key, locale, **params)
    if text is None:
        return key
    try:
        return text.format(**params) if params else text
    except (KeyError, IndexError, ValueError):
        log.warning("catalog key %s does not fit params %s", key, sorted(params))
        return text
