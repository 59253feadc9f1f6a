"""Every language's catalogs against the English ones: the same keys, the same placeholders,
every CLDR plural form, every message formats with sample values, and what Discord shows
stays inside Discord's limits."""
from __future__ import annotations

import re
import string
from typing import Any

import pytest

from bot.i18n import LANGUAGES, PLURAL_PARAM, catalogs, plural_categories, plural_rule, t

ENGLISH = catalogs()["en"]
PRESENT = [lang for lang in LANGUAGES if lang != "en" and lang in catalogs()]

#: keys whose text Discord shows in a component or command, with its limit
LIMITS = (
    (re.compile(r"(^|\.)button\.|^narabi\.button\.|^sensei\.button\.|^sarena\.button\."), 80),
    (re.compile(r"^cmd\.name\."), 32),
    (re.compile(r"^cmd\."), 100),
    (re.compile(r"placeholder$|^lobby\.(add|remove)_ai$"), 150),
    (re.compile(r"\.description$"), 100),
    (re.compile(r"^ai\.level\.[a-z]+$|^clock\.policy\.[a-z]+$|^thread\.name$"), 100),
)
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def forms(entry: Any) -> dict[str, str]:
    if isinstance(entry, dict):
        return {k: v for k, v in entry.items() if k != PLURAL_PARAM}
    return {"other": entry}


def sample_params(entry: Any) -> dict[str, Any]:
    names: set[str] = set()
    for text in forms(entry).values():
        names |= fields(text)
    return {name: f"<{name}>" for name in names}


def numbers_for(language: str) -> dict[str, int | float]:
    """A number falling in each plural category of the language."""
    rule = plural_rule(language)
    found: dict[str, int | float] = {}
    for n in [*range(0, 200), 1000000, 1.5]:
        found.setdefault(rule(n), n)
    return found


def test_every_language_the_bot_speaks_has_catalogs():
    assert set(LANGUAGES) == {"en", "pl", "fr", "de", "nl", "es", "ru", "it"}
    assert sorted(PRESENT) == sorted(set(LANGUAGES) - {"en"})


@pytest.mark.parametrize("language", ["en", *PRESENT])
def test_same_keys_placeholders_and_plural_forms(language):
    book = catalogs()[language]
    assert set(book) == set(ENGLISH), (sorted(set(ENGLISH) - set(book))[:20],
                                       sorted(set(book) - set(ENGLISH))[:20])
    needed = plural_categories(language)
    for key, entry in book.items():
        english = ENGLISH[key]
        wanted = set().union(*(fields(text) for text in forms(english).values()))
        if isinstance(entry, dict):
            assert needed <= set(forms(entry)), (language, key, sorted(needed - set(forms(entry))))
            assert set(forms(entry)) <= plural_categories(language) | {"zero"}, (language, key)
            param = entry.get(PLURAL_PARAM, "count")
            assert param in wanted, (language, key, param)
            for category, text in forms(entry).items():
                assert text.strip(), (language, key, category)
                assert fields(text) <= wanted, (language, key, category, fields(text) - wanted)
            # The general form names every value (a "one" form may say "a turn" instead).
            assert fields(forms(entry)["other"]) == wanted, (language, key)
        else:
            assert isinstance(entry, str) and entry.strip(), (language, key)
            assert fields(entry) == wanted, (language, key, fields(entry) ^ wanted)


@pytest.mark.parametrize("language", ["en", *PRESENT])
def test_every_message_formats_in_every_plural_category(language, caplog):
    book = catalogs()[language]
    numbers = numbers_for(language)
    for key, entry in book.items():
        params = sample_params(ENGLISH[key])
        if isinstance(entry, dict):
            param = entry.get(PLURAL_PARAM, "count")
            for category, number in numbers.items():
                text = t(key, language, **{**params, param: number})
                form = forms(entry).get(category) or forms(entry)["other"]
                assert text == form.format(**{**params, param: number}), (language, key, category)
        else:
            assert t(key, language, **params) == entry.format(**params)
    assert "does not fit" not in caplog.text


@pytest.mark.parametrize("language", ["en", *PRESENT])
def test_what_discord_shows_fits_its_limits(language):
    book = catalogs()[language]
    for key, entry in book.items():
        for pattern, limit in LIMITS:
            if pattern.search(key):
                for text in forms(entry).values():
                    shown = text.format(**sample_params(ENGLISH[key])) if fields(text) else text
                    assert len(shown) <= limit, (language, key, len(shown), limit)
                break
        if key.startswith("cmd.name."):
            assert COMMAND_NAME.fullmatch(entry) and entry == entry.lower(), (language, key, entry)


def test_plural_rules_follow_cldr():
    assert t("stats.games", "en", count=1) == "1 game"
    assert t("stats.games", "en", count=0) == "0 games"
    assert plural_rule("ru")(1) == "one" and plural_rule("ru")(3) == "few"
    assert plural_rule("ru")(5) == "many" and plural_rule("ru")(21) == "one"
    assert plural_rule("pl")(22) == "few" and plural_rule("pl")(25) == "many"
    assert plural_rule("fr")(0) == "one" and plural_rule("fr")(2) == "other"


@pytest.mark.parametrize("language", ["en", *PRESENT])
def test_translated_command_names_stay_unique_where_discord_requires(language):
    """Discord refuses a command sync where two subcommands of a group, or two options of a
    command, share a name in some language: check every level of the real command tree."""
    import asyncio

    from discord import app_commands

    from bot.config import Settings
    from bot.store import Store
    from bot.client import TabletopBot
    from bot.testing.harness import Harness

    book = catalogs()[language]

    def local(name: str) -> str:
        return book.get(f"cmd.name.{name}", name)

    async def tree_names(tmp: str) -> list[tuple[str, list[str]]]:
        from pathlib import Path

        store = await Store.open(Path(tmp) / "t.sqlite3")
        bot = TabletopBot(Settings("", Path(tmp) / "t.sqlite3", None, "INFO"), store)
        h = await Harness.start(bot)
        try:
            levels = [("/", [c.name for c in bot.tree.get_commands()])]
            stack = list(bot.tree.get_commands())
            while stack:
                command = stack.pop()
                if isinstance(command, app_commands.Group):
                    levels.append((command.name, [c.name for c in command.commands]))
                    stack.extend(command.commands)
                else:
                    levels.append((command.qualified_name,
                                   [p.name for p in command.parameters]))
            return levels
        finally:
            await h.bot.close()

    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        levels = asyncio.run(tree_names(tmp))
    assert any("version" in names and "ai" in names for _, names in levels)  # sensei start
    assert any("language" in names and "clock" in names for _, names in levels)  # /config
    for where, names in levels:
        shown = [local(n) for n in names]
        assert len(set(shown)) == len(shown), (language, where, shown)
