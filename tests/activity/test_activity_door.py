"""The Activity's door, tried from outside: junk sign-ins cost the sender their share and never
more calls to Discord than the throttle lets through; Discord's own rate limit or failure is
"try again", not "code refused"; an instance id not in Discord's shape reaches no URL; and a
session ends once its person has left the activity instance."""
from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from bot.activity.door import SignInThrottle, instance_id_ok
from bot.i18n import t
from bot.testing.activity_kit import Page, code_for, start_activity_bot
from bot.testing.fake_discord import Member
from bot.testing.flows import start_table

GOOD_SHAPE = "i-1276580072400224306-gc-912952092627435520-912954213460484116"


@pytest.fixture
async def door(tmp_path):
    h = await start_activity_bot(tmp_path / "bot.sqlite3", activity_signin_per_address=5,
                                 activity_signin_per_minute=50, activity_signin_in_flight=2)
    async with aiohttp.ClientSession() as http:
        yield h, http
    await h.bot.close()


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def post_session(h, http, body):
    """(status, Retry-After header, JSON answer) of one ``POST /api/session``."""
    url = h.bot.activity_server.url.rstrip("/") + "/api/session"
    async with http.post(url, json=body) as response:
        return response.status, response.headers.get("Retry-After"), await response.json()


def token_calls(h):
    return [r for r in h.fake.requests if r.oauth and r.path == "/oauth2/token"]


async def test_junk_sign_ins_are_throttled_per_address_and_come_back_after_the_minute(door):
    h, http = door
    server = h.bot.activity_server
    clock = Clock(1000.0)
    server.throttle.clock = clock
    answers = [await post_session(h, http, {"code": f"junk-{n}", "instance_id": GOOD_SHAPE})
               for n in range(20)]
    # Five reached Discord (and were refused there); the other fifteen never did.
    assert [a[0] for a in answers[:5]] == [401] * 5
    assert len(token_calls(h)) == 5
    for status, wait, body in answers[5:]:
        assert status == 429 and body["error"]["code"] == "too_many"
        assert body["error"]["message"] == t("activity.server.error.too_many", "en")
        assert wait is not None and 1 <= int(wait) <= 60
    # A minute later the address has its share again.
    clock.now += 60.0
    status, _, body = await post_session(h, http, {"code": "junk-x", "instance_id": GOOD_SHAPE})
    assert status == 401 and body["error"]["code"] == "code_refused"
    assert len(token_calls(h)) == 6


def test_the_total_counts_every_address_and_the_oldest_attempt_says_when():
    clock = Clock(0.0)
    door = SignInThrottle(per_address=3, total=5, in_flight=10, clock=clock)
    assert [door.admit(f"10.0.0.{n}") for n in range(5)] == [None] * 5
    clock.now = 12.0
    assert door.admit("10.0.0.99") == pytest.approx(48.0)  # the first attempt leaves at 60 s
    clock.now = 60.0
    assert door.admit("10.0.0.99") is None
    # One address alone stops at its own share even when the total has room.
    for _ in range(3):
        assert door.admit("10.9.9.9") is None
    assert door.admit("10.9.9.9") == pytest.approx(60.0)


class GatedSession:
    """Discord's OAuth2 answers held back until the test lets them through."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.entered = 0
        self.changed = asyncio.Event()
        self.open = asyncio.Event()

    def request(self, method, url, **kwargs):
        gate = self

        class Held:
            async def __aenter__(self):
                gate.entered += 1
                gate.changed.set()
                await gate.open.wait()
                self.inner = gate.inner.request(method, url, **kwargs)
                return await self.inner.__aenter__()

            async def __aexit__(self, *exc):
                return await self.inner.__aexit__(*exc)

        return Held()


async def test_only_a_few_code_exchanges_are_in_flight_at_once(door):
    h, http = door
    oauth = h.bot.activity_server.oauth
    gate = GatedSession(oauth.session)
    oauth.session = gate
    players = [Member(101 + n, f"P{n}") for n in range(3)]
    codes = [code_for(h, p, 555) for p in players]
    held = [asyncio.create_task(post_session(h, http, {"code": c, "instance_id": i}))
            for c, i in codes[:2]]
    while gate.entered < 2:
        gate.changed.clear()
        await gate.changed.wait()
    # Two exchanges wait on Discord: the third is told to come back, and Discord never sees it.
    extra = asyncio.create_task(post_session(
        h, http, {"code": codes[2][0], "instance_id": codes[2][1]}))
    while not extra.done() and gate.entered < 3:
        gate.changed.clear()
        waiting = asyncio.create_task(gate.changed.wait())
        await asyncio.wait({extra, waiting}, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
    gate.open.set()
    status, wait, body = await extra
    assert gate.entered == 2
    assert status == 429 and body["error"]["code"] == "too_many" and wait == "1"
    assert [(await task)[0] for task in held] == [200, 200]


@pytest.mark.parametrize("failure", [429, 500, 502])
async def test_discords_rate_limit_or_failure_is_try_again_never_code_refused(door, failure):
    h, http = door
    ana = Member(101, "Ana")
    code, instance = code_for(h, ana, 555)
    h.fake.apps.token_failures.append(failure)
    status, wait, body = await post_session(h, http, {"code": code, "instance_id": instance})
    assert status == 503 and body["error"]["code"] == "discord_failed"
    assert body["error"]["message"] == t("activity.server.error.discord_failed", "en")
    assert wait == ("8" if failure == 429 else "5")  # Discord's 7.5 s, rounded up
    # The code was never spent: the same one signs in once Discord answers again.
    status, _, body = await post_session(h, http, {"code": code, "instance_id": instance})
    assert status == 200 and body["user"]["id"] == str(ana.id)


@pytest.mark.parametrize("instance", [
    ".", "..", "../..", "i-1/../..", "i-123-gc-1-2/..", "a/b", "i-1-gc-1-2?x=1", "i-1-gc-1-2#",
    "i-1%2F..", "", "i-" + "1" * 300, "1276580072400224306", "i-12-xx-1", None, 5])
async def test_an_instance_id_not_in_discords_shape_reaches_no_url(door, instance):
    h, http = door
    code, _ = code_for(h, Member(101, "Ana"), 555)
    before = len(h.fake.requests)
    status, _, body = await post_session(h, http, {"code": code, "instance_id": instance})
    assert status == 400 and body["error"]["code"] == "bad_request"
    assert h.fake.requests[before:] == []  # not the code exchange, not the bot-token call


def test_discords_instance_ids_in_a_server_and_in_a_private_channel_pass():
    assert instance_id_ok(GOOD_SHAPE)
    assert instance_id_ok("i-1276580072400224306-pc-912954213460484116")
    assert not instance_id_ok("i-1276580072400224306-gc-912952092627435520")


def instance_calls(h):
    return [r for r in h.fake.requests if "/activity-instances/" in r.path]


async def test_a_session_ends_when_its_person_leaves_the_instance(door):
    h, http = door
    server = h.bot.activity_server
    clock = Clock(server.clock())
    server.presence.clock = clock
    players = [Member(101, "Ana"), Member(102, "Ben")]
    table = await start_table(h, "sarena", players)
    ana, ben = Page(h, http), Page(h, http)
    code, instance = code_for(h, players[0], table.thread)
    await ana.sign_in(code, instance)
    await ben.sign_in(*code_for(h, players[1], table.thread, instance))
    calls = len(instance_calls(h))
    h.fake.apps.leave(instance, players[0].id)
    # Within the re-check period Discord is not asked again: both still read the table.
    status, _ = await ana.call("GET", f"/api/tables/{table.id}")
    assert status == 200 and len(instance_calls(h)) == calls
    clock.now += server.settings.activity_recheck_seconds
    status, answer = await ana.call("GET", f"/api/tables/{table.id}")
    assert status == 401 and answer["error"]["code"] == "session_left"
    assert answer["error"]["message"] == t("activity.server.error.session_left", "en")
    live = await h.bot.tables.get(table.id)
    status, answer = await ana.act(table.id, live.row.version,
                                   [live.game.legal_actions(live.game.to_move)[0]])
    assert status == 401 and answer["error"]["code"] == "session_left"
    assert (await h.bot.tables.get(table.id)).row.version == live.row.version
    # Ben, still there, plays on; one look at Discord served both of them.
    status, _ = await ben.call("GET", f"/api/tables/{table.id}")
    assert status == 200 and len(instance_calls(h)) == calls + 1


async def test_a_live_connection_looks_again_and_an_open_one_ends_after_leaving(door):
    h, http = door
    server = h.bot.activity_server
    clock = Clock(server.clock())
    server.presence.clock = clock
    players = [Member(101, "Ana"), Member(102, "Ben")]
    table = await start_table(h, "sarena", players)
    page = Page(h, http)
    code, instance = code_for(h, players[0], table.thread)
    await page.sign_in(code, instance)
    ready = await page.open_live([table.id])
    assert ready["type"] == "ready"
    h.fake.apps.end(instance)  # everyone closed it: Discord answers 404 for the instance
    # A new connection asks Discord at once (the sign-in's look is older than a few seconds).
    clock.now += 11.0
    ws = await http.ws_connect(page.base + "/api/live")
    await ws.send_str(json.dumps({"type": "hello", "session": page.session}))
    refused = json.loads((await ws.receive(timeout=10)).data)
    assert refused["type"] == "error" and refused["error"]["code"] == "session_left"
    assert (await ws.receive(timeout=10)).data == 4401
    await ws.close()
    # The socket already open ends at its next look.
    clock.now += server.settings.activity_recheck_seconds
    await page.ws.send_str(json.dumps({"type": "ping"}))
    while True:
        message = await page.receive()
        if message["type"] == "error":
            break
    assert message["error"]["code"] == "session_left"
    await page.close()


async def test_a_discord_outage_does_not_end_the_sessions(door):
    h, http = door
    server = h.bot.activity_server
    clock = Clock(server.clock())
    server.presence.clock = clock
    players = [Member(101, "Ana"), Member(102, "Ben")]
    table = await start_table(h, "sarena", players)
    page = Page(h, http)
    await page.sign_in(*code_for(h, players[0], table.thread))

    async def down(instance_id):
        from bot.activity.discord_api import DiscordRefused
        raise DiscordRefused("activity instance", 503)

    server.presence.fetch = down
    clock.now += server.settings.activity_recheck_seconds
    status, _ = await page.call("GET", f"/api/tables/{table.id}")
    assert status == 200
