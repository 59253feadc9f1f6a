"""Replays: a private viewer stepping through a finished game rebuilt from its seed and log."""
from __future__ import annotations

import random

import pytest

from bot.testing.fake_discord import components_of, find_component
from tests.helpers import board, ephemeral_reply, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")


async def play_then_resign(h, table, moves: int) -> int:
    rng = random.Random(2)
    for _ in range(moves):
        live = await h.bot.tables.get(table.id)
        seat = live.game.to_move
        await h.bot.tables.act(table.id, table.players[seat].id,
                               rng.choice(live.game.legal_actions(seat)))
    live = await h.bot.tables.get(table.id)
    while live.row.status == "playing":  # in Sàréná the others play on after one leaves
        await h.bot.tables.act(table.id, table.players[live.game.to_move].id, {"type": "resign"})
    h.bot.reconciler.mark(table.id)  # what a click's publishing does
    await h.settle()
    return len(await h.bot.store.actions(table.id))


@pytest.mark.slow
@pytest.mark.parametrize("game,seats", [("sensei", 2), ("sarena", 3), ("narabi", 3)])
async def test_step_through_a_finished_game(harness, players, game, seats):
    h = harness
    table = await start_table(h, game, players[:seats])
    total = await play_then_resign(h, table, 5)
    b = board(h, table)
    token = await h.click(players[seats - 1], b, find_component(b, "replay")["custom_id"])
    viewer = ephemeral_reply(h, token)
    assert viewer["content"].splitlines()[0].endswith(f"move 0 of {total}")
    assert viewer["attachments"], "a picture of the position"
    first, back, forward, last, _download, *extra = components_of(viewer)
    # Sensei and Sàréná: Review; Narabi: its par line
    assert [c["label"] for c in extra] == (["Par line"] if game == "narabi" else ["Review"])
    assert first["disabled"] and back["disabled"] and not forward["disabled"]
    await h.click(players[0], viewer, forward["custom_id"])
    viewer = h.fake.messages[int(viewer["id"])]
    assert viewer["content"].splitlines()[0].endswith(f"move 1 of {total}")
    await h.click(players[0], viewer, components_of(viewer)[3]["custom_id"])
    viewer = h.fake.messages[int(viewer["id"])]
    assert viewer["content"].splitlines()[0].endswith(f"move {total} of {total}")
    assert components_of(viewer)[2]["disabled"]


async def test_narabi_replays_show_every_condition(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    await play_then_resign(h, table, 2)
    live = await h.bot.tables.with_game(table.id)
    cog = h.bot.router.cog("narabi")
    start = live.cls.replay(3, live.row.options, live.row.seed, [])
    view = cog.replay_view(start, live.game)
    assert all(card["condition"] for row in view["rows"] for card in row) and view["reveal"]
    # ... and the picture draws them: it differs from the same step without them.
    hidden = dict(start.public_view())
    assert cog.render(view, live.names()) != cog.render(hidden, live.names())
    assert not any(card.get("condition") for row in start.public_view()["rows"] for card in row)


async def test_replay_command_finds_finished_games_of_this_server_only(harness, players):
    h = harness
    table = await start_table(h, "sensei", players[:2])
    token = await h.command(players[0], "replay", game_id=table.id)
    assert "once the game is over" in h.reply_text(token)
    token = await h.command(players[0], "replay", game_id=9999)
    assert "no longer exists" in h.reply_text(token)
    total = await play_then_resign(h, table, 3)
    token = await h.command(players[2], "replay", game_id=table.id)
    viewer = ephemeral_reply(h, token)
    assert viewer["content"].splitlines()[0] == f"**Sensei #{table.id}** — move 0 of {total}"


async def test_download_gives_the_whole_game_as_a_picture_and_its_moves_as_text(harness, players):
    import io

    from PIL import Image

    h = harness
    table = await start_table(h, "sarena", players[:2])
    total = await play_then_resign(h, table, 6)
    b = board(h, table)
    token = await h.click(players[0], b, find_component(b, "replay")["custom_id"])
    viewer = ephemeral_reply(h, token)
    download = components_of(viewer)[4]
    await h.click(players[0], viewer, download["custom_id"])
    sent = [r for r in h.fake.requests if r.files and any(n.endswith(".gif") for n, _ in r.files)]
    assert sent, "the animated picture was sent"
    files = dict(sent[-1].files)
    gif = Image.open(io.BytesIO(files[f"sarena-{table.id}.gif"]))
    assert gif.format == "GIF" and gif.n_frames == total + 1  # the deal and every move
    moves = files[f"sarena-{table.id}.txt"].decode()
    assert moves.count("\n") >= total and "1. " in moves and "<@" not in moves


@pytest.mark.slow
async def test_boards_and_replays_are_drawn_in_a_render_process(tmp_path, players):
    """With RENDER_WORKERS=1 (the default) the board picture and the replay animation come
    from a worker process, not from the bot's own interpreter."""
    import io

    from PIL import Image

    from tests.conftest import start_bot
    h = await start_bot(tmp_path / "bot.sqlite3", render_workers=1)
    try:
        calls = []
        original = h.bot.render_pool.call

        async def counting(function, *args, **kwargs):
            calls.append(function)
            return await original(function, *args, **kwargs)

        h.bot.render_pool.call = counting
        table = await start_table(h, "sensei", players[:2])
        total = await play_then_resign(h, table, 4)
        b = board(h, table)
        assert "render.sensei:render" in calls
        assert h.bot.render_pool._workers or h.bot.render_pool._idle  # a live process drew it
        token = await h.click(players[0], b, find_component(b, "replay")["custom_id"])
        viewer = ephemeral_reply(h, token)
        await h.click(players[0], viewer, components_of(viewer)[4]["custom_id"])
        assert "render.animation:animate" in calls
        sent = [r for r in h.fake.requests if r.files and any(n.endswith(".gif") for n, _ in r.files)]
        gif = Image.open(io.BytesIO(dict(sent[-1].files)[f"sensei-{table.id}.gif"]))
        cog = h.bot.router.cog("sensei")
        views, _ = cog.replay_views(await h.bot.tables.with_game(table.id),
                                    await h.bot.store.actions(table.id))
        assert gif.format == "GIF" and gif.n_frames == len(views) and total >= len(views) - 1
        boards = [data for r in h.fake.requests if r.files for name, data in r.files
                  if name.endswith(".png")]
        assert boards and all(Image.open(io.BytesIO(p)).format == "PNG" for p in boards)
    finally:
        await h.bot.close()
