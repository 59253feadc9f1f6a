"""The Discord client: opens the store, restores tables, loads the game cogs, syncs commands,
repairs what fell behind, and shuts down without dropping what is under way."""
from __future__ import annotations

import asyncio
import importlib.util
import logging
import pkgutil
from contextlib import contextmanager
from typing import Any, Iterator

import discord
from discord import app_commands
from discord.ext import commands

from . import activity
from .runtime.autoplay import AutoPlayer
from .runtime.console import Console
from .config import AI_PRIORITIES, Settings
from .games.registry import games
from .runtime.heap import QuietCollector
from .i18n import t
from .store import Store, StoreFailure
from .domain.tables import LiveTable, TableService
from .runtime.reviews import Reviewer, has_review, review_module
from .runtime.thinkpool import ThinkPool
from .runtime.turnclock import TurnClock
from .ui.budget import URGENT, Budget, pace
from .ui import launch
from .ui.dms import DirectMessages
from .ui import places
from .ui.reconcile import Reconciler
from .ui.relay import Relay
from .ui.replies import ephemeral
from .ui.router import Router
from .ui.translator import CatalogTranslator
from .runtime.upkeep import Upkeep

log = logging.getLogger(__name__)

#: seconds a shutdown waits for the interactions under way
SHUTDOWN_GRACE = 5.0


def extensions() -> list[str]:
    """Every module or package under cogs/ that defines a ``setup``: each is one extension.

    The registry's cog of each game is among them; whatever else is under cogs/ holds commands
    that are not about one game."""
    # Found by name, not imported: the cogs sit above the client and import it.
    folders = importlib.util.find_spec("cogs").submodule_search_locations
    found = {f"cogs.{m.name}" for m in pkgutil.iter_modules(folders)
             if not m.name.startswith("_")}
    found.update(game.cog for game in games().values() if game.cog)
    return sorted(found)


def refused_sync_text(exc: discord.HTTPException, commands: list[Any]) -> str:
    """Discord's ``errors`` tree of a refused bulk overwrite in one line, each entry named by
    command and option: ``command /replay, option game_id: max_value: <Discord's message>``.
    A top-level index is the command's position in the list sent (``commands``, in order)."""
    errors = getattr(exc, "_errors", None)
    if not errors:
        return " ".join(str(exc.text or exc).split()) or f"HTTP {exc.status}"
    found: list[str] = []

    def messages(node: Any) -> str:
        return " / ".join(str(e.get("message") or e.get("code") or "?")
                          for e in node.get("_errors") or ())

    def fields(node: Any, where: str, field: str) -> None:
        # a field's own errors, or deeper (name_localizations.de, choices.0.name …)
        if not isinstance(node, dict):
            return
        if node.get("_errors"):
            found.append(f"{where}: {field}: {messages(node)}" if field else f"{where}: {messages(node)}")
        for key, inner in node.items():
            if key != "_errors":
                fields(inner, where, f"{field}.{key}" if field else key)

    def walk(node: Any, obj: Any, where: str) -> None:
        for key, inner in node.items():
            if key == "options" and isinstance(inner, dict):
                children = list(getattr(obj, "commands", None) or getattr(obj, "parameters", None) or ())
                for index, child_node in inner.items():
                    child = children[int(index)] if index.isdigit() and int(index) < len(children) else None
                    if isinstance(child, (app_commands.Command, app_commands.Group)):
                        walk(child_node, child, f"command /{child.qualified_name}")
                    elif child is not None:
                        walk(child_node, child, f"{where}, option {child.display_name}")
                    else:
                        fields(child_node, where, f"options.{index}")
            elif key == "_errors":
                found.append(f"{where}: {messages(node)}")
            else:
                fields(inner, where, key)

    for index, inner in errors.items():
        command = commands[int(index)] if index.isdigit() and int(index) < len(commands) else None
        if command is None:
            fields(inner, "commands", index)
        else:
            walk(inner, command, f"command /{command.qualified_name}")
    return " ".join("; ".join(found).split())


class Tree(app_commands.CommandTree):
    """Every slash command is counted while it runs and answered whatever goes wrong."""

    async def _call(self, interaction: discord.Interaction) -> None:
        with self.client.in_flight(interaction):  # type: ignore[attr-defined]
            await super()._call(interaction)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if self.client.closing:  # type: ignore[attr-defined]
            return False
        return await self.where_it_works(interaction)

    @staticmethod
    async def where_it_works(interaction: discord.Interaction) -> bool:
        """A server's own command (settings, tournaments, leaderboard…) used where no server
        has added the bot (a group DM, a DM, a server reached only through a person's install)
        answers so, in a sentence, and goes no further."""
        if not places.server_only(interaction.command) or places.in_server_with_bot(interaction):
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await ephemeral(interaction, "⚠️ " + t("error.needs_server", interaction.locale))
        return False

    async def on_error(self, interaction: discord.Interaction,
                       error: app_commands.AppCommandError, /) -> None:
        cause = getattr(error, "original", error)
        if self.client.closing:  # type: ignore[attr-defined]
            key = "error.restarting"
        elif isinstance(error, app_commands.NoPrivateMessage) or (
                isinstance(error, app_commands.TransformerError) and interaction.guild_id is None):
            key = "error.needs_server"
        elif isinstance(cause, StoreFailure):
            key = "error.store_failed"
        else:
            name = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s failed", name, exc_info=cause)
            key = "error.internal"
        try:
            await ephemeral(interaction, "⚠️ " + t(key, interaction.locale))
        except discord.HTTPException as exc:
            log.warning("could not answer a failed command: %s", exc.status)


class TabletopBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, store: Store, *, sync_commands: bool = True,
                 manage_heap: bool = False) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel and thread objects for the game messages
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, tree_cls=Tree,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                  users=True),
                         shard_count=settings.shard_count,
                         shard_ids=list(settings.shard_ids) if settings.shard_ids else None)
        self.settings = settings
        self.store = store
        #: this process's share of the token's 50 calls a second (see bot/ui/budget.py)
        self.budget = Budget(settings.rest_per_second)
        pace(self.http, self.budget)
        #: each person's move, whose line goes out through their own interaction, uncounted
        self.relay = Relay(lambda: store.clock())  # (a test may set the store's clock)
        #: DM channels opened once, closed DMs left alone for an hour
        self.dms = DirectMessages(self, store.clock)
        store.rated_per_day = settings.rated_per_day
        store.scope = settings.scope
        self.tables = TableService(store)
        self.router = Router(self.tables)
        self.reconciler = Reconciler(self)
        self.upkeep = Upkeep(store, self.tables, settings, self.reconciler.mark, store.clock)
        self.turnclock = TurnClock(self.tables, on_change=self.reconciler.mark)
        nice, idle = AI_PRIORITIES[settings.ai_priority]
        found = games().values()
        self.pool = ThinkPool(settings.ai_workers, nice=nice, idle=idle, preload=[
            "bot.games.ai", "bot.runtime.puzzles", "bot.tournaments.rounds",
            *(e.ai for e in found if e.ai),
            *(review_module(e.key) for e in found if has_review(e.key))])
        # Pictures are drawn in their own processes too, at normal priority: a click waits for
        # its board, and Pillow's drawing would otherwise hold the event loop's interpreter.
        self.render_pool = ThinkPool(settings.render_workers, nice=0, idle=False,
                                     preload=[e.renderer for e in found if e.renderer])
        #: finished games' reviews, computed in the search processes without delaying them
        self.reviewer = Reviewer(store, self.pool)
        self.autoplayer = AutoPlayer(self.tables, self.pool, pause=settings.ai_pause_seconds,
                                     think_limit=settings.ai_think_limit,
                                     prepare=self._ai_prepare, on_commit=self.reconciler.mark)
        self.restored = 0
        self.closing = False
        #: set once ``shutdown`` has closed everything (what ``python -m bot`` waits for)
        self.stopped = asyncio.Event()
        self._sync = sync_commands
        #: the slash commands were sent to Discord (taken or refused), or need not be
        self.commands_synced = False
        #: the Activity's web server when configured (bot/activity), and what starts it with
        #: (the stand-in's HTTP session, the playground's mock flag)
        self.activity_server: Any = None
        self.activity_options: dict[str, Any] = {}
        #: what Discord refused of the last command sync (one line), None when it took them
        self.sync_refused: str | None = None
        self._in_flight = 0
        #: set while no interaction is being handled; background repairs wait for it (briefly)
        self.clicks_settled = asyncio.Event()
        self.clicks_settled.set()
        self._repaired_at_start = False
        # The process's collector is the bot's only when the bot is the process (not in tests).
        self.heap = QuietCollector(self.clicks_settled) if manage_heap else None
        #: ``/metrics`` and ``/healthz`` for the operator (METRICS_PORT; None: not served)
        self.console = None if settings.metrics_port is None else \
            Console(self, settings.metrics_host, settings.metrics_port)

    async def setup_hook(self) -> None:
        if self.console is not None:
            await self.console.start()
        loop = asyncio.get_running_loop()
        warming = [loop.run_in_executor(None, pool.warm) for pool in (self.pool, self.render_pool)]

        async def restore() -> None:
            self.restored = await self.tables.restore()

        clocks = await self.turnclock.load(restore())
        if clocks:
            log.info("%d turn clocks running", clocks)
        await self.tree.set_translator(CatalogTranslator())
        for name in extensions():
            await self.add_extension(name)
        if self._sync:
            await self.sync_commands()
        self.commands_synced = True
        self.check_installs(self.application)
        await self.repair_all()
        resumed = await self.autoplayer.resume_all()
        if resumed:
            log.info("%d tables with AI players resumed", resumed)
        await self.reviewer.resume()
        self.reviewer.start()
        self.upkeep.start()
        self.turnclock.start()
        if self.heap is not None:
            self.heap.start()  # after the restore: what it loaded is the long-lived part
        self.activity_server = await activity.start(self, self.settings, **self.activity_options)
        await asyncio.gather(*warming)

    async def add_extension(self, name: str) -> None:
        """The cogs of extension ``name`` (a module under cogs/ with a ``setup``), imported once
        per process as any module is. discord.py's ``load_extension`` runs the module's code
        again at every load (and its ``close`` forgets it): a bot is started once per process,
        but the test suite starts hundreds in one, and that was two thirds of a start's CPU."""
        await importlib.import_module(name).setup(self)

    async def _ai_prepare(self, live: LiveTable, seat: int, level: str, view: dict[str, Any],
                          think: Any) -> dict[str, Any] | float:
        # A game may add public facts the rules do not keep (Narabi's questions and answers).
        cog = self.router.cog(live.row.game)
        if cog is None:
            return view
        return await cog.ai_prepare(live, seat, level, view, think)

    async def repair_all(self) -> int:
        """Queue every table whose messages are behind the store (after a stop at any moment:
        a board one turn behind, a start half done, a log line or a private message unsent)."""
        if self._repaired_at_start:
            return 0
        self._repaired_at_start = True
        behind = await self.store.tables_behind()
        self.reconciler.mark_all(behind)
        if behind:
            log.info("%d tables have messages to bring up to date", len(behind))
        return len(behind)

    @staticmethod
    def check_installs(application: Any) -> None:
        """Say in the log when the application cannot be installed to people's accounts (read
        from what the login fetched anyway: no call of its own)."""
        warning = places.install_warning(application)
        if warning is not None:
            log.warning(warning)

    async def sync_commands(self) -> None:
        """Send Discord the slash commands. When Discord refuses them it keeps the ones it had:
        the bot goes on with those, says in one log line which command and field Discord named,
        and ``/games`` tells members with Manage Server (``sync_refused``)."""
        guild_id = self.settings.dev_guild_id
        guild = discord.Object(guild_id) if guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        try:
            synced = await (self.tree.sync(guild=guild) if guild is not None else launch.sync_global(
                self.tree, self.http, self.application_id or 0, activity=launch.enabled(self)))
        except discord.HTTPException as exc:
            self.sync_refused = refused_sync_text(exc, self.tree.get_commands(guild=guild))
            log.error("Discord refused the slash commands (HTTP %s, code %s); the bot keeps "
                      "running with the commands Discord already has: %s", exc.status, exc.code,
                      self.sync_refused)
            return
        self.sync_refused = None
        if guild is not None:
            log.info("synced %d commands to server %s", len(synced), guild_id)
        else:
            log.info("synced %d global commands (may take up to an hour to appear)", len(synced))

    @property
    def in_flight_count(self) -> int:
        """Interactions being answered right now."""
        return self._in_flight

    @contextmanager
    def in_flight(self, interaction: discord.Interaction | None = None) -> Iterator[None]:
        """While ``interaction``'s handler runs (a move's line waits for its answer)."""
        self._in_flight += 1
        self.clicks_settled.clear()
        urgent = URGENT.set(True)  # calls made while answering go ahead of background work
        if interaction is not None:
            self.relay.began(interaction)
        try:
            yield
        finally:
            URGENT.reset(urgent)
            if interaction is not None:
                for table_id in self.relay.ended(interaction):
                    self.reconciler.mark(table_id)
            self._in_flight -= 1
            if not self._in_flight:
                self.clicks_settled.set()
            if self.heap is not None:
                self.heap.after_click()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.router.on_component(interaction)

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("ready as %s (%s) in %d servers on shards %s of %s; %d unfinished tables "
                 "restored", self.user, self.user.id, len(self.guilds),
                 ",".join(map(str, self.shard_ids or [])) or "all", self.shard_count,
                 self.restored)

    async def shutdown(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Stop taking interactions, let those under way finish (``grace`` seconds at most),
        stop the background work, then close Discord and, after its last write, the store."""
        if self.closing:
            return
        self.closing = True
        log.info("shutting down: finishing %d interactions under way", self._in_flight)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while self._in_flight and loop.time() < deadline:
            await asyncio.sleep(0.05)
        await self.upkeep.stop()
        await self.turnclock.stop()
        await self.autoplayer.stop()
        await self.reviewer.stop()
        await self.reconciler.stop()
        await self.close()
        log.info("stopped cleanly")
        self.stopped.set()

    async def close(self) -> None:
        self.closing = True
        try:
            await activity.stop(self.activity_server)
            self.activity_server = None
            await self.upkeep.stop()
            await self.turnclock.stop()
            await self.autoplayer.stop()
            await self.reviewer.stop()
            await self.reconciler.stop(timeout=0)
            if self.heap is not None:
                await self.heap.stop()
            await self.pool.close()  # after the repairs: one may be waiting for a search
            await self.render_pool.close()
            await super().close()
        finally:
            await self.store.close()
            if self.console is not None:
                await self.console.stop()
