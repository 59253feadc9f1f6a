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


@pytest.mark.slow
async def test_history_filters_pages_and_links_each_game_to_its_thread(harness, players):
    from bot.testing.fake_discord import CHANNEL_ID, components_of

    h = harness
    ana, ben, cleo = players[:3]
    tables = []
    for i in range(12):
        pair = [ana, ben] if i % 3 else [ana, cleo]
        table = await start_table(h, "sensei", pair, channel=CHANNEL_ID + i)
        await h.bot.tables.act(table.id, pair[1].id, {"type": "resign"})
        tables.append((table, pair))
    await h.settle()
    token = await h.command(ben, "history")
    text = h.reply_text(token)
    lines = text.splitlines()
    assert lines[0].endswith("page 1 of 2") and len(lines) == 11
    newest, _ = tables[-1]
    assert lines[1].startswith(f"#[{newest.id}](https://discord.com/channels/")
    assert f"/{newest.thread})" in lines[1]
    viewer = ephemeral_reply(h, token)
    pick, back, forward = components_of(viewer)
    assert back["disabled"] and [o["value"] for o in pick["options"]][0] == str(newest.id)
    await h.click(ben, viewer, forward["custom_id"])
    page2 = h.fake.messages[int(viewer["id"])]["content"].splitlines()
    assert page2[0].endswith("page 2 of 2") and len(page2) == 3
    # The page's menu opens a game's replay.
    await h.click(ben, viewer, pick["custom_id"], values=[str(newest.id)])
    replay = [m for m in h.fake.messages.values() if m["flags"] & 64
              and m["content"].startswith(f"**Sensei #{newest.id}** — move 0 of ")]
    assert replay and replay[-1]["attachments"]
    token = await h.command(ben, "history", member=cleo)
    cleo_lines = h.reply_text(token).splitlines()[1:]
    assert len(cleo_lines) == 4 and all("Cleo" in line for line in cleo_lines)
    token = await h.command(ben, "history", game="narabi")
    assert "No finished games yet." in h.reply_text(token)


def test_cooperative_records_from_finished_games():
    from bot.domain.records import coop_records

    def game(won: bool, turns: int, players: int = 3, par: int | None = None) -> dict:
        return {"result": {"winners": [0, 1, 2] if won else [], "details": {"turns": turns}},
                "par": par, "players": players}

    record = coop_records([game(True, 14, par=10), game(True, 12, par=11), game(False, 24),
                           game(True, 16, 4, par=13), game(True, 18, 4)])
    assert (record["wins"], record["losses"]) == (4, 1)
    assert record["best"] == {3: 12, 4: 16}
    assert (record["streak"], record["longest"]) == (2, 2)
    assert record["over_par"] == round((4 + 1 + 3) / 3, 1)
    assert coop_records([])["over_par"] is None
    from bot.domain.records import team_records

    a, b = (1, 2, 3), (1, 2, 4)
    teams = team_records([dict(game(True, 14), team=a), dict(game(False, 24), team=b),
                          dict(game(True, 12), team=a)])
    assert [(team, r["wins"], r["losses"], r["best"]) for team, r in teams] == \
        [(a, 2, 0, {3: 12}), (b, 0, 1, {})]


async def test_stats_show_narabi_records(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    live = await h.bot.tables.get(table.id)
    await h.bot.tables.act(table.id, players[live.game.to_move].id, {"type": "resign"})
    await h.settle()
    token = await h.command(players[0], "stats")
    assert f"<@{players[0].id}>: Narabi — 0 won, 1 lost · best: no win yet · streak 0" \
        in h.reply_text(token)
    assert "· team Ana, Ben, Cleo: 0 won, 1 lost · best no win yet · longest streak 0 · " \
        "par not known yet" in h.reply_text(token)
