"""One word per idea: each language's glossary, and the check that its catalogs keep to it.

A glossary is ``bot/locales/glossary/<code>.json`` (not a catalog: ``bot.i18n`` reads only the
JSON files directly in ``bot/locales/``). It maps each idea (match, table, seat, Discord's
permission labels …) to::

    {
      "term": "partij",                      # the chosen word or phrase
      "forms": ["partijen"],                 # other forms of it the catalogs use (optional)
      "also": {"spel": "why this second word is accepted"},      # optional, rare
      "source": "rulebook" | "discord" | "project",
      "ref": "where the term comes from",
      "ruled_out": ["spellen", "potje*", "in deze server"],
      "exceptions": {"<catalog key>": "why the ruled-out word is right there"},
      "keys": ["perm.view_channel"]          # optional: these values must contain the term
    }

``ruled_out`` entries are words or phrases matched case-insensitively on word boundaries
(letters, digits and ``_`` are word characters, so "spellen" does not match "Bordspellen"); a
trailing ``*`` accepts any ending ("potje*" also rules out "potjes"), for languages that inflect.
Placeholders (``{game}``) are not text and are never matched.

Each glossary also names the register its catalogs speak in (``register``: ty, tu, du …);
``bot.register`` holds the per-language rules that find the other forms of address.

Run ``python -m bot.glossary [code …]`` to list what breaks a glossary, register included.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from . import register
from .i18n import LANGUAGES, PLURAL_PARAM, catalogs

GLOSSARY_DIR = Path(__file__).resolve().parent / "locales" / "glossary"
SOURCES = ("rulebook", "discord", "project")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Finding:
    """A catalog value that uses a word its language's glossary rules out for an idea."""

    language: str
    key: str
    idea: str
    word: str  # the ruled-out entry that matched
    found: str  # the text it matched
    term: str  # what the glossary says instead

    def __str__(self) -> str:
        return (f"{self.language} {self.key}: “{self.found}” is ruled out for “{self.idea}” "
                f"(ruled out: {self.word!r}; use “{self.term}”)")


def glossary_path(language: str) -> Path:
    return GLOSSARY_DIR / f"{language}.json"


@lru_cache(maxsize=None)
def glossary(language: str) -> dict[str, dict[str, Any]]:
    """The ideas of one language's glossary (see the module's docstring)."""
    data = json.loads(glossary_path(language).read_text(encoding="utf-8"))
    return data["ideas"]


def pattern(entry: str) -> re.Pattern[str]:
    """The regular expression of a ruled-out word or phrase."""
    stem, open_end = (entry[:-1], True) if entry.endswith("*") else (entry, False)
    body = r"\s+".join(re.escape(word) for word in stem.split())
    return re.compile(r"(?<!\w)" + body + (r"\w*" if open_end else r"(?!\w)"), re.IGNORECASE)


def texts(entry: Any) -> list[str]:
    """The texts of a catalog entry (every form of a plural), placeholders blanked out."""
    if isinstance(entry, dict):
        values = [v for k, v in entry.items() if k != PLURAL_PARAM]
    else:
        values = [entry]
    return [_PLACEHOLDER.sub(" ", value) for value in values]


def check(language: str, book: Mapping[str, Any] | None = None,
          ideas: Mapping[str, Mapping[str, Any]] | None = None) -> list[Finding]:
    """Every use in ``book`` (default: the language's catalogs) of a word that ``ideas``
    (default: the language's glossary) rules out, except where an idea names the key as an
    exception."""
    book = catalogs()[language] if book is None else book
    ideas = glossary(language) if ideas is None else ideas
    found: list[Finding] = []
    for idea, spec in ideas.items():
        exceptions = spec.get("exceptions", {})
        for word in spec.get("ruled_out", []):
            rule = pattern(word)
            for key, entry in book.items():
                if key in exceptions:
                    continue
                for text in texts(entry):
                    match = rule.search(text)
                    if match:
                        found.append(Finding(language, key, idea, word, match.group(0),
                                             spec["term"]))
                        break
    return found


def stale_exceptions(language: str) -> list[str]:
    """Exceptions that excuse nothing (the key is gone, or no longer uses a ruled-out word)."""
    book = catalogs()[language]
    stale = []
    for idea, spec in glossary(language).items():
        rules = [pattern(word) for word in spec.get("ruled_out", [])]
        for key in spec.get("exceptions", {}):
            if key not in book or not any(rule.search(text) for rule in rules
                                          for text in texts(book[key])):
                stale.append(f"{language} {idea}: exception {key}")
    return stale


def words(language: str) -> Iterable[str]:
    """The chosen terms of a language (term, forms and accepted second words), word by word."""
    for spec in glossary(language).values():
        for phrase in [spec["term"], *spec.get("forms", []), *spec.get("also", {})]:
            yield from re.findall(r"\w+", phrase)


def main(argv: list[str]) -> int:
    languages = argv or list(LANGUAGES)
    problems = [str(f) for lang in languages for f in check(lang)]
    problems += [p for lang in languages for p in stale_exceptions(lang)]
    problems += [str(s) for lang in languages for s in register.check(lang)]
    problems += [p for lang in languages for p in register.stale_groups(lang)]
    print("\n".join(problems) or "Every catalog keeps to its glossary.")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
