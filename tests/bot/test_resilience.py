"""Every table reaches its end: surfaces repaired from the store, resumable starts, storage
faults answered, permissions named, limits kept, secrets out of the logs."""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import sqlite3

import aiohttp
import discord
import pytest

from bot import logs
from bot.store import StoreFailure, classify
from bot.i18n import t
from bot.testing.fake_discord import (CHANNEL_ID, GUILD_ID, InteractionRecord, find_component,
                                      snowflake, user_payload)
from bot.ui.reconcile import BURST
from tests.conftest import POSTGRES_ONLY, SQLITE_ONLY, start_bot
from tests.helpers import (board, ephemeral_reply, eventually, narabi_path,
                           narabi_switch, open_lobby, random_move, start_table, tap_through)

NO_ATTACH = str(discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True,
    create_public_threads=True, embed_links=True, read_message_history=True).value)


def cut_discord(fake) -> None:
    """Every REST call to a channel fails from now on, as when the process is killed or the
    network drops right after a commit (interaction answers still go through)."""
    def fail(method: str, path: str) -> None:
        if path.startswith("/channels") or path.startswith("/users"):
            raise aiohttp.ClientConnectionError("connection lost")
    fake.before_request = fail


async def kill(h) -> None:
    """Stop the process without letting it repair anything more."""
    await h.bot.reconciler.stop(timeout=0)
    await h.bot.close()


async def confirm_switch(h, table, rng):
    """A Narabi switch made through the real buttons; returns the switching click's token."""
    player, action = await random_move(h, table, rng)
    b = board(h, table)
    token, _ = await tap_through(h, player, b, narabi_path(b, action))
    return token


def public_in(fake, channel: int) -> list[dict]:
    return [m for m in fake.channel_messages(channel) if not m.get("flags", 0) & 64]


def board_version(message) -> int:
    """The table version a board message's buttons carry."""
    switch = find_component(message, "switch")["custom_id"]
    return int(switch.split(":")[3])


# -- 1. a board left behind ------------------------------------------------------------------

async def test_board_left_behind_by_a_kill_is_repaired_at_restart(database, players):
    db = database
    h = await start_bot(db)
    table = await start_table(h, "narabi", players[:3])
    lines_before = len(public_in(h.fake, table.thread))
    cut_discord(h.fake)
    token = await confirm_switch(h, table, random.Random(1))
    assert "Switched" in h.reply_text(token) or "turn" in h.reply_text(token).lower()
    assert board_version(board(h, table)) == 0  # the acknowledged turn never reached the board
    fake = h.fake
    await kill(h)

    fake.before_request = None
    h2 = await start_bot(db, fake)
    await h2.settle()
    live = await h2.bot.tables.get(table.id)
    assert live.row.version == 1 and live.row.board_version == 1
    assert board_version(board(h2, table)) == 1
    # the turn's log line was queued with the commit and is posted now
    assert len(public_in(fake, table.thread)) == lines_before + 1
    assert "switch" in public_in(fake, table.thread)[-1]["content"].lower()
    assert await h2.bot.store.outbox(table.id) == []
    # and the game goes on from the repaired board
    assert await narabi_switch(h2, table, random.Random(2)) is not None
    await h2.bot.close()


async def test_a_click_on_a_board_behind_refreshes_it_and_says_so(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    stale = json.loads(json.dumps(board(h, table)))
    cut_discord(h.fake)
    await confirm_switch(h, table, random.Random(1))
    h.fake.before_request = None
    live = await h.bot.tables.get(table.id)
    assert live.row.board_version == 0  # the edit failed; a retry is only scheduled
    mover = table.players[live.game.to_move]
    token = await h.click(mover, stale, find_component(stale, "switch")["custom_id"])
    text = h.reply_text(token)
    assert "was behind" in text and "nothing was changed" in text and "Current board" in text
    assert all(flag & 64 for flag in h.reply_flags(token))
    assert board_version(board(h, table)) == 1 and live.row.board_version == 1
    assert live.row.version == 1  # the click that repaired did not play


async def test_a_deleted_board_message_is_posted_again(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    old = board(h, table)
    del h.fake.messages[int(old["id"])]
    # the next committed turn finds its board gone and posts a new one
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    action = live.game.legal_actions(seat)[0]
    await h.bot.tables.act(table.id, table.players[seat].id, action)
    h.bot.reconciler.mark(table.id)
    await h.settle()
    new = board(h, table)
    assert new["id"] != old["id"] and board_version(new) == 1


async def test_board_command_reposts_the_board_as_the_newest_message(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    rng = random.Random(8)
    for _ in range(3):
        await narabi_switch(h, table, rng)
    old = board(h, table)
    assert public_in(h.fake, table.thread)[-1]["id"] != old["id"]  # scrolled up by log lines
    token = await h.command(players[1], "narabi", "board", channel_id=table.thread)
    newest = public_in(h.fake, table.thread)[-1]
    assert newest["attachments"] and newest["id"] != old["id"]
    assert int(old["id"]) not in h.fake.messages  # the old board is retired
    assert board_version(newest) == 3 and newest["id"] in h.reply_text(token)
    assert (await h.bot.tables.get(table.id)).row.board_message_id == int(newest["id"])
    # its buttons play on
    assert await narabi_switch(h, table, rng) is not None


# -- 2. a start answered late, or interrupted -------------------------------------------------

async def test_start_is_answered_at_once_and_finished_in_the_background(harness, players):
    h = harness
    lobby = await open_lobby(h, "narabi", players[0])
    for p in players[1:3]:
        await h.click(p, lobby, find_component(lobby, "join")["custom_id"])
    table_id = int(find_component(lobby, "start")["custom_id"].split(":")[1])
    token = await h.click(players[0], lobby, find_component(lobby, "start")["custom_id"])
    # the first answer is a deferral: nothing slow happens before Discord hears back
    assert h.fake.replies(token)[0]["type"] == 6
    live = await h.bot.tables.get(table_id)
    thread = live.row.thread_id
    assert thread == int(lobby["id"])
    texts = [m["content"] for m in h.fake.channel_messages(thread)]
    assert any(t.startswith("Game on!") for t in texts)
    assert all(h.fake.dms_to(p.id) for p in players[:3])
    assert "started" in json.dumps(h.fake.messages[int(lobby["id"])]["embeds"])


async def test_an_interrupted_start_is_finished_after_restart_without_orphans(database, players):
    db = database
    h = await start_bot(db)
    lobby = await open_lobby(h, "narabi", players[0])
    for p in players[1:3]:
        await h.click(p, lobby, find_component(lobby, "join")["custom_id"])
    # the thread is made, but the process dies before its answer arrives: nothing after it
    # reaches Discord, and the thread's id was never recorded
    table_id = int(find_component(lobby, "start")["custom_id"].split(":")[1])
    real, dead = h.bot.http.request, []

    async def dies_with_the_thread(route, **kwargs):
        if dead:
            raise aiohttp.ClientConnectionError("killed")
        result = await real(route, **kwargs)
        if route.url.endswith("/threads"):
            dead.append(True)
            raise aiohttp.ClientConnectionError("killed")
        return result
    h.bot.http.request = dies_with_the_thread
    await h.click(players[0], lobby, find_component(lobby, "start")["custom_id"])
    fake = h.fake
    assert (await h.bot.store.get_table(table_id)).thread_id is None  # never recorded
    assert len(fake.threads) == 1
    await kill(h)

    fake.before_request = None
    h2 = await start_bot(db, fake)
    await h2.settle()
    live = await h2.bot.tables.get(table_id)
    assert live.row.thread_id == int(lobby["id"])  # the thread that exists, found again
    assert len(fake.threads) == 1
    texts = [m["content"] for m in fake.channel_messages(live.row.thread_id)]
    assert sum(t.startswith("Game on!") for t in texts) == 1
    assert board(h2, type("T", (), {"thread": live.row.thread_id})()) is not None
    assert all(fake.dms_to(p.id) for p in players[:3])
    assert "started" in json.dumps(fake.messages[int(lobby["id"])]["embeds"])
    assert await h2.bot.store.outbox(table_id) == []
    await h2.bot.close()


# -- 3. storage faults -------------------------------------------------------------------------

async def expect_store_refusal(h, table, caplog, cause_words: str) -> None:
    live = await h.bot.tables.get(table.id)
    version, state = live.row.version, json.dumps(live.game.to_json())
    caplog.clear()
    token = await confirm_switch(h, table, random.Random(5))
    assert "Could not save" in h.reply_text(token) and "nothing was changed" in h.reply_text(token)
    live = await h.bot.tables.get(table.id)
    assert live.row.version == version and json.dumps(live.game.to_json()) == state
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(lines) == 1 and cause_words in lines[0], lines


@pytest.fixture
def small_disk(tmp_path):
    """A real 4 MB file system (tmpfs): writes past it fail with ENOSPC, as on a full disk."""
    import subprocess
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs",
                                            str(mount)], capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], capture_output=True)


async def test_a_full_disk_is_answered_and_nothing_moves(small_disk, players, caplog):
    h = await start_bot(small_disk / "bot.sqlite3")
    try:
        table = await start_table(h, "narabi", players[:3])
        filler = small_disk / "filler"
        with open(filler, "wb", buffering=0) as f:  # take every byte that is left
            try:
                while True:
                    f.write(b"\0" * 4096)
            except OSError:
                pass
        await expect_store_refusal(h, table, caplog, "full")
        filler.unlink()  # space again: the same table goes on
        assert await narabi_switch(h, table, random.Random(6)) is not None
        assert (await h.bot.tables.get(table.id)).row.version == 1
    finally:
        await h.bot.close()


@SQLITE_ONLY
async def test_an_io_error_is_answered_and_nothing_moves(harness, players, caplog):
    import resource
    import signal
    h = harness
    table = await start_table(h, "narabi", players[:3])
    wal = f"{h.bot.store.path}-wal"
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    # no file may grow any more: SQLite's next write fails with EFBIG, an I/O error
    resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(wal), limits[1]))
    try:
        await expect_store_refusal(h, table, caplog, "input/output")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, previous)
    assert await narabi_switch(h, table, random.Random(6)) is not None


@SQLITE_ONLY
async def test_a_read_only_database_is_answered(harness, players, caplog):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    await h.bot.store.run_on_writer("PRAGMA query_only=1")
    await expect_store_refusal(h, table, caplog, "read-only")


@SQLITE_ONLY
async def test_a_database_locked_by_another_program_is_answered_as_locked(harness, players,
                                                                           caplog):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    other = sqlite3.connect(h.bot.store.path, timeout=0)
    other.execute("BEGIN EXCLUSIVE")
    try:
        await expect_store_refusal(h, table, caplog, "lock")
    finally:
        other.rollback()
        other.close()
    assert await narabi_switch(h, table, random.Random(7)) is not None


@POSTGRES_ONLY
async def test_a_table_locked_by_another_postgres_session_is_answered_as_locked(
        harness, players, caplog, database):
    """Another program holds a lock on the tables: the click waits the statement timeout (well
    inside Discord's three seconds), is refused as locked, and works once the lock is gone."""
    import asyncpg
    h = harness
    table = await start_table(h, "narabi", players[:3])
    other = await asyncpg.connect(database)
    holding = other.transaction()
    await holding.start()
    await other.execute("LOCK TABLE game_tables IN EXCLUSIVE MODE")  # reads go on
    try:
        await expect_store_refusal(h, table, caplog, "lock")
    finally:
        await holding.rollback()
        await other.close()
    assert await narabi_switch(h, table, random.Random(7)) is not None


@POSTGRES_ONLY
async def test_a_lost_postgres_connection_is_answered_and_the_next_click_works(
        harness, players, caplog, database):
    """The server drops the bot's connections (a restart, a failover). Idle ones are replaced
    unnoticed; a write cut off half-way is answered "could not save", nothing moves, and the
    next click works."""
    import asyncpg
    h = harness
    table = await start_table(h, "narabi", players[:3])
    admin = await asyncpg.connect(database)
    name = database.rsplit("/", 1)[-1]
    cut = ("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
           "WHERE datname = $1 AND pid <> pg_backend_pid()")
    await admin.execute(cut, name)
    assert await narabi_switch(h, table, random.Random(8)) is not None  # idle: reconnected

    live = await h.bot.tables.get(table.id)
    version = live.row.version
    holding = admin.transaction()
    await holding.start()
    await admin.execute("LOCK TABLE game_tables IN EXCLUSIVE MODE")  # the next write waits
    caplog.clear()
    click = asyncio.create_task(confirm_switch(h, table, random.Random(9)))
    assert await eventually(  # until the bot's write is waiting on the lock
        lambda: admin.fetchval("SELECT count(*) FROM pg_locks WHERE NOT granted"), timeout=10)
    await admin.execute(cut, name)
    await holding.rollback()
    token = await asyncio.wait_for(click, 20)  # answered, never left hanging
    await admin.close()
    assert "Could not save" in h.reply_text(token)
    assert (await h.bot.tables.get(table.id)).row.version == version
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("cannot be reached" in line for line in lines), lines
    assert await narabi_switch(h, table, random.Random(10)) is not None


@SQLITE_ONLY
async def test_a_deleted_database_file_is_noticed_and_writes_refused(harness, players, caplog):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    os.remove(h.bot.store.path)
    done = await h.bot.upkeep.run_once()
    assert done == {"expired": 0, "purged": 0}
    critical = [r.getMessage() for r in caplog.records if r.levelno == logging.CRITICAL]
    assert len(critical) == 1 and "DELETED" in critical[0]
    caplog.clear()
    token = await confirm_switch(h, table, random.Random(5))
    assert "Could not save" in h.reply_text(token)
    assert (await h.bot.tables.get(table.id)).row.version == 0


async def test_a_locked_database_at_start_up_is_not_called_damaged(tmp_path):
    from bot.config import ConfigError
    from bot.store import Store
    path = tmp_path / "s.sqlite3"
    store = await Store.open(path)
    await store.close()
    other = sqlite3.connect(path, timeout=0)
    # a program that takes the whole file for itself (readers are shut out too)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ConfigError) as exc:
            await Store.open(path)
    finally:
        other.rollback()
        other.close()
    assert "locked" in str(exc.value) and "damaged" not in str(exc.value)


def test_storage_errors_are_named_by_cause():
    def error(name: str, text: str) -> sqlite3.OperationalError:
        exc = sqlite3.OperationalError(text)
        exc.sqlite_errorname = name
        return exc
    assert classify(error("SQLITE_FULL", "database or disk is full")) == "full"
    assert classify(error("SQLITE_IOERR_WRITE", "disk I/O error")) == "io"
    assert classify(error("SQLITE_READONLY", "attempt to write a readonly database")) == "read_only"
    assert classify(error("SQLITE_BUSY", "database is locked")) == "locked"
    assert classify(error("SQLITE_NOTADB", "file is not a database")) == "damaged"
    assert "full" in str(StoreFailure("full"))


@SQLITE_ONLY  # PostgreSQL takes concurrent writers, each in its own transaction
async def test_concurrent_commits_share_one_transaction(harness, players):
    store = harness.bot.store
    table = await start_table(harness, "narabi", players[:3])
    batches, commits = store.batches, store.commits
    await asyncio.gather(*(store.set_dm_open(table.id, seat % 3, bool(seat % 2))
                           for seat in range(100)))
    assert store.commits - commits == 100
    assert store.batches - batches < 10  # group commit: one fsync for many tables' writes


async def _played_unpublished(h, players):
    """A table whose first turn is committed and whose board still shows the deal."""
    table = await start_table(h, "narabi", players[:3])
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    await h.bot.tables.act(table.id, table.players[seat].id, live.game.legal_actions(seat)[0])
    return table


async def test_a_game_under_commit_is_never_seen_ahead_of_its_table(harness, players, monkeypatch):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    live = await h.bot.tables.get(table.id)
    before = live.game.to_json()
    release = asyncio.Event()
    record = h.bot.store.record_actions

    async def slow_record(*args, **kwargs):
        await release.wait()  # Discord, the disk or the network is slow
        return await record(*args, **kwargs)

    monkeypatch.setattr(h.bot.store, "record_actions", slow_record)
    seat = live.game.to_move
    action = live.game.legal_actions(seat)[0]
    click = asyncio.create_task(h.bot.tables.act(table.id, table.players[seat].id, action))
    for _ in range(20):
        await asyncio.sleep(0)
    # What a board drawn now would read: the table as stored, not the move being saved.
    assert live.game.to_json() == before and live.row.version == 0
    release.set()
    await click
    assert live.game.to_json() != before and live.row.version == 1


async def test_background_repairs_wait_for_the_clicks_under_way(harness, players, monkeypatch):
    monkeypatch.setattr("bot.ui.reconcile.YIELD_TO_CLICKS", 60.0)  # the cap is tested below
    h = harness
    table = await start_table(h, "narabi", players[:3])
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    with contextlib.ExitStack() as clicks:
        # A burst of clicks is being answered (one of them commits a turn): their answers come
        # before boards. (One click alone does not hold repairs back: ``BURST``.)
        for _ in range(BURST):
            clicks.enter_context(h.bot.in_flight())
        await h.bot.tables.act(table.id, table.players[seat].id, live.game.legal_actions(seat)[0])
        h.bot.reconciler.mark(table.id)
        await asyncio.sleep(0.5)  # time enough to redraw the board, were it not waiting
        assert board_version(board(h, table)) == 0
    await h.settle()
    assert board_version(board(h, table)) == 1


async def test_steady_clicks_cannot_starve_the_boards(harness, players, monkeypatch):
    monkeypatch.setattr("bot.ui.reconcile.YIELD_TO_CLICKS", 0.05)
    h = harness
    table = await _played_unpublished(h, players)
    with h.bot.in_flight():  # never a moment without a click under way
        h.bot.reconciler.mark(table.id)
        await asyncio.wait_for(h.bot.reconciler.wait_idle(), 5)
        assert board_version(board(h, table)) == 1


# -- 4. permissions ----------------------------------------------------------------------------

async def test_missing_permissions_are_named_before_anything_is_created(harness, players):
    h = harness
    h.fake.app_permissions = NO_ATTACH
    token = await h.command(players[0], "narabi", "start")
    text = h.reply_text(token)
    assert "Attach Files" in text and "Server Settings" in text
    assert await h.bot.store.lobby_in_channel(CHANNEL_ID) is None
    assert not public_in(h.fake, CHANNEL_ID)


async def test_permission_lost_mid_game_is_announced_and_explained(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    h.fake.forbidden_channels.add(table.thread)
    await confirm_switch(h, table, random.Random(1))
    notices = [m["content"] for m in h.fake.channel_messages(CHANNEL_ID)
               if "cannot go on in its thread" in m["content"]]
    assert len(notices) == 1 and f"#{table.id}" in notices[0]
    live = await h.bot.tables.get(table.id)
    assert h.bot.reconciler.blocked.get(table.id) is not None
    mover = table.players[live.game.to_move]
    b = board(h, table)
    token = await h.click(mover, b, find_component(b, "switch")["custom_id"])
    assert "refused to let me post" in h.reply_text(token)
    # granted again: the next click repairs the table
    h.fake.forbidden_channels.clear()
    token = await h.click(mover, b, find_component(b, "switch")["custom_id"])
    assert "was behind" in h.reply_text(token)
    assert board_version(board(h, table)) == 1


# -- 5. secrets in logs --------------------------------------------------------------------------

@pytest.mark.slow
async def test_no_secret_reaches_the_log_at_debug(tmp_path, players, caplog):
    logs.configure("DEBUG")
    caplog.set_level(logging.DEBUG)
    try:
        h = await start_bot(tmp_path / "bot.sqlite3")
        narabi = await start_table(h, "narabi", players[:3])
        sarena = await start_table(h, "sarena", players[:2], channel=snowflake())
        rng = random.Random(3)
        for _ in range(4):
            await narabi_switch(h, narabi, rng)
            await h.click(players[0], board(h, narabi),
                          find_component(board(h, narabi), "mine")["custom_id"])
        n_live = await h.bot.tables.get(narabi.id)
        s_live = await h.bot.tables.get(sarena.id)
        secrets = set()
        for seat in range(3):
            for card in n_live.game.private_view(seat)["cards"]:
                secrets.add(f'"condition": "{card["condition"]}"')
                secrets.add(f'"condition":"{card["condition"]}"')
        for dm in [m for p in players[:3] for m in h.fake.dms_to(p.id)]:
            secrets.update(line for line in dm["content"].splitlines() if len(line) > 12)
        colours = [s_live.game.private_view(s)["colour"] for s in range(2)]
        secrets.update(f'"colour": "{c}"' for c in colours)
        secrets.add(f'"colours":[{",".join(str(x) for x in s_live.game.to_json()["colours"])}')
        assert logging.getLogger("bot").isEnabledFor(logging.DEBUG)  # DEBUG really was on
        assert any(r.levelno == logging.DEBUG and r.name.startswith("bot")
                   for r in caplog.records)
        # the libraries that echo payloads and SQL parameters stay capped
        for name in ("discord.http", "discord.webhook.async_", "aiosqlite"):
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
        text = "\n".join(f"{r.name} {r.getMessage()}" for r in caplog.records)
        leaked = [s for s in secrets if s in text]
        assert not leaked, leaked[:3]
        assert n_live.row.status == "playing"
        await h.bot.close()
    finally:
        logs.configure("WARNING")


# -- 6. over-long replies, 7. wrong context, 8. misleading refusals ------------------------------

async def test_a_2000_character_typed_move_gets_a_reply_within_limits(harness, players):
    h = harness
    table = await start_table(h, "sensei", players[:2])
    live = await h.bot.tables.get(table.id)
    mover = table.players[live.game.to_move]
    for notation in ("c2-c5 " * 340, "x" * 2000, "*" + "z9-" * 600):
        token = await h.command(mover, "sensei", "move", channel_id=table.thread,
                                notation=notation)
        replies = h.fake.replies(token)
        assert replies, notation[:10]
        content = (replies[0].get("data") or replies[0]).get("content")
        assert 0 < len(content) <= 2000
    assert live.row.version == 0


async def test_commands_are_offered_everywhere_and_server_ones_answer_in_dms(harness, players):
    h = harness
    put = h.fake.sent("PUT", "/commands")[0].json
    groups = {c["name"]: c for c in put}
    for name in ("narabi", "sensei", "sarena", "stats", "history", "config", "tournament"):
        assert groups[name]["contexts"] == [0, 1, 2], name
        assert groups[name]["integration_types"] == [0, 1], name
    # /stats in a DM with the bot: offered (so not a missing command), and answered with the
    # sentence saying it needs a server, before its member option is even read
    token = "dm-stats"
    dm_channel = snowflake()
    h.fake.interactions[token] = InteractionRecord(dm_channel, h.fake.now(), 2)
    payload = {"id": str(snowflake()), "application_id": str(h.bot.application_id), "type": 2,
               "token": token, "version": 1, "channel_id": str(dm_channel),
               "channel": {"id": str(dm_channel), "type": 1}, "user": user_payload(100, "Ana"),
               "locale": "en-US", "app_permissions": "0", "entitlements": [], "context": 1,
               "authorizing_integration_owners": {"1": "100"},
               "attachment_size_limit": 8 * 1024 * 1024,
               "data": {"id": str(snowflake()), "name": "stats", "type": 1, "options": [
                   {"name": "member", "type": 6, "value": "101"}]}}
    h.bot._connection.parse_interaction_create(payload)
    await h.settle()
    assert h.reply_text(token) == "⚠️ " + t("error.needs_server", "en-US")
    assert h.reply_flags(token) == [64]


async def test_a_click_on_a_cancelled_table_says_it_is_closed(harness, players):
    h = harness
    lobby = await open_lobby(h, "narabi", players[0])
    table_id = int(find_component(lobby, "start")["custom_id"].split(":")[1])
    await h.click(players[0], lobby, find_component(lobby, "cancel")["custom_id"])
    for verb in ("mine", "join", "resign", "switch:0"):
        # a client still showing an old message with these buttons
        custom_id = f"narabi:{table_id}:{verb}"
        message = h.fake._message(CHANNEL_ID, {"components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]}, [])
        token = await h.click(players[0], message, custom_id)
        assert "closed" in h.reply_text(token), (verb, h.reply_text(token))
        assert "not started" not in h.reply_text(token)


# -- 10. data lifecycle ------------------------------------------------------------------------------

async def test_lobbies_expire_with_a_closing_message(harness, players):
    h = harness
    clock = [1_000_000.0]
    h.bot.store.clock = h.bot.upkeep.clock = lambda: clock[0]
    lobby = await open_lobby(h, "narabi", players[0])
    table_id = int(find_component(lobby, "start")["custom_id"].split(":")[1])
    clock[0] += 23 * 3600
    assert (await h.bot.upkeep.run_once())["expired"] == 0
    await h.click(players[1], h.fake.messages[int(lobby["id"])],
                  find_component(lobby, "join")["custom_id"])  # activity keeps it open
    clock[0] += 23 * 3600
    assert (await h.bot.upkeep.run_once())["expired"] == 0
    clock[0] += 2 * 3600
    assert (await h.bot.upkeep.run_once())["expired"] == 1
    await h.settle()
    message = h.fake.messages[int(lobby["id"])]
    assert "closed after 24 hours" in json.dumps(message["embeds"])
    assert message["components"] == []
    assert (await h.bot.store.get_table(table_id)).status == "cancelled"
    assert await h.bot.store.lobby_in_channel(CHANNEL_ID) is None


async def test_retention_purges_only_old_finished_games(tmp_path, players):
    from dataclasses import replace
    h = await start_bot(tmp_path / "bot.sqlite3")
    clock = [2_000_000.0]
    h.bot.store.clock = h.bot.upkeep.clock = lambda: clock[0]
    h.bot.upkeep.settings = replace(h.bot.settings, retention_days=30)
    old = await start_table(h, "narabi", players[:3])
    token = await h.click(players[0], board(h, old), find_component(board(h, old), "resign")["custom_id"])
    confirm = ephemeral_reply(h, token)
    await h.click(players[0], confirm, find_component(confirm, "resign_ok")["custom_id"])
    clock[0] += 20 * 86400
    running = await start_table(h, "narabi", players[:3], channel=snowflake())
    assert (await h.bot.upkeep.run_once())["purged"] == 0
    clock[0] += 11 * 86400
    assert (await h.bot.upkeep.run_once())["purged"] == 1
    assert await h.bot.store.get_table(old.id) is None
    assert (await h.bot.store.get_table(running.id)).status == "playing"
    assert await h.bot.store.recent_results(GUILD_ID) == ([], 0)
    await h.bot.close()


@pytest.mark.slow
async def test_a_finished_game_is_kept_as_seed_log_and_result(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    rng = random.Random(6)
    while await narabi_switch(h, table, rng) is not None:
        pass
    [(state, packed)] = await h.bot.store._fetchall(
        "SELECT state, packed_log FROM game_tables WHERE id=?", (table.id,))
    [rows] = await h.bot.store._fetchall("SELECT COUNT(*) FROM actions WHERE table_id=?",
                                         (table.id,))
    assert state is None and rows == (0,) and 0 < len(packed) < 1024
    assert len(await h.bot.store.actions(table.id)) == (await h.bot.tables.get(table.id)).row.version
