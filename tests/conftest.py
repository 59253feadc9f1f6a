from __future__ import annotations

import asyncio
import gc
import os
import queue
import random
import sys
import tempfile
import threading
import types
import zlib
from pathlib import Path

import pytest
import pytest_asyncio

from bot.client import TabletopBot
from bot.config import Settings
from bot.domain import tables as domain_tables
from bot.store import Store
from bot.testing import fake_discord
from bot.testing.discord_spec import SPEC
from bot.testing.fake_discord import FakeDiscord, Member
from bot.testing.harness import Harness
from bot.testing.pgserver import TEMPLATE, TempPostgres, Unavailable, memory_folder
from bot.ui import drawing
from bot.ui.pictures import DrawnCache
from cogs.tournament import cog as tournament_cog

# Discord's counts, with its rate-limit windows passing 100 times faster than real time: a test
# plays a game click after click, far faster than people do, and would otherwise wait out real
# seconds for each board edit (5 per 5 s per channel). At 20 times, the test that posts every
# message in one language still waited 3.5 s of its 7 for windows to pass. Tests of the limits
# themselves build their fake with time_scale=1.0.
fake_discord.TIME_SCALE = 100.0

#: the folder where the run keeps its temporary files (tests' folders, SQLite files, browser
#: profiles), when it chose one in memory; None where it left them where the machine keeps them
MEMORY_TEMP: str | None = None


def _temporary_files_in_memory() -> None:
    # Every SQLite commit a test makes is flushed to the disk, as the bot's are (synchronous=FULL).
    # Four workers' flushes queue behind one another on the disk: a test then waits for the disk,
    # not for its CPU. In memory a flush costs nothing and the files behave the same. A TMPDIR
    # chosen by whoever runs the tests is kept; the workers inherit the choice from the run.
    global MEMORY_TEMP
    folder = memory_folder() if sys.platform == "linux" else None
    chosen = folder and os.path.join(folder, "tabletop-tests")
    if chosen is None or os.environ.get("TMPDIR", chosen) != chosen:
        return
    MEMORY_TEMP = chosen
    os.makedirs(MEMORY_TEMP, exist_ok=True)
    os.environ["TMPDIR"] = MEMORY_TEMP
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again


_temporary_files_in_memory()

#: modules whose tests each take many seconds of wall time (a real browser): started
#: first, so that pytest-xdist's workers do not end the run waiting on one of them alone (the
#: browser's Sàréná game, last in the tree's order, used to finish 9 s after every other test)
STARTED_FIRST = ("tests/playground/test_browser_games.py", "tests/playground/test_browser_box.py")


#: fixtures that make a test slow by themselves: a browser (Chromium and Playwright's driver
#: started, a page driven at a person's pace) or PostgreSQL (a server started per worker, a
#: database copied per test)
SLOW_FIXTURES = frozenset({"browser", "pg_server", "postgres_url"})


def is_slow(item: pytest.Item) -> bool:
    """Marked slow, or using a slow fixture, or run on PostgreSQL by ``database``."""
    if item.get_closest_marker("slow") is not None or SLOW_FIXTURES & set(
            getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("database") == "postgresql"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The quick tier (``-m "not slow"``) leaves out the browser's and PostgreSQL's tests too:
    # the full run tests both backends, the quick one SQLite's half.
    for item in items:
        if is_slow(item) and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
        _in_the_session_loop(item)
    # The same order in every worker (pytest-xdist checks): a stable sort on the module alone.
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in STARTED_FIRST)


def _in_the_session_loop(item: pytest.Item) -> None:
    """The browser and playground fixtures live in the session's event loop (``one_chromium``):
    a test of theirs in a loop of its own would fail far from the cause."""
    if not {"browser", "playground"} & set(getattr(item, "fixturenames", ())):
        return
    marker = item.get_closest_marker("asyncio")
    if marker is None or marker.kwargs.get("loop_scope") != "session":
        raise pytest.UsageError(
            f"{item.nodeid} uses the browser or the playground: mark it (or its module) "
            f"pytest.mark.asyncio(loop_scope=\"session\")")


#: tests between two freezes of what outlived them (see pytest_runtest_teardown)
FREEZE_EVERY = 10
_finished = 0


def pytest_collection_finish(session: pytest.Session) -> None:
    # The cycle collector walked every live object at each full collection: the test modules,
    # Discord's API description (read on the first request a test makes), the caches. That was
    # 16.6 s of the workers' CPU over a run. Frozen once they are all loaded, and again every
    # few tests (below), with the automatic full collections rarer, the collector took 7.3 s
    # (and the workers' memory peaked at 362–709 MB, where it had at 379–823 MB).
    SPEC.warm()
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 50)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    # Between tests, with their fixtures finalized, what is still alive outlives tests (caches
    # filled on first use): collected and frozen, later collections never walk it again.
    yield
    global _finished
    _finished += 1
    if _finished % FREEZE_EVERY == 0:
        gc.collect()
        gc.freeze()


DEFAULT_REST_BUDGET = Settings.__dataclass_fields__["rest_budget"].default

BACKENDS = ("sqlite", "postgresql")
#: a test about SQLite's file (its locks, its disk, its deletion) runs on SQLite only
SQLITE_ONLY = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
POSTGRES_ONLY = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


async def start_bot(database: Path | str, fake: FakeDiscord | None = None, *,
                    render_workers: int = 0, manage_heap: bool = False,
                    sync_commands: bool = True, reviews: str | None = None) -> Harness:
    """A bot on ``database`` (a SQLite path or a PostgreSQL URL) behind a fake Discord.
    Pictures are drawn in a thread (no render process per test) unless ``render_workers``.
    ``sync_commands=False``: the bot does not send its slash commands at start (another bot
    on the same fake already did). Finished games get no review computed (an expert's search
    per turn) unless ``reviews`` names the module whose ``<game>`` functions review them
    (tests/cogs/review_jobs.py)."""
    store = await Store.open(database)
    # AI players play without the pause meant for people watching; one search process, at
    # normal priority: the suite's other workers keep the CPU busy, and an idle-priority search
    # would starve until its think limit played a random move for it.
    is_url = isinstance(database, str) and "://" in database
    # The bot's own budget runs on the fake's clock: where Discord's windows pass faster
    # (TIME_SCALE), so does the bot's pacing under them (real time for a real-time fake).
    scale = fake.limits.time_scale if fake is not None else fake_discord.TIME_SCALE
    settings = Settings(token="", database_path=Path("unused.sqlite3") if is_url else Path(database),
                        dev_guild_id=None, log_level="INFO", ai_workers=1, ai_pause_seconds=0.0,
                        ai_priority="normal", rest_budget=DEFAULT_REST_BUDGET * scale,
                        database_url=database if is_url else None, render_workers=render_workers)
    bot = TabletopBot(settings, store, manage_heap=manage_heap, sync_commands=sync_commands)
    if reviews is None:
        bot.reviewer.reviewed = lambda game: False
    else:
        bot.reviewer.function_of = lambda game: f"{reviews}:{game}"
        bot.reviewer.cut_of = lambda game: None  # reviews made by hand hold no puzzles
    return await Harness.start(bot, fake)


#: PostgreSQL connections a test's store keeps (the bot's default is 20). Each connection is a
#: server process to start: 20 of them cost the server about 180 ms of CPU per store opened,
#: about three minutes of the two cores over a run of the suite, for tests that never have more
#: than a few database jobs at once. Stores still queue for a connection when all are busy.
TEST_POOL_SIZE = 4


@pytest.fixture(autouse=True)
def deals_follow_the_test(request, monkeypatch):
    """Every deal and tournament draw in a test comes from a sequence named by the test, so a
    test plays the same games on every run. With the bot's own ``secrets.randbits`` a CI run
    dealt a Narabi game its AI teammates finished before the person's first turn, and a test
    that asks a question on that turn failed there and passed when run again."""
    deals = random.Random(zlib.crc32(request.node.nodeid.encode()))
    # Only where the bot draws a deal: discord.py draws each message's nonce from the same
    # ``secrets.randbits``, and concurrent sends would shift a shared sequence.
    drawn = types.SimpleNamespace(randbits=deals.getrandbits)
    for module in (domain_tables, tournament_cog):
        monkeypatch.setattr(module, "secrets", drawn)
    return deals


@pytest.fixture(autouse=True)
def pictures_drawn_afresh(monkeypatch):
    """Each test starts with an empty cache of drawn pictures, so that whether a picture is
    drawn (in a worker, in time, at all) does not depend on which tests ran before it in the
    same worker."""
    fresh = DrawnCache()
    monkeypatch.setattr(drawing, "DRAWN", fresh)
    return fresh


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def one_chromium():
    """One Chromium and one Playwright driver per worker (the browser tests' ``browser``):
    starting them cost about 0.5 s of CPU for each of some 40 browser tests. Playwright's
    objects belong to the event loop that made them, so the tests that use it run in the
    session's loop (their modules' ``pytestmark``)."""
    from tests.playground.conftest import chromium
    async with chromium() as launched:
        yield launched


@pytest.fixture(autouse=True)
async def close_stores(monkeypatch):
    """Every store a test opened is closed after it, even when the test failed half-way (an
    open store's threads would keep the test run from ever exiting)."""
    opened: list[Store] = []
    original = Store.open.__func__  # type: ignore[attr-defined]

    async def open_and_remember(cls, *args, **kwargs):
        kwargs.setdefault("pool_size", TEST_POOL_SIZE)
        store = await original(cls, *args, **kwargs)
        opened.append(store)
        return store

    monkeypatch.setattr(Store, "open", classmethod(open_and_remember))
    yield
    for store in opened:
        await store.close()


class Databases:
    """Fresh copies of the migrated template, made one test ahead and dropped after it in a
    thread of their own, over one kept connection: a test finds its database waiting instead
    of waiting for CREATE DATABASE (and two psql processes) itself. Each copy is still a new
    database made from the template, used by one test only."""

    def __init__(self, server: TempPostgres) -> None:
        self.server = server
        self._jobs: queue.Queue = queue.Queue()
        self._ready: queue.Queue = queue.Queue()
        self._made = 0
        self._thread = threading.Thread(target=self._work, name="test-databases", daemon=True)
        self._thread.start()
        self._make()

    def _make(self) -> None:
        self._made += 1
        self._jobs.put(("create", f"t{os.getpid()}_{self._made}"))

    def _work(self) -> None:
        import asyncpg
        loop = asyncio.new_event_loop()
        conn = None
        try:
            conn = loop.run_until_complete(asyncpg.connect(self.server.admin_url))
            while (job := self._jobs.get()) is not None:
                kind, name = job
                try:
                    if kind == "create":
                        loop.run_until_complete(
                            conn.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}"))
                        self._ready.put(name)
                    else:
                        loop.run_until_complete(
                            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                except Exception as exc:  # handed to the test that waits for a database
                    if kind == "create":
                        self._ready.put(exc)
        except Exception as exc:
            self._ready.put(exc)
        finally:
            if conn is not None:
                loop.run_until_complete(conn.close())
            loop.close()

    def take(self) -> str:
        """A fresh database's URL; the next one is started meanwhile."""
        got = self._ready.get(timeout=300)
        if isinstance(got, BaseException):
            raise got
        self._make()
        return self.server.url(got)

    def drop(self, url: str) -> None:
        self._jobs.put(("drop", url.rsplit("/", 1)[-1]))

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=60)


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the session (under pytest-xdist: one per worker process,
    each on its own free port and temporary folder), with a migrated template each test's
    database is copied from. Skipped without PostgreSQL's programs, except in CI, where it
    must run."""
    try:
        server = TempPostgres().start()
    except Unavailable as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must test the PostgreSQL backend, but: {exc}")
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    try:
        server.psql(f"CREATE DATABASE {TEMPLATE}")

        async def migrate() -> None:
            await (await Store.open(server.url(TEMPLATE))).close()

        asyncio.run(migrate())
        server.databases = Databases(server)  # type: ignore[attr-defined]
        yield server
        server.databases.close()  # type: ignore[attr-defined]
    finally:
        server.stop()


@pytest.fixture
def postgres_url(pg_server):
    """A fresh, migrated PostgreSQL database for one test."""
    url = pg_server.databases.take()
    yield url
    pg_server.databases.drop(url)


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path: Path):
    """The test runs once on a SQLite file and once on a PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "bot.sqlite3"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def harness(database):
    h = await start_bot(database)
    yield h
    await h.bot.close()


@pytest.fixture
def no_missing_text(caplog):
    """Every sentence the bot produced came from the catalog (a missing key is logged)."""
    yield
    missing = [r.getMessage() for r in caplog.records if "catalog key" in r.getMessage()]
    assert not missing, missing


@pytest.fixture
def players() -> list[Member]:
    return [Member(100 + i, name) for i, name in enumerate(["Ana", "Ben", "Cleo", "Dev", "Eli"])]
