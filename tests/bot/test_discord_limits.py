"""The stand-in answers as strictly as Discord: one test per published limit, named by its
number. These fakes run at Discord's own pace (time_scale=1)."""
from __future__ import annotations

import asyncio
import io
import itertools

import discord
import pytest

from bot.testing.discord_limits import (ATTACHMENTS_MAX_BYTES, CONTENT_MAX, EMBED_TOTAL_MAX,
                                        EMBEDS_MAX, GLOBAL_PER_SECOND, INTERACTION_DEADLINE,
                                        INTERACTION_TOKEN_LIFETIME, INVALID_LIMIT,
                                        INVALID_WINDOW, ROUTE_BUCKETS, ROW_COMPONENTS_MAX,
                                        ROWS_MAX, SELECT_OPTIONS_MAX)
from bot.testing.fake_discord import APP_ID, CHANNEL_ID, FakeDiscord, InteractionRecord
from bot.ui.budget import Budget
from tests.conftest import start_bot


async def call(fake: FakeDiscord, method: str, path: str, body=None, files=(), *,
               token: str | None = None):
    headers = {"Authorization": f"Bot {token or fake.token}"}
    return await fake.handle(method, path, headers, body, list(files))


def post(channel: int) -> str:
    return f"/channels/{channel}/messages"


def interaction(fake: FakeDiscord, token: str) -> None:
    fake.interactions[token] = InteractionRecord(CHANNEL_ID, fake.now(), 3)


# -- the global budget --------------------------------------------------------------------------

async def test_a_token_gets_50_counted_requests_per_second():
    assert GLOBAL_PER_SECOND == 50
    fake = FakeDiscord(time_scale=1.0)
    answers = [await call(fake, "POST", post(10 + i), {"content": "x"}) for i in range(51)]
    assert [status for status, _, _ in answers[:50]] == [200] * 50
    status, headers, body = answers[50]
    assert status == 429 and body["global"] is True and 0 < body["retry_after"] <= 1.0
    assert headers["X-RateLimit-Scope"] == "global" and headers["X-RateLimit-Global"] == "true"
    assert headers["Via"]  # Discord's, not Cloudflare's: discord.py waits and retries
    # another bot token has a budget of its own
    assert (await call(fake, "POST", post(99), {"content": "x"}, token="other"))[0] == 200
    # and a second later the first one may go on
    fake.advance(1.0)
    assert (await call(fake, "POST", post(100), {"content": "x"}))[0] == 200


async def test_interaction_answers_and_follow_ups_are_not_counted():
    fake = FakeDiscord(time_scale=1.0)
    for i in range(GLOBAL_PER_SECOND):
        assert (await call(fake, "POST", post(10 + i), {"content": "x"}))[0] == 200
    # the token's budget is spent, yet 60 interactions are answered and followed up
    for i in range(60):
        token = f"t{i}"
        interaction(fake, token)
        status, _, _ = await fake.handle("POST", f"/interactions/{i}/{token}/callback", {},
                                         {"type": 4, "data": {"content": "hi"}}, [])
        assert status == 200
        status, _, _ = await fake.handle("POST", f"/webhooks/{APP_ID}/{token}", {},
                                         {"content": "line"}, [])
        assert status == 200
    assert fake.limits.throttles("global") == []
    assert (await call(fake, "POST", post(99), {"content": "x"}))[0] == 429


@pytest.mark.slow
async def test_two_bots_on_one_token_share_its_budget(tmp_path):
    """Two processes of one bot (two clients on one fake, one token) each take their share:
    together no more than 50 counted calls in any second, and no global 429."""
    from bot.config import Settings

    fake = FakeDiscord(time_scale=1.0)
    bots = []
    for n in range(2):
        # The commands are the token's: sent once. A second sync within Discord's 20 s
        # window would empty that bucket, and discord.py waits the window out (in real time
        # here) before the bot may start; the test is about the sends below.
        h = await start_bot(tmp_path / f"b{n}.sqlite3", fake, sync_commands=n == 0)
        h.bot.budget.per_second = Settings("", tmp_path, None, "INFO", processes=2).rest_per_second
        bots.append(h.bot)
    since = fake.now()
    sends = [bot.get_partial_messageable(5000 + 100 * n + i).send("x")
             for n, bot in enumerate(bots) for i in range(60)]
    await asyncio.gather(*sends)
    assert fake.limits.max_in_any_second(since) <= 50
    assert fake.limits.throttles("global") == []
    assert len([r for r in fake.requests if r.path.startswith("/channels/5")]) == 120
    for bot in bots:
        await bot.close()


# -- per-route buckets ----------------------------------------------------------------------------

async def test_each_channel_has_its_own_message_bucket_with_discords_headers():
    name, limit, per = ROUTE_BUCKETS[("POST", "/channels/{channel_id}/messages")]
    assert (limit, per) == (5, 5.0)
    fake = FakeDiscord(time_scale=1.0)
    answers = [await call(fake, "POST", post(7), {"content": "x"}) for _ in range(limit + 1)]
    assert [a[1]["X-RateLimit-Remaining"] for a in answers[:limit]] == ["4", "3", "2", "1", "0"]
    assert all(a[1]["X-RateLimit-Limit"] == "5" and a[1]["X-RateLimit-Bucket"] for a in answers)
    status, headers, body = answers[limit]
    assert status == 429 and body["global"] is False and headers["X-RateLimit-Scope"] == "user"
    assert 4.0 < body["retry_after"] <= 5.0 and float(headers["X-RateLimit-Reset-After"]) > 4.0
    assert (await call(fake, "POST", post(8), {"content": "x"}))[0] == 200  # another channel


async def test_discord_py_waits_for_the_bucket_instead_of_meeting_a_429(tmp_path):
    fake = FakeDiscord(time_scale=10.0)  # windows of 0.5 s instead of 5 s
    h = await start_bot(tmp_path / "bot.sqlite3", fake)
    channel = h.bot.get_partial_messageable(4242)
    for _ in range(11):
        await channel.send("x")
    sent = [r for r in fake.requests if r.path == post(4242)]
    assert len(sent) == 11 and fake.limits.throttles() == []
    # the 6th went out only once the first five's window had passed
    assert sent[5].at - sent[0].at >= 0.5 - 0.05
    await h.bot.close()


# -- the invalid-request ban ----------------------------------------------------------------------

async def test_10000_invalid_requests_in_10_minutes_ban_the_bot(tmp_path):
    assert (INVALID_LIMIT, INVALID_WINDOW) == (10_000, 600.0)
    fake = FakeDiscord(time_scale=1.0)
    h = await start_bot(tmp_path / "bot.sqlite3", fake)
    fake.forbidden_channels.add(66)
    now = fake.now()
    fake.limits.invalid.extend([now - INVALID_WINDOW - 1] * 5000)  # older than 10 minutes
    fake.limits.invalid.extend([now] * (INVALID_LIMIT - 2))
    assert (await call(fake, "POST", post(66), {"content": "x"}))[0] == 403  # 9,999th
    assert (await call(fake, "POST", post(67), {"content": "x"}))[0] == 200
    assert (await call(fake, "POST", post(66), {"content": "x"}))[0] == 403  # 10,000th
    status, headers, body = await call(fake, "POST", post(67), {"content": "x"})
    assert status == 429 and "Via" not in headers and isinstance(body, str)
    # discord.py does not retry Cloudflare's answer: it raises at once
    with pytest.raises(discord.HTTPException) as raised:
        await h.bot.get_partial_messageable(68).send("x")
    assert raised.value.status == 429
    fake.advance(3600.0)  # the ban lasts an hour
    await h.bot.get_partial_messageable(68).send("x")
    await h.bot.close()


# -- interactions -----------------------------------------------------------------------------------

async def test_an_interaction_must_be_answered_within_3_seconds():
    assert INTERACTION_DEADLINE == 3.0
    fake = FakeDiscord(time_scale=1.0)
    interaction(fake, "late")
    fake.advance(3.1)
    status, _, body = await fake.handle("POST", "/interactions/1/late/callback", {},
                                        {"type": 4, "data": {"content": "hi"}}, [])
    assert status == 404 and body["code"] == 10062 and fake.late_answers == ["late"]
    interaction(fake, "soon")
    fake.advance(2.9)
    status, _, _ = await fake.handle("POST", "/interactions/2/soon/callback", {},
                                     {"type": 4, "data": {"content": "hi"}}, [])
    assert status == 200


async def test_an_interaction_token_works_for_15_minutes():
    assert INTERACTION_TOKEN_LIFETIME == 900.0
    fake = FakeDiscord(time_scale=1.0)
    interaction(fake, "tok")
    await fake.handle("POST", "/interactions/1/tok/callback", {}, {"type": 5, "data": {}}, [])
    fake.advance(14 * 60)
    assert (await fake.handle("POST", f"/webhooks/{APP_ID}/tok", {}, {"content": "a"}, []))[0] == 200
    fake.advance(61)
    status, _, body = await fake.handle("POST", f"/webhooks/{APP_ID}/tok", {}, {"content": "b"}, [])
    assert status == 401 and body["code"] == 50027 and fake.expired_token_uses == ["tok"]


# -- messages ----------------------------------------------------------------------------------------

_channels = itertools.count(1000)


async def refused(fake: FakeDiscord, body, files=()) -> tuple[int, dict]:
    status, _, answer = await call(fake, "POST", post(next(_channels)), body, files)
    return status, answer


async def test_content_is_at_most_2000_characters():
    fake = FakeDiscord(time_scale=1.0)
    assert CONTENT_MAX == 2000
    assert (await refused(fake, {"content": "x" * 2000}))[0] == 200
    status, answer = await refused(fake, {"content": "x" * 2001})
    assert status == 400 and answer["code"] == 50035 and "content" in answer["errors"]


async def test_an_attachments_description_is_at_most_1024_characters():
    """Alt text: Discord's description says 1,024 characters; the stand-in keeps what it took,
    for the playground and the tests to read, and judges an edit and an answer alike."""
    fake = FakeDiscord(time_scale=1.0)
    png = b"\x89PNG\r\n\x1a\n" + bytes(16)

    def body(length: int) -> dict:
        return {"content": "x", "attachments": [{"id": 0, "filename": "board.png",
                                                 "description": "d" * length}]}

    status, _, message = await call(fake, "POST", post(10), body(1024), [("board.png", png)])
    assert status == 200 and message["attachments"][0]["description"] == "d" * 1024
    status, _, answer = await call(fake, "POST", post(10), body(1025), [("board.png", png)])
    assert status == 400 and answer["code"] == 50035
    (error,) = answer["errors"]["attachments"]["0"]["description"]["_errors"]
    assert error["code"] == "BASE_TYPE_MAX_LENGTH"
    edit = f"{post(10)}/{message['id']}"
    assert (await call(fake, "PATCH", edit, body(1025), [("board.png", png)]))[0] == 400
    status, _, edited = await call(fake, "PATCH", edit, body(3), [("board.png", png)])
    assert status == 200 and edited["attachments"][0]["description"] == "ddd"
    interaction(fake, "tok")
    status, _, answer = await call(fake, "POST", f"/interactions/{APP_ID}/tok/callback",
                                   {"type": 4, "data": body(1025)}, [("board.png", png)])
    assert status == 400 and "description" in answer["errors"]["data"]["attachments"]["0"]


async def test_at_most_10_embeds_of_6000_characters_in_all():
    fake = FakeDiscord(time_scale=1.0)
    assert (EMBEDS_MAX, EMBED_TOTAL_MAX) == (10, 6000)
    status, answer = await refused(fake, {"embeds": [{"title": "t"}] * 11})
    assert status == 400 and "embeds" in answer["errors"]
    fine = [{"description": "x" * 3000}, {"description": "x" * 3000}]
    assert (await refused(fake, {"embeds": fine}))[0] == 200
    status, answer = await refused(fake, {"embeds": fine + [{"title": "x"}]})
    assert status == 400 and answer["errors"]["embeds"]["_errors"][0]["code"] == \
        "MAX_EMBED_SIZE_EXCEEDED"


async def test_at_most_5_rows_of_5_components():
    fake = FakeDiscord(time_scale=1.0)
    assert (ROWS_MAX, ROW_COMPONENTS_MAX) == (5, 5)

    def row(r: int, n: int = 5) -> dict:  # custom_ids unique in a message, as Discord wants
        return {"type": 1, "components": [{"type": 2, "style": 2, "label": "b",
                                           "custom_id": f"c{r}.{i}"} for i in range(n)]}
    assert (await refused(fake, {"components": [row(r) for r in range(5)]}))[0] == 200
    status, answer = await refused(fake, {"components": [row(r) for r in range(6)]})
    assert status == 400 and "components" in answer["errors"]
    status, answer = await refused(fake, {"components": [row(0, 6)]})
    assert status == 400 and "components" in answer["errors"]["components"]["0"]


async def test_a_select_offers_at_most_25_options():
    fake = FakeDiscord(time_scale=1.0)
    assert SELECT_OPTIONS_MAX == 25

    def select(n: int) -> dict:
        return {"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
            {"label": str(i), "value": str(i)} for i in range(n)]}]}]}
    assert (await refused(fake, select(25)))[0] == 200
    status, answer = await refused(fake, select(26))
    assert status == 400 and "options" in answer["errors"]["components"]["0"]["components"]["0"]


async def test_attachments_are_at_most_10_mib_in_all(tmp_path):
    fake = FakeDiscord(time_scale=1.0)
    assert ATTACHMENTS_MAX_BYTES == 10 * 1024 * 1024
    half = b"\0" * (ATTACHMENTS_MAX_BYTES // 2)
    assert (await refused(fake, {"content": "a"}, [("a.png", half), ("b.png", half)]))[0] == 200
    status, answer = await refused(fake, {"content": "a"}, [("a.png", half), ("b.png", half + b"!")])
    assert status == 413 and answer["code"] == 40005
    # as discord.py sends it (multipart), and as it reports it
    h = await start_bot(tmp_path / "bot.sqlite3", fake)
    with pytest.raises(discord.HTTPException) as raised:
        await h.bot.get_partial_messageable(31).send(
            "big", file=discord.File(io.BytesIO(half + half + b"!"), filename="big.png"))
    assert raised.value.status == 413 and raised.value.code == 40005
    await h.bot.close()


# -- the bot's own pacing --------------------------------------------------------------------------

async def test_the_budget_keeps_any_second_under_its_rate_and_serves_people_first():
    from collections import deque

    from bot.ui.budget import URGENT

    budget = Budget(40)
    released = []  # when the budget let each call go, on its own clock

    class Logged(deque):
        def append(self, at):
            released.append(at)
            super().append(at)
    budget._window = Logged()
    order = []

    async def one(tag, urgent=False):
        URGENT.set(urgent)
        await budget.acquire()
        order.append(tag)

    background = [asyncio.create_task(one(f"b{i}")) for i in range(60)]
    await asyncio.sleep(0.1)
    let_through = budget.spent
    person = asyncio.create_task(one("person", urgent=True))
    await asyncio.gather(*background, person)
    assert 0 < let_through < 60
    assert order.index("person") == let_through  # the next place, ahead of 50-odd waiting
    for i, at in enumerate(released):
        assert sum(1 for t in released[i:] if t < at + 1.0 - 1e-9) <= 40
    # and spread evenly, not in bursts: no two calls closer than a 40th of a second
    assert min(b - a for a, b in zip(released, released[1:])) >= 1 / 40 - 1e-9


@pytest.mark.slow
async def test_two_processes_on_one_token_stay_under_50_in_any_second():
    """Real processes, a real HTTP port: each takes its share of the token's budget, so
    Discord never sees more than 50 counted calls in a second and never answers a global
    429. Each thinking it is alone, they are answered 429s: the budget is the token's."""
    from bot.testing.shared_budget import run_processes

    shared = await run_processes(90, 2, share=True)
    assert shared["exit_codes"] == [0, 0] and shared["delivered"] == 180, shared
    assert shared["max_counted_in_any_second"] <= 50 and shared["global_429"] == 0, shared
    alone = await run_processes(90, 2, share=False)
    assert alone["global_429"] > 0, alone  # (discord.py even gives some up after 5 tries)
