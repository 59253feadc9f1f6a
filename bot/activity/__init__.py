"""The Activity: each table's board in a web page Discord shows beside the thread (an
Embedded App), served by the bot's own aiohttp server. Another client of the same tables:
it talks to the domain layer, never to the cogs. See API.md for the page's contract."""
from __future__ import annotations

from typing import Any

from ..config import Settings


async def start(bot: Any, settings: Settings, **options: Any) -> Any:
    """The running Activity server, or None when it is not configured."""
    if not settings.activity_enabled:
        return None
    from .server import ActivityServer
    server = ActivityServer(bot, settings, **options)
    await server.start()
    return server


async def stop(server: Any) -> None:
    if server is not None:
        await server.stop()
