"""What a tournament says: its message lays the game's options out on one line of their own and
never offers a first player the pairing decides; "an AI player joined" names the AI; and
resigning a game is confirmed in a sentence that says what it did."""
from __future__ import annotations

import pytest

from bot.testing.fake_discord import find_component
from tests.cogs.test_tournament_cog import ORGANIZER, create, settle, tournament_message
from tests.helpers import board, ephemeral_reply, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")


async def test_the_tournament_message_lays_out_the_options_without_a_first_player(harness):
    h = harness
    await create(h, game="sensei", format="swiss", rounds=3, name="Friday Swiss")
    description = tournament_message(h)["embeds"][0]["description"]
    lines = description.splitlines()
    assert lines[0] == "**Game:** Sensei"
    assert lines[1].startswith("Version: Arashi")
    assert lines[1].endswith(" · Setup: Standard · Board side: Plain")
    assert "First player" not in description


async def test_an_ai_player_joining_is_named(harness):
    h = harness
    tid = await create(h, game="sensei", format="swiss", rounds=3)
    said = []
    for _ in range(2):
        token = await h.command(ORGANIZER, "tournament", "ai", level="easy", tournament=tid)
        said.append(h.reply_text(token))
    await settle(h)
    names = [e.name for e in await h.bot.store.entrants(tid)]
    assert said == [f"✅ {names[0]} joined the tournament.", f"✅ {names[1]} joined the tournament."]
    assert names[0] != names[1]


@pytest.mark.parametrize("game, seats, said", [
    ("sensei", 2, "You resigned. The game is over."),
    ("sarena", 3, "You resigned and left the table. The others play on."),
    ("narabi", 3, "You abandoned the game. The table loses together."),
])
async def test_resigning_is_confirmed_with_what_it_did(harness, players, game, seats, said):
    h = harness
    table = await start_table(h, game, players[:seats])
    leaving = players[1]
    token = await h.click(leaving, board(h, table), find_component(board(h, table),
                                                                  "resign")["custom_id"])
    confirm = ephemeral_reply(h, token)
    token = await h.click(leaving, confirm, find_component(confirm, "resign_ok")["custom_id"])
    assert h.reply_text(token).strip() == said
