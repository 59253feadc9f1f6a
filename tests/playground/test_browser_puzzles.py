"""A puzzle through the page in headless Chromium, as a newcomer would, in English and in
Polish: Hint answers where it was pressed, and a wrong answer gets a second try."""
from __future__ import annotations

import pytest

from bot.games import puzzles

from .driver import EPHEMERAL, _click_and_wait, open_page, screenshot, send

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")

WORDS = {"en": {"hint": "💡 Hint", "send": "✅ Send turn", "retry": "🔁 Try again",
                "tip": "Hint: start with", "wrong": "one more try"},
         "pl": {"hint": "💡 Podpowiedź", "send": "✅ Wyślij turę", "retry": "🔁 Spróbuj ponownie",
                "tip": "Podpowiedź: zacznij od", "wrong": "jeszcze jedną próbę"}}


async def in_view(page, locator) -> bool:
    box = await locator.bounding_box()
    height = await page.evaluate("window.innerHeight")
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height


async def click(page, label: str) -> None:
    button = page.locator(EPHEMERAL).last.get_by_role("button", name=label, exact=True)
    assert await _click_and_wait(page, button.first) is None, label


@pytest.mark.parametrize("language", ["en", "pl"])
async def test_a_puzzle_with_a_hint_then_a_wrong_answer(browser, playground, shots, language):
    words = WORDS[language]
    first = puzzles.load(puzzles.ids("sensei")[0])
    wrong = next(a for a in first.position().legal_actions(first.seat) if a["type"] == "stone"
                 and puzzles.check(first, [a, {"type": "end_turn"}]).status == "wrong")
    page = await open_page(browser, playground.url, "Ana", width=400,
                           locale="en-US" if language == "en" else "pl-PL")
    await send(page, "/puzzle solve")
    await page.locator(EPHEMERAL).last.locator("img").first.wait_for(timeout=30_000)
    await click(page, words["hint"])
    # The hint is on the button that was pressed, and the text's last words, beside it.
    tip = page.locator(EPHEMERAL).last.get_by_role("button").filter(has_text=words["tip"])
    await tip.first.wait_for()
    assert await tip.first.is_disabled() and await in_view(page, tip.first)
    await screenshot(page, shots, f"puzzle-hint-{language}", 400)
    await screenshot(page, shots, f"puzzle-hint-{language}", 1280)
    await page.set_viewport_size({"width": 400, "height": 780})
    await click(page, SEAT_MARK[first.seat] + " " + wrong["from"])
    await click(page, wrong["to"])
    await click(page, words["send"])
    said = page.locator(EPHEMERAL).last.get_by_text(words["wrong"])
    await said.first.wait_for()
    await page.locator(EPHEMERAL).last.get_by_role("button", name=words["retry"]).first \
        .scroll_into_view_if_needed()
    assert await in_view(page, said.first)
    await screenshot(page, shots, f"puzzle-wrong-{language}", 400)
    await screenshot(page, shots, f"puzzle-wrong-{language}", 1280)
    await click(page, words["retry"])
    # The puzzle again, from its start: its pieces and Hint, nothing planned.
    await page.locator(EPHEMERAL).last.get_by_role("button", name=words["hint"]).first.wait_for()
    assert not await page.locator(EPHEMERAL).last.get_by_role(
        "button", name=words["send"]).count()
    assert not page.errors, page.errors


SEAT_MARK = ("🟢", "🔴")
