"""Lessons finished through the page in headless Chromium, as a newcomer would: Sensei in
English (its turns planned with a table's piece and target buttons), Sàréná in German. Every
step shows its picture; the choices are the buttons."""
from __future__ import annotations

import pytest

from .driver import EPHEMERAL, _click_and_wait, open_page, screenshot, send

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _lesson(page, command: str | None, first: str | None, clicks: list[str],
                  done: str | None = None) -> list[str]:
    """Start ``command`` (None: go on in the lesson's message), then click the buttons named
    in ``clicks`` one after another in the lesson's message; returns what each step said."""
    if command is not None:
        await send(page, command)
    lesson = page.locator(EPHEMERAL).last
    if first is not None:
        await lesson.get_by_text(first).first.wait_for(timeout=30_000)
    said = [await lesson.inner_text()]
    for label in clicks:
        lesson = page.locator(EPHEMERAL).last
        pictures = await lesson.locator("img").evaluate_all("imgs => imgs.map(i => i.alt)")
        assert pictures and all(alt.strip() for alt in pictures), f"no picture before {label!r}"
        button = lesson.get_by_role("button", name=label, exact=True)
        failed = await _click_and_wait(page, button.first)
        assert failed is None, (label, failed)
        said.append(await page.locator(EPHEMERAL).last.inner_text())
    if done is not None:
        await page.locator(EPHEMERAL).last.get_by_text(done).first.wait_for(timeout=30_000)
    return said


async def words_in_view(page, words: str) -> None:
    """The step's words are on screen (not scrolled away above its picture), at both widths."""
    for width in (400, 1280):
        await page.set_viewport_size({"width": width, "height": 900 if width > 600 else 780})
        lesson = page.locator(EPHEMERAL).last
        await lesson.locator("button").last.scroll_into_view_if_needed()
        box = await lesson.get_by_text(words).first.bounding_box()
        height = await page.evaluate("window.innerHeight")
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, \
            (width, box, height)


async def test_the_sensei_lesson_in_english(browser, playground, shots):
    page = await open_page(browser, playground.url, "Ana")
    send_turn = "✅ Send turn"
    said = await _lesson(page, "/sensei learn", "step 1 of 6", ["▶️ Next"])
    # The step's words sit under its picture, beside the buttons: in view after a click.
    await screenshot(page, shots, "lesson-sensei-plan", 400)
    await screenshot(page, shots, "lesson-sensei-plan", 1280)
    await words_in_view(page, "notation")
    said += await _lesson(page, None, None, ["🟢 f1", "f3", "⛩️ d1", "f3", send_turn,
                          "🟢 c1", "c6", "🟢 c6", "b6", send_turn])
    await screenshot(page, shots, "lesson-sensei-reply", 400)
    await screenshot(page, shots, "lesson-sensei-reply", 1280)
    said += await _lesson(page, None, None,
                          ["▶️ Next", "🟢 g4", "g1", send_turn, "⚠️ Play it anyway"])
    await screenshot(page, shots, "lesson-sensei-lost", 400)
    said += await _lesson(page, None, None,
                          ["🔁 Try again", "🟢 g4", "g6", send_turn, "🟢 b6", "b7", "⛩️ f3", "b7",
                           send_turn])
    await screenshot(page, shots, "lesson-sensei-arrival", 400)
    await screenshot(page, shots, "lesson-sensei-arrival", 1280)
    said += await _lesson(page, None, None, ["▶️ Next"], "storm")
    assert any("This turn loses the game" in text for text in said)
    assert any("You lost the game" in text for text in said)
    assert any("The AI answers: g7-g2 a7-a2" in text for text in said)
    assert any("You win" in text for text in said)
    lesson = page.locator(EPHEMERAL).last
    assert await _click_and_wait(page, lesson.get_by_role("button", name="🎓 Finish").first) is None
    await page.locator(EPHEMERAL).last.get_by_text("Lesson finished").first.wait_for()
    assert not page.errors, page.errors


async def test_the_sarena_lesson_in_german(browser, playground, shots):
    page = await open_page(browser, playground.url, "Jonas", locale="de-DE")
    said = await _lesson(page, "/sarena learn", "Schritt 1 von 4",
                         ["a1-a2", "b1-a1", "c1-b1", "🔁 Noch einmal", "c2-c1"], "Wertung")
    assert any("Umgedreht" in text for text in said)
    assert any("geheime Farbe" in text for text in said)
    lesson = page.locator(EPHEMERAL).last
    assert await _click_and_wait(page, lesson.get_by_role("button", name="🎓 Abschließen").first) is None
    await page.locator(EPHEMERAL).last.get_by_text("Lektion abgeschlossen").first.wait_for()
    await screenshot(page, shots, "lesson-sarena-de", 400)
    assert not page.errors, page.errors


async def test_the_sensei_lesson_turn_in_german(browser, playground, shots):
    page = await open_page(browser, playground.url, "Lea", locale="de-DE")
    await _lesson(page, "/sensei learn", "Schritt 1 von 6", ["▶️ Weiter"])
    await words_in_view(page, "Notation")
    said = await _lesson(page, None, None, ["🟢 f1", "f3", "⛩️ d1"])
    await screenshot(page, shots, "lesson-sensei-de-target", 400)
    await screenshot(page, shots, "lesson-sensei-de-target", 1280)
    said += await _lesson(page, None, None, ["f3", "✅ Zug senden"], "Schritt 3 von 6")
    assert any("b7-b2 e7-e3" in text for text in said)
    assert not page.errors, page.errors
