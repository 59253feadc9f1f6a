"""The table's regulation in the thread: two people who bring a position back a third time are
offered a draw with a button each of them can press, and the game ends drawn when both do."""
from __future__ import annotations

import pytest

from bot.testing.fake_discord import find_component
from tests.helpers import board, final_state, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")

#: green's and red's b-file stones one square out and back, turn after turn
CYCLE = ("b1-b2", "b7-b6", "b2-b1", "b6-b7")


async def test_people_who_repeat_a_position_are_offered_a_draw_they_can_both_accept(
        harness, players):
    h = harness
    ana, ben = players[:2]
    table = await start_table(h, "sensei", players[:2], first="green")
    for turn, notation in enumerate(CYCLE * 2):
        player = (ana, ben)[turn % 2]
        await h.command(player, "sensei", "move", channel_id=table.thread, notation=notation)
    offers = [m for m in h.fake.channel_messages(table.thread)
              if "come up a third time" in m["content"]]
    assert len(offers) == 1
    offer = offers[0]
    assert "**Agree to a draw**" in offer["content"] and "Otherwise it goes on." in offer["content"]
    agree = find_component(offer, "agree")
    assert agree["label"] == "Agree to a draw" and agree["custom_id"] == f"sensei:{table.id}:agree"
    # Ana plays on first: the offer still stands for both of them.
    await h.command(ana, "sensei", "move", channel_id=table.thread, notation="b1-b2")
    token = await h.click(ana, offer, agree["custom_id"])
    assert "offer" in h.reply_text(token).lower()
    assert (await h.bot.store.get_table(table.id)).status == "playing"
    token = await h.click(ana, offer, agree["custom_id"])
    assert "still open" in h.reply_text(token)
    await h.click(ben, offer, agree["custom_id"])
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished"
    assert (await final_state(h, table.id))["result"]["reason"] == "agreed_draw"
    assert "Draw by agreement." in board(h, table)["embeds"][0]["description"]
    assert (await h.bot.store.user_stats(row.guild_id, ana.id))["sensei"]["draw"] == 1


async def test_an_outsider_cannot_agree_for_the_players(harness, players):
    h = harness
    ana, ben, cleo = players[:3]
    table = await start_table(h, "sensei", players[:2], first="green")
    for turn, notation in enumerate(CYCLE * 2):
        await h.command((ana, ben)[turn % 2], "sensei", "move", channel_id=table.thread,
                        notation=notation)
    offer = next(m for m in h.fake.channel_messages(table.thread)
                 if "come up a third time" in m["content"])
    await h.click(cleo, offer, find_component(offer, "agree")["custom_id"])
    live = await h.bot.tables.get(table.id)
    assert live.row.status == "playing" and live.game.draw_offer is None
