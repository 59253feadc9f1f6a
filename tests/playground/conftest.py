"""A playground per test (the real bot behind the page, AI pause 0, on a free loopback port)
and headless Chromium from Debian's package driven by Playwright (never a downloaded browser).
Without Chromium or Playwright the browser tests are skipped with the reason shown; with
CI=true they must run."""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import pytest
import pytest_asyncio

from bot.playground.host import Playground
from bot.playground.run import settings_for
from bot.playground.server import bound_port, serve, stop
from bot.store import Store

#: Debian's Chromium in its headless build (package chromium-headless-shell, the same engine
#: without a browser window's own pages: a fifth less CPU for these tests) when installed, else
#: Debian's chromium; CHROMIUM=PATH chooses
CHROMIUM = os.environ.get("CHROMIUM") or next(
    (path for path in ("/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium")
     if Path(path).exists()), "/usr/bin/chromium")
#: without the background-networking flags Chromium misbehaves on a closed network
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def browser_missing() -> str | None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        return (f"Chromium is not installed at {CHROMIUM} "
                f"(apt install chromium-headless-shell, or chromium)")
    return None


@contextlib.asynccontextmanager
async def chromium():
    """Debian's Chromium through Playwright; skipped where it is missing, but never in CI."""
    reason = browser_missing()
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run the browser tests, but: {reason}")
        pytest.skip(f"browser tests skipped: {reason}")
    from playwright.async_api import async_playwright
    path = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(one_chromium):
    """The worker's Chromium; whatever the test opened in it is closed after it (a page left
    open would keep calling a playground that is gone)."""
    before = set(one_chromium.contexts)
    yield one_chromium
    for context in one_chromium.contexts:
        if context not in before:
            await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def playground(tmp_path: Path):
    settings = settings_for(tmp_path / "bot.sqlite3", ai_pause=0.0, ai_priority="normal")
    store = await Store.open(settings.database)
    pg = await Playground.start(settings, store)
    runner = await serve(pg, "127.0.0.1", 0)
    pg.url = f"http://127.0.0.1:{bound_port(runner)}/"  # type: ignore[attr-defined]
    yield pg
    await stop(pg, runner)


@pytest.fixture
def shots() -> Path | None:
    """Where screenshots go: PLAYGROUND_SCREENSHOTS, to keep and look at them. Without it none
    is taken (the page's width is still checked at each size): nobody would look at them, and
    each cost Chromium and Playwright's driver about 0.3 s of CPU, 29 of them 8.6 s in the two
    slowest browser files."""
    named = os.environ.get("PLAYGROUND_SCREENSHOTS")
    if not named:
        return None
    folder = Path(named)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
