from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.client import TabletopBot
from bot.config import Settings
from bot.store import Store
from bot.testing import fake_discord
from bot.testing.fake_discord import FakeDiscord, Harness, Member
from bot.testing.pgserver import TEMPLATE, TempPostgres, Unavailable

# Discord's counts, with its rate-limit windows passing 20 times faster than real time: a test
# plays a game click after click, far faster than people do, and would otherwise wait out real
# seconds for each board edit (5 per 5 s per channel). Tests of the limits themselves build
# their fake with time_scale=1.0.
fake_discord.TIME_SCALE = 20.0

BACKENDS = ("sqlite", "postgresql")
#: a test about SQLite's file (its locks, its disk, its deletion) runs on SQLite only
SQLITE_ONLY = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
POSTGRES_ONLY = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


async def start_bot(database: Path | str, fake: FakeDiscord | None = None, *,
                    render_workers: int = 0, manage_heap: bool = False,
                    reviews: str | None = None) -> Harness:
    """A bot on ``database`` (a SQLite path or a PostgreSQL URL) behind a fake Discord.
    Pictures are drawn in a thread (no render process per test) unless ``render_workers``.
    Finished games get no review computed (an expert's search per turn) unless ``reviews``
    names the module whose ``<game>`` functions review them (tests/cogs/review_jobs.py)."""
    store = await Store.open(database)
    # AI players play without the pause meant for people watching; one search process.
    is_url = isinstance(database, str) and "://" in database
    settings = Settings(token="", database_path=Path("unused.sqlite3") if is_url else Path(database),
                        dev_guild_id=None, log_level="INFO", ai_workers=1, ai_pause_seconds=0.0,
                        database_url=database if is_url else None, render_workers=render_workers)
    bot = TabletopBot(settings, store, manage_heap=manage_heap)
    if reviews is None:
        bot.reviewer.reviewed = lambda game: False
    else:
        bot.reviewer.function_of = lambda game: f"{reviews}:{game}"
    return await Harness.start(bot, fake)


@pytest.fixture(autouse=True)
async def close_stores(monkeypatch):
    """Every store a test opened is closed after it, even when the test failed half-way (an
    open store's threads would keep the test run from ever exiting)."""
    opened: list[Store] = []
    original = Store.open.__func__  # type: ignore[attr-defined]

    async def open_and_remember(cls, *args, **kwargs):
        store = await original(cls, *args, **kwargs)
        opened.append(store)
        return store

    monkeypatch.setattr(Store, "open", classmethod(open_and_remember))
    yield
    for store in opened:
        await store.close()


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the session, with a migrated template each test's database
    is copied from. Skipped without PostgreSQL's programs, except in CI, where it must run."""
    try:
        server = TempPostgres().start()
    except Unavailable as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must test the PostgreSQL backend, but: {exc}")
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    server.psql(f"CREATE DATABASE {TEMPLATE}")

    async def migrate() -> None:
        await (await Store.open(server.url(TEMPLATE))).close()

    asyncio.run(migrate())
    yield server
    server.stop()


@pytest.fixture
def postgres_url(pg_server):
    """A fresh, migrated PostgreSQL database for one test."""
    url = pg_server.new_database(template=TEMPLATE)
    yield url
    pg_server.drop_database(url)


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
