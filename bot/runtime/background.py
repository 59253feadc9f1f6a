"""One task in the background for the life of the bot (upkeep, reviews, the heap's timing):
started once, cancelled and awaited on stop, so a stop never leaves it half-running."""
from __future__ import annotations

import asyncio


class BackgroundLoop:
    #: the task's name, as asyncio and the logs show it
    task_name = "tabletop-background"
    _task: asyncio.Task | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name=self.task_name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _loop(self) -> None:
        raise NotImplementedError
