"""Pictures speak in the page as in Discord's client (issue 52): each picture's alt text is its
attachment's description, read here in headless Chromium: the board names the position the
bot holds, a private step's picture names it too."""
from __future__ import annotations

import re

import pytest

from render.alt import describe

from .driver import BOARD, EPHEMERAL, check_page, my_turn, open_page, send

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_the_board_and_a_step_read_their_position_aloud(browser, playground):
    page = await open_page(browser, playground.url, "Ana")
    await send(page, "/sensei start ai:easy")
    board = page.locator(BOARD).last
    await board.wait_for(timeout=45_000)
    await page.wait_for_function(
        "() => [...document.querySelectorAll('article .embed-desc .mention.me')].length > 0",
        timeout=45_000)  # Ana's turn: the board holds still until she moves
    assert await my_turn(page)
    board = page.locator(BOARD).last
    title = await board.locator(".embed-title").inner_text()
    table_id = int(re.search(r"#(\d+)", title).group(1))
    live = await playground.bot.tables.get(table_id)
    alt = await board.locator("img.embed-image").get_attribute("alt")
    assert alt == describe("sensei", live.game.public_view(), live.names(), "en")
    assert alt.startswith("Sensei board, turn ") and "Ana (" in alt and "character on " in alt
    # A private step: its picture speaks as well.
    await board.get_by_role("button", name="Move").click()
    step = page.locator(EPHEMERAL).last
    picture = step.locator("img").first
    await picture.wait_for(timeout=30_000)
    words = await picture.get_attribute("alt")
    assert words.startswith("Sensei board, turn ") and "Chosen" not in words
    for square in live.game.public_view()["board"]:
        assert square in words
    await check_page(page)
