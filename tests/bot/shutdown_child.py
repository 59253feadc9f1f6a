"""Run by test_shutdown: a bot (fake Discord, real store) in its own process, stopped by a
real SIGINT while a click is in flight."""
from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.__main__ import stop_on_signals
from bot.logs import configure
from bot.testing.fake_discord import Member
from tests.conftest import start_bot
from tests.helpers import start_table


async def main(db: Path) -> int:
    configure("INFO")
    h = await start_bot(db)
    stop_on_signals(h.bot)
    players = [Member(100 + i, f"p{i}") for i in range(3)]
    table = await start_table(h, "narabi", players)
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    action = live.game.legal_actions(seat)[0]
    h.fake.latency = 0.3  # Discord is slow: the click below is still in flight at the signal
    custom_id = f"narabi:{table.id}:confirm:0.{action['card']}.{action['target']}"
    message = h.fake._message(table.thread, {"flags": 64, "components": [{"type": 1, "components": [
        {"type": 2, "style": 3, "label": "Confirm", "custom_id": custom_id}]}]}, [], flags=64)
    await h.click(players[seat], message, custom_id, settle=False)
    await asyncio.sleep(0.05)
    os.kill(os.getpid(), signal.SIGINT)
    await asyncio.wait_for(h.bot.stopped.wait(), timeout=30)
    print(f"closed version={live.row.version}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(Path(sys.argv[1]))))
