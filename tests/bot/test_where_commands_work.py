"""Where each command works: every command is installable to a server and to a person's account
and offered in servers, DMs and group DMs; a server's own commands say, in a sentence, that they
need a server that has added the bot; the stand-in offers a command only where it is declared."""
from __future__ import annotations

import types
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.i18n import t
from bot.testing.fake_discord import CHANNEL_ID, GUILD_ID, Member, snowflake, user_payload
from bot.testing.harness import Harness
from bot.testing.offered import NotOffered, authorize
from bot.ui import places

#: the commands that belong to one server (its settings, tournaments, ratings, stats, history)
SERVER_ONLY = {"config", "tournament", "leaderboard", "stats", "history"}
#: a group DM's app permissions (Discord: no SEND_MESSAGES there, it means nothing)
GROUP_DM_PERMISSIONS = str(discord.Permissions(attach_files=True, embed_links=True,
                                               mention_everyone=True).value)


def moved(h: Harness, member: Member, where: str, name: str, sub: str | None = None,
          **options: Any) -> tuple[str, dict[str, Any]]:
    """A slash command interaction of ``member`` in ``where``: "group_dm" (a group chat in
    which ``member`` installed the app), "foreign_guild" (a server that never added the bot,
    reached through ``member``'s install) or "bot_dm" (the DM with the bot)."""
    channel_id = snowflake()
    token, payload = h._base(member, channel_id, 2)
    for key in ("guild_id", "member", "guild_locale"):
        payload.pop(key, None)
    payload["authorizing_integration_owners"] = {"1": str(member.id)}
    if where == "group_dm":
        payload.update(context=2, user=user_payload(member.id, member.name),
                       app_permissions=GROUP_DM_PERMISSIONS,
                       channel={"id": str(channel_id), "type": 3, "name": "friends",
                                "owner_id": str(member.id), "icon": None, "last_message_id": None,
                                "recipients": [user_payload(member.id, member.name),
                                               user_payload(999, "Friend")]})
    elif where == "bot_dm":
        payload["authorizing_integration_owners"] = {"0": "0", "1": str(member.id)}
        payload.update(context=1, user=user_payload(member.id, member.name),
                       app_permissions=GROUP_DM_PERMISSIONS,
                       channel={"id": str(channel_id), "type": 1, "last_message_id": None,
                                "recipients": [user_payload(member.id, member.name)]})
    else:
        other = snowflake()
        payload.update(context=0, guild_id=str(other), guild_locale="en-US",
                       member={"user": user_payload(member.id, member.name), "roles": [],
                               "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                               "mute": False, "permissions": member.permissions, "flags": 0,
                               "nick": None},
                       channel={"id": str(channel_id), "type": 0, "guild_id": str(other),
                                "name": "games", "position": 0, "permission_overwrites": [],
                                "nsfw": False, "parent_id": None})
    opts = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
            for k, v in options.items()]
    if sub is not None:
        opts = [{"name": sub, "type": 1, "options": opts}]
    payload["data"] = {"id": str(snowflake()), "name": name, "type": 1, "options": opts}
    return token, payload


#: each server-only command as a person would type it, with what it needs
SERVER_ONLY_CALLS = [("config", "show", {}), ("tournament", "standings", {"tournament": 1}),
                     ("leaderboard", None, {"game": "sensei"}), ("stats", None, {}),
                     ("history", None, {})]


# -- every command declares both installs and every context -------------------------------------

async def test_every_command_is_installable_both_ways_and_offered_everywhere(harness):
    h = harness
    tree_commands = h.bot.tree.get_commands()
    assert {c.name for c in tree_commands} >= SERVER_ONLY | {"sensei", "narabi", "sarena"}
    for command in tree_commands:
        # declared on the command itself, not left to the tree's or Discord's defaults
        assert command.allowed_installs is not None, command.name
        assert command.allowed_contexts is not None, command.name
        assert (command.allowed_installs.guild, command.allowed_installs.user) == (True, True)
        contexts = command.allowed_contexts
        assert (contexts.guild, contexts.dm_channel, contexts.private_channel) == (True,) * 3
        assert places.server_only(command) == (command.name in SERVER_ONLY), command.name
    # and the stand-in holds what the sync sent: Discord's own fields, on every command
    synced = {c["name"]: c for c in h.fake.apps.commands}
    assert set(synced) == {c.name for c in tree_commands}
    for name, command in synced.items():
        assert command["contexts"] == [0, 1, 2], name
        assert command["integration_types"] == [0, 1], name


def test_a_server_only_subcommand_counts_its_group():
    group = places.needs_server(app_commands.Group(name="things", description="Things"))

    @group.command(name="list", description="List things")
    async def list_things(interaction: discord.Interaction) -> None:
        raise AssertionError("never called")

    assert places.server_only(list_things) and places.server_only(group)
    assert group.to_dict(app_commands.CommandTree(discord.Client(
        intents=discord.Intents.none())))["contexts"] == [0, 1, 2]
    with pytest.raises(TypeError):
        places.needs_server(list_things.callback)


# -- a server's own commands, elsewhere ------------------------------------------------------------

@pytest.mark.parametrize("where", ["group_dm", "foreign_guild", "bot_dm"])
async def test_server_only_commands_answer_their_sentence_outside_a_server_with_the_bot(
        harness, players, where):
    h = harness
    ana = players[0]
    before = await h.bot.store.tournaments_of(None, ("open", "running", "paused", "finished"))
    for name, sub, options in SERVER_ONLY_CALLS:
        token, payload = moved(h, ana, where, name, sub, **options)
        await h.send_command(token, payload)
        assert h.reply_text(token) == "⚠️ " + t("error.needs_server", "en-US"), name
        assert h.reply_flags(token) == [64], name  # only the person sees it
    # nothing was made or asked of the channel: only the answers
    assert not [r for r in h.fake.requests if r.counted and r.method != "PUT"]
    assert await h.bot.store.tournaments_of(None, ("open", "running", "paused",
                                                   "finished")) == before


async def test_the_sentence_is_in_the_person_s_language_and_games_still_answer(harness):
    h = harness
    ben = Member(200, "Ben", locale="de")
    token, payload = moved(h, ben, "group_dm", "config", "show")
    await h.send_command(token, payload)
    assert h.reply_text(token) == "⚠️ " + t("error.needs_server", "de")
    assert t("error.needs_server", "de") != t("error.needs_server", "en")
    # the commands every place has go on past the check: rules, help, puzzles
    for name, sub in (("sensei", "rules"), ("games", None), ("puzzle", "stats")):
        token, payload = moved(h, ben, "group_dm", name, sub)
        await h.send_command(token, payload)
        assert h.reply_text(token), name
        assert t("error.needs_server", "de") not in h.reply_text(token), name


async def test_server_commands_work_in_a_server_that_added_the_bot(harness, players):
    h = harness
    owner = Member(1, "Owner", permissions=str(discord.Permissions.all().value))
    token = await h.command(owner, "config", "show")
    assert t("error.needs_server", "en-US") not in h.reply_text(token)
    assert h.reply_text(token).strip()


# -- the stand-in offers a command only where it is declared -------------------------------------

async def _guild_only_callback(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("here", ephemeral=True)


async def test_the_stand_in_refuses_a_command_where_it_is_not_declared(tmp_path, players):
    from tests.conftest import start_bot

    h = await start_bot(tmp_path / "bot.sqlite3", sync_commands=False)
    try:
        command = app_commands.Command(name="serveronly", description="Servers with the bot",
                                       callback=_guild_only_callback,
                                       allowed_contexts=app_commands.AppCommandContext(guild=True),
                                       allowed_installs=app_commands.AppInstallationType(guild=True))
        h.bot.tree.add_command(command)
        await h.bot.sync_commands()
        ana = players[0]
        token, payload = moved(h, ana, "group_dm", "serveronly")
        with pytest.raises(NotOffered, match="context 2"):
            await h.send_command(token, payload)
        assert token not in h.fake.interactions and not h.fake.replies(token)
        # in a server that never added the bot: the context is right, the install is not
        token, payload = moved(h, ana, "foreign_guild", "serveronly")
        with pytest.raises(NotOffered, match="installable"):
            await h.send_command(token, payload)
        # where it is declared, it is offered and answered
        token = await h.command(ana, "serveronly")
        assert h.reply_text(token) == "here"
        with pytest.raises(NotOffered, match="no such command"):
            await h.command(ana, "nosuchcommand")
    finally:
        await h.bot.close()


def _apps(*commands: dict[str, Any]) -> Any:
    return types.SimpleNamespace(commands=list(commands), guild_commands={},
                                 synced=bool(commands))


def _payload(context: int, owners: dict[str, str], guild: int | None = None,
             user: int = 100) -> dict[str, Any]:
    payload: dict[str, Any] = {"context": context, "authorizing_integration_owners": owners,
                               "data": {"name": "x"}}
    if guild is not None:
        payload.update(guild_id=str(guild), member={"user": {"id": str(user)}})
    else:
        payload["user"] = {"id": str(user)}
    return payload


def test_the_interaction_names_only_the_installs_that_authorized_the_command():
    both = {"name": "x", "type": 1, "contexts": [0, 1, 2], "integration_types": [0, 1]}
    users = {"name": "x", "type": 1, "contexts": [0, 1, 2], "integration_types": [1]}
    never = lambda name: None  # noqa: E731 - nothing declared beyond the synced commands
    # a server that installed the app, where the person also did: both authorize
    payload = _payload(0, {"0": str(GUILD_ID), "1": "100"}, GUILD_ID)
    authorize(_apps(both), payload, "x", never)
    assert payload["authorizing_integration_owners"] == {"0": str(GUILD_ID), "1": "100"}
    # a command only installable to accounts: the server's install does not authorize it
    payload = _payload(0, {"0": str(GUILD_ID), "1": "100"}, GUILD_ID)
    authorize(_apps(users), payload, "x", never)
    assert payload["authorizing_integration_owners"] == {"1": "100"}
    # someone else's install offers nothing to this person
    with pytest.raises(NotOffered):
        authorize(_apps(both), _payload(2, {"1": "555"}), "x", never)
    # no contexts declared: all three (new commands), but dm_permission false keeps it to servers
    legacy = {"name": "x", "type": 1, "dm_permission": False, "integration_types": [0, 1]}
    with pytest.raises(NotOffered):
        authorize(_apps(legacy), _payload(2, {"1": "100"}), "x", never)
    # no install types declared: the application's default, the server install
    plain = {"name": "x", "type": 1, "contexts": [0, 1, 2]}
    with pytest.raises(NotOffered):
        authorize(_apps(plain), _payload(2, {"1": "100"}), "x", never)
    # nothing synced at all: the bot's own declaration stands in
    payload = _payload(2, {"1": "100"})
    assert authorize(_apps(), payload, "x", lambda name: both) is both


def test_a_server_s_own_commands_exist_only_there():
    apps = types.SimpleNamespace(commands=[], synced=True, guild_commands={GUILD_ID: [
        {"name": "x", "type": 1}]})
    payload = _payload(0, {"0": str(GUILD_ID)}, GUILD_ID)
    authorize(apps, payload, "x", lambda name: None)
    with pytest.raises(NotOffered):
        authorize(apps, _payload(2, {"1": "100"}), "x", lambda name: None)


# -- replays and reviews of a game played here ----------------------------------------------------

def _interaction(guild_id: int | None, channel_id: int) -> Any:
    return types.SimpleNamespace(guild_id=guild_id, channel_id=channel_id)


def test_a_game_is_played_here_only_in_its_own_server_or_its_own_private_chat():
    assert places.played_here(GUILD_ID, (CHANNEL_ID, None), _interaction(GUILD_ID, 5))
    assert not places.played_here(GUILD_ID, (CHANNEL_ID, None), _interaction(GUILD_ID + 1, 5))
    # every group DM and DM has no server: the channel tells them apart
    assert places.played_here(None, (42, None), _interaction(None, 42))
    assert not places.played_here(None, (42, None), _interaction(None, 43))
    assert not places.played_here(GUILD_ID, (42, None), _interaction(None, 42))
    assert not places.played_here(None, (42, None), _interaction(GUILD_ID, 42))


async def test_replay_of_another_places_game_is_refused_in_a_group_dm(harness, players):
    from tests.helpers import start_table

    h = harness
    table = await start_table(h, "sensei", players[:2])
    live = await h.bot.tables.get(table.id)
    await h.bot.tables.act(table.id, table.players[live.game.to_move].id, {"type": "resign"})
    await h.settle()
    assert (await h.bot.tables.get(table.id)).row.status == "finished"
    for name in ("replay", "review"):
        token, payload = moved(h, players[0], "group_dm", name, game_id=table.id)
        await h.send_command(token, payload)
        assert h.reply_text(token).endswith(t("error.no_table", "en-US")), name


async def test_a_group_dm_s_game_is_replayed_only_in_that_group_dm(harness, players):
    h = harness
    ana, ben, cleo = players[:3]
    chat, other_chat = snowflake(), snowflake()
    # a game stored as a group DM's (no server), finished: what its replay shows is the
    # group's, and no other group DM (none has a server either) may open it by number.
    # (Narabi: a cooperative game keeps no rating, which a game without a server has no
    # place for yet.)
    live = await h.bot.tables.open_lobby("narabi", guild_id=None, channel_id=chat, host_id=ana.id,
                                         host_name=ana.name, options={}, locale="en")
    for friend in (ben, cleo):
        await h.bot.tables.join(live.id, friend.id, friend.name)
    live = await h.bot.tables.start(live.id, ana.id, use_thread=False)
    await h.bot.tables.act(live.id, [ana, ben, cleo][live.game.to_move].id, {"type": "resign"})
    assert (await h.bot.tables.get(live.id)).row.status == "finished"
    for name in ("replay", "review"):
        token, payload = moved(h, ana, "group_dm", name, game_id=live.id)
        payload["channel_id"] = payload["channel"]["id"] = str(other_chat)
        h.fake.interactions[token].channel_id = other_chat
        await h.send_command(token, payload)
        assert h.reply_text(token).endswith(t("error.no_table", "en-US")), name
    token, payload = moved(h, ana, "group_dm", "replay", game_id=live.id)
    payload["channel_id"] = payload["channel"]["id"] = str(chat)
    h.fake.interactions[token].channel_id = chat
    await h.send_command(token, payload)
    assert t("error.no_table", "en-US") not in h.reply_text(token)


# -- the application itself allows both installs ----------------------------------------------------

async def test_a_start_warns_when_user_install_is_off(harness, caplog):
    import logging

    h = harness
    caplog.set_level(logging.WARNING, logger="bot.client")
    # what a login fetches: the application, with the Developer Portal's install types
    application = await h.bot.application_info()
    assert application.user_integration_config is not None
    h.bot.check_installs(application)
    assert not [r for r in caplog.records if "User Install" in r.getMessage()]

    h.fake.apps.install_types = {"0"}  # the portal's "User Install" unticked
    application = await h.bot.application_info()
    assert application.user_integration_config is None
    h.bot.check_installs(application)
    warned = [r for r in caplog.records if "User Install is off" in r.getMessage()]
    assert len(warned) == 1 and warned[0].levelno == logging.WARNING
    assert "Installation -> Installation Contexts -> User Install" in warned[0].getMessage()
    # nothing known of the application (no login): nothing said
    h.bot.check_installs(None)
    assert len([r for r in caplog.records if "User Install" in r.getMessage()]) == 1


async def test_a_server_s_own_command_suggests_nothing_outside_a_server(harness, players):
    h = harness
    # typing /tournament standings in a group DM: Discord asks for suggestions first
    token, payload = moved(h, players[0], "group_dm", "tournament", "standings", tournament="")
    payload["type"] = 4
    payload["data"]["options"][0]["options"][0].update(type=4, focused=True)
    await h.send_command(token, payload)
    assert h.fake.replies(token) == [{"type": 8, "data": {"choices": []}}]


async def test_a_challenge_in_a_group_dm_takes_a_friend_who_is_no_server_member(harness, players):
    h = harness
    ana, ben = players[:2]
    token, payload = moved(h, ana, "group_dm", "sensei", "challenge")
    payload["data"]["options"][0]["options"] = [
        {"name": "opponent", "type": 6, "value": str(ben.id)}]
    # outside a server Discord resolves people as users only: no member objects
    payload["data"]["resolved"] = {"users": {str(ben.id): user_payload(ben.id, ben.name)}}
    await h.send_command(token, payload)
    reply = h.reply_text(token)
    assert reply and t("error.needs_server", "en-US") not in reply
    # and in a server the same option is a member, read as before
    token = await h.command(ana, "sensei", "challenge", opponent=ana)
    assert t("error.sensei_self_challenge", "en-US") in h.reply_text(token)
