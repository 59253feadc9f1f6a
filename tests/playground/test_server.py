"""The playground's server without a browser: what it serves and refuses, who sees which
message, and that `python -m bot play` starts with no token and no configuration."""
from __future__ import annotations

import asyncio
import io
import os
import signal
import sys

import pytest
from aiohttp import ClientSession
from PIL import Image

from bot.testing.fake_discord import find_component

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _post(session, url, path, body, **headers):
    async with session.post(url.rstrip("/") + path, json=body, headers=headers) as r:
        return r.status, (await r.json() if r.content_type == "application/json" else await r.text())


async def test_it_serves_its_page_and_assets_and_nothing_else(playground):
    async with ClientSession() as s:
        for path, kind in (("/", "text/html"), ("/static/app.js", "text/javascript"),
                           ("/static/render.js", "text/javascript"), ("/static/style.css", "text/css")):
            async with s.get(playground.url.rstrip("/") + path) as r:
                assert r.status == 200 and r.content_type == kind
                assert "script-src 'self'" in r.headers["Content-Security-Policy"]
        for path in ("/static/../host.py", "/static/host.py", "/uploads/1", "/uploads/../../etc/passwd",
                     "/etc/passwd", "/static/%2e%2e/host.py", "/uploads/abc"):
            async with s.get(playground.url.rstrip("/") + path) as r:
                assert r.status == 404, path
        async with s.post(playground.url + "api/command", data="text=/games") as r:
            assert r.status == 415  # a form from another site cannot post here
        status, _ = await _post(s, playground.url, "/api/command", {"text": "/games"},
                                Origin="http://evil.example")
        assert status == 403
        async with s.get(playground.url, headers={"Host": "evil.example"}) as r:
            assert r.status == 421  # a rebound DNS name does not reach a loopback playground


async def test_bad_input_is_answered_not_raised(playground):
    async with ClientSession() as s:
        for text, answer in (("/dance", "is not a command"), ("x" * 10_000, "2,000 or fewer"),
                             ("/narabi start players:9", "between 3 and 5"),
                             ("/sensei move", "is required")):
            status, body = await _post(s, playground.url, "/api/command", {"text": text})
            assert status == 200 and answer in body["error"], (text, body)
        status, body = await _post(s, playground.url, "/api/click",
                                   {"message": "12", "custom_id": "sensei:1:move"})
        assert body == {"error": "Unknown message: it was deleted."}
        status, _ = await _post(s, playground.url, "/api/click", {"message": "x", "custom_id": 3})
        assert status == 400


async def test_an_ephemeral_reply_is_shown_only_to_who_asked(playground):
    ana = playground.member("Ana")
    ben = playground.member("Ben")
    answer = await playground.command(ana, "/sensei rules", playground.channel_id)
    await playground.harness.settle()
    mine = [m for m in playground.snapshot(ana)["messages"] if m["ephemeral"]]
    # The answer names the message the command made (the page follows a thread opened from it).
    assert answer == {"ok": True, "message": mine[0]["id"]}
    assert mine and mine[0]["interaction"] == {"user": str(ana.id), "command": "/sensei rules",
                                               "reply_to": None}
    assert not [m for m in playground.snapshot(ben)["messages"] if m["ephemeral"]]
    # a click on a message Ben cannot see is refused like an unknown message
    answer = await playground.click(ben, int(mine[0]["id"]), "x", None)
    assert answer == {"error": "Unknown message: it was deleted."}


async def test_board_pictures_are_served_from_the_bot_uploads(playground):
    """…with their size, as Discord gives it, so the page keeps their place before they load."""
    ana = playground.member("Ana")
    await playground.command(ana, "/sarena start ai:easy", playground.channel_id)
    await playground.harness.settle()
    boards = [m for m in playground.snapshot(ana)["messages"]
              if any((e.get("image") or {}).get("url") for e in m["embeds"])]
    assert boards
    image = boards[-1]["embeds"][0]["image"]
    async with ClientSession() as s:
        async with s.get(playground.url.rstrip("/") + image["url"]) as r:
            assert r.status == 200 and r.content_type == "image/png"
            data = await r.read()
    assert data.startswith(b"\x89PNG")
    with Image.open(io.BytesIO(data)) as picture:
        assert (image["width"], image["height"]) == picture.size
    assert find_component(playground.fake.messages[int(boards[-1]["id"])], "move")


@pytest.mark.slow
async def test_play_starts_with_no_token_and_no_configuration(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env["PYTHONPATH"] = os.getcwd()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "play", "--port", "0", "--no-browser", cwd=tmp_path,
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        assert line.startswith("Playground ready: http://127.0.0.1:"), line
        url = line.split()[2]
        async with ClientSession() as s, s.get(url) as r:
            assert r.status == 200 and 'placeholder="Message' in await r.text()
    finally:
        process.send_signal(signal.SIGINT)
        code = await asyncio.wait_for(process.wait(), 30)
    assert code == 0, (await process.stderr.read()).decode()[-2000:]


async def test_a_group_chat_where_ana_installed_the_app(playground):
    """The playground's group chat: the bot is no member there, only Ana sees the app's
    commands, everyone clicks, the table is one message, asides only for the clicker."""
    from bot.testing.remote_flows import bot_calls_into, table_message

    ana = playground.member("Ana")
    ben = playground.member("Ben")
    group = playground.group
    assert playground.snapshot(ben)["channels"]["group"]["id"] == str(group.channel_id)
    refused = await playground.command(ben, "/sensei start", group.channel_id)
    assert "Only Ana installed the app" in refused["error"]
    started = await playground.command(ana, "/sensei start", group.channel_id)
    await playground.harness.settle()
    lobby = table_message(playground.harness, group)
    assert started == {"ok": True, "message": str(lobby["id"])}  # the table is that message
    join = find_component(lobby, "join")["custom_id"]
    assert await playground.click(ben, int(lobby["id"]), join, None) == {"ok": True}
    await playground.harness.settle()
    start = find_component(table_message(playground.harness, group), "start")["custom_id"]
    assert await playground.click(ana, int(lobby["id"]), start, None) == {"ok": True}
    await playground.harness.settle()
    board = table_message(playground.harness, group)
    assert board["id"] == lobby["id"] and board["attachments"]
    move = find_component(board, "move")["custom_id"]
    live = await playground.bot.tables.get(int(move.split(":")[1]))
    mover = (ana, ben)[live.game.to_move]
    other = (ana, ben)[1 - live.game.to_move]
    assert await playground.click(mover, int(board["id"]), move, None) == {"ok": True}
    await playground.harness.settle()
    mine = [m for m in playground.snapshot(mover)["messages"] if m["ephemeral"]]
    assert mine and not [m for m in playground.snapshot(other)["messages"] if m["ephemeral"]]
    assert bot_calls_into(playground.harness, group) == []
