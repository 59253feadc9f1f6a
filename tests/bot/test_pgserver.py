"""Where the tests' throwaway PostgreSQL servers keep their files."""
from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path

from bot.testing import pgserver
from bot.testing.pgserver import TempPostgres


def test_a_test_server_keeps_its_files_in_memory_when_there_is_room(pg_server):
    room = os.statvfs(pgserver.RAM_FOLDER)
    in_memory = room.f_bavail * room.f_frsize >= pgserver.RAM_ROOM
    assert pg_server.folder.parent == Path(pgserver.RAM_FOLDER if in_memory
                                           else tempfile.gettempdir())
    assert (pg_server.folder / "data" / "PG_VERSION").is_file()


def test_the_bench_server_and_a_machine_without_the_folder_keep_them_on_disk(monkeypatch):
    assert TempPostgres(durable=True)._parent() is None
    monkeypatch.setattr(pgserver, "RAM_FOLDER", "/no/such/folder")
    assert TempPostgres()._parent() is None
    monkeypatch.setattr(pgserver, "RAM_FOLDER", "/")
    monkeypatch.setattr(pgserver, "RAM_ROOM", 1 << 62)  # more room than any disk has
    assert TempPostgres()._parent() is None


def test_folders_left_by_killed_runs_are_removed_and_running_ones_kept(tmp_path):
    def folder(name: str, pid: int | None = None, age: float = 0.0) -> Path:
        path = tmp_path / name
        (path / "data").mkdir(parents=True)
        if pid is not None:
            (path / "data" / "postmaster.pid").write_text(f"{pid}\n/some/data\n")
        if age:
            then = time.time() - age
            os.utime(path, (then, then))
        return path

    dead = subprocess.Popen(["true"])  # a process that has ended: its pid names no one now
    dead.wait()
    server_gone = folder(pgserver.PREFIX + "gone", pid=dead.pid)
    running = folder(pgserver.PREFIX + "running", pid=os.getpid(), age=10 * 3600)
    starting = folder(pgserver.PREFIX + "starting")
    never_started = folder(pgserver.PREFIX + "never", age=2 * 3600)
    not_ours = folder("someone-else", age=10 * 3600)
    removed = pgserver.remove_abandoned(str(tmp_path))
    assert sorted(removed) == sorted([str(server_gone), str(never_started)])
    assert not server_gone.exists() and not never_started.exists()
    assert running.exists() and starting.exists() and not_ours.exists()
