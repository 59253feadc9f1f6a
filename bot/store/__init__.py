"""Persistence: one interface (``Store``) over SQLite (the embedded default) and PostgreSQL
(shared by several bot processes)."""
from .core import (DEFAULT_TURN_LIMIT, EVERYTHING, UNFINISHED, ShardScope, backend_kind,
                   sqlite_path)
from .errors import Conflict, LobbyExists, StaleWrite, StoreError, StoreFailure
from .rows import SeatRow, TableRow, pack_log, unpack_log
from .schema import MIGRATIONS
from .sqlite import BUSY_TIMEOUT_MS, classify
from .store import Store

__all__ = ["Store", "ShardScope", "EVERYTHING", "UNFINISHED", "DEFAULT_TURN_LIMIT", "Conflict",
           "LobbyExists", "StaleWrite", "StoreError", "StoreFailure", "SeatRow", "TableRow",
           "pack_log", "unpack_log", "MIGRATIONS", "BUSY_TIMEOUT_MS", "classify", "backend_kind",
           "sqlite_path"]
