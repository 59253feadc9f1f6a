"""A tournament through the page in headless Chromium: created by a typed command, four AI
players entered, started with the button; the round's message links each table's thread, and
following a link opens that table's board. Screenshots at 400 px and 1,280 px."""
from __future__ import annotations

import pytest

from .driver import BOARD, check_page, open_page, screenshot, send

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_round_s_message_links_every_table_s_thread(browser, playground, shots):
    page = await open_page(browser, playground.url, "Ana")
    await send(page, "/tournament create game:sensei format:swiss rounds:1 clock:0 name:Cup")
    start = page.get_by_role("button", name="Start now")
    await start.last.wait_for(timeout=30_000)
    answers = page.locator("#messages article.ephemeral", has_text="✅")
    for n in range(4):
        await send(page, "/tournament ai level:easy")
        await answers.nth(n).wait_for(timeout=30_000)
    await page.get_by_text("Players (4)").last.wait_for(timeout=30_000)
    await start.last.click()
    # Both tables' threads appear (made in any order); Ana sits at neither, so her page stays
    # in (or comes back to) the tournament's channel.
    for board in (1, 2):
        await page.locator("#channels a.chan", has_text=f"Cup · round 1 · table {board}").wait_for(
            timeout=60_000)
    await page.locator("#channels a.chan", has_text="games").first.click()
    round_message = page.locator("#messages article", has_text="has started").last
    await round_message.wait_for(timeout=60_000)
    links = round_message.locator("a.mention")
    await links.nth(1).wait_for(timeout=30_000)
    assert await links.count() == 2  # two tables, each its own thread
    names = [await links.nth(i).inner_text() for i in range(2)]
    assert names == ["#Cup · round 1 · table 1", "#Cup · round 1 · table 2"]
    await screenshot(page, shots, "tournament-round", 400)
    await screenshot(page, shots, "tournament-round", 1280)
    await links.nth(1).click()
    await page.locator(BOARD).last.wait_for(timeout=45_000)
    assert "table 2" in await page.locator("#title").inner_text()
    await screenshot(page, shots, "tournament-table", 400)
    await check_page(page)
