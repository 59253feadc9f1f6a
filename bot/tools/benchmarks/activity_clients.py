"""The open boards of the Activity bench, in a process of their own (so the server's memory
and event loop are the bot's alone): reads one JSON line ``{"url", "boards": [[session,
table], …]}`` on stdin, opens a live socket per board, prints ``ready`` once every board has
its first state, then ``<board> <table> <version> <monotonic time>`` for every state pushed, until
stdin closes. Linux's monotonic clock is the same in both processes."""
from __future__ import annotations

import asyncio
import json
import sys
import time

import aiohttp


async def board(http: aiohttp.ClientSession, url: str, index: int, session: str, table: int,
                ready: asyncio.Queue[int], out: list[str]) -> None:
    async with http.ws_connect(url + "api/live", max_msg_size=0) as ws:
        await ws.send_str(json.dumps({"type": "hello", "session": session}))
        await ws.send_str(json.dumps({"type": "subscribe", "tables": [table]}))
        first = True
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            # Only the head is read: the bench times arrival, not the page's parsing.
            head = message.data[:80]
            if '"type":"state"' not in head:
                continue
            version = json.loads(message.data)["state"]["version"]
            if first:
                first = False
                ready.put_nowait(table)
                continue
            out.append(f"{index} {table} {version} {time.monotonic():.6f}")


async def main() -> None:
    spec = json.loads(sys.stdin.readline())
    ready: asyncio.Queue[int] = asyncio.Queue()
    out: list[str] = []
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        tasks = [asyncio.ensure_future(board(http, spec["url"], i, s, t, ready, out))
                 for i, (s, t) in enumerate(spec["boards"])]
        for _ in tasks:
            await ready.get()
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

        async def flush() -> None:
            while True:
                await asyncio.sleep(0.05)
                if out:
                    sys.stdout.write("\n".join(out) + "\n")
                    sys.stdout.flush()
                    out.clear()

        flusher = asyncio.ensure_future(flush())
        await reader.read()  # until the bench closes stdin
        flusher.cancel()
        if out:
            sys.stdout.write("\n".join(out) + "\n")
        print("done", flush=True)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


if __name__ == "__main__":
    asyncio.run(main())
