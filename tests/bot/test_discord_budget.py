"""The bot within Discord's budget: at most one counted call per move in every way of playing
(plus a DM to each other person whose hand changed), calm when Discord says no."""
from __future__ import annotations

import asyncio
import logging
import random

import aiohttp
import pytest

from bot.games.sensei import legal_turns
from bot.games.sensei.notation import format_turn
from bot.testing.fake_discord import CHANNEL_ID, FakeDiscord
from tests.conftest import start_bot
from tests.helpers import (Table, board, eventually, narabi_path, random_move, sarena_path,
                           sensei_path, start_table, tap_through)


def counted_calls(h, since: int, mover_id: int) -> tuple[list, list, list]:
    """Counted requests from ``since`` on: (DMs to the mover, DMs to others, the rest)."""
    mine, others, rest = [], [], []
    for r in h.fake.counted(since):
        dm_user = h.fake.dm_channels.get(int(r.path.split("/")[2])) \
            if r.path.startswith("/channels/") else None
        if dm_user is None:
            rest.append(r)
        else:
            (mine if dm_user == mover_id else others).append(r)
    return mine, others, rest


async def play_counted(h, table: Table, moves: int, play) -> list[tuple[int, int, int]]:
    """Play ``moves`` moves with ``play(live, player)``; per move: (counted calls that are
    not DMs, DMs to the mover, DMs to others). The table's turn lines must all be there."""
    figures = []
    for _ in range(moves):
        live = await h.bot.tables.get(table.id)
        if live.game.result() is not None:
            break
        player = table.players[live.game.to_move]
        since, version, lines = len(h.fake.requests), live.row.version, public_lines(h, table)
        await play(live, player)
        await h.settle()
        assert live.row.version > version and live.row.board_version == live.row.version
        assert len(public_lines(h, table)) > len(lines)  # the turn line went out
        mine, others, rest = counted_calls(h, since, player.id)
        figures.append((len(rest), len(mine), len(others)))
    return figures


def public_lines(h, table: Table) -> list[str]:
    return [m["content"] for m in h.fake.channel_messages(table.thread)
            if m["content"] and not m["flags"] & 64]


def assert_one_call_per_move(figures, *, dms_to_others: int = 0) -> None:
    assert figures
    for rest, mine, others in figures:
        assert rest == 1, figures       # the board edit
        assert mine == 0, figures       # the mover learns in the answer to their click
        assert others <= dms_to_others, figures


@pytest.mark.slow
async def test_narabi_by_buttons_costs_the_board_edit_and_a_dm_to_the_other_player(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    rng = random.Random(3)

    async def play(live, player):
        _, action = await random_move(h, table, rng)
        await tap_through(h, player, board(h, table), narabi_path(board(h, table), action))
    figures = await play_counted(h, table, 6, play)
    assert_one_call_per_move(figures, dms_to_others=1)
    assert any(others == 1 for _, _, others in figures)  # a switch with another's card


@pytest.mark.slow
async def test_sensei_by_buttons_and_typed_costs_one_call(harness, players):
    h = harness
    table = await start_table(h, "sensei", players[:2])
    rng = random.Random(5)

    async def buttons(live, player):
        turn = rng.choice(legal_turns(live.game))
        await tap_through(h, player, board(h, table), sensei_path(turn))

    async def typed(live, player):
        turn = rng.choice(legal_turns(live.game))
        await h.command(player, "sensei", "move", channel_id=table.thread,
                        notation=format_turn(turn))
    assert_one_call_per_move(await play_counted(h, table, 4, buttons))
    assert_one_call_per_move(await play_counted(h, table, 4, typed))


@pytest.mark.slow
async def test_sarena_by_buttons_and_typed_costs_one_call(harness, players):
    h = harness
    table = await start_table(h, "sarena", players[:2])
    rng = random.Random(6)

    async def buttons(live, player):
        _, action = await random_move(h, table, rng)
        await tap_through(h, player, board(h, table), sarena_path(board(h, table), action))

    async def typed(live, player):
        _, action = await random_move(h, table, rng)
        await h.command(player, "sarena", "move", channel_id=table.thread,
                        move=f"{action['from']}-{action['to']}")
    assert_one_call_per_move(await play_counted(h, table, 4, buttons))
    assert_one_call_per_move(await play_counted(h, table, 4, typed))


@pytest.mark.slow
async def test_an_ai_move_costs_one_call_and_its_line_rides_on_the_board_edit(harness, players):
    """Ana's turn line goes out through her own click; the AI's line is the text of the board
    message's edit (the move's one counted call), never a follow-up of Ana's interaction."""
    h = harness
    ana = players[0]
    await h.command(ana, "sensei", "start", ai="easy", first="green")
    lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID)) if m["embeds"])
    table_id = int(lobby["embeds"][0]["title"].rsplit("#", 1)[1])
    live = await h.bot.tables.get(table_id)
    table = Table(table_id, lobby, live.row.game_channel_id, [ana])
    rng = random.Random(7)
    for _ in range(4):
        assert live.game.to_move == 0
        since, turn_before = len(h.fake.requests), live.game.turn
        turn = rng.choice(legal_turns(live.game))
        token, _ = await tap_through(h, ana, board(h, table), sensei_path(turn))
        await h.settle()
        if live.game.result() is not None:
            break
        assert live.game.turn == turn_before + 2 and live.game.to_move == 0  # Ana's, the AI's
        # Ana's line, and only hers, is a follow-up of her click
        lines = h.fake.public_followups.get(token, [])
        assert len(lines) == 1 and "Ana" in lines[0]["content"]
        # the AI's line is on the board, under the bot's own name
        assert "AI" in board(h, table)["content"].split("Next")[0]
        assert "interaction_metadata" not in board(h, table)
        # Ana's move and the AI's: one counted call each at most (fewer when edits coalesce)
        _, _, rest = counted_calls(h, since, ana.id)
        assert 1 <= len(rest) <= 2 and all(r.method == "PATCH" for r in rest), rest


@pytest.mark.slow
async def test_a_token_past_15_minutes_is_never_used(harness, players):
    """A turn line whose mover's token has expired goes out with the bot's own call."""
    h = harness
    table = await start_table(h, "sensei", players[:2])
    live = await h.bot.tables.get(table.id)
    turn = legal_turns(live.game)[0]

    def cut(method: str, path: str) -> None:  # the thread is out of reach for a while
        if path.startswith(f"/channels/{table.thread}"):
            raise aiohttp.ClientConnectionError("connection lost")
    h.fake.before_request = cut
    token, _ = await tap_through(h, table.players[live.game.to_move], board(h, table),
                                 sensei_path(turn))
    assert await eventually(lambda: live.row.version > 0)
    # 16 minutes later (the bot's clock and Discord's), the thread is back
    h.bot.store.clock = (lambda base=h.bot.store.clock: base() + 16 * 60)
    h.bot.relay._clock = h.bot.store.clock
    h.fake.advance(16 * 60)
    h.fake.before_request = None
    since = len(h.fake.requests)
    h.bot.reconciler.mark(table.id)
    assert await eventually(lambda: live.row.board_version == live.row.version, timeout=10)
    await h.settle()
    assert h.fake.expired_token_uses == []
    assert token not in h.fake.public_followups
    posted = [r for r in h.fake.counted(since) if r.method == "POST"]
    assert [r.path for r in posted] == [f"/channels/{table.thread}/messages"]
    assert "Turn 1" in posted[0].json["content"]


async def version_is(h, table_id: int, version: int) -> bool:
    return (await h.bot.tables.get(table_id)).row.version >= version


@pytest.mark.slow
async def test_a_route_held_at_zero_for_a_while_loses_nothing(tmp_path, players):
    """Discord holds the message-edit bucket at 0 remaining: clicks are still answered within
    3 s, the boards catch up once it opens, nothing is lost."""
    fake = FakeDiscord(time_scale=1.0)
    h = await start_bot(tmp_path / "bot.sqlite3", fake)
    table = await start_table(h, "sarena", players[:2])
    rng = random.Random(2)
    fake.limits.hold("edit-message", 8.0)
    tokens = []
    for turn in range(1, 4):
        player, action = await random_move(h, table, rng)
        tokens.append(await h.command(player, "sarena", "move", channel_id=table.thread,
                                      move=f"{action['from']}-{action['to']}", settle=False))
        # the next move is drawn from the stored game, so wait for this one's commit (on a
        # loaded machine a fixed pause let the next move be drawn from the old position)
        assert await eventually(lambda: version_is(h, table.id, turn), timeout=3.0)
    live = await h.bot.tables.get(table.id)
    assert live.row.version == 3 and live.row.board_version < 3  # the board could not follow
    assert all(t in fake.acked_at for t in tokens) and fake.late_answers == []
    await h.settle()
    assert live.row.board_version == live.row.version == 3
    assert len(public_lines(h, table)) >= 3  # every turn line, none lost
    assert fake.limits.throttles("global") == []
    await h.bot.close()


async def test_a_forged_verb_the_game_does_not_have_is_refused_quietly(harness, players, caplog):
    h = harness
    table = await start_table(h, "sensei", players[:2])
    forged = f"sensei:{table.id}:mine"
    message = h.fake._message(table.thread, {"flags": 64, "components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x", "custom_id": forged}]}]}, [], flags=64)
    token = await h.click(players[0], message, forged)
    assert "button" in h.reply_text(token).lower() and "went wrong" not in h.reply_text(token)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_thread_that_refuses_the_bot_is_not_asked_again_and_again(harness, players):
    h = harness
    table = await start_table(h, "sarena", players[:2])
    h.fake.forbidden_channels.add(table.thread)
    player, action = await random_move(h, table, random.Random(1))
    await tap_through(h, player, board(h, table), sarena_path(board(h, table), action))
    assert await eventually(lambda: any(r.status == 403 for r in h.fake.requests))
    await asyncio.sleep(1.0)  # retries would come now, if there were any
    refused = [r for r in h.fake.requests if r.status == 403]
    assert 1 <= len(refused) <= 3
    assert h.fake.limits.invalid_total == len(refused)


@pytest.mark.slow
async def test_closed_dms_are_remembered_not_retried(harness, players):
    h = harness
    h.fake.closed_dms.add(players[1].id)
    table = await start_table(h, "narabi", players[:3])
    attempts = [r for r in h.fake.requests if r.status == 403]
    assert len(attempts) == 1  # the hand at the start: refused once
    rng = random.Random(4)
    for _ in range(8):
        picked = await random_move(h, table, rng)
        if picked is None:
            break
        player, action = picked
        await tap_through(h, player, board(h, table), narabi_path(board(h, table), action))
    assert len([r for r in h.fake.requests if r.status == 403]) == 1
