"""Run by test_processes: one bot process (fake Discord, real PostgreSQL store shared with
other processes), driven by JSON lines on stdin and answering JSON lines on stdout.

    python -m tests.bot.process_child URL SHARD_COUNT SHARD_ID

Commands: {"cmd": "open"} opens and starts a Narabi table in this process's server;
{"cmd": "burst", "table": id, "n": 50} clicks the same move n times at once;
{"cmd": "play", "table": id, "moves": k} plays k moves one after the other, printing each
acknowledged version; {"cmd": "version", "table": id}; {"cmd": "quit"}.
"""
from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from bot.client import TabletopBot
from bot.config import Settings
from bot.logs import configure
from bot.store import Store
from bot.testing.fake_discord import FakeDiscord, Member
from bot.testing.harness import Harness
from tests.helpers import start_table


def say(**message) -> None:
    print(json.dumps(message), flush=True)


def confirm_message(h: Harness, live, channel: int) -> tuple[Member, dict, str]:
    """The ephemeral Confirm step of the first legal switch of the player to move."""
    seat = live.game.to_move
    action = live.game.legal_actions(seat)[0]
    custom_id = (f"narabi:{live.id}:confirm:{live.row.version}.{action['card']}."
                 f"{action['target']}")
    message = h.fake._message(channel, {"flags": 64, "components": [{"type": 1, "components": [
        {"type": 2, "style": 3, "label": "Confirm", "custom_id": custom_id}]}]}, [], flags=64)
    return Member(live.row.seats[seat].user_id, live.row.seats[seat].name), message, custom_id


async def main(url: str, count: int, shard: int) -> int:
    configure("WARNING")
    settings = Settings(token="", database_path=Path("unused.sqlite3"), dev_guild_id=None,
                        log_level="WARNING", ai_workers=1, ai_pause_seconds=0.0,
                        ai_priority="normal", database_url=url, shard_count=count,
                        shard_ids=(shard,),
                        render_workers=0)
    store = await Store.open(url, scope=settings.scope)
    # a server on this process's shard: Discord sends its interactions to this process only
    fake = FakeDiscord(guild_id=(shard << 22) + 1)
    h = await Harness.start(TabletopBot(settings, store), fake)
    say(ready=True, restored=sorted(h.bot.tables._cache))
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        command = json.loads(line)
        if command["cmd"] == "quit":
            break
        if command["cmd"] == "open":
            players = [Member(1000 * (shard + 1) + i, f"p{shard}{i}") for i in range(3)]
            table = await start_table(h, "narabi", players, channel=5000 + shard)
            say(table=table.id, thread=table.thread)
            continue
        live = await h.bot.tables.get(command["table"])
        channel = live.row.game_channel_id
        if command["cmd"] == "version":
            say(version=(await store.get_table(live.id)).version)
        elif command["cmd"] == "burst":
            player, message, custom_id = confirm_message(h, live, channel)
            tokens = await asyncio.gather(*(h.click(player, message, custom_id, settle=False)
                                            for _ in range(command["n"])))
            await h.settle()
            say(replies=[h.reply_text(token) for token in tokens])
        elif command["cmd"] == "play":
            for _ in range(command["moves"]):
                live = await h.bot.tables.get(live.id)
                if live.game is None or live.game.finished:
                    break
                player, message, custom_id = confirm_message(h, live, channel)
                token = await h.click(player, message, custom_id)
                say(reply=h.reply_text(token), version=live.row.version)
            say(done=True, version=(await store.get_table(live.id)).version)
    await h.bot.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))))
