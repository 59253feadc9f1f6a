"""The runtime end to end through real discord.py objects and a recorded fake HTTP layer."""
from __future__ import annotations

import json
import random

import pytest

from bot.testing.fake_discord import CHANNEL_ID, Member, find_component
from tests.conftest import start_bot
from tests.helpers import (board, custom_ids, ephemeral_reply, narabi_switch, open_lobby,
                           start_table)


pytestmark = pytest.mark.usefixtures("no_missing_text")


async def test_lobby_join_leave_start(harness, players):
    h = harness
    lobby = await open_lobby(h, "narabi", players[0])
    join, start = find_component(lobby, "join"), find_component(lobby, "start")
    assert start["disabled"] is True  # 1 of 3 seats
    await h.click(players[1], lobby, join["custom_id"])
    await h.click(players[1], lobby, join["custom_id"])  # double join changes nothing
    token = await h.click(players[0], lobby, start["custom_id"])  # forged: still disabled
    assert "needs 3–5" in h.reply_text(token)
    await h.click(players[2], lobby, join["custom_id"])
    await h.click(players[2], lobby, find_component(lobby, "leave")["custom_id"])
    await h.click(players[3], lobby, join["custom_id"])
    lobby = h.fake.messages[int(lobby["id"])]
    field = lobby["embeds"][0]["fields"][0]["value"]
    assert [f"<@{p.id}>" in field for p in players[:4]] == [True, True, False, True]
    token = await h.click(players[1], lobby, start["custom_id"])
    assert "Only the host" in h.reply_text(token)
    await h.click(players[0], lobby, start["custom_id"])
    assert h.fake.threads, "the game opens a thread from the lobby message"
    thread_id = next(iter(h.fake.threads))
    thread_msgs = h.fake.channel_messages(thread_id)
    assert any(m["attachments"] and m["attachments"][0]["filename"] == "board.png"
               for m in thread_msgs)
    lobby = h.fake.messages[int(lobby["id"])]
    assert lobby["components"] == []  # no more lobby buttons once started
    # The channel is free for a new lobby again.
    await open_lobby(h, "narabi", players[4])
    assert (await h.bot.store.lobby_in_channel(CHANNEL_ID)) is not None


async def test_one_lobby_per_channel_and_cancel(harness, players):
    h = harness
    lobby = await open_lobby(h, "narabi", players[0])
    token = await h.command(players[1], "sensei", "start")
    assert "already has an open lobby" in h.reply_text(token)
    assert h.reply_flags(token)[-1] & 64
    cancel = find_component(lobby, "cancel")["custom_id"]
    token = await h.click(players[1], lobby, cancel)
    assert "Only the host" in h.reply_text(token)
    moderator = Member(555, "Mod", permissions=str(1 << 5))  # Manage Server
    await h.click(moderator, lobby, cancel)
    table = await h.bot.store.get_table(int(cancel.split(":")[1]))
    assert table.status == "cancelled"
    await open_lobby(h, "narabi", players[1])  # a cancelled lobby frees the channel


async def test_falls_back_to_channel_without_thread_permission(harness, players):
    h = harness
    h.fake.deny_threads = True
    table = await start_table(h, "narabi", players[:3])
    assert table.thread == CHANNEL_ID
    assert board(h, table)["channel_id"] == str(CHANNEL_ID)


async def test_a_switch_goes_through_and_is_logged(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:4])
    before = json.dumps(board(h, table)["components"])
    action = await narabi_switch(h, table, random.Random(1))
    assert action is not None
    live = await h.bot.tables.get(table.id)
    assert live.row.version == 1
    log_lines = [m["content"] for m in h.fake.channel_messages(table.thread)]
    assert any("turn 1/24" in line for line in log_lines)
    assert any("Next: <@" in line for line in log_lines)
    assert json.dumps(board(h, table)["components"]) != before  # buttons carry the new turn
    assert board(h, table)["edited_timestamp"] is not None


async def test_restart_keeps_game_and_old_buttons(database, players):
    db = database
    h = await start_bot(db)
    table = await start_table(h, "narabi", players[:3])
    await narabi_switch(h, table, random.Random(2))
    state = (await h.bot.tables.get(table.id)).game.to_json()
    fake = h.fake
    await h.bot.close()

    h2 = await start_bot(db, fake)  # a new process: same database, Discord kept its messages
    assert h2.bot.restored == 1
    live = await h2.bot.tables.get(table.id)
    assert live.game.to_json() == state
    await narabi_switch(h2, table, random.Random(3))  # clicks the board posted before restart
    assert (await h2.bot.tables.get(table.id)).row.version == 2
    rebuilt = await h2.bot.tables.rebuild(table.id)
    assert rebuilt.to_json() == (await h2.bot.tables.get(table.id)).game.to_json()
    await h2.bot.close()


async def test_restart_posts_a_missing_board(database, players):
    db = database
    h = await start_bot(db)
    table = await start_table(h, "narabi", players[:3])
    fake = h.fake
    # as if the bot had stopped after committing the start but before posting the board
    await h.bot.store._statement("UPDATE game_tables SET board_message_id=NULL WHERE id=?",
                                 (table.id,))
    await h.bot.close()
    boards_before = len([m for m in fake.channel_messages(table.thread) if m["attachments"]])
    h2 = await start_bot(db, fake)
    h2.bot.dispatch("ready")
    await h2.settle()
    boards = [m for m in fake.channel_messages(table.thread) if m["attachments"]]
    assert len(boards) == boards_before + 1
    live = await h2.bot.tables.get(table.id)
    assert live.row.board_message_id == int(boards[-1]["id"])
    await h2.bot.close()


async def test_fifty_concurrent_clicks_apply_once(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    action = live.game.legal_actions(seat)[0]
    custom_id = f"narabi:{table.id}:confirm:0.{action['card']}.{action['target']}"
    message = h.fake._message(table.thread, {"content": "", "flags": 64, "components": [
        {"type": 1, "components": [{"type": 2, "style": 3, "label": "Confirm",
                                   "custom_id": custom_id}]}]}, [], flags=64)
    tokens = [await h.click(table.players[seat], message, custom_id, settle=False)
              for _ in range(50)]
    await h.settle()
    assert len(await h.bot.store.actions(table.id)) == 1
    assert (await h.bot.tables.get(table.id)).row.version == 1
    refusals = [h.reply_text(t) for t in tokens if "earlier turn" in h.reply_text(t)]
    assert len(refusals) == 49
    assert all(h.fake.replies(t) for t in tokens), "every click got an answer"


async def test_stale_forged_outsider_and_garbage_clicks_change_nothing(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    old_board = json.loads(json.dumps(board(h, table)))
    await narabi_switch(h, table, random.Random(4))
    live = await h.bot.tables.get(table.id)
    state, version = json.dumps(live.game.to_json()), live.row.version

    def unchanged():
        assert json.dumps(live.game.to_json()) == state and live.row.version == version

    mover = table.players[live.game.to_move]
    # stale: the Switch button of the board as it was before the last turn
    token = await h.click(mover, old_board, find_component(old_board, "switch")["custom_id"])
    assert "earlier turn" in h.reply_text(token)
    unchanged()
    # outsider: not seated
    stranger = Member(999, "Stranger")
    token = await h.click(stranger, board(h, table), find_component(board(h, table), "switch")["custom_id"])
    assert "not playing at this table" in h.reply_text(token)
    token = await h.click(stranger, board(h, table), find_component(board(h, table), "mine")["custom_id"])
    assert "not playing at this table" in h.reply_text(token)
    unchanged()
    # out of turn
    other = next(p for p in table.players if p is not mover)
    token = await h.click(other, board(h, table), find_component(board(h, table), "switch")["custom_id"])
    assert "not your turn" in h.reply_text(token)
    # forged: a custom_id that is not on the clicked message
    forged = f"narabi:{table.id}:confirm:{version}.0.1"
    token = await h.click(mover, board(h, table), forged)
    assert "not valid any more" in h.reply_text(token)
    unchanged()
    # forged onto a message: an illegal switch is refused by the rules
    own = live.game.private_view(live.game.to_move)["cards"]
    forged = f"narabi:{table.id}:confirm:{version}.{own[0]['id']}.{own[1]['id']}"
    msg = h.fake._message(table.thread, {"content": "", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "x", "custom_id": forged}]}]}, [])
    token = await h.click(mover, msg, forged)
    assert h.reply_text(token).startswith("⚠️")
    unchanged()
    # garbage
    for garbage in ("hello", "narabi:0:switch", "narabi:abc:switch:1", "sensei:1:" + "x" * 90,
                    f"narabi:{table.id}:confirm:{version}.x.y", f"narabi:{table.id}:nosuchverb"):
        msg = h.fake._message(table.thread, {"content": "", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "x", "custom_id": garbage}]}]}, [])
        token = await h.click(mover, msg, garbage)
        assert h.fake.replies(token), garbage
        assert h.reply_flags(token)[-1] & 64, garbage
        unchanged()
    # a table that does not exist
    msg = h.fake._message(table.thread, {"content": "", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "x", "custom_id": "narabi:424242:switch:0"}]}]}, [])
    token = await h.click(mover, msg, "narabi:424242:switch:0")
    assert "no longer exists" in h.reply_text(token)


@pytest.mark.slow
async def test_closed_dms_are_announced_once_and_game_goes_on(harness, players):
    h = harness
    h.fake.closed_dms.add(players[1].id)
    table = await start_table(h, "narabi", players[:3])
    notices = [m for m in h.fake.channel_messages(table.thread) if "direct message" in m["content"]]
    assert len(notices) == 1 and f"<@{players[1].id}>" in notices[0]["content"]
    assert "My cards" in notices[0]["content"]
    assert h.fake.dms_to(players[0].id) and not h.fake.dms_to(players[1].id)
    rng = random.Random(5)
    for _ in range(4):
        await narabi_switch(h, table, rng)
    notices = [m for m in h.fake.channel_messages(table.thread) if "direct message" in m["content"]]
    assert len(notices) == 1  # said once, not at every change
    token = await h.click(players[1], board(h, table), find_component(board(h, table), "mine")["custom_id"])
    assert h.reply_flags(token)[-1] & 64
    live = await h.bot.tables.get(table.id)
    assert live.row.version >= 1


@pytest.mark.slow
async def test_full_game_results_rebuild_and_rematch(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    rng = random.Random(6)
    while await narabi_switch(h, table, rng) is not None:
        pass
    final_game = (await h.bot.tables.get(table.id)).game.to_json()
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished"
    # A finished game is kept as seed + action log + result: the log rebuilds it exactly.
    assert row.state is None
    rebuilt = await h.bot.tables.rebuild(table.id)
    assert rebuilt.to_json() == final_game
    history, _ = await h.bot.store.recent_results(row.guild_id)
    assert history and history[0]["table_id"] == table.id
    assert history[0]["result"] == rebuilt.result().to_json()
    final = board(h, table)
    assert custom_ids(final) == [f"narabi:{table.id}:rematch", f"narabi:{table.id}:replay:0.9"]
    await h.click(players[2], final, f"narabi:{table.id}:rematch")
    lobby = h.fake.channel_messages(CHANNEL_ID)[-1]
    new_id = int(find_component(lobby, "start")["custom_id"].split(":")[1])
    new = await h.bot.store.get_table(new_id)
    assert new.status == "lobby" and new.rematch_of == table.id
    assert new.user_ids == [p.id for p in players[:3]] and new.host_id == players[2].id


async def test_resign_ends_the_game(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    token = await h.click(players[2], board(h, table), find_component(board(h, table), "resign")["custom_id"])
    confirm = ephemeral_reply(h, token)
    await h.click(players[2], confirm, find_component(confirm, "resign_ok")["custom_id"])
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished"
    outcomes = await h.bot.store.user_stats(row.guild_id, players[0].id)
    assert outcomes["narabi"]["loss"] == 1


async def test_commands_are_synced(harness):
    put = harness.fake.sent("PUT", "/commands")
    names = {c["name"] for c in put[0].json}
    assert {"narabi", "sensei", "sarena", "games", "stats", "history"} <= names
    for game in ("narabi", "sensei", "sarena"):
        group = next(c for c in put[0].json if c["name"] == game)
        assert "rules" in {sub["name"] for sub in group["options"]}


async def test_each_game_answers_its_own_rules(harness, players):
    from bot.i18n import t

    for game in ("narabi", "sensei", "sarena"):
        token = await harness.command(players[0], game, "rules")
        assert harness.reply_text(token) == t(f"{game}.rules")
        assert harness.reply_flags(token) == [64]
