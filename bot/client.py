"""The Discord client: opens the store, restores tables, loads the game cogs, syncs commands."""
from __future__ import annotations

import logging
import pkgutil

import discord
from discord.ext import commands

from .config import Settings
from .ui.translator import CatalogTranslator
from .store import Store
from .tables import TableService
from .ui.router import Router
from .ui.routing import Routed

log = logging.getLogger(__name__)


def extensions() -> list[str]:
    """Every module or package under cogs/ that defines a ``setup``: each is one extension."""
    import cogs

    return [f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__)
            if not m.name.startswith("_")]


class TabletopBot(commands.Bot):
    def __init__(self, settings: Settings, store: Store, *, sync_commands: bool = True) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel and thread objects for the game messages
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                  users=True))
        self.settings = settings
        self.store = store
        self.tables = TableService(store)
        self.router = Router()
        self.restored = 0
        self._sync = sync_commands

    async def setup_hook(self) -> None:
        self.restored = await self.tables.restore()
        self.add_dynamic_items(Routed)
        await self.tree.set_translator(CatalogTranslator())
        for name in extensions():
            await self.load_extension(name)
        if self._sync:
            await self.sync_commands()

    async def sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (may take up to an hour to appear)", len(synced))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.router.on_unrouted(interaction)

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("ready as %s (%s) in %d servers; %d unfinished tables restored",
                 self.user, self.user.id, len(self.guilds), self.restored)

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            await self.store.close()
