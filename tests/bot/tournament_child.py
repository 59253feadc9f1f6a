"""Run by the tournament kill tests and the bench: one bot process (fake Discord) on a shared
database, running one tournament of AI players until it is over or the process is killed.

    python -m tests.bot.tournament_child TARGET TOURNAMENT_ID

Prints a JSON line at start ({"ready": true}) and after each step of the scheduler
({"round": n, "status": s}).
"""
from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from bot.client import TabletopBot
from bot.config import Settings
from bot.logs import configure
from bot.store import Store, backend_kind
from bot.testing.fake_discord import FakeDiscord
from bot.testing.harness import Harness


def say(**message) -> None:
    print(json.dumps(message), flush=True)


async def main(target: str, tournament_id: int) -> int:
    configure("WARNING")
    url = target if backend_kind(target) == "postgresql" else None
    settings = Settings(token="", database_path=Path("unused.sqlite3") if url else Path(target),
                        dev_guild_id=None, log_level="WARNING", ai_workers=1,
                        ai_pause_seconds=0.0, ai_priority="normal", database_url=url,
                        render_workers=0)
    store = await Store.open(target)
    h = await Harness.start(TabletopBot(settings, store), FakeDiscord(time_scale=100.0))
    cog = h.bot.get_cog("Tournaments")
    say(ready=True)
    while True:
        await cog.clock.run_due()
        await h.settle()
        await cog.settle()
        tour = await store.get_tournament(tournament_id)
        say(round=tour.round, status=tour.status)
        if tour.status in ("finished", "cancelled"):
            break
        await asyncio.sleep(0.02)
    await h.bot.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], int(sys.argv[2]))))
