"""A game's pictures: drawn off the event loop (in a render worker process, else a thread),
each with its alt text, and not drawn twice from the same view while it is remembered
(``DRAWN``). Mixed into ``GameCog`` through ``PublishMixin``; the lessons and the learning
flows draw through it too."""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

from render.alt import describe

from ..domain.tables import LiveTable
from ..runtime.thinkpool import ThinkFailed, ThinkTimeout
from .host import CogPart
from .pictures import DRAWN, Picture

log = logging.getLogger(__name__)


class DrawingMixin(CogPart):
    async def draw(self, function: str | None, fallback: Callable[..., bytes],
                   *args: Any) -> bytes:
        """A picture drawn off the event loop: by ``function`` (module:name) in a render
        worker process, or by ``fallback`` in a thread when there is none (RENDER_WORKERS=0,
        a renderer replaced in a test or the bench) or the worker failed. A picture already
        drawn by ``function`` from the same ``args`` is not drawn again."""
        if "render" in self.__dict__:
            function = None  # a renderer replaced on the cog (a test's spy): only it draws
        key = DRAWN.key(function, args)
        picture = DRAWN.get(key)
        if picture is None:
            picture = await self._draw_now(function, fallback, *args)
            DRAWN.put(key, picture)
        return picture

    async def _draw_now(self, function: str | None, fallback: Callable[..., bytes],
                        *args: Any) -> bytes:
        pool = getattr(self.bot, "render_pool", None)
        if function is not None and pool is not None:
            try:
                return await pool.call(function, *args)
            except (ThinkFailed, ThinkTimeout) as exc:
                log.warning("render worker failed (%s): drawing in a thread instead", exc)
        return await asyncio.get_running_loop().run_in_executor(None, fallback, *args)

    @property
    def renderer_name(self) -> str | None:
        renderer = type(self).__dict__.get("renderer")
        function = getattr(renderer, "__func__", renderer)
        if function is None or not getattr(function, "__module__", "").startswith("render."):
            return None
        return f"{function.__module__}:{function.__name__}"

    async def picture(self, live: LiveTable, view: dict[str, Any], locale: str,
                      reader: Any = None) -> Picture:
        """``view`` (a public view, perhaps with what a private step highlights) drawn like
        the board, off the event loop, with its alt text in the same language, or in
        ``reader``'s when one person alone sees it in a picture drawn in the table's."""
        png = await self.draw(self.renderer_name, self.render, view, live.names(), locale)
        return Picture(png, self.alt_text(live, view, reader or locale))

    def alt_text(self, live: LiveTable, view: dict[str, Any], locale: Any) -> str:
        """The picture of ``view`` in words (public like the picture: built from the view)."""
        return describe(self.game_key, view, live.names(), locale)

    async def board_png(self, live: LiveTable) -> Picture:
        # Render from a snapshot of the public view, off the event loop.
        return await self.picture(live, self.game(live).public_view(), live.row.locale)
