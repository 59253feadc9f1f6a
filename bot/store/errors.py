"""What the store raises: refusals a caller answers (a stale click, a lobby already open,
a schema rule) and failures of the database itself."""
from __future__ import annotations


class StoreError(Exception):
    pass


class LobbyExists(StoreError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"channel already has lobby {table_id}")
        self.table_id = table_id


class Conflict(StoreError):
    """A rule of the schema refused the write (a key already taken): nothing was changed."""


class StaleWrite(StoreError):
    """The table moved on since it was read (another click or another process won)."""


class StoreFailure(StoreError):
    """The database could not read or write. ``cause`` is one of CAUSES, for the log line
    and for a short answer to the player; nothing was changed."""

    CAUSES = {
        "full": "the disk (or the database's size limit) is full",
        "read_only": "the database file or its folder is read-only",
        "locked": "another program holds a lock on the database",
        "missing": "the database file was deleted while the bot was running",
        "replaced": "the database file was replaced while the bot was running",
        "io": "the disk reported an input/output error",
        "damaged": "the database file is damaged",
        "closed": "the database is closed (the bot is shutting down)",
        "unreachable": "the database server cannot be reached",
        "other": "an unexpected database error",
    }

    def __init__(self, cause: str, detail: str = "") -> None:
        super().__init__(f"{self.CAUSES.get(cause, cause)}" + (f" ({detail})" if detail else ""))
        self.cause = cause
