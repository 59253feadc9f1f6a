"""Playing on the Activity's board through the playground's pane, as a person would: touch a
piece the board marks as movable, then one of the places it marks as a target (or drag it
there). Only the page's markup is read; nothing of the bot is imported."""
from __future__ import annotations

from typing import Any

try:
    from playwright.async_api import TimeoutError as PlaywrightTimeout
except ImportError:  # without Playwright the browser tests skip themselves (conftest)
    PlaywrightTimeout = TimeoutError

from ..playground.driver import BOARD, laid_out, open_thread, send

PANE = "#activity-pane iframe"
TABLE = "section.table"


async def open_board(page: Any) -> Any:
    """Open board under the thread's board picture; the pane's frame once its board is live."""
    button = page.locator(BOARD).last.get_by_role("button", name="Open board")
    await button.wait_for(timeout=45_000)
    await button.click()
    await page.locator(PANE).wait_for(timeout=30_000)
    frame = await (await page.locator(PANE).element_handle()).content_frame()
    await frame.wait_for_selector("body[data-ready='1']", timeout=30_000)
    await frame.wait_for_selector(f"{TABLE}[data-version]", timeout=30_000)
    return frame


async def version(frame: Any) -> int:
    return int(await frame.locator(TABLE).get_attribute("data-version") or -1)


async def your_turn(frame: Any) -> bool:
    return await frame.locator(f"{TABLE}[data-your-turn='1']").count() > 0


async def over(frame: Any) -> bool:
    return await frame.locator(f"{TABLE}[data-status='finished']").count() > 0


async def wait_version(frame: Any, after: int, timeout: float = 45) -> int:
    """Until the board shows a version newer than ``after`` (pushed live, or the move's answer):
    the page itself is watched (at each frame it draws), never polled from here on a clock."""
    try:
        newer = await frame.wait_for_function(
            f"""after => {{
                const now = +(document.querySelector({TABLE!r})?.dataset.version ?? -1);
                return now > after ? now : null;
            }}""", arg=after, timeout=timeout * 1000)
    except PlaywrightTimeout as exc:
        raise AssertionError(
            f"the Activity's board stayed at version {after} for {timeout} s") from exc
    return int(await newer.json_value())


async def _centre(locator: Any) -> tuple[float, float]:
    box = await locator.bounding_box()
    assert box, "the place is not on screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def touch(page: Any, frame: Any, drag: bool = False, keys: bool = False) -> None:
    """One action in one gesture: the first movable piece to its first target, by tap–tap, by
    a drag, or with the keyboard (Enter on the piece, then Enter on the target it focuses)."""
    source = frame.locator("svg.board [data-place].source").first
    await source.wait_for(timeout=15_000)
    if keys:
        await source.focus()
        await page.keyboard.press("Enter")
        await frame.locator("svg.board [data-place].target:focus").wait_for(timeout=10_000)
        await page.keyboard.press("Enter")
        return
    if not drag:
        await source.click()
        target = frame.locator("svg.board [data-place].target").first
        await target.wait_for(timeout=10_000)
        await target.click()
        return
    await source.scroll_into_view_if_needed()  # the mouse only reaches what is on screen
    x, y = await _centre(source)
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 12, y + 12, steps=3)  # a press that moves is a drag
    target = frame.locator("svg.board [data-place].target").first
    await target.wait_for(timeout=10_000)
    tx, ty = await _centre(target)
    await page.mouse.move(tx, ty, steps=6)
    await page.mouse.up()


async def play_by_touch(page: Any, frame: Any, drag: bool = False, keys: bool = False) -> int:
    """The viewer's whole move on the board; Sensei's turn is one action, then Send turn.
    Returns the new version."""
    before = await version(frame)
    await touch(page, frame, drag, keys)
    send = frame.locator("button[data-action='send']")
    if await send.count():
        # Sensei: the turn is planned action by action (each one gesture), then sent whole
        for _ in range(2):
            await frame.wait_for_selector("section.table:not(.busy)", timeout=15_000)
            if not await frame.locator("svg.board [data-place].source").count():
                break
            await touch(page, frame, drag)
        await frame.wait_for_selector("section.table:not(.busy)", timeout=15_000)
        await frame.locator("button[data-action='send']:enabled").wait_for(timeout=15_000)
        await send.click()
    return await wait_version(frame, before)


async def stats(frame: Any) -> dict[str, int]:
    return await frame.evaluate("() => ({...window.activityStats})")


async def touch_targets_at(page: Any, frame: Any, width: int = 360) -> float:
    """The smallest side of any place of the board one can touch, on a phone ``width`` px
    wide (the pane fills a phone's width, as Discord's Activity window does)."""
    await page.set_viewport_size({"width": width, "height": 780})
    await laid_out(page)
    await laid_out(frame)
    sides = await frame.eval_on_selector_all(
        "svg.board [data-place]",
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); return Math.min(r.width, r.height); })")
    assert sides, "no place on the board"
    overflow = await frame.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width, f"the board's page is {overflow} px wide at {width} px"
    return min(sides)


async def sarena_of_two(ana: Any, ben: Any) -> None:
    """Ana starts a Sàréná lobby, Ben joins, Ana starts it and opens its thread."""
    await send(ana, "/sarena start")
    await ben.locator("#messages article", has_text="Sàréná").last.get_by_role(
        "button", name="Join").click()
    start = ana.locator("#messages article").filter(
        has=ana.get_by_role("button", name="Start")).last.get_by_role("button", name="Start")
    await start.and_(ana.locator("button:enabled")).wait_for()
    await start.click()
    await open_thread(ana, "Sàréná")
