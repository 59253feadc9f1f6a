"""The Activity is off unless configured, both settings or neither, and its secrets are never
shown: not in the settings' repr, not in any log line of a sign-in and a move."""
from __future__ import annotations

import logging

import aiohttp
import pytest

from bot.config import ConfigError, Settings
from bot.testing.activity_kit import Page, code_for, start_activity_bot
from bot.testing.fake_discord import Member
from bot.testing.flows import start_table

TOKEN = "A" * 24 + ".BBBBBB." + "C" * 27


def test_off_unless_both_port_and_secret_are_set():
    assert not Settings.from_env({"DISCORD_TOKEN": TOKEN}).activity_enabled
    on = Settings.from_env({"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "8081",
                            "DISCORD_CLIENT_SECRET": "s3cret-value"})
    assert on.activity_enabled and on.activity_port == 8081
    assert on.activity_host == "127.0.0.1" and on.activity_session_hours == 12.0
    assert "s3cret-value" not in repr(on)
    for env, word in (({"ACTIVITY_PORT": "8081"}, "DISCORD_CLIENT_SECRET"),
                      ({"DISCORD_CLIENT_SECRET": "x"}, "ACTIVITY_PORT"),
                      ({"ACTIVITY_PORT": "70000", "DISCORD_CLIENT_SECRET": "x"}, "TCP port"),
                      ({"ACTIVITY_PORT": "8081", "DISCORD_CLIENT_SECRET": "x",
                        "DISCORD_CLIENT_ID": "abc"}, "DISCORD_CLIENT_ID")):
        with pytest.raises(ConfigError, match=word):
            Settings.from_env({"DISCORD_TOKEN": TOKEN, **env})


async def test_no_code_token_session_or_secret_reaches_the_log(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    h = await start_activity_bot(tmp_path / "bot.sqlite3")
    try:
        players = [Member(101, "Ana"), Member(102, "Ben")]
        table = await start_table(h, "sarena", players)
        live = await h.bot.tables.get(table.id)
        seat = live.game.to_move
        async with aiohttp.ClientSession() as http:
            code, instance = code_for(h, players[seat], table.thread)
            page = Page(h, http)
            signed = await page.sign_in(code, instance)
            status, _ = await page.act(table.id, live.row.version,
                                       [live.game.legal_actions(seat)[0]])
            assert status == 200
            await h.settle()
        colour = live.game.private_view(seat)["colour"]
        text = "\n".join(r.getMessage() for r in caplog.records)
        for secret in (code, signed["session"], signed["access_token"],
                       h.fake.apps.client_secret):
            assert secret not in text
        assert f'"colour": "{colour}"' not in text and f"'colour': '{colour}'" not in text
    finally:
        await h.bot.close()


def test_the_doors_settings_are_read_and_checked():
    base = {"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "8081", "DISCORD_CLIENT_SECRET": "x"}
    default = Settings.from_env(base)
    assert (default.activity_signin_per_address, default.activity_signin_per_minute,
            default.activity_signin_in_flight, default.activity_recheck_seconds) == (10, 60, 4, 180.0)
    chosen = Settings.from_env({**base, "ACTIVITY_SIGNIN_PER_ADDRESS": "3",
                                "ACTIVITY_SIGNIN_PER_MINUTE": "200",
                                "ACTIVITY_SIGNIN_IN_FLIGHT": "8",
                                "ACTIVITY_RECHECK_SECONDS": "60"})
    assert (chosen.activity_signin_per_address, chosen.activity_signin_per_minute,
            chosen.activity_signin_in_flight, chosen.activity_recheck_seconds) == (3, 200, 8, 60.0)
    for name, bad in (("ACTIVITY_SIGNIN_PER_ADDRESS", "0"), ("ACTIVITY_SIGNIN_IN_FLIGHT", "x"),
                      ("ACTIVITY_RECHECK_SECONDS", "5")):
        with pytest.raises(ConfigError, match=name):
            Settings.from_env({**base, name: bad})
