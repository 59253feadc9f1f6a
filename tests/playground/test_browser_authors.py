"""Discord's header over every message made through an interaction, read in Chromium: a game of
Sensei against the easy AI played to its end in the page. Ana's headers sit only over what Ana
did (her command's answer, the line of each of her turns); the AI's turns and the end of the
game are under the bot's name alone."""
from __future__ import annotations

import re

import pytest

from .driver import BOARD, check_page, is_over, open_page, resign, send
from .test_browser_games import _solo

#: the ``browser`` (one Chromium per worker, started once) and ``playground`` fixtures live
#: in the session's event loop, and so do these tests
pytestmark = pytest.mark.asyncio(loop_scope="session")

MOVER = re.compile(r"Turn \d+ · (?P<who>.+?)(?:: | resigned| cannot move| offers)")

#: every public message in the open channel: its header (user, reply or command) and its text
READ = """() => [...document.querySelectorAll('#messages article:not(.ephemeral)')].map((a) => {
  const used = a.querySelector(':scope > .used');
  const text = a.querySelector(':scope > .body > .md');
  return {id: a.id, user: used ? used.dataset.user : null,
          reply: used ? used.dataset.replyTo || null : null,
          header: used ? used.textContent : "", content: text ? text.textContent : ""};
})"""


async def test_every_public_message_in_a_game_against_the_ai_under_its_own_author(
        browser, playground, shots):
    page = await open_page(browser, playground.url, "Ana")
    await send(page, "/sensei start ai:easy")
    await page.locator(BOARD).last.wait_for(timeout=45_000)  # the thread opened by itself
    # Six turns of hers, then she resigns (a game to its natural end took 4–70 s: the easy
    # AI and Ana's first choices can wander for 64 turns): her resignation's line is hers,
    # the end the bot's.
    moves = await _solo(page, shots, "sensei-authors", "Move", finish="Send turn", turns=6)
    if await resign(page):
        moves += 1
    await page.get_by_text("Game over").first.wait_for(timeout=45_000)
    # The end rides on the board's edit, which the bot makes before it posts the last move's
    # line: the page is read once everything the bot posted in the thread has reached it.
    await playground.harness.settle()
    thread = next(iter(playground.fake.threads))
    posted = [f"m-{m['id']}" for m in playground.fake.channel_messages(thread)
              if not m.get("flags", 0) & 64]
    await page.wait_for_function("ids => ids.every((id) => document.getElementById(id))",
                                 arg=posted, timeout=45_000)
    assert moves >= 1 and await is_over(page)
    ana = str(next(uid for uid, m in playground.people.items() if m.name == "Ana"))
    seen = await page.evaluate(READ)
    headed = [m for m in seen if m["user"]]
    # Ana's turn lines hang on her own interactions: a reply bar to her click's answer. A
    # click answered with "thinking…" (a step's picture slow to draw, on a busy machine) cannot
    # carry a line (its first follow-up fills the private placeholder), nor can a click whose
    # answer Discord refused as past its three seconds (on a very busy machine): those lines
    # are the bot's.
    thinking = sum(1 for r in playground.fake.requests if r.path.endswith("/callback")
                   and isinstance(r.json, dict) and r.json.get("type") == 5)
    late = len(playground.fake.late_answers)
    assert headed and len(headed) >= moves - thinking - late, (moves, thinking, late, [
        m["content"][:60] for m in seen if not m["user"] and "Ana" in m["content"]][-6:])
    # What the bot sent, beside what the page counted: each line of Ana's went out through one
    # of her own interactions but those the answers above could not carry, and each of those
    # follow-ups stands on the page under her header.
    said = [r.path.startswith("/webhooks/") for r in playground.fake.requests
            if r.method in ("POST", "PATCH") and r.status < 300 and isinstance(r.json, dict)
            and (f := MOVER.search(r.json.get("content") or "")) and f["who"] == "Ana"]
    assert len(said) >= moves and said.count(False) <= thinking + late, (len(said), said)
    assert len(headed) == said.count(True)
    for m in headed:
        assert m["user"] == ana, m
        found = MOVER.search(m["content"])
        assert m["reply"] and found and found["who"] == "Ana", m
        assert "@Ana" in m["header"]
    # nothing of the AI's, nor the end, under anyone's header
    for m in seen:
        found = MOVER.search(m["content"])
        if (found and "AI" in found["who"]) or "Game over" in m["content"]:
            assert m["user"] is None, m
    assert any("Game over" in m["content"] and m["user"] is None for m in seen)
    # The AI's turns were told: on the board, by the bot's own edits of it (an edit replaces
    # the line before, so the page at the end may show none of them).
    told = [r for r in playground.fake.requests
            if r.method == "PATCH" and r.path.startswith("/channels/")
            and isinstance(r.json, dict) and (f := MOVER.search(r.json.get("content") or ""))
            and "AI" in f["who"]]
    assert told
    await check_page(page)
    # the main channel: the lobby is the answer to Ana's own /sensei start
    await page.locator("#channels a.chan").first.click()
    lobby = [m for m in await page.evaluate(READ) if m["user"]]
    assert lobby and all(m["user"] == ana and not m["reply"] for m in lobby)
    assert any("/sensei start" in m["header"] for m in lobby)
