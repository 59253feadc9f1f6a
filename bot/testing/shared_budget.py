"""Several processes, one bot token: the stand-in behind a real HTTP port on loopback, and
bot processes that send their calls to it, each pacing itself with its share of the budget.

``python -m bot.testing.shared_budget URL CALLS PROCESSES`` is one such process: a bot client
whose REST goes to URL through a real aiohttp session, sending CALLS messages to as many
channels (one each, so no route bucket slows it) as fast as its budget lets it, its share
being that of one of PROCESSES processes. ``run_processes`` starts the stand-in and the
processes and reports what Discord saw.
"""
from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
from pathlib import Path
from typing import Any

from aiohttp import web

from .discord_spec import SPEC
from .fake_discord import FakeDiscord

API = "/api/v10"


def app_for(fake: FakeDiscord) -> web.Application:
    async def answer(request: web.Request) -> web.Response:
        path = request.path[len(API):]
        if request.query_string:
            path += "?" + request.query_string
        body: Any = None
        files: list[tuple[str, bytes]] = []
        if request.content_type == "application/json":
            body = await request.json()
        elif request.content_type.startswith("multipart/"):
            async for part in await request.multipart():
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                elif part.filename:
                    files.append((part.filename, await part.read()))
        status, headers, payload = await fake.handle(request.method, path, dict(request.headers),
                                                     body, files)
        if isinstance(payload, str):
            return web.Response(status=status, headers=headers, text=payload)
        # Exactly "application/json", as Discord sends it: discord.py compares the whole value.
        return web.Response(status=status, headers=dict(headers, **{
            "Content-Type": "application/json"}), body=json.dumps(payload).encode()
            if payload is not None else b"")
    app = web.Application(client_max_size=32 * 1024 * 1024)
    app.router.add_route("*", API + "/{tail:.*}", answer)
    return app


async def serve(fake: FakeDiscord) -> tuple[web.AppRunner, str]:
    """The stand-in on a free loopback port; its base URL."""
    runner = web.AppRunner(app_for(fake), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}{API}"


async def run_processes(calls: int, processes: int = 2, *, share: bool = True,
                        token: str = "shared-token") -> dict[str, Any]:
    """``processes`` bot processes on one token each send ``calls`` counted calls; with
    ``share`` each knows it is one of ``processes`` (else each thinks it is alone)."""
    fake = FakeDiscord(time_scale=1.0)
    fake.token = token
    # Discord counts a request when it arrives, and its servers are never the ones that stall.
    # This stand-in counts when it handles a request, so it must not stall either. Cold, its
    # first request waited while it read and compiled Discord's API description; requests
    # queued on the socket meanwhile and were counted as arriving together: on a loaded
    # machine, 8 runs out of 8 saw 52 to 56 in one "second" (0.19 s late), 0 out of 8 once
    # warm. A full garbage collection in a test process holding a few million objects is such
    # a stall too (0.28 s measured), so none runs while it counts.
    SPEC.warm()
    runner, url = await serve(fake)
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        since = fake.now()
        children = [await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.testing.shared_budget", url, str(calls),
            str(processes if share else 1), token,
            cwd=str(Path(__file__).resolve().parents[2]),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            for _ in range(processes)]
        outputs = [await child.communicate() for child in children]
        codes = [child.returncode for child in children]
        elapsed = fake.now() - since
    finally:
        if collecting:
            gc.enable()
        await runner.cleanup()
    delivered = len([r for r in fake.requests if r.path.endswith("/messages") and r.status == 200])
    return {"processes": processes, "calls_per_process": calls, "share": share,
            "exit_codes": codes, "errors": [err.decode()[-500:] for _, err in outputs if err],
            "delivered": delivered, "seconds": round(elapsed, 2),
            "max_counted_in_any_second": fake.limits.max_in_any_second(since),
            "global_429": len(fake.limits.throttles("global")),
            "route_429": len(fake.limits.throttles("user"))}


async def _child(url: str, calls: int, processes: int, token: str) -> int:
    import aiohttp
    import discord

    from ..config import Settings
    from ..ui.budget import Budget, pace

    discord.http.Route.BASE = url
    client = discord.Client(intents=discord.Intents.none())
    http = client.http
    http.token = token
    http._global_over = asyncio.Event()
    http._global_over.set()
    async with aiohttp.ClientSession() as session:
        http._HTTPClient__session = session  # type: ignore[attr-defined]
        share = Settings("", Path("unused"), None, "INFO", processes=processes).rest_per_second
        pace(http, Budget(share))
        base = 10_000_000 + os.getpid() * 10_000  # channels of this process alone
        await asyncio.gather(*(client.get_partial_messageable(base + i).send("x")
                               for i in range(calls)))
    return 0


if __name__ == "__main__":
    url, calls, processes, token = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    sys.exit(asyncio.run(_child(url, calls, processes, token)))
