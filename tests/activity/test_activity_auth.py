"""The Activity trusts Discord, not the page: a session comes only from a code Discord gave
and an instance Discord lists the person in; a forged, expired or replayed request, or one
for another person's seat, is refused with a clear sentence and changes nothing."""
from __future__ import annotations

import json

import aiohttp
import pytest

from bot.i18n import t
from bot.testing.activity_kit import Page, code_for, start_activity_bot
from bot.testing.fake_discord import CHANNEL_ID, Member, find_component
from bot.testing.flows import board, start_table


@pytest.fixture
async def game(tmp_path):
    h = await start_activity_bot(tmp_path / "bot.sqlite3")
    players = [Member(101, "Ana"), Member(102, "Ben")]
    table = await start_table(h, "sarena", players)
    async with aiohttp.ClientSession() as http:
        yield h, table, http
    await h.bot.close()


async def to_move(h, table):
    """(the player to move, the other, the version, one of the mover's legal actions)"""
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    return (table.players[seat], table.players[1 - seat], live.row.version,
            live.game.legal_actions(seat)[0])


async def signed_page(h, http, member, table, instance=None):
    code, instance = code_for(h, member, table.thread, instance)
    page = Page(h, http)
    await page.sign_in(code, instance)
    return page, instance


@pytest.mark.slow
async def test_open_board_launches_the_activity_and_its_code_signs_in(game):
    h, table, http = game
    ana = table.players[0]
    opener = find_component(board(h, table), "board")
    assert opener["label"] == t("button.open_board", "en")
    token = await h.click(ana, board(h, table), opener["custom_id"])
    assert h.fake.replies(token)[-1] == {"type": 12}
    launch = h.fake.apps.launches[-1]
    assert launch["user_id"] == ana.id and launch["channel_id"] == table.thread

    page = Page(h, http)
    signed = await page.sign_in(launch["code"], launch["instance_id"])
    assert signed["user"]["id"] == str(ana.id)
    assert signed["channel_id"] == str(table.thread)
    assert signed["table"] == table.id  # the table whose button was clicked
    assert signed["strings"]["sarena.name"] == t("sarena.name", "en")
    # The person's own OAuth2 calls are not the bot's: the budget did not pay for them.
    assert all(not r.counted for r in h.fake.requests if r.oauth)
    assert [r.path for r in h.fake.requests if r.oauth] == ["/oauth2/token", "/users/@me"]

    # A code works once.
    status, answer = await Page(h, http).call("POST", "/api/session", {
        "code": launch["code"], "instance_id": launch["instance_id"]})
    assert status == 401 and answer["error"]["code"] == "code_refused"


@pytest.mark.slow
async def test_someone_not_in_the_instance_gets_no_session(game):
    h, table, http = game
    ana, ben = table.players
    _, instance = code_for(h, ana, table.thread)
    # Ben has a real code, but Discord does not list him in Ana's instance.
    code, _ = code_for(h, ben, table.thread)
    status, answer = await Page(h, http).call("POST", "/api/session",
                                              {"code": code, "instance_id": instance})
    assert status == 403 and answer["error"]["code"] == "not_in_instance"
    assert answer["error"]["message"] == t("activity.server.error.not_in_instance", "en")


@pytest.mark.slow
async def test_forged_expired_and_missing_sessions_are_refused_and_change_nothing(game):
    h, table, http = game
    ana, _, version, action = await to_move(h, table)
    page, _ = await signed_page(h, http, ana, table)
    session = page.session
    prefix, body, signature = session.split(".")
    # Claim to be Ben by editing the signed body: the signature no longer fits.
    claims = json.loads(__import__("base64").urlsafe_b64decode(body + "=="))
    claims["u"] = "102"
    forged_body = __import__("base64").urlsafe_b64encode(
        json.dumps(claims).encode()).rstrip(b"=").decode()
    for bad, code in ((f"{prefix}.{forged_body}.{signature}", "session_invalid"),
                      ("v1.e30.AAAA", "session_invalid"), ("", "session_missing")):
        status, answer = await page.call("POST", f"/api/tables/{table.id}/actions",
                            {"version": version, "nonce": "abcdefgh12", "actions": [action]},
                            session=bad or "")
        assert status == 401 and answer["error"]["code"] == code
        assert answer["error"]["message"] == t(f"activity.server.error.{code}", "en")
    # Time passes beyond the session's life.
    h.bot.activity_server.sessions.clock = lambda: 10**11
    status, answer = await page.act(table.id, version, [action])
    assert status == 401 and answer["error"]["code"] == "session_expired"
    live = await h.bot.tables.get(table.id)
    assert live.row.version == version


@pytest.mark.slow
async def test_a_replayed_action_is_refused_once_played(game):
    h, table, http = game
    ana, _, version, action = await to_move(h, table)
    page, _ = await signed_page(h, http, ana, table)
    status, answer = await page.act(table.id, version, [action], nonce="same-nonce-1")
    assert status == 200 and answer["state"]["version"] == version + 1
    status, answer = await page.act(table.id, version, [action], nonce="same-nonce-1")
    assert status == 409 and answer["error"]["code"] == "replayed"
    # A new nonce for the old version: the table moved on, so it is stale, not played again.
    status, answer = await page.act(table.id, version, [action], nonce="other-nonce")
    assert status == 409 and answer["error"]["code"] == "stale"
    assert answer["error"]["message"] == t("activity.server.error.stale", "en")
    assert (await h.bot.tables.get(table.id)).row.version == version + 1


@pytest.mark.slow
async def test_the_seat_is_the_sessions_never_the_pages(game):
    h, table, http = game
    ana, ben, version, action = await to_move(h, table)
    page, _ = await signed_page(h, http, ben, table)
    # Ben sends Ana's move (it is her turn), even naming her seat: he acts for his own only.
    status, answer = await page.act(table.id, version,
                                    [dict(action, seat=table.players.index(ana))])
    assert status == 422 and answer["error"]["code"] == "not_your_turn"
    assert (await h.bot.tables.get(table.id)).row.version == version
    # A spectator (not seated) is refused outright.
    carla = Member(103, "Cleo")
    watcher, _ = await signed_page(h, http, carla, table)
    status, answer = await watcher.act(table.id, version, [action])
    assert status == 403 and answer["error"]["code"] == "not_seated"
    assert answer["error"]["message"] == t("error.not_seated", "en")
    assert (await h.bot.tables.get(table.id)).row.version == version


@pytest.mark.slow
async def test_a_table_of_another_channel_is_not_shown(game):
    h, table, http = game
    page, _ = await signed_page(h, http, table.players[0], table)
    other = Page(h, http)
    code, instance = code_for(h, table.players[0], CHANNEL_ID + 5)
    await other.sign_in(code, instance)
    status, answer = await other.call("GET", f"/api/tables/{table.id}")
    assert status == 403 and answer["error"]["code"] == "other_channel"
    status, answer = await page.call("GET", f"/api/tables/{table.id}")
    assert status == 200 and answer["id"] == table.id


@pytest.mark.slow
async def test_every_answer_carries_a_strict_csp(game):
    h, table, http = game
    page, _ = await signed_page(h, http, table.players[0], table)
    async with http.get(page.base + "/api/config") as response:
        csp = response.headers["Content-Security-Policy"]
        config = await response.json()
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "unsafe" not in csp and "http:" not in csp.replace("http://127.0.0.1:*", "")\
        .replace("http://localhost:*", "")
    assert config["mock"] is False
    async with http.get(page.base + "/static/../../config.py") as response:
        assert response.status == 404


async def test_the_live_socket_wants_a_valid_session_and_ends_with_it(game):
    h, table, http = game
    page, _ = await signed_page(h, http, table.players[0], table)
    # A forged session in the first message: refused, and the socket closed.
    ws = await http.ws_connect(page.base + "/api/live")
    await ws.send_str(json.dumps({"type": "hello", "session": page.session[:-4] + "AAAA"}))
    refused = json.loads((await ws.receive(timeout=10)).data)
    assert refused["type"] == "error" and refused["error"]["code"] == "session_invalid"
    closing = await ws.receive(timeout=10)
    assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4401
    await ws.close()
    # A good one watches the table until the session runs out.
    ready = await page.open_live([table.id])
    assert ready == {"type": "ready", "user": str(table.players[0].id)}
    assert (await page.state_at(table.id, 0))["id"] == table.id
    h.bot.activity_server.sessions.clock = lambda: 10**11
    await page.ws.send_str(json.dumps({"type": "ping"}))
    ended = await page.receive()
    assert ended["type"] == "error" and ended["error"]["code"] == "session_expired"
