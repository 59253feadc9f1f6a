"""The Sensei cog through the fake Discord: lobby, challenge, turns by components and by text."""
from __future__ import annotations

import asyncio
import io
import json
import re
import random
from pathlib import Path
from typing import Any

import pytest

from PIL import Image

from bot.games.sensei import Sensei
from bot.ui import turns
from render import sensei as render_sensei
from bot.testing.fake_discord import BOT_ID, CHANNEL_ID, Member, components_of, find_component
from bot.testing.remote_flows import towards_goal
from bot.runtime.reviews import has_review
from tests.conftest import start_bot
from tests.helpers import (Table, attached, final_state, board, custom_ids, ephemeral_reply,
                           start_table)

OUT = Path(__file__).resolve().parents[2] / "out"


pytestmark = pytest.mark.usefixtures("no_missing_text")


# == helpers ===============================================================================

async def sensei_table(h, players, **options: Any) -> Table:
    """Ana (green, seat 0) against Ben (red, seat 1); green moves first unless told otherwise."""
    options.setdefault("first", "green")
    return await start_table(h, "sensei", players[:2], **options)


async def live_of(h, table: Table):
    live = await h.bot.tables.get(table.id)
    assert live is not None
    return live


async def snapshot(h, table: Table) -> tuple[str, int]:
    live = await live_of(h, table)
    return json.dumps(live.game.to_json(), sort_keys=True), live.row.version


JUMP = re.compile(r" · \[↑ board\]\(https://discord\.com/channels/\d+/(\d+)/(\d+)\)$")


def log_lines(h, table: Table) -> list[str]:
    """The thread's lines, without the link to the board that ends each turn line."""
    return [JUMP.sub("", m["content"]) for m in h.fake.channel_messages(table.thread)
            if m["content"] and not m["attachments"] and not m["flags"] & 64]


def board_edits(h, table: Table) -> int:
    board_id = board(h, table)["id"]
    return len(h.fake.sent("PATCH", f"/messages/{board_id}"))


def component(message: dict[str, Any], verb: str) -> dict[str, Any] | None:
    for c in components_of(message):
        if c.get("custom_id", "").split(":")[2] == verb:
            return c
    return None


def option_values(message: dict[str, Any], verb: str) -> list[str]:
    return [o["value"] for o in find_component(message, verb)["options"]]


def option_labels(message: dict[str, Any], verb: str) -> list[str]:
    return [o["label"] for o in find_component(message, verb)["options"]]


def refreshed(h, message: dict[str, Any]) -> dict[str, Any]:
    return h.fake.messages[int(message["id"])]


async def open_move_menu(h, table: Table, player: Member) -> dict[str, Any]:
    token = await h.click(player, board(h, table), find_component(board(h, table), "move")["custom_id"])
    return ephemeral_reply(h, token)


def buttons(message: dict[str, Any], verb: str) -> list[dict[str, Any]]:
    return [c for c in components_of(message) if c.get("custom_id", "").split(":")[2] == verb]


def labels(message: dict[str, Any], verb: str) -> list[str]:
    return [c["label"] for c in buttons(message, verb)]


def labelled(message: dict[str, Any], verb: str, label: str) -> dict[str, Any]:
    found = [c for c in buttons(message, verb) if c["label"] == label]
    assert len(found) == 1, (label, labels(message, verb))
    return found[0]


async def ui_action(h, step: dict[str, Any], player: Member, action: dict[str, Any]) -> dict[str, Any]:
    """One stone or character move added to the plan: the piece's button, then the square's
    (two taps; nothing is played yet)."""
    piece = next(c for c in buttons(step, "from")
                 if c["custom_id"].endswith("." + ("char" if action["type"] == "character"
                                                   else action["from"])))
    await h.click(player, step, piece["custom_id"])
    step = refreshed(h, step)
    await h.click(player, step, labelled(step, "plan", action["to"])["custom_id"])
    return refreshed(h, step)


async def send(h, step: dict[str, Any], player: Member) -> str:
    return await h.click(player, step, find_component(step, "send")["custom_id"])


def stone(frm: str, to: str) -> dict[str, str]:
    return {"type": "stone", "from": frm, "to": to}


def character(frm: str, to: str) -> dict[str, str]:
    return {"type": "character", "from": frm, "to": to}


def notation(actions: list[dict[str, Any]]) -> str:
    return " ".join(("*" if a["type"] == "character" else "") + f"{a['from']}-{a['to']}"
                    for a in actions)


# == lobby and challenge ===================================================================

async def test_lobby_shows_the_options(harness, players):
    h = harness
    await h.command(players[0], "sensei", "start", version="shizukana", setup="crossed",
                    board="storm", first="red")
    lobby = h.fake.channel_messages(CHANNEL_ID)[-1]
    options = lobby["embeds"][0]["fields"][1]["value"]
    for text in ("Shizukana", "Crossed", "Storm", "First player: Red"):
        assert text in options
    table_id = int(find_component(lobby, "join")["custom_id"].split(":")[1])
    row = await h.bot.store.get_table(table_id)
    assert row.options == {"version": "shizukana", "setup": "crossed", "board": "storm",
                           "first": "red", "warn": False}


async def test_start_defaults_and_rules(harness, players):
    h = harness
    table = await sensei_table(h, players)
    live = await live_of(h, table)
    assert live.row.options == {"version": "arashi", "setup": "standard", "board": "plain",
                                "first": "green", "warn": False}
    assert "Arashi" in h.fake.messages[int(table.lobby["id"])]["embeds"][0]["fields"][1]["value"]
    token = await h.command(players[3], "sensei", "rules")
    assert "7×7 board" in h.reply_text(token) and h.reply_flags(token)[-1] & 64


async def test_challenge_is_reserved_for_the_invited_member(harness, players):
    h = harness
    ana, ben, cleo = players[:3]
    token = await h.command(ana, "sensei", "challenge", opponent=ana)
    assert "cannot challenge yourself" in h.reply_text(token) and h.reply_flags(token)[-1] & 64
    token = await h.command(ana, "sensei", "challenge", opponent=Member(BOT_ID, "Tabletop"))
    assert "Bots cannot play" in h.reply_text(token)
    assert not [m for m in h.fake.channel_messages(CHANNEL_ID) if m["embeds"]]

    await h.command(ana, "sensei", "challenge", opponent=ben, version="shizukana")
    lobby = h.fake.channel_messages(CHANNEL_ID)[-1]
    assert ben.mention in lobby["content"] and "challenges" in lobby["content"]
    assert "Shizukana" in lobby["embeds"][0]["fields"][1]["value"]
    join = find_component(lobby, "join")["custom_id"]
    token = await h.click(cleo, lobby, join)
    assert "reserved for" in h.reply_text(token)
    await h.click(ben, lobby, join)
    row = await h.bot.store.get_table(int(join.split(":")[1]))
    assert row.user_ids == [ana.id, ben.id]


# == a turn built with components ==========================================================

async def test_a_whole_turn_planned_privately_then_sent(harness, players):
    h = harness
    ana, ben = players[:2]
    table = await sensei_table(h, players)
    start_board = board(h, table)
    assert labels(start_board, "move") == ["Move"] and component(start_board, "undo") is None
    assert "Turn 1" in start_board["embeds"][0]["description"]
    edits = board_edits(h, table)
    start_state = await snapshot(h, table)

    step = await open_move_menu(h, table, ana)
    assert step["flags"] & 64
    # One tap per piece: the stones that can move, then the character.
    assert labels(step, "from") == ["a1", "b1", "c1", "e1", "f1", "g1", "d1"]
    assert find_component(step, "send")["disabled"] is True
    await h.click(ana, step, labelled(step, "from", "c1")["custom_id"])
    step = refreshed(h, step)
    assert labels(step, "plan") == ["c2", "c3", "c4", "c5", "c6", "Back"]  # c7 is red's
    await h.click(ana, step, labelled(step, "plan", "c5")["custom_id"])
    step = refreshed(h, step)
    assert "Planned: c1-c5" in step["content"]
    assert "Left this turn: 1 stone move, the character move." in step["content"]
    assert find_component(step, "send")["disabled"] is False and component(step, "plan")
    # Nothing is played while the turn is planned: the opponent sees nothing yet.
    assert board_edits(h, table) == edits and await snapshot(h, table) == start_state

    step = await ui_action(h, step, ana, stone("e1", "e2"))
    assert labels(step, "from") == ["d1"]  # two stone moves used
    step = await ui_action(h, step, ana, character("d1", "e2"))
    assert "Your turn is complete" in step["content"] and labels(step, "from") == []
    # Even the third move can be taken back before the turn is sent.
    await h.click(ana, step, labelled(step, "plan", "Undo")["custom_id"])
    step = refreshed(h, step)
    assert "Planned: c1-c5 e1-e2 —" in step["content"] and labels(step, "from") == ["d1"]
    step = await ui_action(h, step, ana, character("d1", "e2"))
    assert await snapshot(h, table) == start_state
    await send(h, step, ana)
    step = refreshed(h, step)
    assert "Turn 1 played: c1-c5 e1-e2 \\*d1-e2" in step["content"]  # escaped Markdown
    assert components_of(step) == [] and step["flags"] & 64  # told privately, in the menu

    live = await live_of(h, table)
    assert live.game.to_move == 1 and live.row.version == 3
    view = live.game.public_view()
    assert view["characters"][0] == "e2" and view["board"]["c5"]["seat"] == 0
    assert board_edits(h, table) == edits + 1  # the whole turn at once
    turn_lines = [line for line in log_lines(h, table) if "c1-c5" in line]
    assert turn_lines == [f"Turn 1 · Ana: c1-c5 e1-e2 \\*d1-e2 Next: {ben.mention}."]
    # The turn line ends with a link to the board, wherever it has scrolled.
    raw = next(m["content"] for m in h.fake.channel_messages(table.thread)
               if m["content"] and "c1-c5" in m["content"] and not m["flags"] & 64)
    link = JUMP.search(raw)
    assert link, raw
    assert (int(link[1]), int(link[2])) == (table.thread, int(board(h, table)["id"]))
    description = board(h, table)["embeds"][0]["description"]
    assert "Turn 2" in description and ben.mention in description and "red" in description

    OUT.mkdir(exist_ok=True)
    png = h.fake.sent("PATCH", f"/messages/{board(h, table)['id']}")[-1].files[0][1]
    (OUT / "sensei_cog_turn.png").write_bytes(png)


async def test_a_planned_move_undone_leaves_nothing_and_a_single_move_can_be_sent(harness, players):
    h = harness
    ana, ben = players[:2]
    table = await sensei_table(h, players)
    start_state = await snapshot(h, table)
    step = await open_move_menu(h, table, ana)
    step = await ui_action(h, step, ana, stone("a1", "a4"))
    await h.click(ana, step, labelled(step, "plan", "Undo")["custom_id"])
    step = refreshed(h, step)
    assert "Planned" not in step["content"] and component(step, "plan") is None
    assert find_component(step, "send")["disabled"] is True
    assert await snapshot(h, table) == start_state
    # Back from a piece's squares keeps the plan as it was.
    await h.click(ana, step, labelled(step, "from", "g1")["custom_id"])
    step = refreshed(h, step)
    await h.click(ana, step, labelled(step, "plan", "Back")["custom_id"])
    step = refreshed(h, step)
    assert labels(step, "from")[0] == "a1" and "Planned" not in step["content"]

    step = await ui_action(h, step, ana, stone("g1", "g3"))
    token = await send(h, step, ana)
    assert "Turn 1 played: g1-g3" in h.reply_text(token)
    live = await live_of(h, table)
    assert live.game.to_move == 1 and live.row.version == 2  # the move and the end of the turn
    assert f"Turn 1 · Ana: g1-g3 Next: {ben.mention}." in log_lines(h, table)


def step_png(h, token: str) -> Image.Image:
    return Image.open(io.BytesIO(attached(h, token))).convert("RGB")


async def test_every_planning_step_shows_the_position_with_the_choice_marked(harness, players):
    h = harness
    ana = players[0]
    table = await sensei_table(h, players)
    step = await open_move_menu(h, table, ana)
    assert [a["filename"] for a in step["attachments"]] == ["step.png"]
    step = await ui_action(h, step, ana, stone("c1", "c5"))
    assert [a["filename"] for a in step["attachments"]] == ["step.png"]
    token = await h.click(ana, step, labelled(step, "from", "e1")["custom_id"])
    picture = step_png(h, token)
    # Every square the stone may reach carries the choice's dot; other squares do not.
    reach = [label for label in labels(refreshed(h, step), "plan") if label != "Back"]
    assert reach == ["e2", "e3", "e4", "e5", "e6"]
    for square in ("e2", "e6", "d4", "f3"):
        x, y = render_sensei._centre(square)
        assert (picture.getpixel((int(x), int(y))) == render_sensei.CHOICE) == (square in reach)
    # The planned move is drawn on it: c5 holds a green stone in the picture, not in the game.
    assert "c5" not in (await live_of(h, table)).game.public_view()["board"]
    x, y = render_sensei._centre("c5")
    assert picture.getpixel((int(x), int(y))) != picture.getpixel(
        tuple(int(v) for v in render_sensei._centre("c4")))


async def test_a_picture_slow_to_draw_defers_the_click_then_the_step_follows(harness, players,
                                                                           monkeypatch):
    h = harness
    ana = players[0]
    table = await sensei_table(h, players)
    sensei_cog = h.bot.router.cog("sensei")
    draw = sensei_cog.picture

    async def queued_behind_many_boards(*args):
        await asyncio.sleep(0.2)
        return await draw(*args)

    monkeypatch.setattr(turns, "STEP_PICTURE_WAIT", 0.02)
    monkeypatch.setattr(sensei_cog, "picture", queued_behind_many_boards)
    b = board(h, table)
    token = await h.click(ana, b, find_component(b, "move")["custom_id"])
    assert h.fake.replies(token)[0]["type"] == 5  # answered in time: "thinking…"
    step = ephemeral_reply(h, token)
    assert labels(step, "from")[0] == "a1" and step["flags"] & 64
    token = await h.click(ana, step, labelled(step, "from", "c1")["custom_id"])
    assert h.fake.replies(token)[0]["type"] == 6  # answered in time: a deferred update
    step = refreshed(h, step)
    assert labels(step, "plan")[0] == "c2"
    assert [a["filename"] for a in step["attachments"]] == ["step.png"]


async def test_two_moves_and_send_take_six_taps(harness, players):
    h = harness
    ana = players[0]
    table = await sensei_table(h, players)
    taps = 1
    step = await open_move_menu(h, table, ana)
    for action in (stone("a1", "a3"), stone("g1", "g4")):
        step = await ui_action(h, step, ana, action)
        taps += 2
    await send(h, step, ana)
    taps += 1
    assert taps == 6 and (await live_of(h, table)).game.to_move == 1


async def test_a_turn_begun_one_action_at_a_time_ends_from_the_board(harness, players):
    """Tables saved mid-turn by the earlier one-action-at-a-time menus go on: the board shows
    End turn and Undo, and the menu plans on top of what was played."""
    h = harness
    ana, ben = players[:2]
    table = await sensei_table(h, players)
    await h.bot.tables.act(table.id, ana.id, stone("a1", "a4"))
    h.bot.reconciler.mark(table.id)
    await h.settle()
    assert find_component(board(h, table), "undo")
    b = board(h, table)
    await h.click(ana, b, find_component(b, "undo")["custom_id"])
    assert component(board(h, table), "undo") is None
    await h.bot.tables.act(table.id, ana.id, stone("g1", "g3"))
    h.bot.reconciler.mark(table.id)
    await h.settle()
    step = await open_move_menu(h, table, ana)
    assert "Played this turn: g1-g3" in step["content"]
    assert find_component(step, "send")["disabled"] is False
    b = board(h, table)
    token = await h.click(ana, b, find_component(b, "end")["custom_id"])
    assert "Turn 1 played: g1-g3" in h.reply_text(token) and h.reply_flags(token)[-1] & 64
    live = await live_of(h, table)
    assert live.game.to_move == 1
    assert f"Turn 1 · Ana: g1-g3 Next: {ben.mention}." in log_lines(h, table)


# == typed turns ===========================================================================

async def test_typed_turn_is_applied_atomically(harness, players):
    h = harness
    ana, ben = players[:2]
    table = await sensei_table(h, players)
    edits = board_edits(h, table)
    token = await h.command(ana, "sensei", "move", channel_id=table.thread, notation="b1-b3 *d1-b3")
    assert "Played: b1-b3 \\*d1-b3" in h.reply_text(token) and h.reply_flags(token)[-1] & 64
    live = await live_of(h, table)
    assert live.row.version == 3  # two moves and the end of the turn
    assert live.game.to_move == 1 and live.game.public_view()["characters"][0] == "b3"
    assert len(await h.bot.store.actions(table.id)) == 3
    assert board_edits(h, table) == edits + 1  # one unit: one board update
    assert f"Turn 1 · Ana: b1-b3 \\*d1-b3 Next: {ben.mention}." in log_lines(h, table)


async def test_illegal_typed_turn_names_the_first_illegal_action_and_changes_nothing(harness, players):
    h = harness
    ana, ben = players[:2]
    table = await sensei_table(h, players)
    await h.command(ana, "sensei", "move", channel_id=table.thread, notation="b1-b3")
    before = await snapshot(h, table)
    lines = len(log_lines(h, table))
    edits = board_edits(h, table)

    cases = {
        "a7-a5 b7-b2": "Action 2 (`b7-b2`): The way from b7 to b2 is not clear.",
        "a7-b6": "Action 1 (`a7-b6`): Stones move along a row or a column, never diagonally",
        "a7-a6 b7-b6 c7-c6": "Action 3 (`c7-c6`): You have already moved two stones",
        "*d7-d1": "Action 1 (`*d7-d1`): The character must land on one of your stones",
        "a7-a6 zz": "Cannot read `zz`",
        "a7-a6 a6-a5 *d7-a7 b7-b6": "at most 3 moves",
    }
    for typed, expected in cases.items():
        token = await h.command(ben, "sensei", "move", channel_id=table.thread, notation=typed)
        assert expected in h.reply_text(token), (typed, h.reply_text(token))
        assert h.reply_flags(token)[-1] & 64
        assert await snapshot(h, table) == before
    token = await h.command(ana, "sensei", "move", channel_id=table.thread, notation="a1-a2")
    assert "not your turn" in h.reply_text(token)
    token = await h.command(players[2], "sensei", "move", channel_id=table.thread, notation="a7-a6")
    assert "no running Sensei game in this channel" in h.reply_text(token)
    token = await h.command(ben, "sensei", "move", notation="a7-a6")  # the lobby channel
    assert "no running Sensei game in this channel" in h.reply_text(token)
    assert await snapshot(h, table) == before
    assert len(log_lines(h, table)) == lines and board_edits(h, table) == edits


async def test_a_typed_turn_replaces_a_plan_but_never_continues_a_played_action(harness, players):
    h = harness
    ana = players[0]
    table = await sensei_table(h, players)
    step = await open_move_menu(h, table, ana)
    step = await ui_action(h, step, ana, stone("b1", "b3"))
    # A plan is private and unplayed: a typed turn is played whole, and the plan goes stale.
    await h.command(ana, "sensei", "move", channel_id=table.thread, notation="a1-a2")
    token = await send(h, step, ana)
    assert "earlier turn" in h.reply_text(token)
    assert any(line.startswith("Turn 1 · Ana: a1-a2") for line in log_lines(h, table))

    # An action already played (by the earlier one-at-a-time menus) is never silently continued.
    ben = players[1]
    await h.bot.tables.act(table.id, ben.id, stone("b7", "b5"))
    before = await snapshot(h, table)
    token = await h.command(ben, "sensei", "move", channel_id=table.thread,
                            notation="*d7-b5 f7-f6")
    assert "You already began this turn with the buttons (`b7-b5`)" in h.reply_text(token)
    assert await snapshot(h, table) == before
    # Undone, the whole turn can be typed.
    await h.bot.tables.act(table.id, ben.id, {"type": "undo"})
    await h.command(ben, "sensei", "move", channel_id=table.thread, notation="b7-b5 *d7-b5 f7-f6")
    live = await live_of(h, table)
    assert live.game.to_move == 0
    assert any(line.startswith("Turn 2 · Ben: b7-b5 \\*d7-b5 f7-f6") for line in log_lines(h, table))


# == refused clicks ========================================================================

async def test_stale_outsider_and_out_of_turn_clicks_change_nothing(harness, players):
    h = harness
    ana, ben = players[:2]
    table = await sensei_table(h, players)
    old_board = json.loads(json.dumps(board(h, table)))
    old_step = await open_move_menu(h, table, ana)
    await h.command(ana, "sensei", "move", channel_id=table.thread, notation="a1-a2")
    before = await snapshot(h, table)

    token = await h.click(ben, old_board, find_component(old_board, "move")["custom_id"])
    assert "earlier turn" in h.reply_text(token)
    token = await h.click(ana, old_step, labelled(old_step, "from", "c1")["custom_id"])
    assert "earlier turn" in h.reply_text(token)
    stranger = Member(999, "Stranger")
    for verb in ("move", "offer", "resign"):
        token = await h.click(stranger, board(h, table), find_component(board(h, table), verb)["custom_id"])
        assert "not playing at this table" in h.reply_text(token), verb
    token = await h.click(ana, board(h, table), find_component(board(h, table), "move")["custom_id"])
    assert "not your turn" in h.reply_text(token)
    assert all(flags & 64 for flags in h.reply_flags(token))

    # A plan that was never offered: a custom_id not on the clicked message is not taken; one
    # forged onto it is refused by the rules, with the reason.
    step = await open_move_menu(h, table, ben)
    version = before[1]
    token = await h.click(ben, step, f"sensei:{table.id}:send:{version}.a7-b6")
    assert "not valid any more" in h.reply_text(token)
    for forged, reason in (("a7-b6", "never diagonally"), ("a7-a6_b7-b6_c7-c6", "two stones"),
                           ("zz", "")):
        custom_id = f"sensei:{table.id}:send:{version}.{forged}"
        tampered = json.loads(json.dumps(step))
        tampered["components"][0]["components"][0]["custom_id"] = custom_id
        token = await h.click(ben, tampered, custom_id)
        assert h.reply_text(token).startswith("⚠️") and reason in h.reply_text(token), forged
    assert await snapshot(h, table) == before
    # Ana may not finish Ben's turn with an out-of-turn End turn.
    await h.bot.tables.act(table.id, ben.id, stone("a7", "a5"))
    h.bot.reconciler.mark(table.id)
    await h.settle()
    token = await h.click(ana, board(h, table), find_component(board(h, table), "end")["custom_id"])
    assert "not your turn" in h.reply_text(token)
    live = await live_of(h, table)
    assert live.game.to_move == 1 and live.row.version == before[1] + 1


# == the end of a game =====================================================================

@pytest.mark.slow
async def test_a_game_played_to_the_end_rebuilds_and_offers_a_rematch(harness, players):
    h = harness
    table = await sensei_table(h, players, first="random")
    rng = random.Random(7)
    for _ in range(60):
        live = await live_of(h, table)
        if live.row.status != "playing":
            break
        seat = live.game.to_move
        turn = towards_goal(live.game, rng)
        player = table.players[seat]
        if rng.random() < 0.5:
            await h.command(player, "sensei", "move", channel_id=table.thread,
                            notation=notation(turn))
        else:
            step = await open_move_menu(h, table, player)
            for action in turn:
                step = await ui_action(h, step, player, action)
            await send(h, step, player)
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished" and (await final_state(h, table.id))["result"]["reason"] == "arrived"
    rebuilt = await h.bot.tables.rebuild(table.id)
    assert rebuilt.to_json() == await final_state(h, table.id)
    final = board(h, table)
    assert custom_ids(final) == [f"sensei:{table.id}:rematch", f"sensei:{table.id}:replay:0.9",
                                 *[f"sensei:{table.id}:review:0.9"] * has_review("sensei")]
    winner = table.players[(await final_state(h, table.id))["result"]["winners"][0]].name
    assert "reached the far rank" in final["embeds"][0]["description"]
    assert winner in final["embeds"][0]["description"]
    # the end is the bot's own word: on the finished board, not a follow-up of the last click
    assert any(line.startswith("**Game over.**") and winner in line
               for line in final["content"].split("\n"))
    assert not any(line.startswith("**Game over.**") for line in log_lines(h, table))
    OUT.mkdir(exist_ok=True)
    png = h.fake.sent("PATCH", f"/messages/{final['id']}")[-1].files[0][1]
    (OUT / "sensei_cog_final.png").write_bytes(png)

    await h.click(players[1], final, f"sensei:{table.id}:rematch")
    lobby = h.fake.channel_messages(CHANNEL_ID)[-1]
    new = await h.bot.store.get_table(int(find_component(lobby, "start")["custom_id"].split(":")[1]))
    assert new.rematch_of == table.id and new.options == row.options


async def test_barrier_result_names_the_barrier_and_its_touching_stones(harness, players):
    h = harness
    ana, ben = players[:2]
    table = await sensei_table(h, players)
    live = await live_of(h, table)
    data = live.game.to_json()
    wall = ["a4", "b4", "c4", "d4", "e4", "f4", "g4"]
    data.update(stones=[wall, ["a7", "b5", "d5", "f6"]], characters=["a4", "a7"], active=1)
    live.game = Sensei.from_json(data)  # a composed position: this test skips the rebuild
    await h.command(ben, "sensei", "move", channel_id=table.thread, notation="f6-f5")
    description = board(h, table)["embeds"][0]["description"]
    assert "Ben (red) wins: Ana (green) has a barrier touched by 3 opposing stones." in description
    assert "Barrier: a4 b4 c4 d4 e4 f4 g4 — touched by b5 d5 f5." in description
    stats = await h.bot.store.user_stats((await h.bot.store.get_table(table.id)).guild_id, ana.id)
    assert stats["sensei"]["loss"] == 1


async def test_resign_ends_the_game_with_the_other_player_winning(harness, players):
    h = harness
    ana, ben = players[:2]
    table = await sensei_table(h, players)
    token = await h.click(ben, board(h, table), find_component(board(h, table), "resign")["custom_id"])
    confirm = ephemeral_reply(h, token)
    assert "Your opponent wins" in confirm["content"]
    await h.click(ben, confirm, find_component(confirm, "resign_ok")["custom_id"])
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished" and (await final_state(h, table.id))["result"]["winners"] == [0]
    assert "Ben (red) resigned; Ana (green) wins." in board(h, table)["embeds"][0]["description"]
    assert "Turn 1 · Ben resigned." in log_lines(h, table)
    stats = await h.bot.store.user_stats(row.guild_id, ana.id)
    assert stats["sensei"]["win"] == 1


async def test_draw_offer_decline_and_agreement(harness, players):
    h = harness
    ana, ben = players[:2]
    table = await sensei_table(h, players)
    await h.click(ana, board(h, table), find_component(board(h, table), "offer")["custom_id"])
    b = board(h, table)
    assert component(b, "offer") is None and component(b, "accept") and component(b, "decline")
    assert "Ana offers a draw: Ben may accept" in b["embeds"][0]["description"]
    assert "Turn 1 · Ana offers a draw." in log_lines(h, table)[-1]
    token = await h.click(ana, b, find_component(b, "accept")["custom_id"])
    assert "has not offered a draw" in h.reply_text(token)
    await h.click(ben, b, find_component(b, "decline")["custom_id"])
    b = board(h, table)
    assert component(b, "accept") is None and component(b, "offer")
    assert "Turn 1 · Ben declined the draw." in log_lines(h, table)[-1]

    await h.click(ben, b, find_component(b, "offer")["custom_id"])
    b = board(h, table)
    await h.click(ana, b, find_component(b, "accept")["custom_id"])
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished" and (await final_state(h, table.id))["result"]["reason"] == "agreed_draw"
    assert "Draw by agreement." in board(h, table)["embeds"][0]["description"]
    assert (await h.bot.store.user_stats(row.guild_id, ben.id))["sensei"]["draw"] == 1


async def test_a_planned_turn_survives_a_restart(database, players):
    db = database
    h = await start_bot(db)
    ana = players[0]
    table = await sensei_table(h, players)
    step = await open_move_menu(h, table, ana)
    step = await ui_action(h, step, ana, stone("a1", "a3"))
    state = await snapshot(h, table)
    fake = h.fake
    await h.bot.close()

    h2 = await start_bot(db, fake)  # a new process: the plan lives in the menu's buttons
    try:
        assert await snapshot(h2, table) == state
        step = await ui_action(h2, step, ana, stone("b1", "b4"))  # the menu sent before restart
        await send(h2, step, ana)
        live = await live_of(h2, table)
        assert live.game.to_move == 1 and live.row.version == 3
        assert (await h2.bot.tables.rebuild(table.id)).to_json() == live.game.to_json()
        assert any(line.startswith("Turn 1 · Ana: a1-a3 b1-b4") for line in log_lines(h2, table))
    finally:
        await h2.bot.close()