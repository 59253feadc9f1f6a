"""Game review: computed once in the think pool after a game ends, stored, and shown privately
by /review, the finished board's Review button and the replay viewer's."""
from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.games import review as grading
from bot.testing.fake_discord import components_of, find_component
from bot.ui import review as viewer_module
from tests.cogs import review_jobs
from tests.conftest import start_bot
from bot.i18n import t
from tests.helpers import board, ephemeral_reply, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")

JOBS = "tests.cogs.review_jobs"
#: the games reviewed here (Sensei's review module lands with its expert)
REVIEWED = ("sensei", "sarena")


@pytest.fixture
async def h(database, monkeypatch):
    monkeypatch.setattr(viewer_module, "has_review", lambda game: game in REVIEWED)
    harness = await start_bot(database, reviews=JOBS)
    harness.bot.reviewer.reviewed = lambda game: game in REVIEWED
    yield harness
    await harness.bot.close()


async def finish(h, table, moves: int, seed: int = 2) -> int:
    """Play ``moves`` random actions, then everyone resigns; returns the log's length."""
    rng = random.Random(seed)
    for _ in range(moves):
        live = await h.bot.tables.get(table.id)
        if live.row.status != "playing":
            break
        seat = live.game.to_move
        legal = [a for a in live.game.legal_actions(seat)
                 if a.get("type") not in ("resign", "offer_draw")]
        await h.bot.tables.act(table.id, table.players[seat].id, rng.choice(legal))
    live = await h.bot.tables.get(table.id)
    while live.row.status == "playing":
        await h.bot.tables.act(table.id, table.players[live.game.to_move].id, {"type": "resign"})
        live = await h.bot.tables.get(table.id)
    h.bot.reconciler.mark(table.id)
    await h.settle()
    return len(await h.bot.store.actions(table.id))


async def reviewed(h, table_id: int) -> dict:
    """The stored review, once the reviewer (in the pool, in the background) has stored it."""
    for _ in range(1200):
        body = await h.bot.store.review(table_id)
        if body is not None:
            return body
        await asyncio.sleep(0.05)
    raise AssertionError("no review was stored")


def spy_on_pool(h) -> list[str]:
    calls: list[str] = []
    original = h.bot.pool.call

    async def call(function, *args, **kwargs):
        calls.append(function)
        return await original(function, *args, **kwargs)

    h.bot.pool.call = call
    return calls


async def test_a_finished_game_is_reviewed_once_in_the_pool_and_stored(h, players):
    calls = spy_on_pool(h)
    table = await start_table(h, "sensei", players[:2])
    total = await finish(h, table, 12)
    body = await reviewed(h, table.id)
    assert calls == [f"{JOBS}:sensei"]
    # The stored form: versioned, graded turns covering the log, a summary per seat.
    assert body["version"] == grading.VERSION and body["game"] == "sensei" and body["seats"] == 2
    turns = grading.turns_of(body)
    assert turns and all(0 <= t.first < total for t in turns)
    assert {row["seat"] for row in body["players"]} == {0, 1}
    assert any(t.better for t in turns if t.grade in grading.FAULTS)
    # A second end event, or a restart, never computes it again.
    h.bot.reviewer.queue(table.id)
    assert not await h.bot.reviewer.review_one(table.id)
    assert await h.bot.reviewer.resume() == 0
    assert calls == [f"{JOBS}:sensei"]
    assert not await h.bot.store.save_review(table.id, {**body, "turns": []})
    assert (await h.bot.store.review(table.id))["turns"] == body["turns"]


async def test_a_game_lacking_its_review_is_queued_again_at_start(database, players, monkeypatch):
    monkeypatch.setattr(viewer_module, "has_review", lambda game: game in REVIEWED)
    h = await start_bot(database)  # reviews off: the game ends unreviewed (a stop, say)
    try:
        table = await start_table(h, "sensei", players[:2])
        await finish(h, table, 6)
        assert await h.bot.store.review(table.id) is None
        narabi = await start_table(h, "narabi", players[:3])
        await finish(h, narabi, 2)
        assert await h.bot.store.unreviewed(REVIEWED, grading.VERSION) == [table.id]
    finally:
        await h.bot.close()
    fake = h.fake
    h = await start_bot(database, fake, reviews=JOBS)
    try:
        h.bot.reviewer.reviewed = lambda game: game in REVIEWED
        assert await h.bot.reviewer.resume() == 1
        assert (await reviewed(h, table.id))["game"] == "sensei"
    finally:
        await h.bot.close()


async def test_review_command_summary_and_pages(h, players):
    table = await start_table(h, "sensei", players[:2])
    await finish(h, table, 12)
    body = await reviewed(h, table.id)
    token = await h.command(players[3], "review", game_id=table.id)  # anyone of the server
    summary = ephemeral_reply(h, token)
    text = summary["content"]
    assert text.startswith(f"**Review of Sensei #{table.id}**")
    for row in body["players"]:
        name = players[row["seat"]].name
        line = next(line for line in text.splitlines() if line.startswith(f"{name}:"))
        assert f"accuracy {round(row['accuracy'])}%" in line
        if row["blunder"]:
            assert f"{row['blunder']} blunder" in line
    assert "from 10 points" in text and "from 30 a blunder" in text
    assert h.fake.replies(token)[0]["data"]["flags"] & 64  # ephemeral: only the asker sees it
    summary_b, previous, forward, fault = components_of(summary)
    assert summary_b["disabled"] and previous["disabled"] and not forward["disabled"]
    assert all(len(c["custom_id"]) <= 100 for c in components_of(summary))
    # Turn 1, then the next fault.
    await h.click(players[3], summary, forward["custom_id"])
    page = h.fake.messages[int(summary["id"])]
    turns = grading.turns_of(body)
    assert f"turn 1 of {len(turns)}" in page["content"].splitlines()[0]
    assert "Winning chances: 60% → 60%" in page["content"]
    assert page["attachments"], "the position before the turn"
    await h.click(players[3], page, components_of(page)[3]["custom_id"])
    page = h.fake.messages[int(summary["id"])]
    first_fault = next(i for i, t in enumerate(turns) if t.grade in grading.FAULTS)
    turn = turns[first_fault]
    assert f"turn {first_fault + 1} of" in page["content"]
    assert turn.grade in page["content"] and "Better: `" in page["content"]
    assert "🟣 played, 🔵 better" in page["content"]
    # Back to the summary.
    await h.click(players[3], page, components_of(page)[0]["custom_id"])
    assert h.fake.messages[int(summary["id"])]["content"] == text


async def test_board_and_replay_buttons_open_the_review(h, players):
    table = await start_table(h, "sensei", players[:2])
    await finish(h, table, 8)
    await reviewed(h, table.id)
    b = board(h, table)
    token = await h.click(players[1], b, find_component(b, "review")["custom_id"])
    assert ephemeral_reply(h, token)["content"].startswith("**Review of Sensei")
    token = await h.click(players[1], b, find_component(b, "replay")["custom_id"])
    replay = ephemeral_reply(h, token)
    forward = components_of(replay)[2]
    await h.click(players[1], replay, forward["custom_id"])
    replay = h.fake.messages[int(replay["id"])]
    token = await h.click(players[1], replay, find_component(replay, "review")["custom_id"])
    opened = ephemeral_reply(h, token)
    assert opened["id"] != replay["id"], "the review opens beside the replay"
    assert "turn 1 of" in opened["content"].splitlines()[0]  # the replay's move 1 is turn 1


async def test_hostile_and_early_requests(h, players):
    table = await start_table(h, "sensei", players[:2])
    token = await h.command(players[0], "review", game_id=table.id)
    assert "once the game is over" in h.reply_text(token)
    token = await h.command(players[0], "review", game_id=987654)
    assert "no longer exists" in h.reply_text(token)
    narabi = await start_table(h, "narabi", players[:3])
    await finish(h, narabi, 2)
    token = await h.command(players[0], "review", game_id=narabi.id)
    assert "played as a team" in h.reply_text(token) and "par" in h.reply_text(token)
    assert not [c for c in components_of(board(h, narabi)) if ":review" in c["custom_id"]]
    # Not ready yet: the game just ended and its review is still being computed.
    h.bot.reviewer.reviewed = lambda game: False
    await finish(h, table, 4)
    token = await h.command(players[0], "review", game_id=table.id)
    assert "being prepared" in h.reply_text(token)
    # Another server's game is nobody's business here.
    h.bot.reviewer.reviewed = lambda game: game in REVIEWED
    await h.bot.reviewer.review_one(table.id)
    home = h.fake.guild_id
    h.fake.guild_id = home + (1 << 22)
    try:
        token = await h.command(players[0], "review", game_id=table.id)
    finally:
        h.fake.guild_id = home
    assert "no longer exists" in h.reply_text(token)
    # Forged and garbled review buttons.
    b = board(h, table)
    real = find_component(b, "review")["custom_id"]
    for forged in (real.replace(":review:0.9", ":review:0.7"),
                   real.replace(":review:0.9", ":review:x.9"),
                   real.replace(":review:0.9", ":review:1.2.3"),
                   real.replace(":review:0.9", ":review"),
                   real.replace(f":{table.id}:", f":{narabi.id}:")):
        token = await h.click(players[0], b, forged)
        assert t("error.unknown_button", "en") in h.reply_text(token), forged
    token = await h.click(players[0], b, real.replace("sensei:", "narabi:"))
    assert t("error.unknown_button", "en") in h.reply_text(token)


@pytest.mark.slow
async def test_sarena_review_end_to_end_shows_nothing_secret(h, players):
    table = await start_table(h, "sarena", players[:2])
    await finish(h, table, 6)
    body = await reviewed(h, table.id)
    assert body["game"] == "sarena"
    live = await h.bot.tables.with_game(table.id)
    final = live.game.public_view()
    shown = set(final["result"]["colours"])
    hidden = {"white", "black", "red", "yellow"} - shown
    assert len(hidden) == 2  # two players: two colours nobody held stay unknown
    turns = grading.turns_of(body)
    views = []
    cog = h.bot.router.cog("sarena")
    original = cog.picture

    async def picture(live_, view, locale, **kwargs):
        views.append(view)
        return await original(live_, view, locale, **kwargs)

    cog.picture = picture
    token = await h.command(players[0], "review", game_id=table.id)
    summary = ephemeral_reply(h, token)
    texts = [summary["content"]]
    for _ in turns:
        await h.click(players[0], summary, components_of(summary)[2]["custom_id"])
        summary = h.fake.messages[int(summary["id"])]
        texts.append(summary["content"])
    assert len(views) == len(turns)
    for turn, view in zip(turns, views):
        # Exactly the replay's public view before the turn, plus the arrows.
        before = live.cls.replay(2, live.row.options, live.row.seed,
                                 (await h.bot.store.actions(table.id))[:turn.first])
        expected = cog.replay_view(before, live.game)
        assert {k: v for k, v in view.items() if k != "review"} == \
            {k: v for k, v in expected.items() if k not in ("last_move", "choice")}
        assert "colour" not in view and view["review"]["played"]
    words = " ".join(texts).lower()
    for colour in hidden:
        assert not re.search(rf"\b{colour}\b", words), colour


def test_stored_form_by_hand_matches_the_shared_grading():
    log = [(0, {"type": "stone", "from": "a1", "to": "a2"}), (0, {"type": "end_turn"}),
           (1, {"type": "stone", "from": "a7", "to": "a6"}), (1, {"type": "end_turn"})]
    assert review_jobs.turns_of_log(log) == [(0, 0, 2), (1, 2, 2)]
    turns = [grading.TurnReview.graded(0, 0, [log[0][1]], 0.9, 0.5, [log[2][1]])]
    body = grading.stored("sensei", 2, turns)
    assert body["players"][0]["blunder"] == 1 and grading.turns_of(body)[0].better
    assert viewer_module.notation("sensei", turns[0].played) == "a1-a2"
    assert viewer_module.page_of_step(turns, 1) == 1 and viewer_module.page_of_step(turns, 0) == 0


async def test_purging_a_finished_game_removes_its_review(h, players):
    table = await start_table(h, "sensei", players[:2])
    await finish(h, table, 6)
    await reviewed(h, table.id)
    await h.bot.store.queue_outbox(table.id, [])  # nothing pending
    assert await h.bot.store.purge_closed(h.bot.store.clock() + 10) >= 1
    assert await h.bot.store.review(table.id) is None
    rows = await h.bot.store._fetchall("SELECT COUNT(*) FROM reviews")
    assert rows[0][0] == 0
    # A review finished after its game was purged is dropped, not stored orphaned.
    body = review_jobs.by_hand("sensei", 2, {}, 1, [])
    assert not await h.bot.store.save_review(table.id, body)
