"""Narabi's par line in the replay viewer: the fewest switches that solve the deal, one page per
switch with the ring after it, searched once per table; the unknown and unsolvable cases; forged
clicks."""
from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image

from bot.games.narabi.solver import par
from bot.testing.fake_discord import components_of, find_component
from tests.helpers import attached, board, ephemeral_reply, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")

SOLVER = "bot.games.narabi.solver:par"


async def finished_narabi(h, players, moves: int = 2, **options):
    table = await start_table(h, "narabi", players[:3], **options)
    rng = random.Random(4)
    for _ in range(moves):
        live = await h.bot.tables.get(table.id)
        if live.row.status != "playing":
            break
        seat = live.game.to_move
        await h.bot.tables.act(table.id, table.players[seat].id,
                               rng.choice(live.game.legal_actions(seat)))
    live = await h.bot.tables.get(table.id)
    if live.row.status == "playing":
        await h.bot.tables.act(table.id, table.players[live.game.to_move].id, {"type": "resign"})
    h.bot.reconciler.mark(table.id)
    await h.settle()
    return table


async def open_viewer(h, member, table):
    b = board(h, table)
    token = await h.click(member, b, find_component(b, "replay")["custom_id"])
    return ephemeral_reply(h, token)


def counting_solver(h, monkeypatch):
    calls = []
    original = h.bot.pool.call

    async def call(function, *args, **kwargs):
        if function == SOLVER:
            calls.append(args)
        return await original(function, *args, **kwargs)

    monkeypatch.setattr(h.bot.pool, "call", call)
    return calls


def stone(cog, card: dict) -> str:
    return cog.stone(card, "en")


@pytest.mark.slow
async def test_the_par_line_pages_switch_by_switch_to_the_solved_ring(harness, players,
                                                                      monkeypatch):
    h = harness
    table = await finished_narabi(h, players)
    live = await h.bot.tables.with_game(table.id)
    cog = h.bot.router.cog("narabi")
    expected = par(live.game.to_json())
    assert expected["status"] == "found"
    line, total = expected["line"], expected["best"]
    calls = counting_solver(h, monkeypatch)  # the end's search is kept: no search from here on
    viewer = await open_viewer(h, players[1], table)
    buttons = components_of(viewer)
    assert len(buttons) == 6 and buttons[5]["label"] == "Par line"
    assert buttons[5]["custom_id"] == f"narabi:{table.id}:par:0.0.0"
    await h.click(players[1], viewer, buttons[5]["custom_id"])
    page = h.fake.messages[int(viewer["id"])]
    lines = page["content"].splitlines()
    assert lines[0] == f"**Narabi #{table.id}** — par line, switch 0 of {total}"
    assert f"solved in **{total}** switches" in page["content"]
    first, back, forward, last, to_replay = components_of(page)
    assert first["disabled"] and back["disabled"] and not forward["disabled"]
    assert to_replay["label"] == "Back to the replay"
    assert all(len(c["custom_id"]) <= 100 for c in components_of(page))
    cards = {c["id"]: c for c in live.game.to_json()["cards"]}
    names = live.names()
    pictures = [page["attachments"][0]["filename"]]
    for k, (seat, given, taken) in enumerate(line, start=1):
        token = await h.click(players[1], page, components_of(page)[2]["custom_id"])
        page = h.fake.messages[int(viewer["id"])]
        head, said = page["content"].splitlines()[:2]
        assert head.endswith(f"switch {k} of {total}")
        position = cog.par_position(live, line[:k])
        holder = position.seat_of(given)  # the given card lies where the taken one lay
        assert said == (f"{names[seat]} gives their {stone(cog, cards[given])} and takes "
                        f"{names[holder]}'s {stone(cog, cards[taken])}.")
        png = attached(h, token)
        assert Image.open(io.BytesIO(png)).format == "PNG"
        pictures.append(png)
        # The picture is the ring after switch k, every condition face up as in the replay.
        assert png == cog.render(cog.replay_view(position, live.game), names)
    assert position.result() is not None and position.result().to_json()["reason"] == "solved"
    assert "The stones are in order" in page["content"]
    assert components_of(page)[2]["disabled"] and components_of(page)[3]["disabled"]
    assert len(set(pictures[1:])) == total  # every switch changes the picture
    # ⏮ goes back to the deal, Back to the replay where the viewer was.
    await h.click(players[1], page, components_of(page)[0]["custom_id"])
    page = h.fake.messages[int(viewer["id"])]
    assert page["content"].splitlines()[0].endswith(f"switch 0 of {total}")
    await h.click(players[1], page, components_of(page)[4]["custom_id"])
    page = h.fake.messages[int(viewer["id"])]
    assert page["content"].splitlines()[0].endswith("move 0 of 3")
    assert components_of(page)[5]["label"] == "Par line"
    assert calls == []


async def test_the_search_runs_once_when_nothing_kept_it(harness, players, monkeypatch):
    """After a restart the end's search is gone: the first click searches (in the pool), is
    deferred while it runs past Discord's patience, and every later click reuses it."""
    import cogs.narabi.par_line as par_line

    h = harness
    table = await finished_narabi(h, players)
    cog = h.bot.router.cog("narabi")
    cog._pars.clear()
    calls = counting_solver(h, monkeypatch)
    slow = h.bot.pool.call

    async def slow_call(function, *args, **kwargs):
        await asyncio.sleep(0.2)
        return await slow(function, *args, **kwargs)

    monkeypatch.setattr(h.bot.pool, "call", slow_call)
    monkeypatch.setattr(par_line, "STEP_PICTURE_WAIT", 0.05)
    viewer = await open_viewer(h, players[0], table)
    await h.click(players[0], viewer, components_of(viewer)[5]["custom_id"])
    page = h.fake.messages[int(viewer["id"])]
    assert "par line, switch 0 of" in page["content"]
    for _ in range(2):
        await h.click(players[0], page, components_of(page)[2]["custom_id"])
        page = h.fake.messages[int(viewer["id"])]
    assert "switch 2 of" in page["content"]
    assert len(calls) == 1


@pytest.mark.slow
@pytest.mark.parametrize("found,says", [
    ({"best": None, "status": "unknown"}, "was not computed"),
    ({"best": None, "status": "none", "limit": 24}, "cannot be solved within 24 switches"),
])
async def test_a_deal_without_a_par_line_says_why(harness, players, found, says):
    h = harness
    table = await finished_narabi(h, players)
    cog = h.bot.router.cog("narabi")
    cog.remember_par(table.id, found)
    viewer = await open_viewer(h, players[0], table)
    await h.click(players[0], viewer, components_of(viewer)[5]["custom_id"])
    page = h.fake.messages[int(viewer["id"])]
    assert page["content"].splitlines()[0] == f"**Narabi #{table.id}** — par line"
    assert says in page["content"]
    [back] = components_of(page)
    assert back["label"] == "Back to the replay" and not page["attachments"]
    await h.click(players[0], page, back["custom_id"])
    assert h.fake.messages[int(viewer["id"])]["content"].splitlines()[0].endswith("move 0 of 3")


async def test_forged_par_clicks_are_refused(harness, players):
    h = harness
    table = await finished_narabi(h, players, moves=1)
    playing = await start_table(h, "narabi", players[:3])

    async def forged(table_id: int, arg: str) -> str:
        custom_id = f"narabi:{table_id}:par:{arg}"
        msg = h.fake._message(table.thread, {"content": "", "flags": 64, "components": [
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "x",
                                       "custom_id": custom_id}]}]}, [], flags=64)
        token = await h.click(players[0], msg, custom_id)
        return h.reply_text(token) or h.fake.messages[int(msg["id"])]["content"]

    # Not over yet: the par line would tell the secret conditions.
    assert "once the game is over" in await forged(playing.id, "0.0.0")
    assert "not valid any more" in await forged(table.id, "x.0.0")
    assert "not valid any more" in await forged(table.id, "1.0")
    assert "no longer exists" in await forged(987654, "0.0.0")
    # A page past the end is the last page.
    total = par((await h.bot.tables.with_game(table.id)).game.to_json())["best"]
    assert f"switch {total} of {total}" in await forged(table.id, f"{total + 50}.0.0")
