"""Makes ``schema9.sqlite3``: a database written by the bot of schema version 9 (before the
version table and PostgreSQL), kept in the repository to test the upgrade in place.

Run from the repository root with the code of that version: ``python tests/bot/data/make_schema9.py``.
"""
import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bot.games import registry  # noqa: E402
from bot.store import SeatRow, Store  # noqa: E402
from bot.domain.tables import outcomes_for  # noqa: E402

OUT = Path(__file__).with_name("schema9.sqlite3")


async def play(store: Store, game_key: str, seats: list[SeatRow], moves: int | None, seed: int,
               channel: int, guild: int = 5000) -> int:
    rules = registry.entry(game_key).rules
    options = rules.normalize_options({})
    table = await store.create_table(game=game_key, guild_id=guild, channel_id=channel,
                                     host_id=seats[0].user_id, host_name=seats[0].name,
                                     options=options, locale="en-US", seats=seats)
    game = rules.new(len(seats), options, seed)
    await store.start_game(table.id, seed, game.to_json(), thread_id=channel + 1,
                           outbox=[("start", {"n": 1})], clock=(1.0e9, 0))
    table = await store.get_table(table.id)
    rng = random.Random(seed)
    done = 0
    while not game.finished and (moves is None or done < moves):
        seat = game.to_move
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        table.version += 1
        result = game.result()
        await store.record_actions(
            table, user_id=table.seats[seat].user_id, actions=[(seat, action)],
            state=game.to_json(), result=None if result is None else result.to_json(),
            outcomes=None if result is None else outcomes_for(result, table.seats, None),
            cooperative=rules.cooperative, clock=None if result else (1.0e9 + done, game.to_move))
        done += 1
    return table.id


async def main() -> None:
    OUT.unlink(missing_ok=True)
    store = await Store.open(OUT)
    store.clock = lambda: 1_700_000_000.0
    ana, ben, cleo = (SeatRow(0, 101, "Ana"), SeatRow(1, 102, "Ben"), SeatRow(2, 103, "Cleo"))
    # two finished Sensei games (rated), a finished Sàréná game, running games of each game
    for i in range(2):
        await play(store, "sensei", [SeatRow(0, 101, "Ana"), SeatRow(1, 102, "Ben")], None, 10 + i,
                   channel=1000 + 10 * i)
    await play(store, "sarena", [ana, ben, cleo], None, 7, channel=1100)
    running = await play(store, "sensei", [SeatRow(0, 101, "Ana"), SeatRow(1, -1, "AI · Hard", ai="hard")],
                         6, 3, channel=1200)
    narabi = await play(store, "narabi", [ana, ben, cleo], 4, 5, channel=1300)
    await store.add_question(narabi, 1, 0, 1, {"card": 3, "other": 5}, None)
    # a lobby, server and member settings, a heartbeat
    await store.create_table(game="narabi", guild_id=5000, channel_id=1400, host_id=104,
                             host_name="Dev", options={}, locale="fr")
    await store.set_guild_clock(5000, "sensei", turn_limit=3600.0, set_limit=True, policy="skip")
    await store.set_guild_language(5000, "pl")
    await store.set_dm_reminders(101, True)
    await store.set_dm_open(running, 0, False)
    await store.beat()
    await store.close()
    print(OUT, OUT.stat().st_size)


asyncio.run(main())
