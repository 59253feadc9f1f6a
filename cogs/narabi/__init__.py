"""Narabi: cooperative, 3–5 players, secret conditions under public stones."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cog import NarabiCog

if TYPE_CHECKING:
    from bot.client import TabletopBot


async def setup(bot: "TabletopBot") -> None:
    await bot.add_cog(NarabiCog(bot))
