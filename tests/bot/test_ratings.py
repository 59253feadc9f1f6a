"""Ratings: places from results (ties, several players, leavers), exactly one update per game
in the transaction of its end, the games that do not count, and the paginated leaderboard."""
from __future__ import annotations

import pytest

from bot.store import ratings
from bot.store.ratings import rate, ranks
from bot.store import StaleWrite
from bot.testing.fake_discord import CHANNEL_ID, Member, components_of, find_component
from tests.helpers import board, ephemeral_reply, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")


def test_places_from_results():
    assert ranks({"winners": [1], "draw": False}, 2) == [2, 1]
    assert ranks({"winners": [], "draw": True}, 2) == [1, 1]
    sarena = {"winners": [2], "draw": False,
              "details": {"scores": [None, 9, 13, 9], "tiebreaks": [None, 7, 8, 7],
                          "resigned": [0]}}
    assert ranks(sarena, 4) == [3, 2, 1, 2]  # a tie for second; the leaver last
    shared = {"winners": [0, 2], "draw": True,
              "details": {"scores": [10, 8, 10], "tiebreaks": [5, 1, 5]}}
    assert ranks(shared, 3) == [1, 2, 1]


def test_winners_gain_and_ties_move_together():
    start = [ratings.new_rating()] * 3
    after = rate(start, [1, 2, 2])
    assert after[0].shown > start[0].shown > after[1].shown
    assert after[1] == after[2] and all(r.games == 1 for r in after)
    drawn = rate([ratings.new_rating()] * 2, [1, 1])
    assert drawn[0].mu == pytest.approx(drawn[1].mu)


async def resign(h, table, member) -> None:
    b = board(h, table)
    token = await h.click(member, b, find_component(b, "resign")["custom_id"])
    step = ephemeral_reply(h, token)
    await h.click(member, step, find_component(step, "resign_ok")["custom_id"])


async def unrated(h, table_id: int) -> str | None:
    rows = await h.bot.store._fetchall("SELECT unrated FROM results WHERE table_id=?",
                                       (table_id,))
    return rows[0][0]


async def test_a_finished_game_is_rated_once_in_the_transaction_of_its_end(harness, players):
    h = harness
    ana, ben = players[:2]
    table = await start_table(h, "sensei", [ana, ben])
    await resign(h, table, ben)
    row = await h.bot.store.get_table(table.id)
    assert await unrated(h, table.id) is None
    (a_rating, a_place, count) = await h.bot.store.rating_of(row.guild_id, "sensei", ana.id)
    (b_rating, b_place, _) = await h.bot.store.rating_of(row.guild_id, "sensei", ben.id)
    assert (a_place, b_place, count) == (1, 2, 2) and a_rating.shown > b_rating.shown
    assert a_rating.games == b_rating.games == 1
    # The same end recorded again (a retry, another process) is refused: nothing counts twice.
    live = await h.bot.tables.with_game(table.id)
    with pytest.raises(StaleWrite):
        await h.bot.store.record_actions(row, user_id=ben.id, actions=[(1, {"type": "resign"})],
                                         state={}, result=live.game.result().to_json(),
                                         outcomes=[])
    again, _, _ = await h.bot.store.rating_of(row.guild_id, "sensei", ana.id)
    assert again == a_rating
    token = await h.command(ana, "stats")
    assert "Sensei rating" in h.reply_text(token) and "place 1 of 2" in h.reply_text(token)
    reply = ephemeral_reply(h, token)
    assert [a["filename"] for a in reply["attachments"]] == ["ratings.png"]  # rating over time
    assert await h.bot.store.rating_history(row.guild_id, "sensei", ana.id) == \
        [pytest.approx(a_rating.shown)]


@pytest.mark.slow
async def test_games_that_do_not_count(harness, players):
    h = harness
    ana, ben, cleo = players[:3]
    # Against an AI.
    await h.command(ana, "sensei", "start", ai="easy", channel_id=CHANNEL_ID)
    lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID)) if m["embeds"])
    ai_table = int(lobby["embeds"][0]["title"].rsplit("#", 1)[1])
    await h.bot.tables.act(ai_table, ana.id, {"type": "resign"})
    await h.settle()
    assert await unrated(h, ai_table) == "ai_or_timeout"
    # Cooperative.
    narabi = await start_table(h, "narabi", [ana, ben, cleo], channel=CHANNEL_ID + 1)
    await resign(h, narabi, cleo)
    assert await unrated(h, narabi.id) == "cooperative"
    # The same two people: three rated games a day, then no more.
    verdicts = []
    for i in range(4):
        table = await start_table(h, "sensei", [ana, ben], channel=CHANNEL_ID + 10 + i)
        await resign(h, table, ben)
        verdicts.append(await unrated(h, table.id))
    assert verdicts == [None, None, None, "daily_limit"]
    h.bot.store.rated_per_day = 5  # RATED_PER_DAY=5
    table = await start_table(h, "sensei", [ana, ben], channel=CHANNEL_ID + 20)
    await resign(h, table, ben)
    assert await unrated(h, table.id) is None
    row = await h.bot.store.get_table(table.id)
    rating, _, _ = await h.bot.store.rating_of(row.guild_id, "sensei", ana.id)
    assert rating.games == 4


async def test_leaderboard_pages_and_your_own_place(harness, players):
    h = harness
    ana = players[0]
    store = h.bot.store
    guild = (await start_table(h, "sensei", players[:2])).lobby["guild_id"]

    async def seed(tx) -> None:
        for i in range(23):
            await tx.execute("INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, "
                       "updated_at) VALUES (?,?,?,?,?,?,0)",
                       (int(guild), "sensei", 5000 + i, 20.0 + i, 2.0, i + 1))
        await tx.execute("INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, updated_at) "
                   "VALUES (?,?,?,?,?,?,0)", (int(guild), "sensei", ana.id, 10.0, 1.0, 4))

    await store.write(seed)
    token = await h.command(ana, "leaderboard", game="sensei")
    text = h.reply_text(token)
    lines = text.splitlines()
    assert lines[0] == "**Sensei ratings in this server** — page 1 of 3"
    assert lines[1] == "1. <@5022> — 36.0 (23 games)" and len(lines) == 12
    assert lines[-1] == "Your place: 24 of 24 — rating 7.0"
    message = ephemeral_reply(h, token)
    back, forward = components_of(message)
    assert back["disabled"] and not forward["disabled"]
    await h.click(ana, message, forward["custom_id"])
    page2 = h.fake.messages[int(message["id"])]
    assert page2["content"].splitlines()[0].endswith("page 2 of 3")
    assert page2["content"].splitlines()[1].startswith("11. ")
    token = await h.command(Member(999, "Zed"), "leaderboard", game="sensei")
    assert "You have no Sensei rating here yet" in h.reply_text(token)
