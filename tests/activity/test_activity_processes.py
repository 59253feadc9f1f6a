"""Several processes on one PostgreSQL database: a move committed by one reaches the open
boards served by another, through LISTEN/NOTIFY (a table id and counters, never a secret),
and the other process drops its older copy of the table."""
from __future__ import annotations

import asyncio

import aiohttp

from bot.activity.pgnotify import CHANNEL
from bot.testing.activity_kit import Page, code_for, start_activity_bot
from bot.testing.fake_discord import Member
from bot.testing.flows import board, random_move, sarena_path, start_table, tap_through
from tests.helpers import eventually


async def test_a_move_in_one_process_reaches_boards_of_another(postgres_url):
    first = await start_activity_bot(postgres_url)
    second = await start_activity_bot(postgres_url, first.fake, sync_commands=False)
    try:
        players = [Member(101, "Ana"), Member(102, "Ben")]
        table = await start_table(first, "sarena", players)
        import random
        rng = random.Random(8)
        async with aiohttp.ClientSession() as http:
            code, instance = code_for(second, players[0], table.thread)
            page = Page(second, http)
            await page.sign_in(code, instance)
            await page.open_live([table.id])
            assert (await page.state_at(table.id, 0))["version"] == 0
            # A button move, committed by the first process …
            mover, action = await random_move(first, table, rng)
            await tap_through(first, mover, board(first, table),
                              sarena_path(board(first, table), action))
            await first.settle()
            # … reaches the board the second process serves.
            state = await page.state_at(table.id, 1)
            assert state["public"]["last_move"]["to"] == action["to"]
            assert first.bot.activity_server.bridge.sent >= 1
            assert second.bot.activity_server.bridge.received >= 1

            # A move from the second process's Activity: the first drops its older copy.
            live = await second.bot.tables.get(table.id)
            seat = live.game.to_move
            code, _ = code_for(second, players[seat], table.thread, instance)
            mover_page = Page(second, http)
            await mover_page.sign_in(code, instance)
            status, answer = await mover_page.act(table.id, live.row.version,
                                                  [live.game.legal_actions(seat)[0]])
            assert status == 200, answer

            async def first_sees_it() -> bool:
                again = await first.bot.tables.get(table.id)
                return again.row.version == 2

            assert await eventually(first_sees_it)
            await page.close()
    finally:
        await second.bot.close()
        await first.bot.close()


async def test_notifications_carry_ids_and_counters_only(postgres_url):
    import asyncpg
    h = await start_activity_bot(postgres_url)
    heard: list[str] = []
    conn = await asyncpg.connect(postgres_url)
    await conn.add_listener(CHANNEL, lambda *args: heard.append(args[-1]))
    try:
        players = [Member(101, "Ana"), Member(102, "Ben"), Member(103, "Cleo")]
        table = await start_table(h, "narabi", players)
        async with aiohttp.ClientSession() as http:
            code, instance = code_for(h, players[0], table.thread)
            page = Page(h, http)
            await page.sign_in(code, instance)
            live = await h.bot.tables.get(table.id)
            seat = live.game.to_move
            code, _ = code_for(h, players[seat], table.thread, instance)
            mover = Page(h, http)
            await mover.sign_in(code, instance)
            status, _ = await mover.act(table.id, live.row.version,
                                        [live.game.legal_actions(seat)[0]])
            assert status == 200
            assert await eventually(lambda: any(p.startswith(f"{table.id}:1:") for p in heard))
            for payload in heard:
                assert all(part.isdigit() for part in payload.split(":")), payload
            assert page.session not in "".join(heard)
    finally:
        await conn.close()
        await h.bot.close()
