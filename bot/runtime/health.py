"""Is this process ready to serve? The gateway connected, the store open, the commands synced.

Liveness needs nothing here: a process that answers ``/healthz`` at all is alive. Readiness
follows discord.py's gateway events: ready once every shard has connected and READY came,
not ready while a shard is disconnected (until it resumes or reconnects).
"""
from __future__ import annotations

from typing import Any


class Health:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        #: READY came (discord.py's ``on_ready``: every shard of this process connected)
        self.gateway_ready = False
        #: shards whose connection dropped and has not come back
        self.down: set[int] = set()

    def listen(self) -> None:
        bot = self.bot
        bot.add_listener(self._ready, "on_ready")
        bot.add_listener(self._shard_up, "on_shard_connect")
        bot.add_listener(self._shard_up, "on_shard_resumed")
        bot.add_listener(self._shard_up, "on_shard_ready")
        bot.add_listener(self._shard_down, "on_shard_disconnect")

    async def _ready(self) -> None:
        self.gateway_ready = True
        self.down.clear()

    async def _shard_up(self, shard_id: int) -> None:
        self.down.discard(shard_id)

    async def _shard_down(self, shard_id: int) -> None:
        self.down.add(shard_id)

    def not_ready(self) -> str | None:
        """Why the process is not ready (a short sentence), or None when it is."""
        bot = self.bot
        if getattr(bot, "closing", False) or bot.is_closed():
            return "shutting down"
        store = bot.store
        if store.closed:
            return "store closed"
        if store.broken:
            return f"store unusable ({store.broken})"
        if not getattr(bot, "commands_synced", False):
            return "starting: commands not synced yet"
        if not self.gateway_ready:
            return "gateway not connected"
        if self.down:
            return "gateway disconnected on shards " + ",".join(map(str, sorted(self.down)))
        return None
