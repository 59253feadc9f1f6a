"""Lessons finished through the page in headless Chromium, as a newcomer would: Sensei in
English, Sàréná in German. Every step shows its picture; the choices are the buttons."""
from __future__ import annotations

from .driver import EPHEMERAL, _click_and_wait, open_page, screenshot, send


async def _lesson(page, command: str, first: str, clicks: list[str], done: str) -> list[str]:
    """Start ``command``, then click the buttons named in ``clicks`` one after another in the
    lesson's message; returns what each step said."""
    await send(page, command)
    lesson = page.locator(EPHEMERAL).last
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
    await page.locator(EPHEMERAL).last.get_by_text(done).first.wait_for(timeout=30_000)
    return said


async def test_the_sensei_lesson_in_english(browser, playground, shots):
    page = await open_page(browser, playground.url, "Ana")
    said = await _lesson(page, "/sensei learn", "step 1 of 6",
                         ["▶️ Next", "f1-f3 *d1-f3", "c1-c6 c6-b6", "g4-g1", "⚠️ Play it anyway",
                          "🔁 Try again", "g4-g6", "b6-b7 *f3-b7"], "storm")
    assert any("This turn loses the game" in text for text in said)
    assert any("You lost the game" in text for text in said)
    await screenshot(page, shots, "lesson-sensei", 400)
    await screenshot(page, shots, "lesson-sensei", 1280)
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
