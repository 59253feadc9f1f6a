"""Every localized command name passes Discord's name rule and keeps the letters its language
needs.

Discord's rule for slash-command, subcommand and option names: 1–32 characters matching
``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase wherever a letter has a
lowercase form. Python's ``re`` knows neither ``\\p{L}`` nor scripts, so ``discord_name_ok``
spells the rule out with Unicode categories (L*, N*) and the Devanagari and Thai blocks.

Lost accents. A name such as "clasificacion" passes Discord's rule, so the rule cannot see it.
The check: split each name into words (at ``-``, ``_``, ``'``); a word written without any mark
is suspect when the same language writes a word that differs from it *only by marks* — ó, é,
ü, ß, ł, ё, й … — in its catalog text or glossary, and never writes the bare form itself. "Only
by marks" is tested on the folded form (Unicode decomposition without combining marks, plus
ß→ss, ł→l, ø→o, æ→ae, œ→oe), both for the whole word ("numero" / "número") and for the stem, so
that an inflected form counts ("powtorka" / "powtórkę": same letters up to the last one of the
name, a mark among them). Why this is honest and robust enough:

* It compares a language only with itself, so French "numéro" says nothing about Polish "numer".
* A bare word that the language also writes bare in its text (es "solo", it "e") is a real
  word, not a lost accent, and is not reported.
* Command names themselves are left out of the vocabulary (the stripped name is the suspect);
  the glossary adds every chosen term, so a name whose word the catalogs only inflect is still
  covered once the glossary names the idea.
* What it cannot see: a word with no accented relative anywhere in that language's catalogs or
  glossary. Add the word to the glossary and the check sees it.

The names checked are both the catalog's ``cmd.name.*`` values and what the bot really
registers: the real command tree, translated by ``CatalogTranslator`` into every Discord locale,
as ``CommandTree.sync`` sends it.
"""
from __future__ import annotations

import asyncio
import re
import tempfile
import unicodedata
from pathlib import Path
from typing import Any, Iterator

import discord
import pytest

from bot.glossary import words as glossary_words
from bot.i18n import FALLBACK, LANGUAGES, catalogs, language_of

#: Devanagari and Thai: the blocks of the scripts Discord's rule names
_SCRIPTS = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F), (0x0E00, 0x0E7F))
_SPLIT = re.compile(r"[-_']")
_WORD = re.compile(r"\w+")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_SPECIAL = {"ß": "ss", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ı": "i"}

#: names that stay ASCII by choice, with the reason (shown in every language)
ASCII_BY_CHOICE = {
    "sarena": "the game's own command (/sarena), the same in every language and typeable on any "
              "keyboard; the game's name keeps its accents everywhere it is shown (Sàréná)",
}


def discord_name_ok(name: str) -> bool:
    """Discord's rule for a chat-input command, subcommand or option name."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for char in name:
        if char in "-_'" or unicodedata.category(char)[0] in "LN":
            continue
        if any(low <= ord(char) <= high for low, high in _SCRIPTS):
            continue
        return False
    return True


def fold(word: str) -> tuple[str, list[int]]:
    """The word without its marks, lowercase, and where in the folded word a mark was dropped."""
    out: list[str] = []
    marked: list[int] = []
    for char in word.lower():
        bare = _SPECIAL.get(char) or "".join(
            c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
        if bare != char:
            marked.append(len("".join(out)))
        out.append(bare)
    return "".join(out), marked


def vocabulary(language: str) -> set[str]:
    """The words a language writes: its catalog text (command names left out) and glossary."""
    found: set[str] = set()
    for key, entry in catalogs()[language].items():
        if key.startswith("cmd.name."):
            continue
        values = entry.values() if isinstance(entry, dict) else [entry]
        for value in values:
            found.update(w.lower() for w in _WORD.findall(_PLACEHOLDER.sub(" ", value)))
    found.update(w.lower() for w in glossary_words(language))
    return found


def lost_accents(names: set[str], vocab: set[str]) -> dict[str, str]:
    """Name words that look like an accented word of ``vocab`` with its marks dropped:
    {name word: the accented word}."""
    accented = {w: fold(w) for w in vocab if fold(w)[1]}
    suspects: dict[str, str] = {}
    for name in names:
        for part in filter(None, _SPLIT.split(name)):
            if fold(part)[1] or part in vocab or part in ASCII_BY_CHOICE:
                continue
            for word, (bare, marks) in sorted(accented.items()):
                whole = bare == part
                stem = (len(part) >= 5 and bare[:len(part) - 1] == part[:-1]
                        and min(marks) < len(part) - 1)
                if whole or stem:
                    suspects[part] = word
                    break
    return suspects


def catalog_names(language: str) -> set[str]:
    return {v for k, v in catalogs()[language].items() if k.startswith("cmd.name.")}


def walk(payload: dict[str, Any], where: str = "") -> Iterator[tuple[str, str, dict[str, str]]]:
    """(where, name, name_localizations) of a command payload and of each of its options
    (subcommands, groups, parameters; not choices, whose names may hold any text)."""
    where = f"{where} {payload['name']}".strip()
    yield where, payload["name"], payload.get("name_localizations") or {}
    for option in payload.get("options", []):
        yield from walk(option, where)


def registered_payloads() -> list[dict[str, Any]]:
    """What the bot sends Discord at a sync: every command, translated by its translator."""
    from bot.client import TabletopBot
    from bot.config import Settings
    from bot.store import Store
    from bot.testing.harness import Harness

    async def payloads(tmp: str) -> list[dict[str, Any]]:
        store = await Store.open(Path(tmp) / "t.sqlite3")
        bot = TabletopBot(Settings("", Path(tmp) / "t.sqlite3", None, "INFO"), store)
        h = await Harness.start(bot)
        try:
            tree = bot.tree
            assert tree.translator is not None
            return [await command.get_translated_payload(tree, tree.translator)
                    for command in tree.get_commands()
                    if isinstance(command, (discord.app_commands.Command,
                                            discord.app_commands.Group))]
        finally:
            await h.bot.close()

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(payloads(tmp))


@pytest.fixture(scope="module")
def payloads() -> list[dict[str, Any]]:
    return registered_payloads()


@pytest.fixture(scope="module")
def registered(payloads) -> dict[str, set[str]]:
    """The names each of our languages sees, as registered: {language: names}."""
    shown: dict[str, set[str]] = {language: set() for language in LANGUAGES}
    locales_of = {language: [loc.value for loc in discord.Locale
                             if language_of(loc) == language] for language in LANGUAGES}
    for payload in payloads:
        for _, name, localized in walk(payload):
            for language, locales in locales_of.items():
                for locale in locales or [FALLBACK]:
                    shown[language].add(localized.get(locale, name))
    return shown


def test_the_rule_as_discord_states_it():
    for good in ("start", "défi", "clasificación", "posición-inicial", "po_czasie", "ии",
                 "время", "bedenkzeit", "größe", "it's", "x" * 32, "१२३", "हिंदी", "ไทย", "ที่", "2p"):
        assert discord_name_ok(good), good
    for bad in ("", "x" * 33, "two words", "Start", "Défi", "ok!", "a/b", "a.b", "🙂"):
        assert not discord_name_ok(bad), bad


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_command_name_passes_discords_rule(language):
    bad = sorted(name for name in catalog_names(language) if not discord_name_ok(name))
    assert not bad, (language, bad)


def test_every_registered_name_in_every_locale_passes_discords_rule(payloads):
    localized = 0
    for payload in payloads:
        assert payload.get("type", 1) == 1  # chat-input commands only: the rule is theirs
        for where, name, names in walk(payload):
            assert discord_name_ok(name), (where, name)
            for locale, text in names.items():
                assert discord_name_ok(text), (where, locale, text)
                language = language_of(locale)
                assert text in catalog_names(language), (where, locale, text)
                localized += 1
    # The translator really ran: option and subcommand names are localized in the 7 languages.
    assert localized >= 7 * 20, localized


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_command_name_lost_its_accents(language, registered):
    names = catalog_names(language) | registered[language]
    suspects = lost_accents(names, vocabulary(language))
    assert not suspects, (language, suspects)


def test_the_accent_check_sees_what_issue_27_found():
    """Names as they were before issue 27 (es, and pl and fr found by this check) are caught,
    through the whole word or the stem; real bare words are not."""
    assert lost_accents({"clasificacion", "repeticion", "numero"}, vocabulary("es")) == {
        "clasificacion": "clasificación", "repeticion": "repetición", "numero": "número"}
    assert set(lost_accents({"powtorka"}, vocabulary("pl"))) == {"powtorka"}
    assert set(lost_accents({"numero"}, vocabulary("fr"))) == {"numero"}
    assert set(lost_accents({"zaawansowany", "ustawienia", "numer"}, vocabulary("pl"))) == set()
    # without the exact word, the stem still gives it away: "powtórkę" → powtorka
    assert lost_accents({"powtorka"}, {"powtórkę", "gra"}) == {"powtorka": "powtórkę"}
    # a word written bare in the language is a word, not a lost accent
    assert lost_accents({"solo"}, {"solo", "sólo"}) == {}
    # the check is per language: French "numéro" says nothing about Polish "numer"
    assert lost_accents({"numer"}, vocabulary("pl")) == {}
    # ß and ł count as marks too
    assert lost_accents({"grosse"}, {"größe"}) == {"grosse": "größe"}
    assert lost_accents({"lodz"}, {"łódź"}) == {"lodz": "łódź"}
    assert lost_accents({"sarena"}, {"sàréná"}) == {}  # by choice: see ASCII_BY_CHOICE
