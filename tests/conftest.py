from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import TabletopBot
from bot.config import Settings
from bot.store import Store
from bot.testing.fake_discord import FakeDiscord, Harness, Member


async def start_bot(db_path: Path, fake: FakeDiscord | None = None) -> Harness:
    store = await Store.open(db_path)
    # AI players play without the pause meant for people watching; one search process.
    settings = Settings(token="", database_path=db_path, dev_guild_id=None, log_level="INFO",
                        ai_workers=1, ai_pause_seconds=0.0)
    bot = TabletopBot(settings, store)
    return await Harness.start(bot, fake)


@pytest.fixture
async def harness(tmp_path: Path):
    h = await start_bot(tmp_path / "bot.sqlite3")
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
