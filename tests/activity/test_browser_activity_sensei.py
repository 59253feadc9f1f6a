"""Sensei on the Activity's board, in headless Chromium: a turn planned whole is shown as
planned (its own arrows, the turn still the one being played) until Send; the end says why and
offers a rematch that opens on the board; the playground's Activity pane speaks the page's
language. Screenshots at 400 px and 1,280 px."""
from __future__ import annotations

import pytest

from ..playground.conftest import browser, playground, shots  # noqa: F401  (fixtures)
from ..playground.driver import my_turn, open_page, screenshot, take_turn
from .browser_kit import PANE, open_board, over, touch, version, wait_version, your_turn
from .test_browser_activity import _lobby_of_two

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")

DETAIL = "section.table .status .detail"


async def _ready(frame) -> None:
    await frame.wait_for_selector("section.table:not(.busy)", timeout=15_000)


async def test_a_planned_turn_then_the_end_with_its_reason_and_a_rematch(browser, playground, shots):  # noqa: F811
    ana = await open_page(browser, playground.url, "Ana", width=1280)
    ben = await open_page(browser, playground.url, "Ben", width=400)
    await _lobby_of_two(ana, ben, "sensei")
    frame = await open_board(ana)
    if not await your_turn(frame):
        assert await my_turn(ben)
        before = await version(frame)
        assert await take_turn(ben, "Move", "Send turn") is not None
        await wait_version(frame, before)
    turn_words = (await frame.locator(DETAIL).inner_text()).split(" · ")[0]
    # The whole turn planned, action by action, until nothing more can be planned.
    for _ in range(3):
        await _ready(frame)
        if not await frame.locator("svg.board [data-place].source").count():
            break
        await touch(ana, frame)
    await _ready(frame)
    await frame.locator("section.table[data-planned='3'], section.table[data-planned='2']").wait_for()
    planned = int(await frame.locator("section.table").get_attribute("data-planned"))
    detail = await frame.locator(DETAIL).inner_text()
    if not await frame.locator("svg.board [data-place].source").count():
        # a full plan: still this turn, said to be planned and not sent
        assert detail.startswith(turn_words + " · "), (turn_words, detail)
        assert "planned, not sent yet" in detail, detail
    assert await frame.locator("svg.board g[data-planned='1']").count() == planned
    planned_arrows = await frame.eval_on_selector_all(
        "svg.board g[data-planned='1'] line:nth-child(2), svg.board g[data-planned='1'] path:nth-child(2)",
        "nodes => nodes.map(n => n.getAttribute('stroke'))")
    last_arrows = await frame.eval_on_selector_all(
        "svg.board g[data-last='1'] line:nth-child(2), svg.board g[data-last='1'] path:nth-child(2)",
        "nodes => nodes.map(n => n.getAttribute('stroke'))")
    assert planned_arrows and not set(planned_arrows) & set(last_arrows), (planned_arrows, last_arrows)
    assert await version(frame) == int(await frame.locator("section.table").get_attribute("data-version"))
    await frame.evaluate("window.scrollTo(0, 0)")
    await screenshot(ana, shots, "activity-sensei-planned", 400)
    await screenshot(ana, shots, "activity-sensei-planned", 1280)
    # Send: the turn is played, nothing planned remains.
    before = await version(frame)
    await frame.locator("button[data-action='send']").click()
    await wait_version(frame, before)
    assert await frame.locator("svg.board g[data-planned='1']").count() == 0
    # The end, on the board: it says why, and offers a rematch.
    if not await over(frame):
        before = await version(frame)
        await frame.locator("button[data-action='resign']").click()
        await frame.locator("button[data-action='resign']").click()
        await wait_version(frame, before)
    await frame.locator("section.table[data-status='finished']").wait_for(timeout=30_000)
    status = await frame.locator("section.table .status").inner_text()
    assert "Ben wins" in status and "Ana resigned." in status, status
    await frame.evaluate("window.scrollTo(0, 0)")
    await screenshot(ana, shots, "activity-sensei-over", 400)
    await screenshot(ana, shots, "activity-sensei-over", 1280)
    finished = await frame.locator("section.table").get_attribute("data-table")
    await frame.locator("button[data-action='rematch']").click()
    await frame.locator(f"section.table[data-status='lobby']:not([data-table='{finished}'])").wait_for(timeout=30_000)
    assert "lobby" in (await frame.locator("#toast.info").inner_text()).lower()
    assert not ana.errors and not ben.errors


async def test_the_playgrounds_activity_pane_speaks_the_pages_language(browser, playground, shots):  # noqa: F811
    ana = await open_page(browser, playground.url, "Ana", locale="pl-PL")
    from ..playground.driver import send
    await send(ana, "/launch")
    await ana.locator(PANE).wait_for(timeout=30_000)
    assert await ana.locator("#activity-pane header span").inner_text() == "Aktywność"
    assert await ana.locator("#activity-pane .close").get_attribute("aria-label") == "Zamknij aktywność"
    assert await ana.locator("#activity-pane").get_attribute("aria-label") == "Aktywność"
    assert await ana.locator(PANE).get_attribute("title") == "Aktywność"
    await screenshot(ana, shots, "activity-pane-pl", 400)
    assert not ana.errors
