"""The store: migrations, the one-lobby rule, atomic action records, restore."""
from __future__ import annotations

import sqlite3

import pytest

from bot.config import ConfigError
from bot.store import MIGRATIONS, LobbyExists, Store


async def test_migrations_are_versioned_and_idempotent(tmp_path):
    path = tmp_path / "s.sqlite3"
    store = await Store.open(path)
    await store.close()
    store = await Store.open(path)  # second open: nothing to migrate, nothing breaks
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "s.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 5}")
    with pytest.raises(ConfigError, match="newer than this bot"):
        await Store.open(path)


async def test_one_lobby_per_channel(tmp_path):
    store = await Store.open(tmp_path / "s.sqlite3")
    kwargs = dict(game="narabi", guild_id=1, channel_id=5, host_id=7, host_name="A",
                  options={"advanced": False}, locale="en-US")
    first = await store.create_table(**kwargs)
    with pytest.raises(LobbyExists) as exc:
        await store.create_table(**kwargs)
    assert exc.value.table_id == first.id
    await store.update_table(first.id, status="cancelled")
    second = await store.create_table(**kwargs)
    assert second.id != first.id
    assert [t.id for t in await store.unfinished_tables()] == [second.id]
    await store.close()


async def test_failed_action_record_leaves_nothing(tmp_path):
    store = await Store.open(tmp_path / "s.sqlite3")
    table = await store.create_table(game="narabi", guild_id=1, channel_id=5, host_id=7,
                                     host_name="A", options={}, locale="en-US")
    await store.start_game(table.id, 1, {"x": 1}, None)
    table.version = 1
    await store.record_action(table, seat=0, user_id=7, action={"type": "a"}, state={"x": 2})
    with pytest.raises(sqlite3.IntegrityError):
        # the same action number twice: the transaction rolls back as a whole
        await store.record_action(table, seat=0, user_id=7, action={"type": "b"}, state={"x": 3})
    row = await store.get_table(table.id)
    assert row.state == {"x": 2} and row.version == 1
    assert await store.actions(table.id) == [(0, {"type": "a"})]
    await store.close()
