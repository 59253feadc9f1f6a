"""Where the tests' throwaway PostgreSQL servers keep their files."""
from __future__ import annotations

import os
import subprocess
import sys
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


def test_folders_left_by_killed_runs_are_removed_their_servers_stopped(tmp_path):
    def folder(name: str, *, server: int | None = None, owner: int | None = None,
               age: float = 0.0) -> Path:
        path = tmp_path / name
        (path / "data").mkdir(parents=True)
        if server is not None:
            (path / "data" / "postmaster.pid").write_text(f"{server}\n/some/data\n")
        if owner is not None:
            (path / pgserver.OWNER).write_text(f"{owner}\n")
        if age:
            then = time.time() - age
            os.utime(path, (then, then))
        return path

    ended = subprocess.Popen(["true"])  # a process that has ended: its pid names no one now
    ended.wait()
    # A "server" that is not this test's child (the shell leaves it to the system), so it
    # vanishes once stopped: a stray server of a killed run. Like PostgreSQL it heeds
    # SIGQUIT, which a shell's background job would otherwise ignore.
    ready = tmp_path / "ready"
    server = (f"{sys.executable} -c 'import pathlib, signal, time; "
              "signal.signal(signal.SIGQUIT, signal.SIG_DFL); "
              f"pathlib.Path(\"{ready}\").touch(); time.sleep(60)'")
    stray = int(subprocess.run(["sh", "-c", f"{server} > /dev/null 2>&1 & echo $!"],
                               capture_output=True, text=True, check=True).stdout)
    for _ in range(200):
        if ready.exists():
            break
        time.sleep(0.02)
    me = os.getpid()
    old = 10 * 3600
    server_gone = folder(pgserver.PREFIX + "gone", server=ended.pid, age=old)
    owner_gone = folder(pgserver.PREFIX + "stray", server=stray, owner=ended.pid)
    owner_here = folder(pgserver.PREFIX + "mine", server=ended.pid, owner=me, age=old)
    unowned_running = folder(pgserver.PREFIX + "unowned", server=me, age=old)
    starting = folder(pgserver.PREFIX + "starting")
    never_started = folder(pgserver.PREFIX + "never", age=2 * 3600)
    not_ours = folder("someone-else", age=old)
    removed = pgserver.remove_abandoned(str(tmp_path))
    assert sorted(removed) == sorted(map(str, [server_gone, owner_gone, never_started]))
    assert not any(p.exists() for p in (server_gone, owner_gone, never_started))
    assert all(p.exists() for p in (owner_here, unowned_running, starting, not_ours))
    assert not pgserver._alive(stray)  # the stray server was stopped


def test_a_test_server_names_the_process_that_started_it(pg_server):
    assert (pg_server.folder / pgserver.OWNER).read_text().strip() == str(os.getpid())


def test_the_runs_temporary_files_are_in_memory_when_there_is_room(tmp_path):
    from tests import conftest
    if os.environ.get("TMPDIR") not in (None, conftest.MEMORY_TEMP):
        assert conftest.MEMORY_TEMP is None  # the runner's own choice is kept
    elif pgserver.memory_folder() is not None:
        assert conftest.MEMORY_TEMP is not None
        assert tmp_path.is_relative_to(conftest.MEMORY_TEMP)
        assert tempfile.gettempdir() == conftest.MEMORY_TEMP
    else:
        assert conftest.MEMORY_TEMP is None
