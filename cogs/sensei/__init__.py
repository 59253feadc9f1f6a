"""Sensei: two players, perfect information, stones and a character crossing a 7×7 board."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import SenseiCog

if TYPE_CHECKING:
    from bot.client import TabletopBot


async def setup(bot: "TabletopBot") -> None:
    await bot.add_cog(SenseiCog(bot))
