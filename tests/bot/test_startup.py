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
             if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID",
                          "LOG_LEVEL", "SHARD_COUNT", "SHARD_IDS", "CLUSTER_COUNT",
                          "CLUSTER_INDEX", "DISCORD_REST_BUDGET", "DISCORD_PROCESSES")}
    clean["PYTHONPATH"] = str(ROOT)
    clean.update(env)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path, env=clean,
                          capture_output=True, text=True, timeout=60)


def test_help_lists_subcommands(tmp_path):
    out = run_bot(tmp_path, "--help")
    assert out.returncode == 0
    for command in ("run", "bench", "check", "migrate-db"):
        assert command in out.stdout


@pytest.mark.slow
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
    assert settings.ai_priority == "idle"
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN, "AI_PRIORITY": " Low "}).ai_priority == "low"
    with pytest.raises(ConfigError, match="AI_PRIORITY must be one of idle, low, normal"):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "AI_PRIORITY": "high"})


def test_database_url_and_shards():
    env = {"DISCORD_TOKEN": TOKEN}
    settings = Settings.from_env({**env, "DATABASE_URL": "sqlite:///x/y.sqlite3"})
    assert settings.database == Path("x/y.sqlite3") and settings.scope.count == 1
    url = "postgresql://bot:secret@db.example:5432/tabletop"
    settings = Settings.from_env({**env, "DATABASE_URL": url, "SHARD_COUNT": "8",
                                  "SHARD_IDS": "0-2,6"})
    assert settings.database == url and settings.shard_ids == (0, 1, 2, 6)
    assert settings.scope.sql() == "((coalesce(guild_id, 0) >> 22) % 8) IN (0,1,2,6)"
    settings = Settings.from_env({**env, "DATABASE_URL": url, "CLUSTER_COUNT": "3",
                                  "CLUSTER_INDEX": "1", "SHARD_COUNT": "7"})
    assert settings.shard_count == 7 and settings.shard_ids == (1, 4)
    assert Settings.from_env({**env, "DATABASE_URL": url, "CLUSTER_COUNT": "2",
                              "CLUSTER_INDEX": "0"}).shard_ids == (0,)
    # one process running every shard may use SQLite; a process running some may not
    assert Settings.from_env({**env, "SHARD_COUNT": "4"}).scope.ids == (0, 1, 2, 3)
    for bad, needle in (({"DATABASE_URL": "mysql://x"}, "sqlite:///"),
                        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,1"}, "DATABASE_URL=postgresql"),
                        ({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
                        ({"SHARD_COUNT": "2", "SHARD_IDS": "2", "DATABASE_URL": url}, "between 0 and 1"),
                        ({"SHARD_COUNT": "two"}, "whole number"),
                        ({"CLUSTER_COUNT": "2"}, "both CLUSTER_COUNT and CLUSTER_INDEX"),
                        ({"CLUSTER_COUNT": "2", "CLUSTER_INDEX": "2", "DATABASE_URL": url},
                         "between 0 and CLUSTER_COUNT - 1")):
        with pytest.raises(ConfigError, match=needle):
            Settings.from_env({**env, **bad})


def test_each_process_takes_its_share_of_the_tokens_budget():
    env = {"DISCORD_TOKEN": TOKEN}
    url = "postgresql://bot:secret@db.example:5432/tabletop"
    assert Settings.from_env(env).rest_per_second == 45.0  # one process: all of it
    # CLUSTER_COUNT processes, or as many as SHARD_IDS leaves for the others: each its share
    two = Settings.from_env({**env, "DATABASE_URL": url, "CLUSTER_COUNT": "2", "CLUSTER_INDEX": "1"})
    assert two.rest_per_second == 22.5
    some = Settings.from_env({**env, "DATABASE_URL": url, "SHARD_COUNT": "8", "SHARD_IDS": "0,1"})
    assert some.rest_per_second == 45.0 / 4
    told = Settings.from_env({**env, "DISCORD_REST_BUDGET": "40", "DISCORD_PROCESSES": "4"})
    assert told.rest_per_second == 10.0
    for bad, needle in ((("DISCORD_REST_BUDGET", "60"), "at most 50"),
                        (("DISCORD_REST_BUDGET", "0"), "DISCORD_REST_BUDGET"),
                        (("DISCORD_PROCESSES", "0"), "DISCORD_PROCESSES")):
        with pytest.raises(ConfigError, match=needle):
            Settings.from_env({**env, bad[0]: bad[1]})


def test_check_opens_a_postgres_database_and_explains_a_wrong_url(tmp_path, postgres_url):
    out = run_bot(tmp_path, "check", DISCORD_TOKEN=TOKEN, DATABASE_URL=postgres_url)
    assert out.returncode == 0 and "ready" in out.stdout, out.stderr
    wrong = "postgresql://bot:hunter2@127.0.0.1:1/none"
    out = run_bot(tmp_path, "check", DISCORD_TOKEN=TOKEN, DATABASE_URL=wrong)
    assert out.returncode == 2 and "cannot connect to the database" in out.stderr
    assert "hunter2" not in out.stderr and "Traceback" not in out.stderr


def test_sync_goes_to_dev_guild_when_set(tmp_path):
    import asyncio

    from bot.client import TabletopBot
    from bot.store import Store
    from bot.testing.harness import Harness

    async def scenario():
        store = await Store.open(tmp_path / "s.sqlite3")
        bot = TabletopBot(Settings("", tmp_path / "s.sqlite3", 4242, "INFO"), store)
        h = await Harness.start(bot)
        paths = [r.path for r in h.fake.sent("PUT")]
        await bot.close()
        return paths

    paths = asyncio.run(scenario())
    assert paths == ["/applications/900000000000000001/guilds/4242/commands"]
