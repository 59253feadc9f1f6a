"""A table where the bot is not a member (issue 51): a group DM, a DM, a server that never added
the bot, with Discord's user-install rules enforced by the stand-in (``bot/testing/places``).
The table is one message, kept current through interactions only: never a bot-token call
into the channel, private information only ephemerally to its owner."""
from __future__ import annotations

import random

from bot.testing.fake_discord import find_component
from bot.testing.remote_flows import (bot_calls_into, click_verb, open_place, private_answer,
                                      sensei_turn, table_id_of, table_message, towards_goal)
from tests.conftest import start_bot


async def play_sensei_to_the_end(h, place, people, table_id, rng, *, turns=80):
    for _ in range(turns):
        live = await h.bot.tables.get(table_id)
        if live.row.status != "playing":
            return live
        seat = live.game.to_move
        await sensei_turn(h, place, people[seat], towards_goal(live.game, rng))
    raise AssertionError("the game did not end")


async def test_sensei_in_a_group_dm_where_only_ana_installed_the_app(database, players):
    h = await start_bot(database)
    ana, ben = players[:2]
    place = open_place(h, "group_dm", ana, ben)
    await h.command(ana, "sensei", "start", channel_id=place.channel_id)
    lobby = table_message(h, place)
    table_id = table_id_of(lobby)
    assert "no reminders" in lobby["content"]
    await click_verb(h, ben, lobby, "join")  # Ben did not install the app: he clicks
    await click_verb(h, ana, table_message(h, place), "start")
    board = table_message(h, place)
    assert board["id"] == lobby["id"] and board["attachments"], "the lobby became the board"
    live = await h.bot.tables.get(table_id)
    assert live.row.thread_id is None and live.row.board_message_id == int(lobby["id"])

    live = await play_sensei_to_the_end(h, place, [ana, ben], table_id, random.Random(3))

    final = table_message(h, place)
    assert final["id"] == lobby["id"]
    assert live.row.status == "finished" and live.row.board_version == live.row.version
    winner = [ana, ben][live.game.result().winners[0]]
    assert winner.name in final["embeds"][0]["description"]
    assert f"sensei:{table_id}:rematch" in [c["custom_id"] for row in final["components"]
                                             for c in row["components"]]
    assert bot_calls_into(h, place) == [] and h.fake.places.refused == []
    assert h.fake.threads == {}
    assert h.fake.expired_token_uses == [] and h.fake.late_answers == []
    await h.bot.close()
