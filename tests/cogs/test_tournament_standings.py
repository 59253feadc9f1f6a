"""The standings a tournament shows are those of the rounds that are over: the picture posted
when round N ends is headed "After round N" and counts no game (nor bye) of round N+1, even
when round N+1 is paired before it is posted; ``/tournament standings`` says the same while
round N+1 is played."""
from __future__ import annotations

from typing import Any

import pytest

from bot.testing.fake_discord import CHANNEL_ID
from tests.cogs.test_tournament_cog import (ORGANIZER, PLAYERS, button, cog, create, settle,
                                            tournament_message)

pytestmark = pytest.mark.usefixtures("no_missing_text")


@pytest.fixture
def pictures(harness, monkeypatch) -> list[dict[str, Any]]:
    """What each standings picture was drawn from (the real picture is still drawn). Patched
    where the running cog looks it up: each bot loads its extensions afresh."""
    drawn: list[dict[str, Any]] = []
    module = type(cog(harness)).picture.__globals__
    real = module["standings_png"]

    def recorded(title, lines, locale, **kwargs):
        drawn.append(dict(kwargs, scores={line.name: line.score for line in lines}))
        return real(title, lines, locale, **kwargs)

    monkeypatch.setitem(module, "standings_png", recorded)
    return drawn


async def round_tables(h, tid: int, round_no: int) -> list[Any]:
    """Round ``round_no``'s tables, once the scheduler (its loop, or this call) opened it."""
    for _ in range(20):
        await cog(h).clock.run_due()
        await settle(h)
        games = [g for g in await h.bot.store.tournament_games(tid) if g.round == round_no]
        # Paired first, then each pair's table opened: wait for every table but a bye's.
        if games and all(g.table_id or len(g.seats) == 1 for g in games):
            return [g for g in games if g.table_id]
    raise AssertionError(f"round {round_no} was never opened")


async def test_standings_after_a_round_leave_out_the_next_round_and_its_bye(harness, pictures):
    h = harness
    tid = await create(h, game="sensei", format="swiss", rounds=2, clock=0)
    message = tournament_message(h)
    for p in PLAYERS[:3]:
        await h.click(p, message, button(message, "join"))
    await h.click(ORGANIZER, message, button(message, "start"))
    (table,) = await round_tables(h, tid, 1)
    winner, loser = (next(p for p in PLAYERS if p.id == uid) for uid in table.seats)
    await h.command(ORGANIZER, "tournament", "result", round=1, table=table.board,
                    winner=winner, tournament=tid)
    await round_tables(h, tid, 2)
    tour = await h.bot.store.get_tournament(tid)
    round2 = [g for g in await h.bot.store.tournament_games(tid) if g.round == 2]
    assert tour.round == 2 and [g.seats for g in round2 if g.table_id is None] == [(loser.id,)]

    ends = [m for m in h.fake.channel_messages(CHANNEL_ID)
            if "Round 1 of" in m["content"] and "is over" in m["content"]]
    assert len(ends) == 1 and ends[0]["attachments"]
    assert [p["round_no"] for p in pictures] == [1] and pictures[0]["scores"][loser.name] == 0
    # The scheduler usually pairs round 2 before round 1's end is posted (the bot posts it
    # after the commit that paired it): posted now, it still shows round 1, and the loser of
    # round 1 has nothing yet (their bye is round 2's).
    pictures.clear()
    await cog(h)._announce(h.bot.get_partial_messageable(CHANNEL_ID), tour, "round_end",
                           {"round": 1})
    assert [p["round_no"] for p in pictures] == [1]
    assert pictures[0]["scores"][loser.name] == 0 and pictures[0]["scores"][winner.name] == 1
    assert "Round 1 of" in h.fake.channel_messages(CHANNEL_ID)[-1]["content"]

    pictures.clear()
    token = await h.command(loser, "tournament", "standings", tournament=tid)
    text = h.reply_text(token)
    assert "after round 1 of 2" in text and "0 points" in text
    assert [p["round_no"] for p in pictures] == [1] and pictures[0]["scores"][loser.name] == 0

