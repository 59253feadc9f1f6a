"""A command sync Discord refuses is loud, not silent: one log line naming the command and
the field, a bot that keeps answering, and /games telling those who run the server."""
from __future__ import annotations

import logging
from pathlib import Path

import discord
from discord import app_commands

from bot.client import TabletopBot, refused_sync_text
from bot.config import Settings
from bot.i18n import t
from bot.store import Store
from bot.testing.discord_spec import SPEC
from bot.testing.fake_discord import ALL_PERMISSIONS, FakeDiscord, Member
from bot.testing.harness import Harness


async def start_with_extra_command(database: Path, command: app_commands.Command) -> Harness:
    """start_bot's bot, with one more command in its tree before it syncs."""
    store = await Store.open(database)
    settings = Settings(token="", database_path=Path(database), dev_guild_id=None,
                        log_level="INFO", ai_workers=1, ai_pause_seconds=0.0, render_workers=0)
    bot = TabletopBot(settings, store)
    bot.tree.add_command(command)
    return await Harness.start(bot, FakeDiscord())


async def _callback(interaction: discord.Interaction, count: app_commands.Range[int, 1, 10**17]) -> None:
    await interaction.response.send_message("never", ephemeral=True)


def broken_command() -> app_commands.Command:
    return app_commands.Command(name="broken", description="Declares a range Discord refuses",
                                callback=_callback)


async def test_a_refused_sync_leaves_one_clear_log_line_and_a_running_bot(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="bot.client")
    h = await start_with_extra_command(tmp_path / "bot.sqlite3", broken_command())
    try:
        # Discord (here its stand-in, judging by Discord's description) refused the overwrite.
        sync = h.fake.sent("PUT", "/commands")
        assert len(sync) == 1
        index = [c["name"] for c in sync[0].json].index("broken")
        refusal = SPEC.check("PUT", sync[0].path, sync[0].json)
        assert refusal is not None and refusal[0] == 400
        assert "max_value" in refusal[1]["errors"][str(index)]["options"]["0"]

        lines = [r for r in caplog.records if "refused the slash commands" in r.getMessage()]
        assert len(lines) == 1 and lines[0].levelno == logging.ERROR
        line = lines[0].getMessage()
        assert "\n" not in line
        assert ("command /broken, option count: max_value: int value should be less than or "
                "equal to 9007199254740991.") in line
        assert h.bot.sync_refused and "/broken" in h.bot.sync_refused
        assert not [r for r in caplog.records if "synced" in r.getMessage()]

        # The bot still runs the commands Discord has, and tells a Manage Server member.
        owner = Member(1, "Owner", permissions=ALL_PERMISSIONS)
        player = Member(2, "Player")
        token = await h.command(owner, "games")
        assert t("help.sync_refused", "en-US") in h.reply_text(token)
        token = await h.command(player, "games")
        text = h.reply_text(token)
        assert t("help.text", "en-US") in text and t("help.sync_refused", "en-US") not in text
        owner_de = Member(3, "Inhaberin", permissions=ALL_PERMISSIONS, locale="de")
        token = await h.command(owner_de, "games")
        assert t("help.sync_refused", "de") in h.reply_text(token)
    finally:
        await h.bot.close()


async def test_an_accepted_sync_says_nothing_to_the_owner(tmp_path, caplog):
    from tests.conftest import start_bot

    caplog.set_level(logging.INFO, logger="bot.client")
    h = await start_bot(tmp_path / "bot.sqlite3")
    try:
        assert h.bot.sync_refused is None
        assert [r for r in caplog.records if "synced" in r.getMessage()]
        token = await h.command(Member(1, "Owner", permissions=ALL_PERMISSIONS), "games")
        assert t("help.sync_refused", "en-US") not in h.reply_text(token)
    finally:
        await h.bot.close()


class _Group(app_commands.Group):
    @app_commands.command(name="clock", description="d")
    async def clock(self, interaction: discord.Interaction, limit: int) -> None:  # pragma: no cover
        pass


def test_discords_errors_tree_is_named_by_command_and_option():
    group = _Group(name="config", description="d")
    commands = [broken_command(), group]
    exc = discord.HTTPException(type("R", (), {"status": 400, "reason": "Bad Request"})(), {
        "code": 50035, "message": "Invalid Form Body", "errors": {
            "0": {"options": {"0": {"max_value": {"_errors": [
                {"code": "NUMBER_TYPE_MAX", "message": "int value should be less than or equal to 9007199254740991."}]}}},
                  "name_localizations": {"de": {"_errors": [
                      {"code": "APPLICATION_COMMAND_INVALID_NAME", "message": "Command name is invalid"}]}}},
            "1": {"options": {"0": {"options": {"0": {"description": {"_errors": [
                {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]}}}}}},
            "2": {"_errors": [{"code": "APPLICATION_COMMAND_TOO_LARGE", "message": "Command exceeds maximum size (4000)"}]},
        }})
    text = refused_sync_text(exc, commands)
    assert "\n" not in text
    assert "command /broken, option count: max_value: int value should be less than or equal to 9007199254740991." in text
    assert "command /broken: name_localizations.de: Command name is invalid" in text
    assert "command /config clock, option limit: description: Must be between 1 and 100 in length." in text
    assert "commands: 2: Command exceeds maximum size (4000)" in text


async def test_the_command_tree_is_valid_for_discord_in_every_language(tmp_path):
    """What the sync sends: every command, option and choice with its text in every language
    the bot speaks, within Discord's limits (the stand-in judged it; judged again here)."""
    from bot.i18n import LANGUAGES
    from bot.testing.discord_spec import COMMAND_SIZE_MAX, _command_size
    from tests.conftest import start_bot

    h = await start_bot(tmp_path / "bot.sqlite3")
    try:
        [sync] = h.fake.sent("PUT", "/commands")
        assert SPEC.check("PUT", sync.path, sync.json) is None
        wanted = {locale.value for locale in discord.Locale
                  if locale.value.split("-")[0] in LANGUAGES and locale.value.split("-")[0] != "en"}
        assert len(wanted) == 8  # es-ES and es-419 both get Spanish

        def walk(node, where):
            assert set(node.get("description_localizations") or {}) == wanted, where
            for choice in node.get("choices") or []:
                names = choice.get("name_localizations") or {}
                assert not names or set(names) == wanted, (where, choice["name"])
            for option in node.get("options") or []:
                walk(option, f"{where} {option['name']}")

        for command in sync.json:
            walk(command, "/" + command["name"])
            assert _command_size(command) <= COMMAND_SIZE_MAX
        assert {c["name"] for c in sync.json} >= {"games", "replay", "config", "narabi", "sensei",
                                                  "sarena", "stats", "history", "leaderboard"}
    finally:
        await h.bot.close()
