"""Open boards are live: a move made anywhere (a button in the thread, a typed command, an AI
seat, the Activity itself) reaches every open board, each with only its own viewer's secrets,
while the thread goes on as before: its board edited, at one counted call per button move."""
from __future__ import annotations

import json
import random

import aiohttp
import pytest

from bot.games.sensei import legal_turns
from bot.testing.activity_kit import Page, code_for, start_activity_bot
from bot.testing.fake_discord import CHANNEL_ID, Member
from bot.testing.flows import (Table, board, random_move, sarena_path, start_table,
                               tap_through)


@pytest.fixture
async def h(tmp_path):
    harness = await start_activity_bot(tmp_path / "bot.sqlite3")
    yield harness
    await harness.bot.close()


async def open_page(h, http, member, channel, instance=None):
    code, instance = code_for(h, member, channel, instance)
    page = Page(h, http)
    await page.sign_in(code, instance)
    return page, instance


@pytest.mark.slow
async def test_button_moves_reach_every_open_board_at_one_counted_call_each(h):
    players = [Member(101, "Ana"), Member(102, "Ben")]
    table = await start_table(h, "sarena", players)
    rng = random.Random(4)
    async with aiohttp.ClientSession() as http:
        ana, instance = await open_page(h, http, players[0], table.thread)
        ben, _ = await open_page(h, http, players[1], table.thread, instance)
        cleo, _ = await open_page(h, http, Member(103, "Cleo"), table.thread, instance)
        pages = (ana, ben, cleo)
        for page in pages:
            await page.open_live([table.id])
            first = await page.state_at(table.id, 0)
            assert first["id"] == table.id
        colours = {seat: (await h.bot.tables.get(table.id)).game.private_view(seat)["colour"]
                   for seat in (0, 1)}
        for _ in range(4):
            live = await h.bot.tables.get(table.id)
            mover, action = await random_move(h, table, rng)
            since, version = len(h.fake.requests), live.row.version
            await tap_through(h, mover, board(h, table), sarena_path(board(h, table), action))
            await h.settle()
            # The thread: the board shows the move, for one counted call (the board edit).
            assert live.row.board_version == live.row.version == version + 1
            counted = [r for r in h.fake.counted(since)
                       if int(r.path.split("/")[2]) not in h.fake.dm_channels]
            assert len(counted) == 1 and counted[0].method == "PATCH", counted
            # Every open board: the new version, each with its own secret only.
            for seat, page in enumerate(pages):
                state = await page.state_at(table.id, version + 1)
                assert state["public"]["last_move"]["to"] == action["to"]
                if seat < 2:
                    assert state["seat"] == seat
                    assert state["private"] == {"colour": colours[seat]}
                else:
                    assert state["seat"] is None and state["private"] is None
                    assert state["legal"] is None
        for page in pages:
            await page.close()


@pytest.mark.slow
async def test_an_ai_seat_and_a_typed_move_reach_the_open_board(h):
    ana = Member(101, "Ana")
    await h.command(ana, "sensei", "start", ai="easy", first="green")
    lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID)) if m["embeds"])
    table_id = int(lobby["embeds"][0]["title"].rsplit("#", 1)[1])
    live = await h.bot.tables.get(table_id)
    table = Table(table_id, lobby, live.row.game_channel_id, [ana])
    rng = random.Random(2)
    async with aiohttp.ClientSession() as http:
        page, _ = await open_page(h, http, ana, table.thread)
        await page.open_live([table_id])
        state = await page.state_at(table_id, 0)
        assert state["your_turn"] and state["seat"] == 0
        shown: list[str] = []  # every text the thread showed: its lines, its board's edits
        h.fake.listeners.append(lambda event, m: shown.append(m["content"]) if (
            event != "delete" and m["content"] and int(m["channel_id"]) == table.thread
            and not m["flags"] & 64) else None)
        # Ana plays a whole turn from the Activity: the plan is checked, then sent.
        turn = rng.choice(legal_turns(live.game))
        status, planned = await page.call("POST", f"/api/tables/{table_id}/plan",
                                          {"version": state["version"], "plan": turn[:1]})
        assert status == 200 and planned["public"]["current_turn"]["actions"]
        status, answer = await page.act(table_id, state["version"], turn)
        assert status == 200, answer
        after_mine = answer["state"]["version"]
        await h.settle()  # the AI answers with its turn
        assert live.game.to_move == 0 and live.row.version > after_mine
        pushed = await page.state_at(table_id, live.row.version)
        assert pushed["your_turn"] and pushed["public"]["last_turn"]["seat"] == 1
        assert any(a["seat"] == 1 for a in pushed["last"])
        # The thread followed: its board shows the newest version, and both turns have lines.
        assert live.row.board_version == live.row.version
        lines = [text for text in shown if text.startswith("Turn")]
        assert len(lines) >= 2, shown  # Ana's turn, the AI's (a line or the board's text)
        # A turn typed in the thread reaches the open board too.
        turn = rng.choice(legal_turns(live.game))
        from bot.games.sensei.notation import format_turn
        version = live.row.version
        await h.command(ana, "sensei", "move", channel_id=table.thread,
                        notation=format_turn(turn))
        pushed = await page.state_at(table_id, version + 1)
        assert pushed["public"]["turn"] > state["public"]["turn"]
        await page.close()


async def test_a_spectator_sees_no_secret_anywhere(h):
    players = [Member(101, "Ana"), Member(102, "Ben"), Member(103, "Cleo")]
    table = await start_table(h, "narabi", players)
    live = await h.bot.tables.get(table.id)
    async with aiohttp.ClientSession() as http:
        watcher, _ = await open_page(h, http, Member(109, "Dev"), table.thread)
        status, raw = await watcher.call("GET", f"/api/tables/{table.id}")
        assert status == 200 and raw["seat"] is None and raw["private"] is None
        text = json.dumps(raw)
        assert '"condition"' not in text
        ana, _ = await open_page(h, http, players[0], table.thread)
        mine = await ana.state(table.id)
        assert [c["id"] for c in mine["private"]["cards"]] == \
            [c["id"] for c in live.game.private_view(0)["cards"]]
        assert all("condition" in c for c in mine["private"]["cards"])
        # Ana's state holds her own conditions and nobody else's.
        others = {c["id"] for s in (1, 2) for c in live.game.private_view(s)["cards"]}
        assert not any(c.get("condition") for row in mine["public"]["rows"] for c in row)
        assert others.isdisjoint(c["id"] for c in mine["private"]["cards"])


async def test_a_question_asked_in_the_thread_reaches_the_open_boards(h, monkeypatch):
    from bot.activity import hub
    from bot.testing.flows import tap_through as tap

    monkeypatch.setattr(hub, "QUESTIONS_EVERY", 0.05)
    players = [Member(101, "Ana"), Member(102, "Ben"), Member(103, "Cleo")]
    table = await start_table(h, "narabi", players)
    live = await h.bot.tables.get(table.id)
    asker = live.game.to_move
    asked = (asker + 1) % 3
    rows = live.game.public_view()["rows"]
    card, other = rows[asked][0]["id"], rows[asker][0]["id"]
    async with aiohttp.ClientSession() as http:
        page, _ = await open_page(h, http, players[asked], table.thread)
        await page.open_live([table.id])
        assert (await page.state_at(table.id, 0))["questions"] == []
        await tap(h, players[asker], board(h, table),
                  [("ask", None), ("askcard", str(card)), ("askwith", str(other))])
        while True:
            state = await page.state_at(table.id, 0)
            if state["questions"]:
                break
        question = state["questions"][0]
        assert (question["asker"], question["asked"], question["card"], question["other"]) \
            == (asker, asked, card, other)
        assert question["answer"] is None
        await page.close()
