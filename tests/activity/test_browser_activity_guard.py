"""What the Activity's page is shown and what it may do, seen from the browser: a spectator's
board carries no secret (nor does anything the server sends it), and an action sent with a
session whose person does not hold the seat to move is refused, with the reason shown, and
nothing changes on any board."""
from __future__ import annotations

import json
import secrets

import pytest

from ..playground.conftest import browser, playground, shots  # noqa: F401  (fixtures)
from ..playground.driver import board_src, open_page, open_thread, screenshot
from .browser_kit import open_board, sarena_of_two, version, your_turn

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")


def _listen(page) -> dict:
    """Everything the Activity's server sends this page (JSON answers and live frames), and
    the session it signs in with."""
    seen: dict = {"bodies": [], "session": None}

    async def answered(response) -> None:
        if "/api/" in response.url and "json" in (response.headers.get("content-type") or ""):
            try:
                seen["bodies"].append(await response.json())
            except Exception:  # noqa: BLE001 - a body already gone (page navigated)
                pass

    def requested(request) -> None:
        auth = request.headers.get("authorization", "")
        if auth.startswith("Bearer "):
            seen["session"] = auth.removeprefix("Bearer ")

    def socket(ws) -> None:
        ws.on("framereceived", lambda payload: seen["bodies"].append(json.loads(payload)))

    page.on("response", answered)
    page.on("request", requested)
    page.on("websocket", socket)
    return seen


def _states(bodies: list) -> list[dict]:
    out = []
    for body in bodies:
        if isinstance(body, dict) and body.get("type") == "state":
            out.append(body["state"])
        elif isinstance(body, dict) and "public" in body and "seat" in body:
            out.append(body)
    return out


async def test_a_spectator_sees_the_public_board_only(browser, playground, shots):  # noqa: F811
    ana = await open_page(browser, playground.url, "Ana")
    ben = await open_page(browser, playground.url, "Ben")
    cleo = await open_page(browser, playground.url, "Cleo")
    await sarena_of_two(ana, ben)
    heard = _listen(cleo)
    await open_thread(cleo, "Sàréná")
    frame = await open_board(cleo)
    await frame.locator("section.table.spectator").wait_for()
    assert await frame.locator(".private .secret").count() == 0
    assert await frame.locator("svg.board .source").count() == 0  # nothing to touch
    seated = await open_board(ana)
    mine = (await seated.locator(".private .secret strong").inner_text()).strip()
    # Ana's move reaches Cleo's board live, still without a secret
    before = await version(frame)
    if await your_turn(seated):
        await seated.locator("svg.board [data-place].source").first.click()
        await seated.locator("svg.board [data-place].target").first.click()
        await frame.locator(f"section.table:not([data-version='{before}'])").wait_for(timeout=30_000)
    await screenshot(cleo, shots, "activity-spectator", 400)
    text = await frame.locator("body").inner_text()
    assert "colour (only you" not in text and mine not in text
    states = _states(heard["bodies"])
    assert states, "the spectator's page was sent no table state"
    for state in states:
        assert state["seat"] is None and state["private"] is None and state["legal"] is None
    assert not cleo.errors and not ana.errors


async def test_another_persons_seat_is_refused_and_nothing_changes(browser, playground, shots):  # noqa: F811
    ana = await open_page(browser, playground.url, "Ana")
    ben = await open_page(browser, playground.url, "Ben")
    cleo = await open_page(browser, playground.url, "Cleo")
    await sarena_of_two(ana, ben)
    await open_thread(ben, "Sàréná")
    await open_thread(cleo, "Sàréná")
    heard = {name: _listen(page) for name, page in (("ana", ana), ("ben", ben), ("cleo", cleo))}
    ana_board, ben_board = await open_board(ana), await open_board(ben)
    await open_board(cleo)
    if await your_turn(ana_board):
        mover, waiter, waiting = ana_board, ben_board, "ben"
    else:
        mover, waiter, waiting = ben_board, ana_board, "ana"
    table = int(await mover.locator("section.table").get_attribute("data-table"))
    at = await version(mover)
    # a move the mover may make, sent with the others' sessions: the page never names a seat,
    # so another person's session is the only way to act "for" a seat
    source = await mover.locator("svg.board [data-place].source").first.get_attribute("data-place")
    await mover.locator(f"svg.board [data-place='{source}']").first.click()
    target = await mover.locator("svg.board [data-place].target").first.get_attribute("data-place")
    picture = await board_src(ana)
    base = playground.bot.activity_server.url.rstrip("/")
    attempts = [heard["cleo"]["session"], heard[waiting]["session"]]
    assert all(attempts), "a page signed in without a session"
    refused = []
    for session in attempts:
        answer = await cleo.request.post(
            f"{base}/api/tables/{table}/actions",
            headers={"Authorization": f"Bearer {session}"},
            data={"version": at, "nonce": secrets.token_hex(8),
                  "actions": [{"type": "move", "from": source, "to": target}]})
        body = await answer.json()
        assert answer.status in (403, 409, 422), (answer.status, body)
        assert body["error"]["message"], body
        refused.append(body["error"]["code"])
    assert refused[0] == "not_seated" and len(refused) == 2, refused
    # nothing changed: every board still at the same version, the thread's picture the same
    assert await version(mover) == at and await version(waiter) == at
    assert await board_src(ana) == picture
    # a refusal the page meets itself is shown in words: the move sent on an older version (as
    # when another tab moved first) is refused as stale, and the page shows why
    page_of_mover = ana if mover is ana_board else ben

    async def older(route) -> None:
        body = json.loads(route.request.post_data or "{}")
        body["version"] = body.get("version", 0) - 1
        await route.continue_(post_data=json.dumps(body))

    await page_of_mover.route(f"{base}/api/tables/{table}/actions", older)
    await mover.locator(f"svg.board [data-place='{target}']").first.click()
    toast = mover.locator("#toast")
    await toast.wait_for(state="visible", timeout=15_000)
    assert (await toast.inner_text()).strip()
    await screenshot(page_of_mover, shots, "activity-refused", 1280)
    assert await board_src(ana) == picture
