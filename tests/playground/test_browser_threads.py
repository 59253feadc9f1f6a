"""The playground's sidebar and message box as a person uses them (issue 54, "The
playground"): a page follows only its own new table into its thread, tournament threads tell
themselves apart, and command suggestions speak the page's language and list every option."""
from __future__ import annotations

import pytest

from .driver import keep, open_page, send

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_page_follows_its_own_table_and_not_someone_else_s(browser, playground):
    ana = await open_page(browser, playground.url, "Ana")
    ben = await open_page(browser, playground.url, "Ben")
    # Ana has just acted (within the 15 s in which a page follows a new thread) ...
    await send(ana, "/sensei rules")
    await ana.locator("#messages article.ephemeral").last.wait_for()
    # ... when Ben starts a game against the AI: its thread opens on Ben's page only.
    await send(ben, "/sensei start ai:easy")
    await ben.locator("#title", has_text="Sensei #").wait_for()
    await ana.locator("#channels a.chan", has_text="Sensei #").wait_for()
    assert (await ana.locator("#title").inner_text()).startswith("# games")
    # Ana then starts her own lobby and presses Start now: she follows hers, not Ben's.
    await send(ana, "/narabi start ai:easy players:3")
    await ana.locator("#title", has_text="Narabi #").wait_for()
    ana_thread = await ana.locator("#title").inner_text()
    assert "Sensei" not in ana_thread
    assert "Narabi" not in await ben.locator("#title").inner_text()
    assert not ana.errors and not ben.errors


async def test_suggestions_speak_the_page_s_language_and_list_every_option(browser, playground,
                                                                      shots):
    page = await open_page(browser, playground.url, "Kasia", locale="pl-PL", width=400)
    box = page.locator("#box")
    await box.fill("/tournament create ")
    suggest = page.locator("#suggest")
    await suggest.locator("li").first.wait_for()
    text = await suggest.inner_text()
    # All the options, the last ones included (Discord lists up to 25) ...
    for option in ("game:", "format:", "checkin:", "round_every:", "variant:"):
        assert option in text, text
    # ... each described in Polish, as Discord's client shows a Polish user.
    assert "Narabi: tryb zaawansowany; Sàréná: wyrównany rozkład" in text
    # A choice is shown by its name; its value is what is typed in.
    await box.fill("/tournament create clock:")
    await suggest.locator("li").first.wait_for()
    await keep(page, shots, "suggestions-pl-400.png")
    labels = await suggest.locator("li .cmd").all_inner_texts()
    assert "clock: 2 minuty na turę" in labels and "clock: Bez limitu czasu" in labels, labels
    assert not any(label.split(": ", 1)[1].isdigit() for label in labels), labels
    await suggest.locator("li", has_text="2 minuty na turę").first.dispatch_event("mousedown")
    assert await box.input_value() == "/tournament create clock:120 "
    assert not page.errors


async def test_long_thread_names_are_shown_whole_in_the_sidebar(browser, playground, shots):
    page = await open_page(browser, playground.url, "Ana", width=1280)
    # Four threads named as a tournament names its tables: the same long start, the table at
    # the end.
    base = "Winter Cup of the Friday Night Board Gamers · round 1 · table "
    for board in range(1, 5):
        playground.fake.threads[10_000 + board] = {
            "id": str(10_000 + board), "type": 11, "name": base + str(board),
            "parent_id": str(playground.channel_id), "guild_id": str(playground.fake.guild_id),
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440}}
    await page.reload()
    await page.wait_for_selector(".status.live")
    links = page.locator("#channels a.chan", has_text="Winter Cup")
    await links.first.wait_for()
    assert await links.count() == 4
    await keep(page, shots, "threads-1280.png")
    for n in range(4):
        link = links.nth(n)
        # Nothing of the name is hidden: the whole name fits the link's box.
        assert await link.evaluate("a => a.scrollWidth <= a.clientWidth"), await link.inner_text()
        assert (await link.inner_text()).endswith(f"table {n + 1}")
        assert await link.get_attribute("title") == "🧵 " + base + str(n + 1)


async def test_after_start_now_the_page_follows_its_person_s_own_table(browser, playground):
    """Issue 54: after Start now the page opened an AI-versus-AI table (the newest thread)
    instead of the person's own."""
    page = await open_page(browser, playground.url, "Ana")
    await send(page, "/tournament create game:sensei format:swiss rounds:1 clock:0 name:Cup")
    start = page.get_by_role("button", name="Start now")
    await start.last.wait_for()
    await page.get_by_role("button", name="Join").last.click()
    answers = page.locator("#messages article.ephemeral", has_text="✅")
    for n in range(3):
        await send(page, "/tournament ai level:easy")
        await answers.nth(n).wait_for()
    await page.get_by_text("Players (4)").last.wait_for()
    await start.last.click()
    for board in (1, 2):
        await page.locator("#channels a.chan", has_text=f"Cup · round 1 · table {board}").wait_for()
    await page.locator("#title", has_text="Cup · round 1").wait_for()
    title = await page.locator("#title").inner_text()
    # The board of the table the page opened names Ana among its players.
    board = page.locator("#messages article:not(.ephemeral)", has=page.locator("img.embed-image"))
    await board.last.wait_for()
    assert "Ana" in await board.last.inner_text(), title
    assert not page.errors
