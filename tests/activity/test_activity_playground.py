"""`python -m bot play`: Open board is answered with LAUNCH_ACTIVITY, the playground hands the
clicker's page the Activity's address with a one-time code the stand-in exchanges, and the
Activity (told by its server, not the page, to use the SDK's mock) signs that person in."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from aiohttp import ClientSession

import pytest

from bot.testing.activity_kit import Page
from bot.testing.fake_discord import find_component
from tests.playground.conftest import playground  # noqa: F401  (the fixture)

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_open_board_in_the_playground_opens_the_activity_for_the_clicker(playground):
    ana, ben = playground.member("Ana"), playground.member("Ben")
    await playground.command(ana, "/sarena start", playground.channel_id)
    await playground.harness.settle()
    lobby = playground.fake.channel_messages(playground.channel_id)[-1]
    await playground.click(ben, int(lobby["id"]), find_component(lobby, "join")["custom_id"], None)
    await playground.harness.settle()
    lobby = playground.fake.messages[int(lobby["id"])]
    await playground.click(ana, int(lobby["id"]), find_component(lobby, "start")["custom_id"], None)
    await playground.harness.settle()
    board = next(m for m in playground.fake.messages.values() if m["attachments"])
    answer = await playground.click(ben, int(board["id"]),
                                    find_component(board, "board")["custom_id"], None)
    url = answer["activity"]["url"]
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    assert query["channel_id"] == board["channel_id"] and query["platform"] == "desktop"
    code = parts.fragment.removeprefix("code=")
    server = playground.bot.activity_server
    assert url.startswith(server.url)

    async with ClientSession() as http:
        async with http.get(server.url + "api/config") as r:
            assert (await r.json())["mock"] is True
        async with http.get(playground.url) as r:
            assert f"frame-src {server.url.rstrip('/')}" in r.headers["Content-Security-Policy"]
        page = Page(playground.harness, http)
        signed = await page.sign_in(code, query["instance_id"])
        assert signed["user"] == {"id": str(ben.id), "name": "Ben", "avatar": None}
        state = await page.state(signed["table"])
        assert state["seat"] == 1 and state["private"]["colour"]


async def test_the_entry_point_opens_the_activity_on_the_channels_tables(playground):
    ana = playground.member("Ana")
    answer = await playground.command(ana, "/launch", playground.channel_id)
    url = answer["activity"]["url"]
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    assert query["channel_id"] == str(playground.channel_id)
    async with ClientSession() as http:
        page = Page(playground.harness, http)
        signed = await page.sign_in(parts.fragment.removeprefix("code="), query["instance_id"])
        assert signed["table"] is None
        status, made = await page.call("POST", "/api/tables", {"game": "sensei"})
        assert status == 200
        status, listing = await page.call("GET", "/api/tables")
        assert [t["id"] for t in listing["tables"]] == [made["table"]["id"]]
        assert listing["tables"][0]["names"] == ["Ana"]
