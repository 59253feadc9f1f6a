"""What the Discord surface needs of the bot, as a protocol.

``bot.client`` builds the bot out of the pieces of ``bot.ui`` (router, reconciler, relay …), so
the game cogs' shared code cannot import the client without an import circle: it names here
the services it uses instead. ``TabletopBot`` has all of them; a stand-in needs only what it
is asked for."""
from __future__ import annotations

from typing import Protocol

import discord
from discord.http import HTTPClient

from ..config import Settings
from ..domain.tables import TableService
from ..runtime.reviews import Reviewer
from ..runtime.thinkpool import ThinkPool
from ..store import Store
from .dms import DirectMessages
from .reconcile import Reconciler
from .relay import Relay
from .router import Router


class Host(Protocol):
    settings: Settings
    store: Store
    tables: TableService
    #: where a game cog registers, so that clicks reach it
    router: Router
    #: brings a table's messages up to date in the background (``mark``) or now (``sync``)
    reconciler: Reconciler
    #: public lines sent through people's fresh interactions
    relay: Relay
    dms: DirectMessages
    #: computes finished games' reviews in the search processes, one at a time
    reviewer: Reviewer
    #: draws pictures in worker processes (read with getattr: a stand-in may have none)
    render_pool: ThinkPool
    #: Discord's REST calls the library has no object for (a thread from a partial message)
    http: HTTPClient

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None
                                ) -> discord.PartialMessageable: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...


class CogPart:
    """What each part of ``GameCog`` (lobby, turns, publish, refusals, replay) may rely on the
    whole for: the bot it serves and its game. The hooks and helpers it calls on ``self``
    (``describe``, ``cid``, ``mention`` …) are ``GameCog``'s."""
    bot: Host
    game_key: str
    #: catalog key of the "My …" button; None for a game without private information
    private_button: str | None
