"""Several bot processes on one PostgreSQL database: a table clicked from both at once moves
once; a process killed mid-game leaves the other unaffected and resumes its tables."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


class Child:
    def __init__(self, url: str, count: int, shard: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.bot.process_child", url, str(count), str(shard)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.ready = self.read()
        assert self.ready.get("ready"), self.ready

    def read(self) -> dict:
        line = self.process.stdout.readline()  # type: ignore[union-attr]
        if not line:
            raise AssertionError("the bot process ended: "
                                 + self.process.stderr.read()[-3000:])  # type: ignore[union-attr]
        return json.loads(line)

    def send(self, **command) -> None:
        self.process.stdin.write(json.dumps(command) + "\n")  # type: ignore[union-attr]
        self.process.stdin.flush()  # type: ignore[union-attr]

    def ask(self, **command) -> dict:
        self.send(**command)
        return self.read()

    def play(self, table: int, moves: int) -> tuple[list[dict], dict]:
        self.send(cmd="play", table=table, moves=moves)
        steps = []
        while "done" not in (line := self.read()):
            steps.append(line)
        return steps, line

    def quit(self) -> None:
        if self.process.poll() is None:
            self.send(cmd="quit")
            self.process.wait(timeout=30)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()  # type: ignore[union-attr]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()  # type: ignore[union-attr]


@pytest.mark.slow
def test_one_table_clicked_50_times_from_two_processes_moves_once(postgres_url):
    a, b = Child(postgres_url, 1, 0), None
    try:
        table = a.ask(cmd="open")["table"]
        b = Child(postgres_url, 1, 0)
        assert table in b.ready["restored"]
        # both processes fire 50 clicks of the same move at the same moment
        a.send(cmd="burst", table=table, n=50)
        b.send(cmd="burst", table=table, n=50)
        replies = a.read()["replies"] + b.read()["replies"]
        assert len(replies) == 100 and all(replies), replies
        played = [r for r in replies if r.startswith("Done")]
        assert len(played) == 1, played
        assert a.ask(cmd="version", table=table)["version"] == 1
        # B plays on; A, whose copy is now behind, is refused as stale once, re-reads the
        # stored truth and plays the next move
        steps, end = b.play(table, 1)
        assert steps[0]["reply"].startswith("Done") and end["version"] == 2
        steps, end = a.play(table, 2)
        assert "earlier turn" in steps[0]["reply"] and steps[1]["reply"].startswith("Done")
        assert end["version"] == 3
    finally:
        a.quit()
        if b is not None:
            b.quit()


@pytest.mark.slow
def test_a_killed_process_leaves_the_other_alone_and_resumes_its_tables(postgres_url):
    a, b = Child(postgres_url, 2, 0), Child(postgres_url, 2, 1)
    try:
        mine = a.ask(cmd="open")["table"]
        theirs = b.ask(cmd="open")["table"]
        a.play(mine, 2)
        # killed mid-game, while clicks are being answered
        a.send(cmd="play", table=mine, moves=30)
        acked = a.read()
        assert acked["reply"].startswith("Done")
        a.kill()
        # the other process is unaffected: its table plays on
        steps, end = b.play(theirs, 5)
        assert len(steps) == 5 and all(s["reply"].startswith("Done") for s in steps)
        # restarted, the killed process restores its own table (not the other's) and resumes
        a = Child(postgres_url, 2, 0)
        assert mine in a.ready["restored"] and theirs not in a.ready["restored"]
        assert b.ask(cmd="version", table=theirs)["version"] == end["version"]
        version = a.ask(cmd="version", table=mine)["version"]
        assert version >= acked["version"]  # no acknowledged move lost
        steps, end = a.play(mine, 2)
        assert all(s["reply"].startswith("Done") for s in steps) and end["version"] == version + 2
    finally:
        a.quit()
        b.quit()
