"""A board message shows one version of its table: the picture, the words above it and the
buttons under it are made from the same moment, even when a move is committed while the
picture is being drawn (an AI answering at once, on a busy machine)."""
from __future__ import annotations

import asyncio
import re
from typing import Any

from bot.testing.remote_flows import (click_verb, open_place, sensei_turn, table_id_of,
                                      table_message)
from tests.cogs.test_sensei_cog import stone
from tests.conftest import start_bot
from tests.helpers import board, start_table

TURN = re.compile(r"Turn (\d+)")


async def test_a_move_committed_while_the_board_is_drawn_waits_for_the_next_edit(
        harness, players, monkeypatch):
    h = harness
    ana, ben = players[:2]
    table = await start_table(h, "sensei", players[:2], first="green")
    cog = h.bot.router.cog("sensei")
    draw = cog.picture
    drawing, release = asyncio.Event(), asyncio.Event()
    drawn: list[int] = []

    async def slow(live: Any, view: dict[str, Any], locale: str, *args: Any) -> Any:
        if not drawn:  # the first board drawn after Ana's turn waits here
            drawn.append(view["turn"])
            drawing.set()
            await release.wait()
        else:
            drawn.append(view["turn"])
        return await draw(live, view, locale, *args)

    monkeypatch.setattr(cog, "picture", slow)
    board_id = board(h, table)["id"]
    edits = len(h.fake.sent("PATCH", f"/messages/{board_id}"))
    await h.bot.tables.act_many(table.id, ana.id, [stone("a1", "a3"), {"type": "end_turn"}])
    h.bot.reconciler.mark(table.id)
    await asyncio.wait_for(drawing.wait(), 10)
    # Ben answers while Ana's board is still being drawn.
    await h.bot.tables.act_many(table.id, ben.id, [stone("a7", "a5"), {"type": "end_turn"}])
    h.bot.reconciler.mark(table.id)
    release.set()
    await h.settle()

    patches = [r.json for r in h.fake.sent("PATCH", f"/messages/{board_id}")[edits:]]
    assert drawn[0] == 2 and len(patches) >= 2  # Ana's board (turn 2), then Ben's
    for body, turn in zip(patches, drawn):
        embed = body["embeds"][0]
        # The words name the turn the picture shows, and say whose move it is then.
        assert TURN.search(embed["description"])[1] == str(turn), (turn, embed["description"])
        assert (ben.mention if turn == 2 else ana.mention) in embed["description"]
    last = patches[-1]["embeds"][0]["description"]
    assert TURN.search(last)[1] == "3" and ana.mention in last


async def test_a_tables_one_message_in_a_group_dm_shows_one_version_too(database, players,
                                                                        monkeypatch):
    """Where the bot is not a member, the table is one message edited through the clicks; its
    edit draws the picture the same way."""
    h = await start_bot(database)
    ana, ben = players[:2]
    place = open_place(h, "group_dm", ana, ben)
    await h.command(ana, "sensei", "start", channel_id=place.channel_id, first="green")
    lobby = table_message(h, place)
    table_id = table_id_of(lobby)
    await click_verb(h, ben, lobby, "join")
    await click_verb(h, ana, table_message(h, place), "start")
    cog = h.bot.router.cog("sensei")
    original = cog.board_png
    drawing, release = asyncio.Event(), asyncio.Event()
    drawn: list[int] = []

    async def held(live: Any) -> Any:
        drawn.append(live.game.turn)
        picture = await original(live)  # the position of this moment
        if len(drawn) == 1:
            drawing.set()
            await release.wait()
        return picture

    monkeypatch.setattr(cog, "board_png", held)
    since = len(h.fake.requests)
    turn = asyncio.ensure_future(sensei_turn(h, place, ana, [stone("a1", "a3")]))
    await asyncio.wait_for(drawing.wait(), 10)
    await h.bot.tables.act_many(table_id, ben.id, [stone("a7", "a5"), {"type": "end_turn"}])
    release.set()
    await turn
    edits = [r.json for r in h.fake.requests[since:] if r.method == "PATCH"
             and isinstance(r.json, dict) and r.json.get("embeds")
             and r.json.get("attachments")]
    assert drawn[0] == 2 and edits, drawn
    words = edits[0]["embeds"][0]["description"]
    assert TURN.search(words)[1] == "2" and ben.mention in words, words
