"""Three games played to their end through the page in headless Chromium: Sensei against the
hard AI, a Narabi table of 3 with two AI teammates, Sàréná between two people in two tabs.
Each takes screenshots at 400 px and 1,280 px and checks the board picture changes after
every move of the person playing."""
from __future__ import annotations

import time

import pytest

from .driver import (BOARD, EPHEMERAL, answer_questions, board_src, check_page, explain, first_of,
                     is_over, keep, my_turn, open_page, open_thread, screenshot, send, take_turn,
                     wait_board_change, wait_for_the_viewer)

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")

#: no game here may take longer (the three together stay near two minutes)
GAME_LIMIT = 300


async def _solo(page, shots, name: str, start: str, finish: str | None = None,
                turns: int | None = None) -> int:
    """Play every turn of the viewer until the game is over (or ``turns`` of them); AI turns
    happen by themselves."""
    moves, deadline = 0, time.monotonic() + GAME_LIMIT
    seen = {await board_src(page)}
    while not await is_over(page) and (turns is None or moves < turns):
        assert time.monotonic() < deadline, f"{name}: not over after {moves} moves"
        if await answer_questions(page):
            continue
        if await my_turn(page):
            async def planner() -> None:
                await page.locator(EPHEMERAL).last.scroll_into_view_if_needed()
                await keep(page, shots, f"{name}-turn-menu-1280.png")
            src = await take_turn(page, start, finish, shoot=planner if moves == 0 else None)
            if src is None:
                continue
            assert src not in seen, "the board picture did not change after the move"
            seen.add(src)
            moves += 1
            if moves == 2:
                await screenshot(page, shots, f"{name}-playing", 400)
                await screenshot(page, shots, f"{name}-playing", 1280)
        else:
            await wait_for_the_viewer(page, await board_src(page))
    return moves


async def test_sensei_against_the_hard_ai_to_its_end(browser, playground, shots):
    page = await open_page(browser, playground.url, "Ana")
    await send(page, "/sensei start ai:hard")
    await page.locator(BOARD).last.wait_for(timeout=45_000)   # the thread opened by itself
    moves = await _solo(page, shots, "sensei", "Move", finish="Send turn")
    assert moves >= 1
    await page.get_by_text("Game over").first.wait_for(timeout=45_000)
    assert playground.bot.autoplayer.fallbacks == 0  # Hard played every move it made
    # the finished board's Replay, then Download: the animated GIF the bot uploaded
    await page.locator(BOARD).last.get_by_role("button", name="Replay").click()
    viewer = page.locator(EPHEMERAL).last
    await viewer.get_by_role("button", name="Download").click()
    # its alt text is the attachment's description: the game told in words
    gif = page.locator("#messages img.attachment[alt^='Animation of the whole game']").last
    await gif.wait_for(timeout=45_000)
    response = await page.request.get(playground.url.rstrip("/") + await gif.get_attribute("src"))
    assert response.headers["content-type"] == "image/gif"
    assert (await response.body()).startswith(b"GIF8")
    await screenshot(page, shots, "sensei-over", 400)
    await screenshot(page, shots, "sensei-over", 1280)
    await check_page(page)


async def test_narabi_table_of_three_with_two_ai_teammates(browser, playground, shots):
    page = await open_page(browser, playground.url, "Ana")
    await send(page, "/narabi start ai:medium players:3")
    await page.locator(BOARD).last.wait_for(timeout=45_000)
    moves = await _solo(page, shots, "narabi", "Switch")
    assert moves >= 1
    await page.get_by_text("Game over").first.wait_for(timeout=45_000)
    assert playground.bot.autoplayer.fallbacks == 0
    await screenshot(page, shots, "narabi-over", 400)
    await screenshot(page, shots, "narabi-over", 1280)
    await check_page(page)
    # the cards were sent by direct message too: Ana's DMs show them
    await page.locator("#dms a.chan", has_text="Tabletop").click()
    assert await page.locator("#messages article").count() >= 1
    assert (await page.get_by_placeholder("Message").get_attribute("placeholder")) == "Message @Tabletop"
    await screenshot(page, shots, "narabi-dm", 1280)


async def test_sarena_two_people_in_two_tabs(browser, playground, shots):
    ana = await open_page(browser, playground.url, "Ana", width=1280)
    ben = await open_page(browser, playground.url, "Ben", width=400)
    await send(ana, "/sarena start")
    lobby = ben.locator("#messages article", has_text="Sàréná").last
    await lobby.get_by_role("button", name="Join").click()
    start = ana.locator("#messages article", has_text="Sàréná").last.get_by_role("button", name="Start")
    await start.and_(ana.locator("button:enabled")).wait_for()
    await start.click()
    for page in (ana, ben):
        await open_thread(page, "Sàréná")
        # the board's picture keeps its place before it has loaded (its size is given)
        size = await page.locator(BOARD).last.locator("img.embed-image").evaluate(
            "i => [i.getAttribute('width'), i.getAttribute('height')]")
        assert all(int(side or 0) > 100 for side in size), size
    moves, deadline = 0, time.monotonic() + GAME_LIMIT
    seen = {await board_src(ana)}
    while not await is_over(ana):
        assert time.monotonic() < deadline, f"Sàréná not over after {moves} moves"
        for page in (ana, ben):
            if await my_turn(page) and not await is_over(page):
                try:
                    src = await take_turn(page, "Move")
                except AssertionError as exc:
                    raise AssertionError(f"{exc}\n{explain(playground)}") from exc
                if src is None:
                    break
                assert src not in seen
                seen.add(src)
                # the other tab sees the same new picture, live
                other = ben if page is ana else ana
                await wait_board_change(other, None)
                moves += 1
                if moves == 2:
                    await screenshot(ana, shots, "sarena-ana", 1280)
                    await screenshot(ben, shots, "sarena-ben", 400)
                break
        else:
            # neither page shows its player to move yet: until one of them changes
            await first_of(*(wait_for_the_viewer(page, await board_src(page)) for page in (ana, ben)))
    assert moves >= 2
    for page, who in ((ana, "ana"), (ben, "ben")):
        await screenshot(page, shots, f"sarena-over-{who}", 400)
        await screenshot(page, shots, f"sarena-over-{who}", 1280)
        await check_page(page)
