"""The Entry Point's side of the Activity, in the browser: the app's command opens the list of
the channel's tables, where a new game's lobby can be opened and a table opened; the page
speaks its person's language (Polish here), refusals included."""
from __future__ import annotations

import pytest

from ..playground.conftest import browser, playground, shots  # noqa: F401  (fixtures)
from ..playground.driver import open_page, screenshot, send
from .browser_kit import PANE, sarena_of_two

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_the_entry_point_lists_the_channels_tables_and_starts_a_game(browser, playground, shots):  # noqa: F811
    ana = await open_page(browser, playground.url, "Ana", locale="pl-PL")
    await send(ana, "/launch")
    await ana.locator(PANE).wait_for(timeout=30_000)
    frame = await (await ana.locator(PANE).element_handle()).content_frame()
    await frame.wait_for_selector("body[data-ready='1']", timeout=30_000)
    await frame.locator("section.tables").wait_for()
    assert await frame.locator("html").get_attribute("lang") == "pl"
    assert await frame.locator("#title").inner_text() == "Stoły"
    assert await frame.locator(".table-list li[data-table]").count() == 0
    # a new game: its lobby is posted in the channel, and the list shows it
    await frame.locator(".new-games button[data-game='sarena']").click()
    await frame.locator(".table-list li[data-game='sarena']").wait_for(timeout=30_000)
    await ana.locator("#messages article", has_text="Sàréná").last.wait_for(timeout=30_000)
    await screenshot(ana, shots, "activity-tables", 400)
    # a second lobby in the same channel is refused, and the page says why in Polish
    await frame.locator(".new-games button[data-game='sensei']").click()
    toast = frame.locator("#toast.error")
    await toast.wait_for(state="visible", timeout=15_000)
    assert "Na tym kanale jest już otwarte lobby" in await toast.inner_text()
    assert await frame.locator(".table-list li[data-table]").count() == 1
    # the lobby opens from the list, in the same language
    await frame.locator(".table-list li[data-game='sarena'] button").click()
    await frame.locator("section.table[data-status='lobby']").wait_for(timeout=30_000)
    hint = await frame.locator("section.table .hint").inner_text()
    assert "lobby" in hint and "kanale" in hint, hint
    assert not ana.errors


async def test_the_entry_point_in_a_games_thread_opens_that_game(browser, playground, shots):  # noqa: F811
    ana = await open_page(browser, playground.url, "Ana")
    ben = await open_page(browser, playground.url, "Ben")
    await sarena_of_two(ana, ben)
    await send(ana, "/launch")
    await ana.locator(PANE).wait_for(timeout=30_000)
    frame = await (await ana.locator(PANE).element_handle()).content_frame()
    await frame.wait_for_selector("section.table[data-status='playing']", timeout=30_000)
    assert await frame.locator("#title").inner_text() == "Sàréná"
    # one tap back: the channel's tables, this game among them
    await frame.locator("#back").click()
    await frame.locator("section.tables .table-list li[data-game='sarena']").wait_for()
    assert await frame.locator("section.table").count() == 0
    assert not ana.errors
