"""The Activity outside servers: Discord launches it in DMs and group DMs (location kind "pc",
no guild). The session is bound to that channel without a guild, the list shows the tables
stored for it, and a board opens and plays there."""
from __future__ import annotations

import aiohttp
import pytest

from bot.i18n import t
from bot.store import SeatRow
from bot.testing.activity_kit import Page, start_activity_bot
from bot.testing.fake_discord import CHANNEL_ID, Member, user_payload

GROUP_DM = 7_300_000_000_000_000_001


@pytest.fixture
async def served(tmp_path):
    h = await start_activity_bot(tmp_path / "bot.sqlite3")
    async with aiohttp.ClientSession() as http:
        yield h, http
    await h.bot.close()


async def group_dm_table(h, game, players):
    """A table stored for the group DM (as the game's command there would store it)."""
    tables = h.bot.tables
    host = players[0]
    live = await tables.open_lobby(game, guild_id=None, channel_id=GROUP_DM, host_id=host.id,
                                   host_name=host.name, options=None, locale="en",
                                   seats=[SeatRow(0, host.id, host.name, locale="en")])
    for p in players[1:]:
        await tables.join(live.id, p.id, p.name, "en")
    return await tables.start(live.id, host.id, use_thread=False, seed=7)


def private_launch(h, member, instance_id=None):
    user = dict(user_payload(member.id, member.name), locale=member.locale)
    if instance_id is None:
        instance_id = h.fake.apps.open_instance(GROUP_DM, user, guild=None)
        return h.fake.apps.launches[-1]["code"], instance_id
    return h.fake.apps.join(instance_id, user), instance_id


async def test_a_group_dm_activity_lists_and_plays_that_channels_tables(served):
    h, http = served
    ana, ben = Member(101, "Ana"), Member(102, "Ben")
    live = await group_dm_table(h, "sarena", [ana, ben])
    # Another table, in a server's channel, is not listed there.
    other = await h.bot.tables.open_lobby(
        "sensei", guild_id=h.fake.guild_id, channel_id=CHANNEL_ID, host_id=ana.id,
        host_name=ana.name, options=None, locale="en",
        seats=[SeatRow(0, ana.id, ana.name, locale="en")])
    code, instance = private_launch(h, ana)
    assert instance.startswith("i-") and f"-pc-{GROUP_DM}" in instance
    pages = {}
    for member in (ana, ben):
        page = Page(h, http)
        signed = await page.sign_in(*(private_launch(h, member, instance) if member is ben
                                      else (code, instance)))
        assert signed["guild_id"] is None and signed["channel_id"] == str(GROUP_DM)
        pages[member.id] = page
    status, listing = await pages[ana.id].call("GET", "/api/tables")
    assert status == 200 and listing["private"] is True and listing["games"] == []
    assert [row["id"] for row in listing["tables"]] == [live.id] != [other.id]
    assert listing["open"] == live.id
    # The board opens and the one to move plays on it.
    fresh = await h.bot.tables.get(live.id)
    seat, version = fresh.game.to_move, fresh.row.version
    mover = pages[(ana, ben)[seat].id]
    state = await mover.state(live.id)
    assert state["your_turn"] is True and state["private"]["colour"]
    status, answer = await mover.act(live.id, version, [fresh.game.legal_actions(seat)[0]])
    assert status == 200 and answer["state"]["version"] == version + 1
    # A new game is started with the command in the chat, not from the board.
    status, answer = await pages[ana.id].call("POST", "/api/tables", {"game": "sensei"})
    assert status == 409 and answer["error"]["code"] == "start_in_chat"
    assert answer["error"]["message"] == t("activity.server.error.start_in_chat", "en")
    # A server channel's table is not this session's.
    status, answer = await pages[ana.id].call("GET", f"/api/tables/{other.id}")
    assert status == 403 and answer["error"]["code"] == "other_channel"


async def test_a_narabi_condition_naming_a_side_names_the_player_on_the_board(served):
    """Seats are listed top to bottom on the board: "the player on your right" is named."""
    from bot.games import game_class
    h, http = served
    cls = game_class("narabi")
    options = cls.normalize_options(None)
    sides = {"left": 1, "right": -1, "left2": 2, "right2": -2}

    def named_cards(seed):
        cards = cls.new(3, options, seed).private_view(0)["cards"]
        return [c for c in cards if c["condition"] in sides]

    seed = next(s for s in range(500) if named_cards(s))
    players = [Member(101, "Ana"), Member(102, "Ben"), Member(103, "Cleo")]
    tables = h.bot.tables
    live = await tables.open_lobby("narabi", guild_id=None, channel_id=GROUP_DM,
                                   host_id=101, host_name="Ana", options=None, locale="en",
                                   seats=[SeatRow(0, 101, "Ana", locale="en")])
    for p in players[1:]:
        await tables.join(live.id, p.id, p.name, "en")
    await tables.start(live.id, 101, use_thread=False, seed=seed)
    page = Page(h, http)
    await page.sign_in(*private_launch(h, players[0]))
    state = await page.state(live.id)
    by_id = {c["id"]: c for c in state["private"]["cards"]}
    expected = named_cards(seed)
    for card in expected:
        assert by_id[card["id"]]["seat_named"] == sides[card["condition"]] % 3
    assert all("seat_named" not in c for c in state["private"]["cards"]
               if c["condition"] not in sides)
    # Nobody else's conditions came with it.
    assert set(by_id) == {c["id"] for c in state["public"]["rows"][0]}
