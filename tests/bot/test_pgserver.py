"""Where the tests' throwaway PostgreSQL servers keep their files."""
from __future__ import annotations

import os
import tempfile
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
