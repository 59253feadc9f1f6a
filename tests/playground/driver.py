"""Playing through the page as a person would: read the board and the buttons offered, click
the first legal choice. Only the page's HTML is read (English labels of the board's buttons,
the mention of the viewer that marks whose turn it is); nothing of the bot is imported."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

try:
    from playwright.async_api import TimeoutError as PlaywrightTimeout
except ImportError:  # without Playwright the browser tests skip themselves (conftest)
    PlaywrightTimeout = TimeoutError

#: buttons of a turn's private menu that are not a choice of the move itself
CONTROLS = ("Send turn", "Undo", "Back", "End turn", "My cards", "My colour", "Resign",
            "Abandon", "Offer draw", "Ask", "Dismiss")
BOARD = "#messages article:not(.ephemeral):has(img.embed-image)"
EPHEMERAL = "#messages article.ephemeral"


async def open_page(browser: Any, url: str, name: str, width: int = 1280, locale: str = "en-US"):
    context = await browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    await page.goto(f"{url}?as={name}")
    await page.wait_for_selector(".status.live")
    return page


async def first_of(*waits: Any) -> None:
    """Until the first of ``waits`` (coroutines) is done; the others are cancelled."""
    tasks = [asyncio.ensure_future(wait) for wait in waits]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in done:
        task.result()


async def send(page: Any, text: str) -> None:
    box = page.locator("#box")  # its placeholder is in the browser's language
    await box.fill(text)
    await box.press("Enter")


async def open_thread(page: Any, name_part: str) -> None:
    link = page.locator("#channels a.chan", has_text=name_part).last
    await link.wait_for(state="attached")
    if await page.locator("#menu").is_visible():  # a phone: the channel list slides in
        await page.locator("#menu").click()
    await link.click()
    await page.locator(BOARD).last.wait_for(timeout=45_000)


async def board_src(page: Any) -> str | None:
    boards = page.locator(BOARD)
    if not await boards.count():
        return None
    return await boards.last.locator("img.embed-image").first.get_attribute("src")


async def is_over(page: Any) -> bool:
    return await page.locator(BOARD).last.get_by_role("button", name="Rematch").count() > 0


async def my_turn(page: Any) -> bool:
    """The board's description names the player to move; the viewer's own mention is marked."""
    return await page.locator(BOARD).last.locator(".embed-desc .mention.me").count() > 0


def questions_to(page: Any, answer: str = "No") -> Any:
    """Teammates' questions to the viewer (Narabi's Ask: Yes/No buttons under a message that
    mentions them) still open."""
    return page.locator("#messages article:not(.ephemeral)").filter(
        has=page.locator(".mention.me")).filter(has=page.locator("button:enabled", has_text=answer))


async def answer_questions(page: Any, answer: str = "No") -> bool:
    """A teammate's question to the viewer is answered, as a person would before the game goes
    on."""
    asked = questions_to(page, answer)
    if not await asked.count():
        return False
    await _click_and_wait(page, asked.last.locator("button:enabled", has_text=answer).last)
    return True


#: the address of the last board's picture, read in the page (``board_src`` through Playwright)
_BOARD_SRC = f"""() => [...document.querySelectorAll({BOARD!r})].pop()
    ?.querySelector('img.embed-image')?.getAttribute('src') ?? null"""


async def wait_board_change(page: Any, src: str | None, timeout: float = 30) -> str:
    """Until the last board shows a picture other than ``src``: the page itself is watched
    (at each frame it draws), never polled from here on a clock."""
    try:
        changed = await page.wait_for_function(
            f"src => {{ const now = ({_BOARD_SRC})(); return now && now !== src ? now : null; }}",
            arg=src, timeout=timeout * 1000)
    except Exception as exc:
        raise AssertionError(f"the board picture did not change within {timeout} s") from exc
    return await changed.json_value()


async def wait_for_the_viewer(page: Any, src: str | None, timeout: float = 15) -> None:
    """While others play: until the board changes, the viewer is to move or is asked something,
    or the game is over. Waiting for a new board alone would wait in vain when the viewer's
    turn (or a teammate's question, which holds the game until answered) came before ``src``
    was read; returns quietly at ``timeout`` (an AI may still be thinking). The page itself
    is watched (at each frame it draws), as ``board_src``, ``my_turn``, ``is_over`` and
    ``questions_to`` read it."""
    try:
        await page.wait_for_function(
            f"""src => {{
                const now = ({_BOARD_SRC})();
                if (now && now !== src) return true;
                const board = [...document.querySelectorAll({BOARD!r})].pop();
                if (board?.querySelector('.embed-desc .mention.me')) return true;
                if ([...(board?.querySelectorAll('button') ?? [])]
                        .some((b) => b.textContent.includes('Rematch'))) return true;
                return [...document.querySelectorAll('#messages article:not(.ephemeral)')]
                    .some((a) => a.querySelector('.mention.me') && [...a.querySelectorAll('button')]
                        .some((b) => !b.disabled && b.textContent.includes('No')));
            }}""", arg=src, timeout=timeout * 1000)
    except PlaywrightTimeout:
        return


async def _click_reaching_the_page(page: Any, control: Any, tries: int = 3) -> None:
    """Click until the page's own handler has the click. The mouse lands where the control
    was a moment before; a picture or message appearing in between can move it away, and a
    click that lands beside the control reaches nobody (the bot never sees it, so nothing is
    lost: a person clicks again). Clicks the page did send are never repeated."""
    for attempt in range(tries):
        before = await page.evaluate("window.PG.clicked")
        await control.click()
        try:
            await page.wait_for_function("n => window.PG.clicked > n", arg=before, timeout=5_000)
            return
        except Exception:
            if await page.evaluate(f"window.PG.clicked > {before}"):
                return
            print(f"a click missed its control (try {attempt + 1}): {await control.inner_text()!r}")
    raise AssertionError(f"{tries} clicks never reached the control {await control.inner_text()!r}")


async def _click_and_wait(page: Any, control: Any) -> str | None:
    """Click and wait for the bot's answer: the message is redrawn, or an ephemeral one comes.
    Returns the error the page showed under the message instead (as Discord's client shows
    "This interaction failed"), which a person meets by looking again and clicking again."""
    handle = await control.element_handle()
    count = await page.locator(EPHEMERAL).count()
    await _click_reaching_the_page(page, control)
    try:
        await page.wait_for_function(
            """([b, n]) => !b.isConnected
                 || document.querySelectorAll('article.ephemeral').length !== n
                 || (b.closest('article')?.querySelector('.failed')?.textContent ?? '') !== ''""",
            arg=[handle, count], timeout=45_000)
    except Exception as exc:
        # Rare under a loaded machine; say what the page showed, so the failure explains itself.
        state = await page.evaluate(
            """([b]) => ({button: b.textContent, connected: b.isConnected, disabled: b.disabled,
                          loading: b.classList.contains('loading'),
                          ephemerals: document.querySelectorAll('article.ephemeral').length,
                          clicked: window.PG.clicked, status: document.getElementById('status').textContent,
                          failed: [...document.querySelectorAll('.failed')].map((f) => f.textContent).filter(Boolean),
                          article: b.closest('article')?.id,
                          last: [...document.querySelectorAll('#messages article')].slice(-4)
                                .map((a) => a.id + ' ' + a.textContent.slice(0, 80))})""",
            [handle])
        raise AssertionError(f"no answer shown 45 s after a click (ephemerals before: {count}); "
                             f"the page: {state}") from exc
    failed = await handle.evaluate(
        "b => b.isConnected ? (b.closest('article')?.querySelector('.failed')?.textContent ?? '') : ''")
    if failed:
        print(f"a click was refused: {failed!r}")  # shown if the test fails
    return failed or None


async def resign(page: Any, tries: int = 3) -> bool:
    """Resign through the board's button and the confirmation it brings, as a person would:
    a click that missed its control (the AI's move redrawing the board under the mouse) or that
    the page showed as failed is made again. False when the game ended before the resignation
    (the other side's move ended it meanwhile)."""
    for _ in range(tries):
        board = page.locator(BOARD).last
        button = board.get_by_role("button", name="Resign")
        await first_of(button.wait_for(), board.get_by_role("button", name="Rematch").wait_for())
        if await is_over(page):
            return False
        if await _click_and_wait(page, button):
            continue
        confirm = page.locator(EPHEMERAL).last.get_by_role("button", name="Resign")
        if not await confirm.count():
            continue  # the answer was something else: look at the board again
        if not await _click_and_wait(page, confirm):
            return True
    raise AssertionError(f"no resignation after {tries} tries")


async def take_turn(page: Any, start: str, finish: str | None = None, taps: int = 16,
                    shoot: Any = None) -> str | None:
    """Open the turn menu with the board's ``start`` button, click the first offered choice
    until the move is made (``finish`` clicked when it is enabled); returns the new board
    picture's address, checked to differ from the one before the move. None when the bot
    offered no choice (it answered something else: a question waits for the viewer, the
    turn moved on meanwhile): the caller looks at the page again."""
    before = await board_src(page)
    start_button = page.locator(BOARD).last.locator("button:enabled", has_text=start).first
    if await _click_and_wait(page, start_button):
        return None
    dead: set[str] = set()   # choices that led to "no legal target: pick another one"
    last = ""
    for _ in range(taps):
        if await board_src(page) != before:
            break
        menu = page.locator(EPHEMERAL).last
        if finish:
            done = menu.locator("button:enabled", has_text=finish)
            if await done.count():
                if await _click_and_wait(page, done.first):
                    return None
                # A turn that loses the game is asked about first (the unfair-barrier
                # warning): the viewer plays it anyway, as a person set on it would.
                anyway = page.locator(EPHEMERAL).last.locator("button:enabled",
                                                              has_text="Play it anyway")
                if await anyway.count() and await _click_and_wait(page, anyway.first):
                    return None
                break
        choices = []
        for b in await menu.locator("button:enabled").all():
            label = await b.inner_text()
            if not any(c in label for c in CONTROLS) and label not in dead:
                choices.append((b, label))
        if not choices:  # the move is made (the board is edited a moment later), or refused
            said = await menu.inner_text()
            if "Done" in said:
                break
            back = menu.locator("button:enabled", has_text="Back")
            if last and await back.count():  # a dead end: back, and the next choice
                dead.add(last)
                await _click_and_wait(page, back.first)
                continue
            print(f"no choice offered after {start!r}: {said!r}")  # shown if the test fails
            try:
                return await wait_board_change(page, before, timeout=15)
            except AssertionError:
                return None
        button, last = choices[0]
        if await _click_and_wait(page, button):
            return None
        if shoot is not None:  # a picture of the turn menu half-way, once
            await shoot()
            shoot = None
    return await wait_board_change(page, before)


async def laid_out(page: Any) -> None:
    """Until the page's transitions are over (its channel list slides away below 600 px): the
    page's own state, read at each frame it draws."""
    await page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running')", polling="raf")


async def keep(target: Any, folder: Path | None, filename: str) -> None:
    """A picture of ``target`` (a page or a locator) in ``folder``, when screenshots are kept."""
    if folder is not None:
        await target.screenshot(path=str(folder / filename))


async def screenshot(page: Any, folder: Path | None, name: str, width: int) -> None:
    """The page at ``width`` px, kept as a picture in ``folder`` (see the ``shots`` fixture);
    nothing may stick out sideways."""
    await page.set_viewport_size({"width": width, "height": 900 if width > 600 else 780})
    await laid_out(page)
    await keep(page, folder, f"{name}-{width}.png")
    overflow = await page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width, f"{name}: the page is {overflow} px wide at {width} px"


async def check_page(page: Any) -> None:
    """Plain HTML a test can read: every picture has alt text, no script error happened."""
    alts = await page.eval_on_selector_all("img", "imgs => imgs.map(i => i.alt)")
    assert alts and all(alt.strip() for alt in alts), alts
    assert not page.errors, page.errors


def explain(playground: Any) -> str:
    """The playground's side of the last clicks, for a failure report: who clicked, how the bot
    answered, which message that made and whom the playground shows it to, and the open pages."""
    lines = []
    for token, (user, label) in list(playground.tokens.items())[-4:]:
        replies = [(body.get("type"), (body.get("data") or {}).get("flags"))
                   for body in playground.fake.interaction_replies.get(token, [])]
        made = playground.fake._original.get(token)
        lines.append(f"user {user} {label!r}: answers (type, flags) {replies}, message {made} "
                     f"(exists: {made in playground.fake.messages}, shown to: "
                     f"{playground.owner.get(made)})")
    pages = sorted(viewer.member.name for viewer in playground.viewers)
    return "; ".join(lines) + f"; open pages: {pages}; clicks received: {list(playground.recent_clicks)}"
