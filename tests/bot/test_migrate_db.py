"""``python -m bot migrate-db``: a SQLite database copied to PostgreSQL whole, idempotently,
and a bot on the copy carries on where the old one stopped."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Store
from tests.conftest import start_bot
from tests.helpers import narabi_switch

import random

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", "migrate-db", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


async def _everything(store: Store) -> dict[str, list[tuple]]:
    from bot.store.transfer import TABLES
    return {name: sorted(map(tuple, await store._fetchall(f"SELECT * FROM {name}")), key=repr)
            for name, _ in TABLES}


async def test_sqlite_to_postgres_copies_everything_once_and_the_bot_goes_on(tmp_path,
                                                                            postgres_url):
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "schema9.sqlite3", path)
    done = run("--from", f"sqlite:///{path}", "--to", postgres_url)
    assert done.returncode == 0, done.stderr
    assert "total" in done.stdout and "rows copied" in done.stdout
    copied = int(done.stdout.split("done: ")[1].split()[0])
    assert copied > 50
    assert "game_tables" in done.stderr  # the progress bar names the table it copies

    again = run("--from", f"sqlite:///{path}", "--to", postgres_url, "--quiet")
    assert again.returncode == 0 and "done: 0 rows copied" in again.stdout, again.stdout
    assert again.stderr == ""

    source, target = await Store.open(path), await Store.open(postgres_url)
    before, after = await _everything(source), await _everything(target)
    for name in before:
        assert len(before[name]) == len(after[name]), name
    assert [t.id for t in await source.unfinished_tables()] == \
        [t.id for t in await target.unfinished_tables()]
    assert await source.recent_results(5000) == await target.recent_results(5000)
    assert await source.rating_of(5000, "sensei", 101) == await target.rating_of(5000, "sensei", 101)
    # a new table takes an id after the copied ones
    new = await target.create_table(game="narabi", guild_id=5000, channel_id=99, host_id=1,
                                    host_name="N", options={}, locale="en-US")
    assert new.id > max(t.id for t in await source.unfinished_tables())
    await source.close()
    await target.close()


async def test_a_running_game_copied_to_postgres_plays_on(tmp_path, postgres_url, players):
    from tests.helpers import start_table
    h = await start_bot(tmp_path / "bot.sqlite3")
    table = await start_table(h, "narabi", players[:3])
    rng = random.Random(3)
    for _ in range(3):
        await narabi_switch(h, table, rng)
    version = (await h.bot.tables.get(table.id)).row.version
    fake = h.fake
    await h.bot.close()
    done = run("--from", f"sqlite:///{tmp_path / 'bot.sqlite3'}", "--to", postgres_url, "--quiet")
    assert done.returncode == 0, done.stderr
    h = await start_bot(postgres_url, fake)
    assert (await h.bot.tables.get(table.id)).row.version == version
    assert await narabi_switch(h, table, rng) is not None
    assert (await h.bot.tables.get(table.id)).row.version == version + 1
    await h.bot.close()


@pytest.mark.slow
def test_bad_arguments_are_explained(tmp_path):
    done = run("--from", f"sqlite:///{tmp_path / 'none.sqlite3'}", "--to", "postgresql://x@127.0.0.1:1/x")
    assert done.returncode == 2 and "no database file" in done.stderr
    done = run("--from", "mysql://x", "--to", "postgresql://x@127.0.0.1:1/x")
    assert done.returncode == 2 and "sqlite:///path or postgresql://" in done.stderr
    (tmp_path / "a.sqlite3").touch()
    done = run("--from", f"sqlite:///{tmp_path / 'a.sqlite3'}",
               "--to", f"sqlite:///{tmp_path / 'a.sqlite3'}")
    assert done.returncode == 2 and "the same database" in done.stderr
