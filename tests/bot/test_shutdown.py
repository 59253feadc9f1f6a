"""Ctrl-C or SIGTERM: interactions in flight finish, the store closes after the last write,
exit code 0, no traceback."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_sigint_stops_cleanly_after_the_click_in_flight(tmp_path):
    db = tmp_path / "bot.sqlite3"
    done = subprocess.run([sys.executable, "-m", "tests.bot.shutdown_child", str(db)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Session is closed" not in done.stderr, done.stderr
    assert "stopped cleanly" in done.stderr
    assert "closed version=1" in done.stdout
    with sqlite3.connect(db) as conn:  # the click in flight was committed before the close
        assert conn.execute("SELECT version FROM game_tables").fetchone() == (1,)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
