"""A table where the bot is not a member (issue 51): a group DM, a DM, a server that never added
the bot, with Discord's user-install rules enforced by the stand-in (``bot/testing/places``).
The table is one message, kept current through interactions only: never a bot-token call
into the channel, private information only ephemerally to its owner."""
from __future__ import annotations

import json
import random

from bot.testing.fake_discord import find_component
from bot.testing.remote_flows import (bot_calls_into, click_verb, narabi_switch, open_place,
                                      private_answer, sensei_turn, table_id_of, table_message,
                                      tap_remote, timed_sensei, towards_goal)
from tests.conftest import start_bot
from tests.helpers import deal_with


async def play_sensei_to_the_end(h, place, people, table_id, rng, *, turns=150):
    seen = []
    for _ in range(turns):
        live = await h.bot.tables.get(table_id)
        if live.row.status != "playing":
            return live
        seat = live.game.to_move
        token = await sensei_turn(h, place, people[seat], towards_goal(live.game, rng))
        seen.append((live.game.turn, live.row.version, h.reply_text(token)[:60]))
    raise AssertionError(f"the game did not end: {seen[-5:]}")


async def test_sensei_in_a_group_dm_where_only_ana_installed_the_app(database, players,
                                                                   monkeypatch):
    deal_with(monkeypatch, 17)
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
    # Its picture speaks, as everywhere (issue 52): the position in words.
    assert board["attachments"][0]["description"].startswith("Sensei board, turn ")
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
    # ratings belong to a server: a group DM's game is recorded, unrated (PostgreSQL refused
    # a rating without a server, and the last move with it)
    rows = await h.bot.store._fetchall("SELECT guild_id, unrated FROM results WHERE table_id=?",
                                       (table_id,))
    assert rows == [(None, "no_server")]
    await h.bot.close()


def condition_texts() -> list[str]:
    from bot.i18n import catalogs

    return [v for k, v in catalogs()["en"].items() if k.startswith("narabi.condition.")]


async def test_narabi_of_three_in_a_group_dm_shows_conditions_only_to_their_owner(database,
                                                                                  players):
    h = await start_bot(database)
    ana, ben, cleo = players[:3]
    h.fake.strangers.update(p.id for p in players)  # the bot shares no server with anyone
    place = open_place(h, "group_dm", ana, ben, cleo)
    public_texts: list[str] = []

    def watch(event, message):
        if int(message["channel_id"]) == place.channel_id and not message["flags"] & 64:
            public_texts.append(json.dumps([message["content"], message["embeds"]]))

    h.fake.listeners.append(watch)
    await h.command(ana, "narabi", "start", channel_id=place.channel_id)
    lobby = table_message(h, place)
    table_id = table_id_of(lobby)
    for person in (ben, cleo):
        await click_verb(h, person, table_message(h, place), "join")
    await click_verb(h, ana, table_message(h, place), "start")
    live = await h.bot.tables.get(table_id)
    assert live.row.status == "playing"
    for seat, person in enumerate((ana, ben, cleo)):
        token = await click_verb(h, person, table_message(h, place), "mine")
        answer = private_answer(h, token)
        assert answer["flags"] & 64
        for card in live.game.private_view(seat)["cards"]:
            text = dict(catalog_en())[f"narabi.condition.{card['condition']}"]
            assert text in answer["content"]
    rng = random.Random(5)
    texts = condition_texts()
    people = [ana, ben, cleo]
    for _ in range(200):
        live = await h.bot.tables.get(table_id)
        if live.game.result() is not None:
            break
        for text in public_texts:
            assert not any(condition in text for condition in texts)
        seat = live.game.to_move
        action = rng.choice(live.game.legal_actions(seat))
        await narabi_switch(h, place, people[seat], action)
    assert live.game.result() is not None
    assert table_message(h, place)["id"] == lobby["id"]
    assert bot_calls_into(h, place) == [] and h.fake.places.refused == []
    assert h.fake.sent("POST", "/users/@me/channels") == []  # no DM was even tried
    await h.bot.close()


def catalog_en():
    from bot.i18n import catalogs

    return catalogs()["en"].items()


class Clock:
    """The store's clock, moved by hand."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def sensei_table(h, place, host, guest):
    await h.command(host, "sensei", "start", channel_id=place.channel_id)
    table_id = table_id_of(table_message(h, place))
    await click_verb(h, guest, table_message(h, place), "join")
    await click_verb(h, host, table_message(h, place), "start")
    return table_id


async def test_a_server_without_the_bot_then_a_restart_mid_game(database, players, monkeypatch):
    deal_with(monkeypatch, 23)
    h = await start_bot(database)
    ana, ben = players[:2]
    place = open_place(h, "foreign_guild", ana, ben)
    table_id = await sensei_table(h, place, ana, ben)
    rng = random.Random(11)
    for _ in range(2):
        live = await h.bot.tables.get(table_id)
        await sensei_turn(h, place, [ana, ben][live.game.to_move], towards_goal(live.game, rng))
    board_id = table_message(h, place)["id"]
    await h.bot.close()

    h2 = await start_bot(database, h.fake, sync_commands=False)
    h2.names.update(h.names)
    live = await h2.bot.tables.get(table_id)
    assert live.row.remote and live.row.board_message_id == int(board_id)
    live = await play_sensei_to_the_end(h2, place, [ana, ben], table_id, rng)
    final = table_message(h2, place)
    assert final["id"] == board_id and live.row.board_version == live.row.version
    assert [ana, ben][live.game.result().winners[0]].name in final["embeds"][0]["description"]
    assert bot_calls_into(h2, place) == [] and h2.fake.places.refused == []
    assert h2.fake.threads == {}
    await h2.bot.close()


async def test_a_game_against_the_ai_in_dms(database, players, monkeypatch):
    deal_with(monkeypatch, 29)
    h = await start_bot(database)
    ana, ben = players[:2]
    h.fake.strangers.add(ana.id)
    for kind, others in (("bot_dm", ()), ("dm", (ben,))):
        place = open_place(h, kind, ana, *others)
        await h.command(ana, "sensei", "start", channel_id=place.channel_id, ai="easy")
        table_id = table_id_of(table_message(h, place))
        rng = random.Random(2)
        for _ in range(150):
            live = await h.bot.tables.get(table_id)
            if live.row.status != "playing":
                break
            assert live.game.to_move == 0 or live.row.seats[live.game.to_move].ai
            # the AI's reply is on the table when the person's turn comes back
            assert live.row.board_version == live.row.version
            await sensei_turn(h, place, ana, towards_goal(live.game, rng))
        assert live.row.status == "finished" and live.row.board_version == live.row.version
        assert bot_calls_into(h, place) == []
    assert h.fake.places.refused == [] and h.fake.sent("POST", "/users/@me/channels") == []
    await h.bot.close()


async def test_after_twenty_silent_minutes_the_next_click_catches_the_table_up(database, players):
    h = await start_bot(database)
    clock = Clock(h.bot.store.clock())
    h.bot.store.clock = clock
    ana, ben = players[:2]
    place = open_place(h, "group_dm", ana, ben)
    table_id = await timed_sensei(h, ana, ben, place)
    live = await h.bot.tables.get(table_id)
    absent = live.game.to_move
    present = [ana, ben][1 - absent]
    shown = live.row.board_version
    clock.now += 20 * 60
    h.fake.advance(20 * 60)  # every token so far has expired
    await h.bot.turnclock.run_due()
    await h.settle()
    live = await h.bot.tables.get(table_id)
    assert live.row.seats[absent].ai is not None and live.game.to_move == 1 - absent
    assert live.row.board_version == shown < live.row.version  # nobody to show it through

    # the click was made on a board that is behind: it is told so, and the board catches up
    token = await click_verb(h, present, table_message(h, place), "move")
    assert "up to date now" in private_answer(h, token)["content"]
    board = table_message(h, place)
    live = await h.bot.tables.get(table_id)
    assert live.row.board_version == live.row.version
    assert "ran out of time" in board["content"]
    assert f"<@{present.id}>" in board["embeds"][0]["description"]  # their turn now
    assert h.fake.expired_token_uses == [] and bot_calls_into(h, place) == []
    await h.bot.close()


async def test_where_answers_are_forced_private_no_table_is_made(database, players):
    h = await start_bot(database)
    ana, ben = players[:2]
    place = open_place(h, "foreign_guild", ana, ben, force_ephemeral=True)
    token = await h.command(ana, "sensei", "start", channel_id=place.channel_id)
    assert "no table was made" in h.fake.messages[h.fake._original[token]]["content"]
    assert await h.bot.store.lobby_in_channel(place.channel_id) is None
    assert [m for m in h.fake.channel_messages(place.channel_id) if not m["flags"] & 64] == []
    # the server's permissions say so before anything is made
    import discord

    quiet = open_place(h, "foreign_guild", ana, ben, app_permissions=str(
        discord.Permissions(embed_links=True, attach_files=True, view_channel=True).value))
    token = await h.command(ana, "sensei", "start", channel_id=quiet.channel_id)
    assert h.reply_flags(token) == [64] and "no table was made" in h.reply_text(token)
    assert await h.bot.store.lobby_in_channel(quiet.channel_id) is None
    await h.bot.close()


async def test_a_refused_answer_leaves_no_table(database, players):
    h = await start_bot(database)
    ana, ben = players[:2]
    place = open_place(h, "group_dm", ana, ben)

    original = h.fake._callback

    def failing(token, body, files):
        if body.get("type") == 4 and not (body.get("data") or {}).get("flags", 0) & 64:
            from bot.testing.fake_discord import Refusal

            raise Refusal(400, {"code": 50035, "message": "Invalid Form Body", "errors": {}})
        return original(token, body, files)

    h.fake._callback = failing
    token = await h.command(ana, "sensei", "start", channel_id=place.channel_id)
    assert await h.bot.store.lobby_in_channel(place.channel_id) is None
    assert "no table was made" in h.reply_text(token)
    await h.bot.close()


async def test_the_board_command_points_to_the_one_message(database, players):
    h = await start_bot(database)
    ana, ben = players[:2]
    place = open_place(h, "group_dm", ana, ben)
    await sensei_table(h, place, ana, ben)
    board = table_message(h, place)
    token = await h.command(ana, "sensei", "board", channel_id=place.channel_id)
    assert "Current board" in h.reply_text(token) and board["id"] in h.reply_text(token)
    assert table_message(h, place)["id"] == board["id"]  # still the one public message
    assert bot_calls_into(h, place) == []
    await h.bot.close()


async def test_sarena_colours_only_to_their_owner_in_a_dm_between_friends(database, players,
                                                                          monkeypatch):
    from bot.testing.flows import sarena_path
    from bot.testing.remote_flows import tap_remote

    deal_with(monkeypatch, 31)
    h = await start_bot(database)
    ana, ben = players[:2]
    h.fake.strangers.update({ana.id, ben.id})
    place = open_place(h, "dm", ana, ben)
    await h.command(ana, "sarena", "start", channel_id=place.channel_id)
    table_id = table_id_of(table_message(h, place))
    await click_verb(h, ben, table_message(h, place), "join")
    await click_verb(h, ana, table_message(h, place), "start")
    live = await h.bot.tables.get(table_id)
    cog = h.bot.get_cog("SarenaCog")
    colours = [cog.colour(live.game.private_view(seat)["colour"], "en") for seat in (0, 1)]
    for seat, person in enumerate((ana, ben)):
        token = await click_verb(h, person, table_message(h, place), "mine")
        answer = private_answer(h, token)
        assert answer["flags"] & 64 and f"**{colours[seat]}**" in answer["content"]
    rng = random.Random(4)
    for _ in range(6):
        live = await h.bot.tables.get(table_id)
        if live.row.status != "playing":
            break
        seat, version = live.game.to_move, live.row.version
        action = rng.choice(live.game.legal_actions(seat))
        await tap_remote(h, (ana, ben)[seat], place, sarena_path(table_message(h, place), action))
        board = table_message(h, place)
        text = json.dumps([board["content"], board["embeds"]])
        assert "secret colour" not in text
        assert (await h.bot.tables.get(table_id)).row.board_version == version + 1
    assert bot_calls_into(h, place) == [] and h.fake.sent("POST", "/users/@me/channels") == []
    await h.bot.close()


async def test_a_narabi_question_in_a_group_dm_is_answered_privately_and_shown_on_the_table(
        database, players):
    """Where the table is one message, a question has no message of its own to carry Yes/No:
    the asked player answers from their own "My cards" answer, and the table's message says
    the answer at its next edit."""
    h = await start_bot(database)
    ana, ben, cleo = players[:3]
    place = open_place(h, "group_dm", ana, ben, cleo)
    await h.command(ana, "narabi", "start", channel_id=place.channel_id)
    table_id = table_id_of(table_message(h, place))
    for person in (ben, cleo):
        await click_verb(h, person, table_message(h, place), "join")
    await click_verb(h, ana, table_message(h, place), "start")
    live = await h.bot.tables.get(table_id)
    people = [ana, ben, cleo]
    asker = live.game.to_move
    asked = (asker + 1) % 3
    card, other = live.game.rows[asked][0], live.game.rows[(asked + 1) % 3][0]
    token = await tap_remote(h, people[asker], place, [("ask", None), ("askcard", str(card)),
                                                       ("askwith", str(other))])
    assert "above the table's board" in private_answer(h, token)["content"]
    shown = table_message(h, place)["content"]
    assert "can you switch" in shown and "answer with 🔒 **My cards**" in shown
    # Only the asked player's own answer offers Yes and No.
    token = await click_verb(h, people[(asked + 1) % 3], table_message(h, place), "mine")
    assert "A question for you" not in private_answer(h, token)["content"]
    token = await click_verb(h, people[asked], table_message(h, place), "mine")
    mine = private_answer(h, token)
    assert "A question for you" in mine["content"]
    yes = find_component(mine, "answer")
    await h.click(people[asked], mine, yes["custom_id"])
    question = (await h.bot.store.questions_of(table_id))[-1]
    assert question["answer"] is True
    await h.settle()
    assert f"→ {people[asked].name}: **Yes**" in table_message(h, place)["content"]
    assert bot_calls_into(h, place) == [] and h.fake.places.refused == []
    await h.bot.close()
