"""With Activities enabled, Discord keeps an Entry Point command and refuses (50240) a bulk
overwrite that leaves it out: the stand-in refuses as Discord does, and the start-up sync keeps
the command. Without the Activity configured, the bot sends neither it nor an Open board button."""
from __future__ import annotations

import discord
import pytest

from bot.testing.activity_kit import start_activity_bot
from bot.testing.fake_apps import ENTRY_POINT_REMOVED
from bot.testing.fake_discord import APP_ID, FakeDiscord, Member, components_of
from bot.testing.flows import board, start_table
from tests.conftest import start_bot


async def test_the_stand_in_refuses_an_overwrite_that_drops_the_entry_point(tmp_path):
    fake = FakeDiscord()
    fake.apps.enable_activities()
    h = await start_bot(tmp_path / "bot.sqlite3", fake, sync_commands=False)
    try:
        with pytest.raises(discord.HTTPException) as refused:
            await h.bot.http.bulk_upsert_global_commands(APP_ID, payload=[
                {"name": "ping", "description": "Ping", "type": 1}])
        assert refused.value.status == 400 and refused.value.code == 50240
        assert refused.value.text == ENTRY_POINT_REMOVED["message"]
        # Two Entry Points in one overwrite are refused too.
        entry = {"name": "launch", "description": "x", "type": 4, "handler": 2}
        with pytest.raises(discord.HTTPException) as twice:
            await h.bot.http.bulk_upsert_global_commands(
                APP_ID, payload=[entry, dict(entry, name="other")])
        assert twice.value.code == 50035
    finally:
        await h.bot.close()


async def test_the_start_up_sync_keeps_discords_entry_point(tmp_path):
    fake = FakeDiscord()
    fake.apps.enable_activities()
    default = dict(next(c for c in fake.apps.commands if c["type"] == 4))
    h = await start_activity_bot(tmp_path / "bot.sqlite3", fake)
    try:
        assert h.bot.sync_refused is None
        sync = h.fake.sent("PUT", "/commands")
        assert len(sync) == 1
        entries = [c for c in sync[0].json if c.get("type") == 4]
        assert entries == [{k: default[k] for k in ("id", "type", "name", "description",
                                                    "handler", "contexts",
                                                    "integration_types", "nsfw")}]
        kept = [c for c in fake.apps.commands if c.get("type") == 4]
        assert kept[0]["id"] == default["id"] and kept[0]["handler"] == 2
        assert {c["name"] for c in fake.apps.commands} >= {"sensei", "narabi", "sarena", "launch"}
    finally:
        await h.bot.close()


async def test_without_an_entry_point_the_sync_registers_one_discord_launches(tmp_path):
    fake = FakeDiscord()
    h = await start_activity_bot(tmp_path / "bot.sqlite3", fake)
    try:
        assert h.bot.sync_refused is None
        entries = [c for c in fake.apps.commands if c.get("type") == 4]
        assert len(entries) == 1 and entries[0]["handler"] == 2
    finally:
        await h.bot.close()


@pytest.mark.slow
async def test_without_the_activity_there_is_no_entry_point_nor_open_board(tmp_path):
    fake = FakeDiscord()
    h = await start_bot(tmp_path / "bot.sqlite3", fake)
    try:
        assert h.bot.activity_server is None
        assert not [c for c in h.fake.sent("PUT", "/commands")[0].json if c.get("type") == 4]
        assert not h.fake.sent("GET", "/commands")
        table = await start_table(h, "sensei", [Member(101, "Ana"), Member(102, "Ben")])
        verbs = [c["custom_id"].split(":")[2] for c in components_of(board(h, table))]
        assert "board" not in verbs
    finally:
        await h.bot.close()


async def test_activities_enabled_in_the_portal_only_keep_discords_entry_point(tmp_path, caplog):
    """The operator ticked Activities in the Developer Portal but runs no Activity server:
    the first overwrite is refused (50240) and the sync keeps Discord's command as it is."""
    fake = FakeDiscord()
    fake.apps.enable_activities()
    h = await start_bot(tmp_path / "bot.sqlite3", fake)
    try:
        assert h.bot.sync_refused is None
        puts = h.fake.sent("PUT", "/commands")
        assert [p.status for p in puts] == [400, 200]
        assert [c["type"] for c in fake.apps.commands].count(4) == 1
        assert h.bot.activity_server is None
    finally:
        await h.bot.close()
