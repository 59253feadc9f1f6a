"""Where a table goes and what its seats are called: a start typed in a game's thread, and AI
players of one level told apart in lobbies (issue 54, "Tables")."""
from __future__ import annotations

import pytest

from bot.testing.fake_discord import CHANNEL_ID, components_of, find_component
from tests.helpers import board, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")


async def test_a_start_in_a_game_s_thread_is_answered_with_where_to_start(harness, players):
    h = harness
    table = await start_table(h, "sensei", players[:2])
    assert table.thread != CHANNEL_ID and table.thread in h.fake.threads
    before = len(await h.bot.tables.store.unfinished_tables())
    for game in ("sensei", "narabi"):
        token = await h.command(players[2], game, "start", channel_id=table.thread)
        assert h.reply_flags(token) == [64]
        assert h.reply_text(token) == (f"⚠️ This thread belongs to table #{table.id}. "
                                       f"Start a new game in <#{CHANNEL_ID}>.")
    assert len(await h.bot.tables.store.unfinished_tables()) == before
    # No lobby appeared in the thread; the game's own board is its only picture there.
    assert [m["id"] for m in h.fake.channel_messages(table.thread) if m["embeds"]
            and any(c.get("custom_id", "").endswith(":join") for c in components_of(m))] == []
    assert board(h, table)["id"]
    # In the channel itself a new lobby opens as always.
    token = await h.command(players[2], "sensei", "start")
    assert h.reply_flags(token) != [64]


async def test_ai_players_of_one_level_are_numbered_in_a_lobby(harness, players):
    h = harness
    await h.command(players[0], "narabi", "start", ai="easy", players=3)
    live = max((await h.bot.tables.store.unfinished_tables()), key=lambda row: row.id)
    assert [s.name for s in live.seats[1:]] == ["AI · Easy 1", "AI · Easy 2"]
    # Seated one by one from a lobby: numbered once a second one of that level sits, plain
    # again when it leaves; another level keeps its plain name.
    lobby_token = await h.command(players[1], "sarena", "start")
    lobby = h.fake.messages[h.fake._original[lobby_token]]
    table_id = int(find_component(lobby, "join")["custom_id"].split(":")[1])
    await h.click(players[1], lobby, f"sarena:{table_id}:addai", values=["hard"])
    names = [s.name for s in (await h.bot.tables.get(table_id)).row.seats]
    assert names[1] == "AI · Hard"
    await h.click(players[1], lobby, f"sarena:{table_id}:addai", values=["hard"])
    await h.click(players[1], lobby, f"sarena:{table_id}:addai", values=["easy"])
    names = [s.name for s in (await h.bot.tables.get(table_id)).row.seats]
    assert names[1:] == ["AI · Hard 1", "AI · Hard 2", "AI · Easy"]
    fields = h.fake.messages[int(lobby["id"])]["embeds"][0]["fields"][0]["value"]
    assert "AI · Hard 1" in fields and "AI · Hard 2" in fields
    await h.click(players[1], lobby, f"sarena:{table_id}:rmai", values=["1"])
    names = [s.name for s in (await h.bot.tables.get(table_id)).row.seats]
    assert names[1:] == ["AI · Hard", "AI · Easy"]
