"""Problems a server owner fixes: a setting, a path, a database the bot cannot use.

Below every other module of the bot (it imports none), so the store and the configuration can
both raise them.
"""
from __future__ import annotations

import os
from pathlib import Path


class ConfigError(Exception):
    """A configuration problem, worded as what the server owner should fix."""


def check_database_path(path: Path) -> None:
    """Fail early, with a sentence, when the database file cannot be created or written."""
    if path.exists() and path.is_dir():
        raise ConfigError(f"DATABASE_PATH {path} is a directory: point it at a file, "
                          f"e.g. {path / 'tabletop.sqlite3'}.")
    parent = path.parent if str(path.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create the folder for DATABASE_PATH {path}: {exc.strerror}. "
                          "Choose a writable location.") from None
    target = path if path.exists() else parent
    if not os.access(target, os.W_OK):
        raise ConfigError(f"DATABASE_PATH {path} is not writable by this user: fix the "
                          "permissions or choose another path.")
