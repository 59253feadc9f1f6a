"""/tournament: a server's own Swiss, round robin, knockout or Narabi duplicate, run by the bot
(the commands in ``cog.py``, what the channel is shown in ``surfaces.py``)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .cog import Tournaments
from .surfaces import BUTTON_ID, TournamentButton

if TYPE_CHECKING:
    from bot.client import TabletopBot


async def setup(bot: "TabletopBot") -> None:
    bot.add_dynamic_items(TournamentButton)
    bot.router.accept(re.compile(BUTTON_ID))
    await bot.add_cog(Tournaments(bot))
