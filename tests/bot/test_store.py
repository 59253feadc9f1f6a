"""The store, on both backends: migrations, the one-lobby rule, atomic and version-guarded
writes, restore scoped to a process's shards, and the upgrade of a file from before."""
from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.config import ConfigError
from bot.store import (MIGRATIONS, Conflict, LobbyExists, SeatRow, ShardScope, StaleWrite, Store)
from tests.conftest import SQLITE_ONLY

DATA = Path(__file__).parent / "data"
#: a guild on shard 0 and one on shard 1 (of 2): Discord's (guild_id >> 22) % count
GUILD_SHARD0, GUILD_SHARD1 = 0 << 22, (1 << 22) + 5


async def _table(store: Store, channel: int = 5, guild: int = 1, seats: int = 2):
    table = await store.create_table(game="narabi", guild_id=guild, channel_id=channel,
                                     host_id=7, host_name="A", options={}, locale="en-US")
    await store.set_seats(table.id, [SeatRow(i, 7 + i, f"P{i}") for i in range(seats)])
    return table


async def _version(store: Store) -> int:
    return (await store._fetchall("SELECT version FROM schema_version"))[0][0]


async def test_migrations_are_versioned_and_idempotent(database):
    store = await Store.open(database)
    await store.close()
    store = await Store.open(database)  # second open: nothing to migrate, nothing breaks
    assert await _version(store) == len(MIGRATIONS)
    await store.close()


@SQLITE_ONLY
async def test_sqlite_keeps_user_version_and_wal(database):
    await (await Store.open(database)).close()
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@SQLITE_ONLY
async def test_newer_schema_is_refused_from_an_old_file(database):
    with sqlite3.connect(database) as db:
        db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 5}")
    with pytest.raises(ConfigError, match="newer"):
        await Store.open(database)


async def test_newer_schema_is_refused(database):
    store = await Store.open(database)

    async def newer(tx) -> None:
        await tx.execute("UPDATE schema_version SET version=?", (len(MIGRATIONS) + 1,))

    await store.write(newer)
    await store.close()
    with pytest.raises(ConfigError, match="newer version of the bot"):
        await Store.open(database)


async def test_a_file_from_before_the_version_table_upgrades_in_place(tmp_path):
    """schema9.sqlite3 was written by the bot before PostgreSQL (tests/bot/data/make_schema9.py):
    every table, game, result and setting is there after the upgrade."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "schema9.sqlite3", path)
    store = await Store.open(path)
    assert await _version(store) == len(MIGRATIONS)
    unfinished = {t.id: t for t in await store.unfinished_tables()}
    assert sorted(t.status for t in unfinished.values()) == ["lobby", "playing", "playing"]
    sensei = next(t for t in unfinished.values() if t.game == "sensei")
    assert sensei.version == 6 and sensei.seats[1].ai == "hard" and not sensei.seats[0].dm_open
    assert len(await store.actions(sensei.id)) == 6
    assert (await store.get_table(sensei.id)).state is not None
    assert (await store.rating_of(5000, "sensei", 101)) is not None
    history, total = await store.recent_results(5000)
    assert total == 3
    for result in history:
        assert len(await store.actions(result["table_id"])) > 0
    assert await store.guild_clock(5000, "sensei") == (3600.0, "skip")
    assert await store.guild_language(5000) == "pl" and await store.dm_reminders(101)
    narabi = next(t for t in unfinished.values() if t.game == "narabi" and t.status == "playing")
    assert len(await store.questions_of(narabi.id)) == 1
    # the old heartbeat still gives back downtime once, then the shard's own beat is used
    store.clock = lambda: 1_700_000_100.0
    assert await store.give_back_downtime() == 100.0
    assert await store.give_back_downtime() == 0.0
    await store.close()


async def test_one_lobby_per_channel(database):
    store = await Store.open(database)
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


async def test_failed_action_record_leaves_nothing(database):
    store = await Store.open(database)
    table = await _table(store)
    await store.start_game(table.id, 1, {"x": 1}, None)
    table.version = 1
    await store.record_action(table, seat=0, user_id=7, action={"type": "a"}, state={"x": 2})
    with pytest.raises(StaleWrite):
        # the same action number twice: refused as stale, the transaction rolls back as a whole
        await store.record_action(table, seat=0, user_id=7, action={"type": "b"}, state={"x": 3})
    row = await store.get_table(table.id)
    assert row.state == {"x": 2} and row.version == 1
    assert await store.actions(table.id) == [(0, {"type": "a"})]
    await store.close()


async def test_absence_votes_count_at_their_turn_only_and_go_with_the_game(database):
    store = await Store.open(database)
    table = await _table(store, seats=3)
    await store.start_game(table.id, 1, {"x": 1}, None)
    assert await store.vote_for_ai(table.id, 1, voter=7, version=0) == 1
    table.version = 1
    await store.record_actions(table, user_id=7, actions=[(0, {"type": "a"})], state={"x": 2},
                               clock=(None, None))
    # A vote of the turn before does not add to this turn's.
    assert await store.vote_for_ai(table.id, 1, voter=9, version=1) == 1
    table.version = 2
    await store.record_actions(table, user_id=7, actions=[(0, {"type": "b"})], state={"x": 3},
                               result={"winners": [], "reason": "r", "draw": True, "details": {}},
                               outcomes=[], clock=(None, None))
    assert await store._fetchall("SELECT * FROM seat_votes WHERE table_id=?", (table.id,)) == []
    await store.close()


async def test_a_schema_rule_refuses_one_job_and_keeps_the_others_of_its_batch(database):
    store = await Store.open(database)
    table = await _table(store)

    async def duplicate_seat(tx) -> None:
        await tx.execute("INSERT INTO seats (table_id, seat, user_id, name) VALUES (?,?,?,?)",
                         (table.id, 0, 99, "again"))

    results = await asyncio.gather(store.set_dm_open(table.id, 1, False),
                                   store.write(duplicate_seat),
                                   store.set_guild_language(1, "fr"), return_exceptions=True)
    assert isinstance(results[1], Conflict) and results[0] is None and results[2] is None
    seats = (await store.get_table(table.id)).seats
    assert [s.name for s in seats] == ["P0", "P1"] and not seats[1].dm_open
    assert await store.guild_language(1) == "fr"
    await store.close()


async def test_two_stores_on_one_database_apply_a_move_once(database):
    """Two processes' stores race for one table: exactly one write is applied."""
    first, second = await Store.open(database), await Store.open(database)
    table = await _table(first)
    await first.start_game(table.id, 1, {"x": 0}, None)
    rows = [await first.get_table(table.id), await second.get_table(table.id)]
    for row in rows:
        row.version = 1

    async def move(store: Store, row, n: int):
        return await store.record_action(row, seat=0, user_id=7, action={"n": n}, state={"x": n})

    outcomes = await asyncio.gather(*(move(store, row, i) for i, (store, row)
                                      in enumerate([(first, rows[0]), (second, rows[1])] * 10)),
                                    return_exceptions=True)
    applied = [i for i, o in enumerate(outcomes) if o is None]
    assert len(applied) == 1 and all(isinstance(o, StaleWrite) for i, o in enumerate(outcomes)
                                     if i not in applied)
    row = await second.get_table(table.id)
    assert row.version == 1 and await second.actions(table.id) == [(0, {"n": applied[0]})]
    await first.close()
    await second.close()


async def test_a_process_restores_only_the_tables_of_its_shards(database):
    store = await Store.open(database)
    mine = await _table(store, channel=1, guild=GUILD_SHARD0)
    theirs = await _table(store, channel=2, guild=GUILD_SHARD1)
    for table in (mine, theirs):
        await store.start_game(table.id, 1, {"x": 0}, None, clock=(100.0, 0))
        await store.set_seat_ai(table.id, 1, "easy")
    assert ShardScope(2, (0,)).owns(GUILD_SHARD0) and ShardScope(2, (1,)).owns(GUILD_SHARD1)
    for scope, expected in ((ShardScope(2, (0,)), mine.id), (ShardScope(2, (1,)), theirs.id)):
        store.scope = scope
        assert [t.id for t in await store.unfinished_tables()] == [expected]
        assert await store.tables_behind() == [expected]
        assert [d[0] for d in await store.deadlines()] == [expected]
        assert await store.tables_with_ai() == [expected]
    store.scope = ShardScope(2, (0, 1))
    assert len(await store.unfinished_tables()) == 2
    await store.close()


async def test_downtime_is_given_back_per_shard(database):
    store = await Store.open(database, scope=ShardScope(2, (0,)))
    other = await Store.open(database, scope=ShardScope(2, (1,)))
    a = await _table(store, channel=1, guild=GUILD_SHARD0)
    b = await _table(store, channel=2, guild=GUILD_SHARD1)
    for table in (a, b):
        await store.start_game(table.id, 1, {"x": 0}, None, clock=(1000.0, 0))
    store.clock = other.clock = lambda: 500.0
    await store.beat()
    await other.beat()
    # the process of shard 1 stays up (beats at 590); the one of shard 0 was down 100 s
    other.clock = lambda: 590.0
    await other.beat()
    store.clock = lambda: 600.0
    assert await store.give_back_downtime() == 100.0
    assert (await store.get_table(a.id)).deadline == 1100.0
    assert (await store.get_table(b.id)).deadline == 1000.0
    await store.close()
    await other.close()


async def test_text_ids_and_times_round_trip_exactly(database):
    store = await Store.open(database)
    big = 1_234_567_890_123_456_789  # a Discord id beyond 32 bits
    table = await store.create_table(game="sensei", guild_id=big, channel_id=big + 1,
                                     host_id=big + 2, host_name="Zoë 🎲 ' \" ;--",
                                     options={"v": "ü"}, locale="pl", turn_limit=0.25)
    row = await store.get_table(table.id)
    assert (row.guild_id, row.channel_id, row.host_id) == (big, big + 1, big + 2)
    assert row.seats[0].name == "Zoë 🎲 ' \" ;--" and row.options == {"v": "ü"}
    assert row.turn_limit == 0.25 and isinstance(row.updated_at, float)
    await store.close()



@SQLITE_ONLY
async def test_a_read_after_a_write_sees_it_while_another_read_is_under_way(database):
    """SQLite's reader is one connection, serving queries in turns on its own thread. A query
    once took two turns (run, then fetch its rows) and kept the connection's snapshot open
    between them: a read in that gap saw the database as it was before a write that had just
    committed (a tournament just created, not found). Each turn here ends with a pause, so
    another query always gets in between two turns of a query."""
    store = await Store.open(database)
    for channel in range(50):
        await _table(store, channel=1000 + channel, seats=3)
    reader = store.backend._reader
    turn = reader._execute

    async def turn_then_pause(*args, **kwargs):
        result = await turn(*args, **kwargs)
        await asyncio.sleep(0.02)
        return result
    reader._execute = turn_then_pause
    try:
        for channel in range(5):
            long_read = asyncio.create_task(store._fetchall("SELECT table_id, seat FROM seats"))
            await asyncio.sleep(0.01)  # its first turn is done
            table = await store.create_table(game="narabi", guild_id=1, channel_id=channel,
                                             host_id=7, host_name="A", options={},
                                             locale="en-US")
            assert await store.get_table(table.id) is not None
            assert len(await long_read) >= 150
    finally:
        reader._execute = turn
        await store.close()
