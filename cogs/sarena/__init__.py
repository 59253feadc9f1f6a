"""Sàréná: 2–4 players move and flip piles of two-faced chips; each owns one secret colour."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import SarenaCog

if TYPE_CHECKING:
    from bot.client import TabletopBot


async def setup(bot: "TabletopBot") -> None:
    await bot.add_cog(SarenaCog(bot))
