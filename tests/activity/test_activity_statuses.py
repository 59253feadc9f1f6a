"""API.md's table of statuses is the server's: each row is provoked against a running server
and answered with that status and code (and every refusal the server's code can give is in
the table)."""
from __future__ import annotations

import re
from pathlib import Path

import aiohttp
import pytest

from bot.activity import service as activity_service
from bot.activity.service import refusal
from bot.store import StoreFailure
from bot.testing.activity_kit import Page, code_for, start_activity_bot
from bot.testing.fake_discord import CHANNEL_ID, Member
from bot.testing.flows import start_table

API = Path(activity_service.__file__).with_name("API.md")
ACTIVITY = Path(activity_service.__file__).parent
GOOD_SHAPE = "i-1276580072400224306-gc-912952092627435520-912954213460484116"


def documented() -> dict[str, int]:
    text = API.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d{3}) \| `([a-z_]+)` \|", text, flags=re.M)
    assert rows, "API.md has no table of statuses"
    table: dict[str, int] = {}
    for status, code in rows:
        assert code not in table, f"{code} is in API.md twice"
        table[code] = int(status)
    return table


def test_every_refusal_the_server_can_give_is_in_the_table():
    table = documented()
    source = "\n".join(p.read_text(encoding="utf-8") for p in ACTIVITY.glob("*.py"))
    given = set(re.findall(r"(?:own_refusal|_later)\((\d{3}), \"([a-z_]+)\"", source))
    given |= {("401", code) for code in re.findall(r"SessionError\(\"([a-z_]+)\"", source)}
    assert given, "no refusal found in the server's code"
    for status, code in given:
        assert table.get(code) == int(status), f"{code}: server {status}, API.md {table.get(code)}"
    for code, status in activity_service._STATUS.items():
        if code in table:
            assert table[code] == status, code


@pytest.fixture
async def served(tmp_path):
    # room for the dozen sign-ins below from one address; the door still shuts past it
    h = await start_activity_bot(tmp_path / "bot.sqlite3", activity_signin_per_address=20)
    async with aiohttp.ClientSession() as http:
        yield h, http
    await h.bot.close()


async def test_each_row_of_the_table_is_what_the_server_answers(served):
    h, http = served
    server = h.bot.activity_server
    ana, ben, cleo = Member(101, "Ana"), Member(102, "Ben"), Member(103, "Cleo")
    table = await start_table(h, "sarena", [ana, ben])
    live = await h.bot.tables.get(table.id)
    mover, waiting = ((ana, ben) if live.game.to_move == 0 else (ben, ana))
    action = live.game.legal_actions(live.game.to_move)[0]
    version = live.row.version

    async def page_of(member, channel=table.thread, instance=None):
        page = Page(h, http)
        code, instance = code_for(h, member, channel, instance)
        await page.sign_in(code, instance)
        return page, instance

    pages = {}
    pages["ana"], instance = await page_of(ana)
    pages["mover"], _ = await page_of(mover, instance=instance)
    pages["waiting"], _ = await page_of(waiting, instance=instance)
    pages["cleo"], _ = await page_of(cleo, instance=instance)
    pages["elsewhere"], _ = await page_of(ana, channel=CHANNEL_ID + 7)
    anon = Page(h, http)
    seen: dict[str, int] = {}

    def saw(status, answer):
        seen[answer["error"]["code"]] = status

    saw(*await anon.call("POST", "/api/session", {}))
    saw(*await pages["ana"].call("POST", f"/api/tables/{table.id}/plan",
                                 {"version": version, "plan": []}))
    saw(*await pages["ana"].call("POST", f"/api/tables/{table.id}/ask", {"card": 1, "other": 2}))
    saw(*await anon.call("GET", "/api/tables", session=""))
    saw(*await anon.call("GET", "/api/tables", session="v1.e30.AAAA"))
    real_clock = server.sessions.clock
    server.sessions.clock = lambda: 10**11
    saw(*await pages["ana"].call("GET", "/api/tables"))
    server.sessions.clock = real_clock
    used, used_instance = code_for(h, cleo, table.thread)
    await Page(h, http).sign_in(used, used_instance)
    saw(*await anon.call("POST", "/api/session", {"code": used, "instance_id": used_instance}))
    # Dora has a real code, but Discord does not list her in that instance.
    doras_code, _ = code_for(h, Member(104, "Dora"), table.thread)
    saw(*await anon.call("POST", "/api/session", {"code": doras_code, "instance_id": instance}))
    saw(*await pages["cleo"].act(table.id, version, [action]))
    saw(*await pages["elsewhere"].call("GET", f"/api/tables/{table.id}"))
    saw(*await pages["ana"].call("GET", "/api/tables/987654"))
    saw(*await pages["mover"].act(table.id, version + 5, [action], nonce="nonce-once-1"))
    saw(*await pages["mover"].act(table.id, version, [action], nonce="nonce-once-1"))
    opened = await pages["elsewhere"].call("POST", "/api/tables", {"game": "narabi"})
    assert opened[0] == 200, opened
    saw(*await pages["elsewhere"].call("POST", "/api/tables", {"game": "narabi"}))
    saw(*await pages["waiting"].act(table.id, version, [action]))
    h.fake.apps.token_failures.append(503)
    code, fresh = code_for(h, cleo, table.thread)
    saw(*await anon.call("POST", "/api/session", {"code": code, "instance_id": fresh}))
    # A group DM's board (Discord's location kind "pc"): a game starts in the chat there.
    dm = Page(h, http)
    dm_instance = h.fake.apps.open_instance(CHANNEL_ID + 9, {"id": str(ana.id),
                                                              "username": "Ana"}, guild=None)
    await dm.sign_in(h.fake.apps.launches[-1]["code"], dm_instance)
    saw(*await dm.call("POST", "/api/tables", {"game": "sensei"}))
    # Leaving the instance: Discord no longer lists Cleo.
    h.fake.apps.leave(instance, cleo.id)
    looked = server.presence.clock
    server.presence.clock = lambda: looked() + server.settings.activity_recheck_seconds
    saw(*await pages["cleo"].call("GET", "/api/tables"))
    server.presence.clock = looked
    for n in range(200):  # the door shuts within its share
        status, answer = await anon.call("POST", "/api/session",
                                         {"code": f"junk{n}", "instance_id": GOOD_SHAPE})
        if status == 429:
            saw(status, answer)
            break
    # The one row no request can provoke without breaking the database: the mapping.
    seen["store_failed"] = refusal(StoreFailure("full"), "sarena", "en").status
    assert seen == documented()


async def test_not_your_turn_is_422_from_every_path(served):
    """Sensei's plan and send check the turn before the rules do: the same 422 as the rules."""
    h, http = served
    ana, ben = Member(101, "Ana"), Member(102, "Ben")
    table = await start_table(h, "sensei", [ana, ben])
    live = await h.bot.tables.get(table.id)
    waiting = (ana, ben)[1 - live.game.to_move]
    page = Page(h, http)
    await page.sign_in(*code_for(h, waiting, table.thread))
    state = await page.state(table.id)
    piece = next(iter(state["public"]["board"].items()))
    move = {"type": "stone", "from": piece[0], "to": piece[0]}
    for status, answer in (
            await page.call("POST", f"/api/tables/{table.id}/plan",
                            {"version": live.row.version, "plan": [move]}),
            await page.act(table.id, live.row.version, [move]),
            await page.act(table.id, live.row.version, [{"type": "end_turn"}])):
        assert (status, answer["error"]["code"]) == (422, "not_your_turn"), answer
