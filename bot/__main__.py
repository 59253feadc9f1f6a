"""`python -m bot` runs the bot; `python -m bot play` tries it in a browser without Discord;
`python -m bot bench` measures it; `--help` lists every subcommand."""
from __future__ import annotations

import argparse
import asyncio
import signal
import sys

from .config import ConfigError, Settings

EXIT_CONFIG = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Tabletop bot: Narabi, Sensei and Sàréná on Discord.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("run", help="connect to Discord and serve games (the default)")
    bench = sub.add_parser("bench", help="measure interaction, store, restore and per-game speed")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--quick", action="store_true", help="smaller samples (CI smoke run)")
    bench.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both",
                       help="the storage backends to measure side by side (postgres starts a "
                            "throwaway PostgreSQL server, fsync on; default: both)")
    sub.add_parser("check", help="validate the configuration and the database, then exit")
    migrate = sub.add_parser(
        "migrate-db", help="copy every table, game and history row to another database",
        description="Copy a whole database, e.g. from SQLite to PostgreSQL. Stop the bot "
                    "first; running it again copies only what is missing.")
    migrate.add_argument("--from", dest="source", required=True, metavar="URL",
                         help="sqlite:///path/to/tabletop.sqlite3 or postgresql://…")
    migrate.add_argument("--to", dest="target", required=True, metavar="URL",
                         help="postgresql://user:password@host/database or sqlite:///…")
    migrate.add_argument("--quiet", action="store_true", help="no progress bar")
    from .tools.arena import add_arguments
    add_arguments(sub.add_parser("arena", help="play seeded AI-against-AI games and print win rates"))
    from .playground.run import add_arguments as play_arguments
    play_arguments(sub.add_parser(
        "play", help="try the bot in a browser: a local Discord-like page, no token needed",
        description="Run the real bot against the built-in Discord stand-in and serve a page "
                    "that works like a Discord channel, at http://127.0.0.1:PORT."))
    return parser


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_CONFIG


async def _open_store(settings: Settings):
    from .store import Store
    return await Store.open(settings.database, scope=settings.scope,
                            pool_size=settings.database_pool_size)


async def _run(settings: Settings) -> int:
    import discord

    from .client import TabletopBot

    store = await _open_store(settings)
    bot = TabletopBot(settings, store, manage_heap=True)
    stop_on_signals(bot)
    try:
        async with bot:
            await bot.start(settings.token)
        if bot.closing:  # stopped by a signal: its shutdown ends with the store's last write
            try:
                await asyncio.wait_for(bot.stopped.wait(), timeout=60)
            except asyncio.TimeoutError:
                print("warning: the shutdown did not finish within a minute", file=sys.stderr)
    except discord.LoginFailure:
        return _fail("Discord rejected DISCORD_TOKEN: reset the token on the Bot page of the "
                     "Developer Portal and paste the new one into .env.")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the requested gateway intents.")
    except (OSError, discord.GatewayNotFound) as exc:
        print(f"error: cannot reach Discord ({exc}); check the network and try again.",
              file=sys.stderr)
        return 1
    return 0


def stop_on_signals(bot) -> None:
    """SIGINT (Ctrl-C) and SIGTERM (a host stopping the worker) shut the bot down cleanly:
    interactions under way finish, the last write is committed, the exit code is 0."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.shutdown()))
        except (NotImplementedError, RuntimeError):  # not on this platform or thread
            pass


async def _check(settings: Settings) -> int:
    store = await _open_store(settings)
    await store.close()
    print(f"ok: configuration valid, database {store.path or store.backend.url} ready")
    return 0


def _migrate_db(args: argparse.Namespace) -> int:
    from .store.transfer import migrate_db, report
    try:
        counts = asyncio.run(migrate_db(args.source, args.target, progress=not args.quiet))
    except ConfigError as exc:
        return _fail(str(exc))
    print(report(counts))
    print(f"done: {sum(c.copied for c in counts)} rows copied, "
          f"{sum(c.already for c in counts)} were already there.")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command or "run"
    if command == "arena":
        from .tools.arena import main as arena_main
        return arena_main(args)
    if command == "bench":
        from .tools.bench import main as bench_main
        return bench_main(json_output=args.json, quick=args.quick, db=args.db)
    if command == "migrate-db":
        return _migrate_db(args)
    if command == "play":
        from .playground.run import main as play_main
        return play_main(args)
    from dotenv import find_dotenv, load_dotenv
    # .env of the directory the bot is started from, not of the installed package
    load_dotenv(find_dotenv(usecwd=True))
    try:
        settings = Settings.from_env()
        from .logs import configure
        configure(settings.log_level)
        return asyncio.run(_check(settings) if command == "check" else _run(settings))
    except ConfigError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
