"""`python -m bot play`: the real bot against the built-in Discord stand-in, SQLite in a
temporary folder (or ``--data``), and the page at http://127.0.0.1:PORT. No token, no .env."""
from __future__ import annotations

import argparse
import asyncio
import shutil
import signal
import sys
import tempfile
import webbrowser
from pathlib import Path

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8080, help="the page's port (default 8080; 0: any free port)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1, this machine only)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--data", metavar="DIR",
                        help="keep the games in DIR (default: a temporary folder, deleted at exit)")
    parser.add_argument("--ai-pause", type=float, default=1.0, metavar="SECONDS",
                        help="an AI player waits this long before moving (default 1)")


def settings_for(database: Path, ai_pause: float = 1.0, ai_priority: str = "low",
                 activity: bool = True):
    # Low, not idle: on a laptop the browser and everything else keep the CPU busy enough to
    # starve an idle-priority search, and the AI would then play random moves.
    from bot.config import Settings
    from bot.testing.fake_apps import CLIENT_SECRET
    # The Activity on any free port of this machine, signing in against the stand-in's
    # application (whose client secret this is).
    # Everyone in the playground signs in from this machine's one address: it gets the whole
    # door's share, not one person's.
    extra = dict(activity_port=0, discord_client_secret=CLIENT_SECRET,
                 activity_signin_per_address=60) if activity else {}
    return Settings(token="", database_path=database, dev_guild_id=None, log_level="WARNING",
                    ai_workers=1, render_workers=0, ai_pause_seconds=ai_pause,
                    ai_priority=ai_priority, **extra)


async def play(args: argparse.Namespace) -> int:
    from bot.store import Store

    from .host import Playground
    from .server import bound_port, serve
    from .server import stop as shut

    temporary = args.data is None
    folder = Path(tempfile.mkdtemp(prefix="tabletop-play-")) if temporary else Path(args.data).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        settings = settings_for(folder / "tabletop.sqlite3", args.ai_pause)
        store = await Store.open(settings.database)
        playground = await Playground.start(settings, store)
        try:
            runner = await serve(playground, args.host, args.port)
        except OSError as exc:
            await playground.close()
            print(f"error: cannot listen on {args.host}:{args.port} ({exc.strerror}); "
                  f"try another --port.", file=sys.stderr)
            return 2
        host = args.host if args.host not in ("0.0.0.0", "::") else "127.0.0.1"
        url = f"http://{'[' + host + ']' if ':' in host else host}:{bound_port(runner)}/"
        if args.host not in LOOPBACK:
            print(f"warning: listening on {args.host}: anyone who can reach this machine can "
                  f"open the playground and play as anyone.", file=sys.stderr)
        print(f"Playground ready: {url}  (games in {folder}{', deleted at exit' if temporary else ''})")
        print("Open the page, type /sensei start ai:hard, and play. Ctrl-C stops.", flush=True)
        if not args.no_browser:
            webbrowser.open(url)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):
                pass
        await stop.wait()
        await shut(playground, runner)
        return 0
    finally:
        if temporary:
            shutil.rmtree(folder, ignore_errors=True)


def main(args: argparse.Namespace) -> int:
    from bot.logs import configure
    configure("WARNING")
    try:
        return asyncio.run(play(args))
    except KeyboardInterrupt:
        return 0
