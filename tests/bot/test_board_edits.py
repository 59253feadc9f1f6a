"""A board message shows one version of its table: the picture, the words above it and the
buttons under it are made from the same moment, even when a move is committed while the
picture is being drawn (an AI answering at once, on a busy machine)."""
from __future__ import annotations

import asyncio
import re
from typing import Any

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
    await h.bot.tables.act_many(table.id, ana.id, [{"type": "stone", "from": "a1", "to": "a3"},
                                                   {"type": "end_turn"}])
    h.bot.reconciler.mark(table.id)
    await asyncio.wait_for(drawing.wait(), 10)
    # Ben answers while Ana's board is still being drawn.
    await h.bot.tables.act_many(table.id, ben.id, [{"type": "stone", "from": "a7", "to": "a5"},
                                                   {"type": "end_turn"}])
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
