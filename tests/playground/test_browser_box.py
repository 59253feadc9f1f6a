"""The message box in a real browser: command names suggested as you type, bad input
answered as Discord's client would (an ephemeral notice, no traceback), message text shown as
text, and the browser's language used for the bot's replies."""
from __future__ import annotations

import pytest

from .driver import keep, open_page, send

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")

NOTICE = "#messages article.notice"


async def test_the_message_box_suggests_refuses_and_escapes(browser, playground, shots):
    page = await open_page(browser, playground.url, "Ana", width=400)
    box = page.get_by_placeholder("Message")
    assert await box.evaluate("b => b.tagName") == "TEXTAREA"
    await box.fill("/sen")
    suggestions = page.locator("#suggest li")
    await suggestions.first.wait_for()
    assert "/sensei start" in await page.locator("#suggest").inner_text()
    await box.fill("/sensei start a")
    await page.locator("#suggest", has_text="ai:").wait_for()
    await box.fill("/sensei start ai:")
    assert "ai: Hard" in await page.locator("#suggest").inner_text()  # a choice by its name

    await send(page, "/dance")
    await page.locator(NOTICE, has_text="is not a command").wait_for()
    await send(page, "/narabi start players:9")
    await page.locator(NOTICE, has_text="between 3 and 5").wait_for()
    await box.fill("x" * 10_000)
    assert (await page.locator("#count").inner_text()) == "-8000"
    await box.press("Enter")
    await page.locator(NOTICE, has_text="2,000 or fewer").wait_for()
    assert (await box.input_value()) == "x" * 10_000  # refused, not sent, not lost
    assert len(playground.notes) == 0

    hostile = '<img src=x onerror="document.title=1"> **bold** <script>alert(1)</script>'
    await send(page, hostile)
    shown = page.locator("#messages article", has_text="onerror").last
    await shown.wait_for()
    assert await shown.locator("img").count() == 0 and await shown.locator("script").count() == 0
    assert await shown.locator("strong", has_text="bold").count() == 1
    assert await page.title() == "Tabletop playground"
    await keep(page.locator(NOTICE).first, shots, "notice-400.png")
    await page.set_viewport_size({"width": 1280, "height": 900})
    await keep(page, shots, "box-1280.png")
    assert not page.errors, page.errors


async def test_the_browser_language_is_the_interaction_locale(browser, playground):
    page = await open_page(browser, playground.url, "Zoé", locale="fr-FR")
    await send(page, "/sensei rules")
    reply = page.locator("#messages article.ephemeral").last
    await reply.wait_for()
    assert "Visible uniquement par toi" in await reply.inner_text()  # the page speaks French too
    text = await reply.inner_text()
    assert "Sensei" in text and any(w in text for w in (" le ", " la ", " les ", " votre ")), text
    german = await open_page(browser, playground.url, "Jonas", locale="de-DE")
    await send(german, "/sensei rules")
    answer = german.locator("#messages article.ephemeral").last
    await answer.wait_for()
    german_text = await answer.inner_text()
    assert any(w in german_text for w in (" der ", " die ", " das ")), german_text
    assert await page.locator("#messages article.ephemeral").count() == 1  # not Jonas's
    assert not page.errors and not german.errors
    # the seat switcher: Zoé's tab now plays as Jonas, and sees Jonas's reply, not hers
    await page.select_option("#seat", "Jonas")
    await page.wait_for_url("**/?as=Jonas")
    await page.wait_for_selector(".status.live")
    mine = page.locator("#messages article.ephemeral")
    await mine.first.wait_for()
    reply_body = german_text[german_text.index("Sensei"):][:40]  # the bot's words, not the page's
    assert await mine.count() == 1 and reply_body in await mine.inner_text()
