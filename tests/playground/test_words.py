"""The page's own words (issue 47): every word the page shows is a catalog entry in all eight
languages, and the page is served in the language the browser asks for (Accept-Language, with
its q-values, the same reading that sets the locale of the page's interactions)."""
from __future__ import annotations

import json
import re
from importlib import resources

import pytest
from aiohttp import ClientSession

from bot.i18n import LANGUAGES, catalogs, t
from bot.playground.people import discord_locale
from bot.playground.words import PREFIX, format_number, language, page_words

#: the playground's tests share the session's event loop (conftest's ``playground``)
IN_THE_SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")

STATIC = resources.files("bot.playground").joinpath("static")
#: how the page names its words: PG.t("…"), t("…"), PG.parts("…") in the scripts,
#: {{…}} in the page
USES = (re.compile(r"""\b(?:PG\.t|t|PG\.parts)\(\s*(?:"([\w.]+)"|[^"()]*\?\s*"([\w.]+)"\s*:\s*"([\w.]+)")"""),
        re.compile(r"\{\{([\w.]+)\}\}"))


def named_words() -> set[str]:
    found: set[str] = set()
    for name in ("app.js", "render.js", "activity-pane.js", "index.html"):
        text = STATIC.joinpath(name).read_text(encoding="utf-8")
        for use in USES:
            for match in use.finditer(text):
                found |= {g for g in match.groups() if g}
    return found - {"lang", "words"}


def test_every_word_the_page_names_is_in_every_catalog():
    named = named_words()
    assert {"playing_as", "only_you", "dismiss", "picture.thumbnail", "error.refused"} <= named
    for language_code in LANGUAGES:
        book = catalogs()[language_code]
        missing = sorted(word for word in named if PREFIX + word not in book)
        assert not missing, (language_code, missing)
        page = {key for key in book if key.startswith(PREFIX)}
        assert page == {key for key in catalogs()["en"] if key.startswith(PREFIX)}, language_code
    # … and every page word is used by the page or the server's answers
    server = "".join(resources.files("bot.playground").joinpath(name).read_text(encoding="utf-8")
                     for name in ("host.py", "commands.py"))
    unused = [key for key in catalogs()["en"] if key.startswith(PREFIX)
              and key[len(PREFIX):] not in named
              and key.split(".")[-1] not in re.findall(r"\w+", server)]
    assert not unused, unused


def test_other_languages_say_the_page_words_their_own_way():
    for language_code in LANGUAGES:
        if language_code == "en":
            continue
        words = page_words(language_code)
        english = page_words("en")
        assert words["playing_as"] != english["playing_as"], language_code
        assert words["only_you"] != english["only_you"], language_code
        assert words["dismiss"] != english["dismiss"], language_code
    assert page_words("pl")["only_you"] == "Tylko Ty widzisz tę wiadomość"
    assert page_words("pl")["dismiss"] == "Odrzuć wiadomość"


@pytest.mark.parametrize("header, expected", [
    ("pl-PL,pl;q=0.9,en-US;q=0.8", "pl"), ("ja, fr;q=0.8, pl;q=0.9", "pl"),
    ("de-AT", "de"), ("es-MX,es;q=0.9", "es"), ("pl;q=0, nl", "nl"), ("xx", "en"),
    (None, "en"), ("ru", "ru"), ("it-CH;q=0.5, en;q=0.4", "it"), ("en-GB,fr;q=0.7", "en"),
])
def test_the_page_language_is_the_interaction_language(header, expected):
    assert language(header) == expected
    assert t("playground.only_you", discord_locale(header)) == page_words(expected)["only_you"]


def test_numbers_are_written_the_languages_way():
    assert f"{format_number(10000, 'en')}" == "10,000"
    assert f"{format_number(10000, 'de')}" == "10.000"
    assert t("playground.error.too_long", "pl", count=format_number(10000, "pl"),
             limit=format_number(2000, "pl")).startswith("Twoja wiadomość jest za długa: 10\xa0000 znaków")


async def _page(url: str, accept: str | None) -> tuple[str, dict]:
    headers = {"Accept-Language": accept} if accept else {}
    async with ClientSession() as s, s.get(url, headers=headers) as r:
        assert r.status == 200 and "Accept-Language" in r.headers["Vary"]
        text = await r.text()
    words = json.loads(re.search(r'<script id="words" type="application/json">(.*?)</script>',
                                 text, re.S).group(1))
    return text, words


@IN_THE_SESSION_LOOP
async def test_the_served_page_follows_accept_language(playground):
    text, words = await _page(playground.url, "pl-PL,pl;q=0.9,en;q=0.5")
    assert '<html lang="pl">' in text and "<title>Piaskownica Tabletop</title>" in text
    assert ">Grasz jako" in text and 'placeholder="Napisz na #games"' in text
    assert words == page_words("pl") and words["only_you"] == "Tylko Ty widzisz tę wiadomość"
    text, words = await _page(playground.url, "en;q=0.2, fr;q=0.9")
    assert '<html lang="fr">' in text and words["dismiss"] == "Ignorer le message"
    text, words = await _page(playground.url, None)
    assert '<html lang="en">' in text and words["only_you"] == "Only you can see this"
    assert "{{" not in text


@IN_THE_SESSION_LOOP
async def test_the_answers_to_bad_input_follow_accept_language(playground):
    async with ClientSession() as s:
        async with s.post(playground.url + "api/command", json={"text": "/taniec", "as": "Ola"},
                          headers={"Accept-Language": "pl"}) as r:
            body = await r.json()
    assert "nie jest poleceniem tego serwera" in body["error"] and "`/taniec`" in body["error"]
    async with ClientSession() as s:
        async with s.post(playground.url + "api/click", json={"message": "12", "custom_id": "x:1",
                                                              "as": "Ola"},
                          headers={"Accept-Language": "ru-RU,ru;q=0.9"}) as r:
            body = await r.json()
    assert body == {"error": t("playground.error.message_deleted", "ru")}
