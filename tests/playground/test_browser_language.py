"""The page speaks the browser's language (issue 47): a Polish browser sees the page's own
words in Polish (the seat switcher, the notice under an ephemeral reply and its dismiss link,
the message box, Discord's answers to bad input) and the bot's reply in Polish too."""
from __future__ import annotations

import re

import pytest

from bot.i18n import t

from .driver import keep, open_page

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")

EPHEMERAL = "#messages article.ephemeral"
NOTICE = "#messages article.notice"


def _plain(text: str) -> str:
    """A run of the catalog text that the page shows as it is (no Markdown, no placeholder)."""
    return max(re.split(r"[*_`{}\n]|\*\*", text), key=len).strip()


async def test_a_polish_browser_gets_the_page_and_the_bot_in_polish(browser, playground, shots):
    page = await open_page(browser, playground.url, "Ola", width=400, locale="pl-PL")
    assert await page.evaluate("document.documentElement.lang") == "pl"
    assert await page.title() == t("playground.title", "pl") == "Piaskownica Tabletop"
    assert "Grasz jako" in await page.locator("label.seat").inner_text()
    assert await page.locator("#seat").get_attribute("aria-label") == "Grasz jako"
    assert await page.locator("#status").inner_text() == "● na żywo"
    box = page.locator("#box")
    assert await box.get_attribute("placeholder") == "Napisz na #games"
    assert "Witaj na kanale #games!" in await page.locator(".welcome").inner_text()

    await box.fill("/sensei rules")
    await box.press("Enter")
    reply = page.locator(EPHEMERAL).last
    await reply.wait_for()
    text = await reply.inner_text()
    assert "Tylko Ty widzisz tę wiadomość" in text
    assert "Only you can see this" not in text
    assert _plain(t("sensei.rules", "pl")) in text, text  # the bot's own words, in Polish
    assert "Ola użył(a) /sensei rules" in text
    reply_id = await reply.get_attribute("id")
    dismiss = page.locator(f"#{reply_id} a.dismiss")
    assert await dismiss.inner_text() == "Odrzuć wiadomość"
    await keep(page, shots, "polish-400.png")

    await box.fill("/taniec")
    await box.press("Enter")
    await page.locator(NOTICE, has_text="nie jest poleceniem tego serwera").wait_for()
    await box.fill("x" * 2500)
    await box.press("Enter")
    await page.locator(NOTICE, has_text="2500 znaków").wait_for()

    await dismiss.click()
    await page.locator(f"#{reply_id}").wait_for(state="detached")
    await page.set_viewport_size({"width": 1280, "height": 900})
    await keep(page, shots, "polish-1280.png")
    assert not page.errors, page.errors


async def test_the_page_follows_each_browser_not_the_first(browser, playground):
    """The server's language is the first browser's; each page still speaks its own."""
    polish = await open_page(browser, playground.url, "Ola", locale="pl-PL")
    german = await open_page(browser, playground.url, "Jonas", locale="de-DE")
    assert "Du spielst als" in await german.locator("label.seat").inner_text()
    assert await german.evaluate("document.documentElement.lang") == "de"
    assert "Grasz jako" in await polish.locator("label.seat").inner_text()
    assert not polish.errors and not german.errors
