"""Where the bot is not a member, the stand-in answers as Discord does (``bot/testing/places``):
one test per rule. These fakes run at Discord's own pace (time_scale=1)."""
from __future__ import annotations

import pytest

from bot.testing.fake_discord import APP_ID, FakeDiscord, InteractionRecord, Member
from bot.testing.places import Place
from bot.testing.remote_flows import open_place
from tests.conftest import start_bot

ANA, BEN = 100, 101


def group_dm(fake: FakeDiscord, **options) -> Place:
    return fake.places.add(Place(555, "group_dm", ANA, recipients=[ANA, BEN], **options))


async def bot_call(fake: FakeDiscord, method: str, path: str, body=None):
    return await fake.handle(method, path, {"Authorization": f"Bot {fake.token}"}, body, [])


async def answered(fake: FakeDiscord, place: Place, token: str, body: dict) -> tuple[int, dict]:
    fake.interactions[token] = InteractionRecord(place.channel_id, fake.now(), 2)
    status, _, answer = await fake.handle("POST", f"/interactions/1/{token}/callback", {}, body,
                                          [])
    return status, answer


async def test_the_bot_token_cannot_touch_a_channel_it_is_not_in():
    fake = FakeDiscord(time_scale=1.0)
    place = group_dm(fake)
    for method, path, body in (
            ("POST", "/channels/555/messages", {"content": "hi"}),
            ("PATCH", "/channels/555/messages/1", {"content": "hi"}),
            ("GET", "/channels/555/messages", None),
            ("POST", "/channels/555/messages/1/threads", {"name": "game"}),
            ("POST", "/channels/555/threads", {"name": "game", "type": 11})):
        status, _, answer = await bot_call(fake, method, path, body)
        assert (status, answer["code"]) == (403, 50001), path
    assert len(fake.places.refused) == 5 and fake.messages == {} and fake.threads == {}
    # its own DM with a person is the bot's to use
    own = fake.places.add(Place(556, "bot_dm", ANA, recipients=[ANA]))
    status, _, _ = await bot_call(fake, "POST", f"/channels/{own.channel_id}/messages",
                                  {"content": "hi"})
    assert status == 200


async def test_a_user_installed_interaction_sends_at_most_five_follow_ups():
    fake = FakeDiscord(time_scale=1.0)
    place = group_dm(fake)
    assert (await answered(fake, place, "t1", {"type": 4, "data": {"content": "hi"}}))[0] == 200
    for n in range(5):
        status, _, _ = await fake.handle("POST", f"/webhooks/{APP_ID}/t1", {},
                                         {"content": f"line {n}", "flags": 64}, [])
        assert status == 200
        fake.advance(2.5)  # past the webhook's own bucket (5 per 2 s)
    status, _, answer = await fake.handle("POST", f"/webhooks/{APP_ID}/t1", {},
                                          {"content": "one too many", "flags": 64}, [])
    assert (status, answer["code"]) == (400, 40094)


async def test_a_token_edits_only_its_own_messages_there():
    fake = FakeDiscord(time_scale=1.0)
    place = group_dm(fake)
    await answered(fake, place, "mine", {"type": 4, "data": {"content": "table"}})
    await answered(fake, place, "other", {"type": 4, "data": {"content": "x", "flags": 64}})
    table = fake._original["mine"]
    status, _, _ = await fake.handle("PATCH", f"/webhooks/{APP_ID}/mine/messages/@original", {},
                                     {"content": "edited"}, [])
    assert status == 200 and fake.messages[table]["content"] == "edited"
    status, _, answer = await fake.handle("PATCH", f"/webhooks/{APP_ID}/other/messages/{table}",
                                          {}, {"content": "not yours"}, [])
    assert (status, answer["code"]) == (404, 10008)
    assert fake.messages[table]["content"] == "edited"


async def test_a_server_may_force_every_answer_private():
    fake = FakeDiscord(time_scale=1.0)
    place = fake.places.add(Place(557, "foreign_guild", ANA, guild_id=42, force_ephemeral=True))
    status, answer = await answered(fake, place, "t", {"type": 4, "data": {"content": "table"}})
    assert status == 200 and answer["interaction"]["response_message_ephemeral"] is True
    assert fake.messages[fake._original["t"]]["flags"] & 64


async def test_a_refused_answer_acknowledges_nothing():
    fake = FakeDiscord(time_scale=1.0)
    place = group_dm(fake)
    status, _ = await answered(fake, place, "t", {"type": 7, "data": {"content": "x"}})
    assert status == 404  # no message was clicked: nothing to update
    status, _, _ = await fake.handle("POST", "/interactions/1/t/callback", {},
                                     {"type": 4, "data": {"content": "said instead"}}, [])
    assert status == 200


async def test_a_dm_to_someone_sharing_no_server_fails():
    fake = FakeDiscord(time_scale=1.0)
    fake.strangers.add(BEN)
    status, _, channel = await bot_call(fake, "POST", "/users/@me/channels",
                                        {"recipient_id": str(BEN)})
    assert status == 200
    status, _, answer = await bot_call(fake, "POST", f"/channels/{channel['id']}/messages",
                                       {"content": "your cards"})
    assert (status, answer["code"]) == (403, 50007)


async def test_interactions_there_say_where_they_are_and_only_the_installer_has_commands(
        tmp_path):
    h = await start_bot(tmp_path / "bot.sqlite3")
    ana, ben = Member(ANA, "Ana"), Member(BEN, "Ben")
    seen = []
    original = h.bot._connection.parse_interaction_create
    h.bot._connection.parse_interaction_create = lambda data: (seen.append(data),
                                                               original(data))
    for kind, context, channel_type in (("group_dm", 2, 3), ("dm", 2, 1), ("bot_dm", 1, 1),
                                        ("foreign_guild", 0, 0)):
        place = open_place(h, kind, ana, ben)
        await h.command(ana, "sensei", "rules", channel_id=place.channel_id)
        data = seen[-1]
        assert data["context"] == context and data["channel"]["type"] == channel_type
        assert data["authorizing_integration_owners"] == {"1": str(ANA)}
        assert ("guild_id" in data) == (kind == "foreign_guild")
        assert ("member" in data) == (kind == "foreign_guild") != ("user" in data)
        with pytest.raises(AssertionError, match="has not installed the app"):
            await h.command(ben, "sensei", "rules", channel_id=place.channel_id)
    await h.bot.close()


def test_an_activity_launched_in_a_group_dm_or_dm_is_a_private_channel_instance():
    """Discord launches Activities in DMs and group DMs with a location of kind "pc" (no
    server); in a server that never added the bot the location is still the server's."""
    fake = FakeDiscord()
    group = group_dm(fake)
    dm = fake.places.add(Place(558, "dm", ANA, recipients=[ANA, BEN]))
    foreign = fake.places.add(Place(559, "foreign_guild", ANA, guild_id=42))
    user = {"id": str(ANA), "username": "ana"}
    for place in (group, dm):
        instance = fake.apps.open_instance(place.channel_id, user)
        assert instance.endswith(f"-pc-{place.channel_id}")
    assert fake.apps.open_instance(foreign.channel_id, user).endswith("-gc-42-559")
    assert fake.apps.open_instance(700, user).endswith(f"-gc-{fake.guild_id}-700")
