"""Where the bot is not a member (issue 51, bench key ``user_install``): a two-player Sensei
game and a three-player Narabi game in a group DM where one person installed the app, played
to the end through the strict stand-in at Discord's pace; then a click after 20 minutes of
silence (every token expired) that must bring the table up to date.

Figures: bot-token calls into the group DM (Discord refuses every one: the target is 0), the
time from a click reaching the bot to Discord having its answer (p50, p99), and the catch-up.
"""
from __future__ import annotations

import asyncio
import functools
import random
import tempfile
from pathlib import Path
from typing import Any

from .discord_budget import _bot

#: Sensei turns played at random before both players head for the far rank
RANDOM_TURNS = 24


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def _answer_times(h, since: int) -> list[float]:
    fake = h.fake
    return [(fake.acked_at[t] - fake.clicked_at[t]) * 1000
            for t in list(fake.clicked_at)[since:] if t in fake.acked_at]


async def _sensei(h, people, wander: int = 0) -> dict[str, Any]:
    from ...testing.remote_flows import (bot_calls_into, click_verb, open_place, sensei_turn,
                                         table_id_of, table_message, towards_goal)

    ana, ben = people[:2]
    place = open_place(h, "group_dm", ana, ben)
    since = len(h.fake.clicked_at)
    await h.command(ana, "sensei", "start", channel_id=place.channel_id)
    table_id = table_id_of(table_message(h, place))
    await click_verb(h, ben, table_message(h, place), "join")
    await click_verb(h, ana, table_message(h, place), "start")
    from ...games.sensei.turns import legal_turns

    rng, turns = random.Random(3), 0
    live = await h.bot.tables.get(table_id)
    while live.row.status == "playing" and turns < 200:
        # Wandering first (a game of some length), then each towards the far rank.
        turn = (rng.choice(legal_turns(live.game)) if turns < wander
                else towards_goal(live.game, rng))
        await sensei_turn(h, place, [ana, ben][live.game.to_move], turn)
        turns += 1
        live = await h.bot.tables.get(table_id)
    return _figures(h, place, live, since, turns, bot_calls_into(h, place))


async def _narabi(h, people) -> dict[str, Any]:
    from ...testing.remote_flows import (bot_calls_into, click_verb, narabi_switch, open_place,
                                         table_id_of, table_message)

    ana, ben, cleo = people[:3]
    place = open_place(h, "group_dm", ana, ben, cleo)
    since = len(h.fake.clicked_at)
    await h.command(ana, "narabi", "start", channel_id=place.channel_id)
    table_id = table_id_of(table_message(h, place))
    for person in (ben, cleo):
        await click_verb(h, person, table_message(h, place), "join")
    await click_verb(h, ana, table_message(h, place), "start")
    rng, turns = random.Random(5), 0
    live = await h.bot.tables.get(table_id)
    while live.row.status == "playing" and turns < 400:
        seat = live.game.to_move
        await click_verb(h, people[seat], table_message(h, place), "mine")
        await narabi_switch(h, place, people[seat], rng.choice(live.game.legal_actions(seat)))
        turns += 1
        live = await h.bot.tables.get(table_id)
    return _figures(h, place, live, since, turns, bot_calls_into(h, place))


def _figures(h, place, live, since: int, turns: int, calls: list[Any]) -> dict[str, Any]:
    times = _answer_times(h, since)
    return {"turns": turns, "finished": live.row.status == "finished",
            "board_current": live.row.board_version == live.row.version,
            "bot_token_calls_into_channel": len(calls),
            "clicks": len(times), "answer_p50_ms": round(_percentile(times, 0.5), 2),
            "answer_p99_ms": round(_percentile(times, 0.99), 2),
            "late_answers": len(h.fake.late_answers),
            "expired_token_uses": len(h.fake.expired_token_uses)}


async def _silence(h, people) -> dict[str, Any]:
    """A timed Sensei table left alone for 20 minutes: the clock hands the absent seat to an AI,
    which plays; nothing can show it. Then one click."""
    from ...testing.remote_flows import (bot_calls_into, click_verb, open_place, table_message,
                                         timed_sensei)

    ana, ben = people[:2]
    real = h.bot.store.clock
    offset = [0.0]
    h.bot.store.clock = lambda: real() + offset[0]
    place = open_place(h, "group_dm", ana, ben)
    table_id = await timed_sensei(h, ana, ben, place)
    live = await h.bot.tables.get(table_id)
    present = [ana, ben][1 - live.game.to_move]
    offset[0] += 20 * 60
    h.fake.advance(20 * 60)
    await h.bot.turnclock.run_due()
    await h.settle()
    live = await h.bot.tables.get(table_id)
    before = {"version": live.row.version, "shown": live.row.board_version}
    await click_verb(h, present, table_message(h, place), "move")
    live = await h.bot.tables.get(table_id)
    content = table_message(h, place)["content"]
    return {"moves_while_silent": before["version"] - before["shown"],
            "caught_up_by_one_click": live.row.board_version == live.row.version
            and before["shown"] < before["version"],
            "says_what_happened": "ran out of time" in content,
            "expired_token_uses": len(h.fake.expired_token_uses),
            "bot_token_calls_into_channel": len(bot_calls_into(h, place))}


async def bench_user_install(quick: bool = False) -> dict[str, Any]:
    from ...testing.fake_discord import FakeDiscord, Member

    people = [Member(100 + i, name) for i, name in enumerate(("Ana", "Ben", "Cleo"))]
    out: dict[str, Any] = {}
    wander = 4 if quick else RANDOM_TURNS
    for name, flow in (("sensei", functools.partial(_sensei, wander=wander)), ("narabi", _narabi),
                       ("silence", _silence)):
        with tempfile.TemporaryDirectory() as tmp:
            h = await _bot(Path(tmp) / "user_install.sqlite3", FakeDiscord(time_scale=1.0))
            try:
                out[name] = await flow(h, people)
            finally:
                await h.bot.close()
    return out


def print_figures(figures: dict[str, Any]) -> None:
    print("user install (a group DM where one person installed the app; the bot not a member)")
    for game in ("sensei", "narabi"):
        f = figures[game]
        print(f"  {game}: {f['turns']} turns to the end ({'finished' if f['finished'] else 'NOT finished'}), "
              f"bot-token calls into the channel {f['bot_token_calls_into_channel']} (target 0), "
              f"answers p50 {f['answer_p50_ms']:.1f} ms p99 {f['answer_p99_ms']:.1f} ms "
              f"(n={f['clicks']}), board current at the end: {f['board_current']}")
    s = figures["silence"]
    print(f"  after 20 silent minutes ({s['moves_while_silent']} moves made meanwhile, every token "
          f"expired): one click brought the table up to date: {s['caught_up_by_one_click']}, "
          f"saying what happened: {s['says_what_happened']}; expired tokens used "
          f"{s['expired_token_uses']}, bot-token calls into the channel "
          f"{s['bot_token_calls_into_channel']}")


if __name__ == "__main__":
    print_figures(asyncio.run(bench_user_install()))
