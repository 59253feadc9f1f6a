"""The Activity in the playground's pane, in headless Chromium: a whole game of each kind with
one seat playing by touch on the board while another plays by buttons in the thread, both
seeing every move; a spectator seeing no secret; another person's seat refused. Screenshots
of each game at 400 px and 1,280 px; gestures per action counted (docs/players/activity.md)."""
from __future__ import annotations

import time

import pytest

from ..playground.conftest import browser, playground, shots  # noqa: F401  (fixtures)
from ..playground.driver import (BOARD, EPHEMERAL, answer_questions, board_src, is_over, my_turn, open_page,
                                 open_thread, questions_to, screenshot, send, take_turn,
                                 wait_board_change, wait_for_the_viewer)
from .browser_kit import (open_board, over, play_by_touch, stats, touch, touch_targets_at,
                          version, wait_version, your_turn)

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")

#: no game here may take longer
GAME_LIMIT = 300


async def _lobby_of_two(ana, ben, game: str) -> None:
    """Ana opens a lobby, Ben joins, Ana starts; both open the game's thread."""
    await send(ana, f"/{game} start")
    lobby = ben.locator("#messages article", has_text=game.capitalize() if game != "sarena" else "Sàréná").last
    await lobby.get_by_role("button", name="Join").click()
    start = ana.locator("#messages article").filter(
        has=ana.get_by_role("button", name="Start")).last.get_by_role("button", name="Start")
    await start.and_(ana.locator("button:enabled")).wait_for()
    await start.click()
    name = {"sensei": "Sensei", "narabi": "Narabi", "sarena": "Sàréná"}[game]
    for page in (ana, ben):
        await open_thread(page, name)


async def _touch_against_buttons(ana, ben, frame, shots, name: str, start: str,
                                 finish: str | None = None, turns: int | None = None,
                                 asks: int = 0, asked_back: int = 0) -> dict:
    """Ana plays on the board (tap–tap, drag, keyboard), Ben with the thread's buttons,
    until the game is over (or ``turns`` moves of Ana's). After each of Ana's moves Ben's
    thread picture changes; after each of Ben's, Ana's board shows a newer version, live."""
    deadline = time.monotonic() + GAME_LIMIT
    mine = theirs = asked = answered = 0
    while not await over(frame) and not await is_over(ben):
        assert time.monotonic() < deadline, f"{name}: not over after {mine} + {theirs} moves"
        if turns is not None and mine >= turns:
            break
        if asks and await your_turn(frame):
            # Narabi's Ask on the board: a teammate's card, then the card asked about; the
            # question reaches the thread, where Ben answers it with its Yes button
            await frame.locator("button[data-action='ask']").click()
            await touch(ana, frame)
            await frame.locator("#toast.info").wait_for(timeout=15_000)
            await questions_to(ben, "Yes").first.wait_for(timeout=30_000)
            assert await answer_questions(ben, "Yes")
            # the question and Ben's answer reach Ana's board, live
            await frame.locator(".questions li", has_text="Yes").first.wait_for(timeout=30_000)
            asks -= 1
            asked += 1
        if await your_turn(frame):
            seen = await board_src(ben)
            # tap–tap, drag and (now and then) the keyboard, in turn
            await play_by_touch(ana, frame, drag=mine % 2 == 1, keys=mine % 6 == 4)
            mine += 1
            await wait_board_change(ben, seen)  # the thread's picture follows the board
            if mine == 1:
                # every piece, card, pile and square stays a finger wide on a 360 px phone
                smallest = await touch_targets_at(ana, frame, 360)
                print(f"{name}: the smallest place to touch is {smallest:.1f} px wide at 360 px")
                assert smallest >= 44, f"{name}: a place to touch is {smallest:.1f} px at 360 px"
                await frame.evaluate("window.scrollTo(0, 0)")
                await screenshot(ana, shots, f"activity-{name}", 400)
                await screenshot(ana, shots, f"activity-{name}", 1280)
        elif asked_back and await my_turn(ben):
            # Ben asks Ana with the thread's Ask (her card, then one to switch it with); the
            # question reaches her board, where she answers it with its Yes
            await _ask_by_buttons(ben, "Ana")
            answer = frame.locator(".questions li button[data-answer='yes']").first
            await answer.wait_for(timeout=30_000)
            await answer.click()
            await frame.locator(".questions li", has_text="→ Yes").first.wait_for(timeout=30_000)
            # ...and reaches the thread, where Ben reads it
            await ben.locator("#messages article", has_text="Ana: Yes").last.wait_for(timeout=30_000)
            asked_back -= 1
            answered += 1
        elif await my_turn(ben):
            before = await version(frame)
            src = await take_turn(ben, start, finish)
            if src is None:
                continue
            theirs += 1
            await wait_version(frame, before)  # Ana's open board shows Ben's move, live
        else:
            await wait_for_the_viewer(ben, await board_src(ben), timeout=2)
    played = {"mine": mine, "theirs": theirs, "asked": asked, "answered": answered,
              **await stats(frame)}
    print(f"{name}: {played}")  # gestures per action, for docs/players/activity.md
    return played


async def _ask_by_buttons(page, whom: str) -> None:
    await page.locator(BOARD).last.get_by_role("button", name="Ask").click()
    first = page.locator(EPHEMERAL).last.locator("select.menu").last
    await first.wait_for(timeout=30_000)
    theirs = first.locator("option:not([disabled])", has_text=whom).first
    await first.select_option(await theirs.get_attribute("value"))
    second = page.locator(EPHEMERAL).last.locator("select.menu", has=page.locator(
        "option", has_text="With card")).last
    await second.wait_for(timeout=30_000)
    other = second.locator("option:not([disabled])").first
    await second.select_option(await other.get_attribute("value"))


async def test_sarena_by_touch_against_buttons_to_its_end(browser, playground, shots):  # noqa: F811
    ana = await open_page(browser, playground.url, "Ana", width=1280)
    ben = await open_page(browser, playground.url, "Ben", width=400)
    await _lobby_of_two(ana, ben, "sarena")
    frame = await open_board(ana)
    # Ana's colour is hers alone: on her board, never on Ben's thread
    assert await frame.locator(".private .secret").count() == 1
    played = await _touch_against_buttons(ana, ben, frame, shots, "sarena", "Move")
    assert await over(frame) or await is_over(ben)
    await frame.locator("section.table[data-status='finished']").wait_for(timeout=30_000)
    assert played["mine"] >= 1 and played["theirs"] >= 1
    # one gesture per action: every touch of a piece ended in a move
    assert played["gestures"] == played["actions"] == played["mine"], played
    await screenshot(ana, shots, "activity-sarena-over", 400)
    await screenshot(ana, shots, "activity-sarena-over", 1280)
    assert not ana.errors and not ben.errors


async def test_narabi_by_touch_with_a_button_player_and_an_ai(browser, playground, shots):  # noqa: F811
    ana = await open_page(browser, playground.url, "Ana", width=1280)
    ben = await open_page(browser, playground.url, "Ben", width=400)
    await send(ana, "/narabi start")
    lobby = ben.locator("#messages article", has_text="Narabi").last
    await lobby.get_by_role("button", name="Join").click()
    # the third seat: an AI, added from the lobby's menu
    ai = ana.locator("#messages article", has_text="Narabi").last.get_by_label("Add an AI player…")
    await ana.locator("#messages article", has_text="Narabi").last.get_by_text("Ben").wait_for()
    await ai.select_option("easy")
    start = ana.locator("#messages article").filter(
        has=ana.get_by_role("button", name="Start")).last.get_by_role("button", name="Start")
    await ana.locator("#messages article", has_text="Narabi").last.get_by_text("AI · Easy").first.wait_for()
    await start.and_(ana.locator("button:enabled")).wait_for()
    await start.click()
    for page in (ana, ben):
        await open_thread(page, "Narabi")
    frame = await open_board(ana)
    # her own cards' conditions, for her only
    assert await frame.locator(".private .secret li").count() >= 1
    played = await _touch_against_buttons(ana, ben, frame, shots, "narabi", "Switch", asks=1,
                                          asked_back=1)
    await frame.locator("section.table[data-status='finished']").wait_for(timeout=45_000)
    assert played["mine"] >= 1 and played["asked"] == played["answered"] == 1
    # one gesture per switch, and one per question (after the Ask button)
    assert played["gestures"] == played["actions"] == played["mine"] + played["asked"], played
    await screenshot(ana, shots, "activity-narabi-over", 400)
    assert not ana.errors and not ben.errors


async def test_sensei_by_touch_with_send_against_buttons(browser, playground, shots):  # noqa: F811
    ana = await open_page(browser, playground.url, "Ana", width=1280)
    ben = await open_page(browser, playground.url, "Ben", width=400)
    await _lobby_of_two(ana, ben, "sensei")
    frame = await open_board(ana)
    played = await _touch_against_buttons(ana, ben, frame, shots, "sensei", "Move",
                                          finish="Send turn", turns=6)
    assert played["mine"] >= 1 and played["theirs"] >= 1
    # one gesture per action (a turn holds one to three), and one Send per turn
    assert played["gestures"] == played["actions"] >= played["mine"], played
    if not await over(frame) and not await your_turn(frame) and await my_turn(ben):
        before = await version(frame)
        if await take_turn(ben, "Move", "Send turn") is not None:
            await wait_version(frame, before)
    if not await over(frame) and await your_turn(frame):
        # a piece touched: its targets marked (a picture for docs/players/activity.md)
        await frame.locator("svg.board [data-place].source").first.click()
        await frame.locator("svg.board [data-place].target").first.wait_for()
        await frame.evaluate("window.scrollTo(0, 0)")
        await screenshot(ana, shots, "activity-sensei-choosing", 400)
    if not await over(frame):
        # the game ends on the board: Resign asks once more, then the game is over for both
        before = await version(frame)
        await frame.locator("button[data-action='resign']").click()
        await frame.locator("button[data-action='resign']").click()
        await wait_version(frame, before)
        await ben.locator(BOARD).last.get_by_role("button", name="Rematch").wait_for(timeout=45_000)
    await frame.locator("section.table[data-status='finished']").wait_for(timeout=30_000)
    await screenshot(ana, shots, "activity-sensei-over", 400)
    await screenshot(ana, shots, "activity-sensei-over", 1280)
    assert not ana.errors and not ben.errors
