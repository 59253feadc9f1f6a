"""Start-up: configuration errors end with exit code 2 and one line, never a traceback."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTAxMjM0NTY3ODkwMTIzNDU2Nzg5MA.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL")}
    clean["PYTHONPATH"] = str(ROOT)
    clean.update(env)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path, env=clean,
                          capture_output=True, text=True, timeout=60)


def test_help_lists_subcommands(tmp_path):
    out = run_bot(tmp_path, "--help")
    assert out.returncode == 0
    for command in ("run", "bench", "check"):
        assert command in out.stdout


@pytest.mark.parametrize("token, needle", [
    ("", "DISCORD_TOKEN is not set"),
    ("not-a-token", "does not look like a bot token"),
    ('"' + TOKEN + '"', "does not look like a bot token"),
])
def test_bad_token_exits_2_with_one_line(tmp_path, token, needle):
    out = run_bot(tmp_path, DISCORD_TOKEN=token)
    assert out.returncode == 2
    assert needle in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_env_file_is_read(tmp_path):
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH=db/x.sqlite3\n")
    out = run_bot(tmp_path, "check")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "db" / "x.sqlite3").exists()


def test_corrupt_database_exits_2(tmp_path):
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    out = run_bot(tmp_path, "check", DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(bad))
    assert out.returncode == 2
    assert "damaged or not a SQLite database" in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_unwritable_database_path_exits_2(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = run_bot(tmp_path, "check", DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(blocker / "db.sqlite3"))
    assert out.returncode == 2
    assert "DATABASE_PATH" in out.stderr and "Traceback" not in out.stderr


def test_directory_as_database_path_exits_2(tmp_path):
    out = run_bot(tmp_path, "check", DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path))
    assert out.returncode == 2 and "is a directory" in out.stderr


def test_settings_validation():
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "123",
                                  "LOG_LEVEL": "debug"})
    assert settings.dev_guild_id == 123 and settings.log_level == "DEBUG"
    assert str(settings.database_path) == "data/tabletop.sqlite3"
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "my server"})
    with pytest.raises(ConfigError, match="LOG_LEVEL"):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "loud"})


def test_sync_goes_to_dev_guild_when_set(tmp_path):
    import asyncio

    from bot.client import TabletopBot
    from bot.store import Store
    from bot.testing.fake_discord import Harness

    async def scenario():
        store = await Store.open(tmp_path / "s.sqlite3")
        bot = TabletopBot(Settings("", tmp_path / "s.sqlite3", 4242, "INFO"), store)
        h = await Harness.start(bot)
        paths = [r.path for r in h.fake.sent("PUT")]
        await bot.close()
        return paths

    paths = asyncio.run(scenario())
    assert paths == ["/applications/900000000000000001/guilds/4242/commands"]
