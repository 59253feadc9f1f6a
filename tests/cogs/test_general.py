"""/stats and /history say what they show, empty states and abandoned games included."""
from __future__ import annotations

import pytest

from bot.testing.fake_discord import find_component
from tests.helpers import board, ephemeral_reply, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")


async def test_stats_says_when_there_is_nothing_yet(harness, players):
    h = harness
    token = await h.command(players[0], "stats")
    assert "No finished games yet." in h.reply_text(token)


async def test_an_abandoned_game_reads_as_abandoned_and_a_member_without_games_is_told(
        harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    b = board(h, table)
    token = await h.click(players[0], b, find_component(b, "resign")["custom_id"])
    step = ephemeral_reply(h, token)
    await h.click(players[0], step, find_component(step, "resign_ok")["custom_id"])
    final = board(h, table)["embeds"][0]["description"]
    assert "The table was abandoned by Ana." in final
    assert "0 of 24 switches used · rating: " in final  # every end gives turns and rating
    token = await h.command(players[1], "history")
    line = h.reply_text(token).splitlines()[1]
    assert line.endswith("— abandoned") and "lost together" not in line
    token = await h.command(players[1], "stats", member=players[4])
    assert f"<@{players[4].id}> has no rated finished games in this server yet." \
        in h.reply_text(token)
