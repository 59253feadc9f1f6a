"""One way of speaking to the reader per language: the register check of the glossaries.

Each language's catalogs speak to one person informally (ty, tu, du, je, tú, ты; English has
one form). Its glossary (``bot/locales/glossary/<code>.json``) says so under ``register``::

    "register": {
      "address": "ты",                         # the form the catalogs use
      "about": "why, and what the check looks for",
      "group": {"narabi.rules": "why this text speaks to all players together"}
    }

The rules below find the other forms: the polite singular (Вы, Pan/Pani, vous, Sie, u, usted,
Lei) and the plural (вы, wy, vous, euch, jullie, vosotros, voi), as pronouns and as verb
forms (imperatives first of all: "складывайте", "ułóżcie", "réessayez"). A text that speaks
to every player at once (the rules of the cooperative Narabi: "together you win") may use the
plural: its key is listed under ``group`` with the reason, and the check skips the plural
rules there (never the polite ones). Words that merely look like a form (Polish "karcie",
Italian "partite", Spanish "mitad") are listed with their rule (``not_forms``, ``not_endings``).

Run ``python -m bot.glossary`` to list what breaks a glossary, register included.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .i18n import PLURAL_PARAM, catalogs

#: the glossaries (``bot.glossary`` reads their ideas and reports what this module finds)
GLOSSARY_DIR = Path(__file__).resolve().parent / "locales" / "glossary"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
#: where a sentence or clause starts: the text's start, after . ! ? : ; (also closing a
#: **bold** run), a line, a bullet, an opening quote or bracket, a dash
_START = re.compile(r"(?:^|[.!?:;…¡¿•\n(\"„“«»–—]|\s-)[\s*_]*$")


@dataclass(frozen=True)
class Rule:
    """One form of address a language's catalogs do not use."""

    name: str                   # what it finds, said in the report
    pattern: re.Pattern[str]
    plural: bool                # True: a plural form (allowed in a group text)
    where: str = "anywhere"     # "anywhere" | "clause start" | "mid-sentence"
    not_forms: frozenset[str] = field(default_factory=frozenset)  # lower-case look-alikes
    not_endings: tuple[str, ...] = ()                             # look-alike endings
    not_after: re.Pattern[str] | None = None  # the form is not one after this (end of text before)

    def finds(self, text: str) -> str | None:
        for match in self.pattern.finditer(text):
            word = match.group(0)
            low = word.lower()
            if low.split()[-1] in self.not_forms or low.endswith(self.not_endings):
                continue
            before = text[:match.start()]
            at_start = bool(_START.search(before))
            if (self.where == "clause start" and not at_start) or \
                    (self.where == "mid-sentence" and at_start):
                continue
            if self.not_after is not None and self.not_after.search(before):
                continue
            return word
        return None


def _words(*alternatives: str, case: bool = False) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)",
                      0 if case else re.IGNORECASE)


#: Italian nouns and participles that end like a voi-verb (feminine plurals: "partite
#: giocate", "caselle non consentite")
_IT_NOT_FORMS = frozenset({"partite", "limite", "private", "segrete", "numerate", "elencate",
                           "consentite", "scambiate", "quadrate", "rete", "parete", "sete", "mite",
                           "lite", "vite", "abate", "estate", "giocate", "finite", "iniziate",
                           "giornate", "passate", "entrate", "uscite", "serate"})

#: Each language's rules: what would speak to the reader politely or in the plural.
RULES: dict[str, tuple[Rule, ...]] = {
    "ru": (
        Rule("вы-pronoun (вы, вас, ваш …)", _words(r"вы", r"вас", r"вам", r"вами", r"ваш\w*"),
             plural=True),
        Rule("вы-verb (imperative -йте/-ите/-ьте, present -ите)",
             _words(r"\w+(?:йте|ите|ьте)(?:сь)?"), plural=True,
             # nouns in the prepositional or dative that end like the verb
             not_forms=frozenset({"сайте", "лимите", "кредите", "аппетите", "алфавите",
                                  "граните", "зените", "орбите", "элите", "свите", "защите",
                                  "визите", "транзите", "дефиците", "ите"})),
    ),
    "pl": (
        Rule("polite pronoun (Pan, Pani, Państwo …)",
             _words(r"Pan", r"Pana", r"Panu", r"Panem", r"Panie", r"Pani", r"Panią",
                    r"Państwo", r"Państwa", r"Państwu", r"Państwem", case=True), plural=False),
        Rule("wy-pronoun (wy, was, wasz …)", _words(r"wy", r"was", r"wam", r"wami", r"wasz\w*"),
             plural=True),
        Rule("wy-verb (-cie: imperative, present, past)", _words(r"\w+cie"), plural=True,
             # nouns in -cie (locatives of -t/-ta nouns, verbal nouns in -ęcie), "trzecie"
             not_forms=frozenset({"liście", "karcie", "starcie", "świecie", "trzecie", "dotarcie",
                                  "kwadracie", "pakiecie", "sekrecie", "komplecie", "życie",
                                  "odkrycie", "ukrycie", "pokrycie", "bycie", "wyjście",
                                  "wejście", "przejście", "podejście", "mieście", "tekście",
                                  "kontekście", "szczęście", "kobiecie", "gazecie"}),
             not_endings=("ęcie",)),
        Rule("my-imperative (zagrajmy, ułóżmy)", _words(r"\w+[^\W\daąeęioóuy]my"), plural=True),
    ),
    "fr": (
        Rule("vous-pronoun (vous, votre, vos)", _words(r"vous", r"votre", r"vos", r"vôtres?"),
             plural=True),
        Rule("vous-verb (-ez)", _words(r"\w+ez"), plural=True,
             not_forms=frozenset({"chez", "assez", "nez", "rez"})),
    ),
    "de": (
        Rule("Sie-pronoun (Sie, Ihnen, Ihr … mid-sentence)",
             _words(r"Sie", r"Ihnen", r"Ihr", r"Ihre", r"Ihrem", r"Ihren", r"Ihrer", r"Ihres",
                    case=True), plural=False, where="mid-sentence"),
        Rule("Sie-imperative (…en Sie)", _words(r"\w+en Sie", case=True), plural=False),
        Rule("ihr-pronoun (euch, euer …)", _words(r"euch", r"euer", r"eure\w*"), plural=True),
    ),
    "nl": (
        Rule("u-pronoun (u, uw)", _words(r"u", r"uw", case=False), plural=False,
             not_after=re.compile(r"\d\s*$")),  # "3 u": 3 hours
        Rule("jullie-pronoun (plural)", _words(r"jullie"), plural=True),
    ),
    "es": (
        Rule("usted (usted, ustedes, Ud.)", _words(r"usted", r"ustedes", r"Uds?", r"Vds?",
                                                   case=True), plural=False),
        Rule("usted-imperative (Pulse, Elija …)",
             _words(r"pulse", r"elija", r"utilice", r"espere", r"vuelva", r"inténtelo",
                    r"escriba", r"juegue", r"pruebe", r"únase", r"abra", r"haga", r"envíe",
                    r"pida", r"mire", r"consulte", r"seleccione", r"compruebe", r"use"),
             plural=False, where="clause start"),
        Rule("vosotros-pronoun (vosotros, os, vuestro …)",
             _words(r"vosotros", r"vosotras", r"os", r"vuestr[oa]s?"), plural=True),
        Rule("vosotros-verb (-áis/-éis/-ís, imperative -ad/-ed/-id)",
             _words(r"\w+(?:áis|éis|ís)", r"\w+[aei]d"), plural=True,
             not_forms=frozenset({"país", "anís", "red", "pared", "sed", "merced", "césped",
                                  "huésped", "usted", "madrid", "david", "lid", "vid", "ardid"}),
             not_endings=("dad", "tad")),
    ),
    "it": (
        Rule("Lei-pronoun (Lei, Suo, Sua … mid-sentence)",
             _words(r"Lei", r"Suo", r"Sua", r"Suoi", r"Sue", case=True), plural=False,
             where="mid-sentence"),
        # only verbs in -ere/-ire: in -are the Lei form is the tu form ("giochi", "usi")
        Rule("Lei-imperative (Prema, Scelga …)",
             _words(r"prema", r"scelga", r"attenda", r"scriva", r"apra", r"legga", r"metta",
                    r"prenda", r"faccia", r"dica", r"venga", r"rimanga"),
             plural=False, where="clause start"),
        Rule("voi-pronoun (voi, vostro …)", _words(r"voi", r"vostr[oaie]"), plural=True),
        Rule("voi-imperative (-ate/-ete/-ite at a clause's start or after «non»)",
             _words(r"\w+(?:ate|ete|ite)"), plural=True, where="clause start",
             not_forms=_IT_NOT_FORMS),
        Rule("voi-imperative (non …ate/ete/ite)", _words(r"non \w+(?:ate|ete|ite)"), plural=True,
             not_forms=_IT_NOT_FORMS),
    ),
}


@dataclass(frozen=True)
class Slip:
    """A catalog value that speaks to the reader in a form its language's catalogs do not use."""

    language: str
    key: str
    rule: str
    found: str
    address: str

    def __str__(self) -> str:
        return (f"{self.language} {self.key}: “{self.found}” is a {self.rule}; "
                f"the catalogs say “{self.address}”")


@lru_cache(maxsize=None)
def register(language: str) -> dict[str, Any]:
    """The ``register`` section of a language's glossary."""
    path = GLOSSARY_DIR / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8"))["register"]


def _texts(entry: Any) -> list[str]:
    # a placeholder reads as a number: "{hours} u" is "3 u" (hours), not the Dutch "u"
    values = [v for k, v in entry.items() if k != PLURAL_PARAM] if isinstance(entry, dict) \
        else [entry]
    return [_PLACEHOLDER.sub("0", value) for value in values]


def check(language: str, book: Mapping[str, Any] | None = None,
          group: Mapping[str, str] | None = None) -> list[Slip]:
    """Every value of ``book`` (default: the language's catalogs) that one of the language's
    rules finds; the plural rules skip the keys of ``group`` (default: the glossary's)."""
    book = catalogs()[language] if book is None else book
    spec = register(language)
    group = spec.get("group", {}) if group is None else group
    slips = []
    for rule in RULES.get(language, ()):
        for key, entry in book.items():
            if rule.plural and key in group:
                continue
            for text in _texts(entry):
                found = rule.finds(text)
                if found:
                    slips.append(Slip(language, key, rule.name, found, spec["address"]))
                    break
    return slips


def stale_groups(language: str) -> list[str]:
    """Group keys that are gone or no longer speak in the plural."""
    book = catalogs()[language]
    plural = [rule for rule in RULES.get(language, ()) if rule.plural]
    return [f"{language} register: group {key}" for key in register(language).get("group", {})
            if key not in book or not any(rule.finds(text) for rule in plural
                                          for text in _texts(book[key]))]
