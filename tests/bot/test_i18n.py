"""The translation function and the catalogs."""
from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

from bot import i18n
from bot.i18n import catalogs, language_of, t
from bot.ui.translator import CatalogTranslator


def test_english_catalog_is_complete_and_formats():
    english = catalogs()["en"]
    assert t("error.table_full", "en-US", max=5) == "This table is full (5 players)."
    assert t("error.table_full", discord.Locale.japanese, max=5) == \
        english["error.table_full"]["other"].format(max=5)
    assert t("error.table_full", "en-US", max=1) == "This table is full (1 player)."
    for key, entry in english.items():
        texts = [v for k, v in entry.items() if k != "$n"] if isinstance(entry, dict) else [entry]
        for text in texts:
            assert text.strip(), key
            # every placeholder is a plain name, so str.format can fill it
            for name in re.findall(r"{([^{}]*)}", text):
                assert name.isidentifier(), (key, name)


def test_a_score_with_a_half_picks_its_plural_form_as_a_number():
    you = {"rank": 2, "buchholz": "3", "sb": "2"}
    assert "with 1 point " in t("tournament.standings.you", "en", score="1", **you)
    assert "with 1½ points " in t("tournament.standings.you", "en", score="1½", **you)
    # French: below two is singular, halves included.
    assert "avec 1½ point " in t("tournament.standings.you", "fr", score="1½", **you)
    assert "avec 2½ points " in t("tournament.standings.you", "fr", score="2½", **you)
    # A round of one table, and of five in Polish (its "many" form).
    assert "1 table, in its own thread" in t("tournament.announce.round", "en", round=1,
                                               rounds=3, name="Cup", tables=1)
    assert "5 stołów" in t("tournament.announce.round", "pl", round=1, rounds=3, name="Cup",
                           tables=5)


def test_missing_key_is_visible_not_fatal(caplog):
    assert t("no.such.key") == "no.such.key"
    assert "missing catalog key no.such.key" in caplog.text


def test_locale_fallback(monkeypatch):
    monkeypatch.setattr(i18n, "catalogs", lambda: {"en": {"a": "A {x}", "b": "B"},
                                                   "fr": {"a": "À {x}"}})
    assert language_of("fr") == "fr" and language_of("fr-CA") == "fr"
    assert language_of("de") == "en" and language_of(None) == "en"
    assert t("a", "fr", x=1) == "À 1"
    assert t("b", "fr") == "B"  # key by key fallback


async def test_translator_gives_discord_only_real_translations(monkeypatch):
    monkeypatch.setattr(i18n, "catalogs", lambda: {"en": {"k": "Start"}, "fr": {"k": "Démarrer"}})
    translator = CatalogTranslator()
    string = app_commands.locale_str("Start", key="k")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(string, discord.Locale.french, context) == "Démarrer"
    assert await translator.translate(string, discord.Locale.german, context) is None
    assert await translator.translate(app_commands.locale_str("x"), discord.Locale.french,
                                      context) is None


def test_duplicate_keys_across_catalogs_are_refused(tmp_path, monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "en.json").write_text('{"x": "1"}')
    (b / "en.ui.json").write_text('{"x": "2"}')
    monkeypatch.setattr(i18n, "CATALOG_DIRS", (a, b))
    i18n.catalogs.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="already defined"):
            i18n.catalogs()
    finally:
        monkeypatch.undo()
        i18n.catalogs.cache_clear()
