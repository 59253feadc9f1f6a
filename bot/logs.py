"""Logging set-up: the bot's own loggers at LOG_LEVEL, chatty libraries capped.

discord.py logs every HTTP payload at DEBUG (ephemeral replies and DMs carry private cards and
colours) and aiosqlite logs every statement with its parameters (game states): those loggers
never go below INFO, whatever LOG_LEVEL says, so no secret reaches the log at any level.
"""
from __future__ import annotations

import logging

OWN = ("bot", "cogs", "render", "__main__")
#: libraries whose DEBUG output carries message payloads or SQL parameters
CAPPED = ("discord", "aiosqlite", "asyncpg", "asyncio")
CAP = logging.INFO


def configure(level: str | int) -> None:
    level = logging.getLevelName(level) if isinstance(level, str) else level
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)
    for name in OWN:
        logging.getLogger(name).setLevel(level)
    for name in CAPPED:
        logging.getLogger(name).setLevel(max(level, CAP))
    # discord.py warns at start-up that voice needs PyNaCl: this bot never uses voice.
    logging.getLogger("discord.client").setLevel(max(level, logging.ERROR))
