"""The Sàréná cog end to end through real discord.py objects and the recorded fake Discord."""
from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from bot.games.sarena.chips import COLOURS, DOWN, DOWN_SEEN, UP, UP_SEEN, pile_chips
from bot.i18n import t
from bot.testing.fake_discord import CHANNEL_ID, Member, components_of, find_component
from bot.ui import routing
from render import sarena as render_sarena
from cogs.sarena.cog import COLOUR_MARK
from tests.helpers import (Table, attached, final_state, board, custom_ids, deal_with, ephemeral_reply,
                           open_lobby, random_move, sarena_path, start_table, tap_through)

COLOUR_WORD = re.compile("|".join(COLOURS), re.IGNORECASE)


pytestmark = pytest.mark.usefixtures("no_missing_text")


def cog(h):
    return h.bot.get_cog("SarenaCog")


async def live_of(h, table: Table):
    live = await h.bot.tables.get(table.id)
    assert live is not None
    return live


def state_of(live) -> str:
    return json.dumps(live.game.to_json(), sort_keys=True)


def verb_of(component: dict[str, Any]) -> str:
    return component["custom_id"].split(":")[2]


def with_verb(message: dict[str, Any], verb: str) -> list[dict[str, Any]]:
    return [c for c in components_of(message) if verb_of(c) == verb]


def thread_lines(h, table: Table) -> list[str]:
    """The public lines of the game thread (ephemeral answers live there too in the fake)."""
    return [m["content"] for m in h.fake.channel_messages(table.thread)
            if m["content"] and not m["flags"] & 64]


async def sarena_move(h, table: Table, rng: random.Random) -> dict[str, Any] | None:
    """The player to move plays a random legal move through Move → pile → direction."""
    picked = await random_move(h, table, rng)
    if picked is None:
        return None
    player, action = picked
    b = board(h, table)
    token, _ = await tap_through(h, player, b, sarena_path(b, action))
    assert ephemeral_reply(h, token)["components"] == []  # the flow is closed
    return action


async def play_out(h, table: Table, rng: random.Random, check=None) -> int:
    moves = 0
    while True:
        live = await h.bot.tables.get(table.id)
        if live is None or live.row.status != "playing":
            return moves
        if check is not None:
            check()
        assert await sarena_move(h, table, rng) is not None
        moves += 1


# == lobby, deal, private colour ===============================================================

async def test_lobby_shows_the_fair_option(harness, players):
    h = harness
    lobby = await open_lobby(h, "sarena", players[0], fair=True)
    options = lobby["embeds"][0]["fields"][1]
    assert "Fair deal: **on**" in options["value"]
    assert "Sàréná" in lobby["embeds"][0]["title"] and "2–4" in lobby["embeds"][0]["fields"][0]["name"]
    assert find_component(lobby, "start")["disabled"] is True  # one seat of at least two
    table_id = int(find_component(lobby, "join")["custom_id"].split(":")[1])
    for p in players[1:5]:
        await h.click(p, lobby, find_component(lobby, "join")["custom_id"])
    row = await h.bot.store.get_table(table_id)
    assert row.options == {"fair": True} and len(row.seats) == 4  # the fifth was turned away
    await h.click(players[0], lobby, find_component(lobby, "cancel")["custom_id"])
    lobby = await open_lobby(h, "sarena", players[1])
    assert "Fair deal: off" in lobby["embeds"][0]["fields"][1]["value"]


async def test_start_deals_colours_secretly_by_dm(harness, players):
    h = harness
    table = await start_table(h, "sarena", players[:3], fair=True)
    live = await live_of(h, table)
    colours = [live.game.private_view(s)["colour"] for s in range(3)]
    assert len(set(colours)) == 3
    for seat, player in enumerate(table.players):
        dms = h.fake.dms_to(player.id)
        assert len(dms) == 1
        text = dms[0]["content"]
        assert t(f"sarena.colour.{colours[seat]}") in text and "secret colour" in text
        assert "One colour belongs to nobody" in text
        others = [t(f"sarena.colour.{c}") for c in COLOURS if c != colours[seat]]
        assert not any(name in text for name in others)
    started = [line for line in thread_lines(h, table) if line.startswith("Game on!")]
    assert len(started) == 1
    b = board(h, table)
    assert b["attachments"][0]["filename"] == "board.png"
    assert "**Move 1**" in b["embeds"][0]["description"]
    assert f"<@{table.players[live.game.to_move].id}> to move" in b["embeds"][0]["description"]
    labels = [c.get("label") for c in components_of(b)]
    assert labels == ["Move · rows 1–3", "Move · rows 4–6", "My colour", "Resign"]


async def test_my_colour_answers_only_the_clicker(harness, players):
    h = harness
    table = await start_table(h, "sarena", players[:2])
    live = await live_of(h, table)
    public_before = len(h.fake.public_messages())
    mine = find_component(board(h, table), "mine")["custom_id"]
    for seat, player in enumerate(table.players):
        token = await h.click(player, board(h, table), mine)
        assert h.reply_flags(token) == [64]
        colour = live.game.private_view(seat)["colour"]
        other = live.game.private_view(1 - seat)["colour"]
        assert t(f"sarena.colour.{colour}") in h.reply_text(token)
        assert t(f"sarena.colour.{other}") not in h.reply_text(token)
    token = await h.click(Member(999, "Stranger"), board(h, table), mine)
    assert "not playing at this table" in h.reply_text(token)
    assert len(h.fake.public_messages()) == public_before


async def test_rules_command_is_ephemeral(harness, players):
    token = await harness.command(players[0], "sarena", "rules")
    assert harness.reply_flags(token) == [64]
    assert "empty arrow circle" in harness.reply_text(token)


# == moving ===================================================================================

async def test_a_move_through_the_components(harness, players, monkeypatch):
    h = harness
    deal_with(monkeypatch, 11)
    table = await start_table(h, "sarena", players[:3])
    live = await live_of(h, table)
    seat = live.game.to_move
    player = table.players[seat]
    view = live.game.public_view()
    # 36 piles can move at the start, more than one step's buttons: a Move button for rows
    # 1–3 and one for rows 4–6, so that every move is still three taps.
    moves = with_verb(board(h, table), "move")
    assert [(m["custom_id"], m["label"]) for m in moves] == [
        (f"sarena:{table.id}:move:0.0", "Move · rows 1–3"),
        (f"sarena:{table.id}:move:0.1", "Move · rows 4–6")]
    lines_before = thread_lines(h, table)

    offered = []
    for move, rows in zip(moves, ("123", "456")):
        token = await h.click(player, board(h, table), move["custom_id"])
        step = ephemeral_reply(h, token)
        assert step["flags"] & 64 and not [c for c in components_of(step) if c["type"] == 3]
        piles = with_verb(step, "pile")
        assert len(piles) == 18 and all(p["label"][1] in rows for p in piles)
        offered += [p["custom_id"].rsplit(".", 1)[1] for p in piles]
    assert sorted(offered) == sorted(view["movable"])

    token = await h.click(player, board(h, table), moves[0]["custom_id"])
    step = ephemeral_reply(h, token)
    c3 = next(p for p in with_verb(step, "pile") if p["custom_id"].endswith(".c3"))
    top = view["board"][14]["top"]
    assert c3["label"] == "c3 · height 1" and c3["emoji"]["name"] == COLOUR_MARK[top]

    await h.click(player, step, c3["custom_id"])
    step = h.fake.messages[int(step["id"])]
    assert "c3: pile of 1" in step["content"]
    goes = with_verb(step, "go")
    legal_from_c3 = sorted(m.split("-")[1] for m in view["legal"] if m.startswith("c3-"))
    assert sorted(c["custom_id"].rsplit(".", 1)[1] for c in goes) == legal_from_c3 == \
        ["b3", "c2", "c4", "d3"]
    assert [c["emoji"]["name"] for c in goes] == ["⬆️", "⬅️", "➡️", "⬇️"]
    labels = {c["custom_id"].rsplit(".", 1)[1]: c["label"] for c in goes}
    assert labels["c4"] == "c4 (onto a pile of 1)"
    # Back returns to the piles c3 was picked from (rows 1–3), nothing played.
    back = find_component(step, "move")
    assert back["custom_id"] == moves[0]["custom_id"] and back["label"] == "Back"
    await h.click(player, step, back["custom_id"])
    step = h.fake.messages[int(step["id"])]
    assert len(with_verb(step, "pile")) == 18 and live.row.version == 0
    await h.click(player, step, c3["custom_id"])
    step = h.fake.messages[int(step["id"])]

    await h.click(player, step, next(c["custom_id"] for c in goes if c["custom_id"].endswith("c4")))
    step = h.fake.messages[int(step["id"])]
    assert step["content"] == "Done: c3 → c4, move 1." and step["components"] == []
    assert live.row.version == 1
    new_top = live.game.public_view()["board"][20]["top"]
    new_lines = thread_lines(h, table)[len(lines_before):]
    assert len(new_lines) == 1
    name = table.players[seat].name
    assert new_lines[0].startswith(
        f"{name} moved c3 → c4 (pile of 2, {cog(h).colour(new_top, 'en')} on top) — move 1.")
    assert f"Next: <@{table.players[live.game.to_move].id}>" in new_lines[0]
    b = board(h, table)
    assert b["edited_timestamp"] is not None
    assert [m["custom_id"] for m in with_verb(b, "move")] == [
        f"sarena:{table.id}:move:1.0", f"sarena:{table.id}:move:1.1"]
    assert "**Move 2**" in b["embeds"][0]["description"]
    assert f"Last: {name} moved c3 → c4." in b["embeds"][0]["description"]


@pytest.mark.slow
async def test_a_flip_is_said_and_few_piles_fit_one_move_button(harness, players, monkeypatch):
    h = harness
    deal_with(monkeypatch, 12)
    table = await start_table(h, "sarena", players[:2])
    live = await live_of(h, table)
    # b2 is an arrow circle: once its chip has moved away, c2 entering it is flipped.
    await h.command(table.players[live.game.to_move], "sarena", "move", channel_id=table.thread,
                    move="b2-b3")
    token = await h.command(table.players[live.game.to_move], "sarena", "move",
                            channel_id=table.thread, move="c2-b2")
    assert h.reply_text(token) == "Done: c2 → b2, move 2."
    line = thread_lines(h, table)[-1]
    assert "moved c2 → b2 onto an empty arrow circle and **flipped** it (pile of 1" in line
    assert "and flipped the pile" in board(h, table)["embeds"][0]["description"]
    # Play on until at most 25 piles can move: then one Move button offers them all.
    rng = random.Random(3)
    while len(live.game.public_view()["movable"]) > 25:
        assert len(with_verb(board(h, table), "move")) == 2
        await sarena_move(h, table, rng)
    moves = with_verb(board(h, table), "move")
    assert [m["label"] for m in moves] == ["Move"]
    assert moves[0]["custom_id"] == f"sarena:{table.id}:move:{live.row.version}"
    token = await h.click(table.players[live.game.to_move], board(h, table), moves[0]["custom_id"])
    step = ephemeral_reply(h, token)
    piles = with_verb(step, "pile")
    assert sorted(p["custom_id"].rsplit(".", 1)[1] for p in piles) == \
        sorted(live.game.public_view()["movable"])
    await h.click(table.players[live.game.to_move], step, piles[0]["custom_id"])
    step = h.fake.messages[int(step["id"])]
    assert find_component(step, "move")["custom_id"] == moves[0]["custom_id"]  # Back


async def test_piles_fall_back_to_a_select_when_buttons_do_not_fit(harness, players,
                                                                   monkeypatch):
    """Never needed with 18 piles at most behind a Move button, but a step with more choices
    than buttons fit still works: one select, whose choice leads on as a button's would."""
    h = harness
    deal_with(monkeypatch, 11)
    monkeypatch.setattr(routing, "BUTTON_GRID", 5)
    table = await start_table(h, "sarena", players[:2])
    live = await live_of(h, table)
    player = table.players[live.game.to_move]
    move = with_verb(board(h, table), "move")[0]
    token = await h.click(player, board(h, table), move["custom_id"])
    step = ephemeral_reply(h, token)
    [picker] = components_of(step)
    assert picker["type"] == 3 and picker["custom_id"] == f"sarena:{table.id}:pile:0"
    assert [o["value"] for o in picker["options"]] == [m for m in live.game.public_view()["movable"]
                                                      if m[1] in "123"]
    assert picker["options"][0]["label"] == "a1 · height 1"
    await h.click(player, step, picker["custom_id"], values=["c3"])
    step = h.fake.messages[int(step["id"])]
    assert "c3: pile of 1" in step["content"]
    go = next(c["custom_id"] for c in with_verb(step, "go") if c["custom_id"].endswith(".c4"))
    await h.click(player, step, go)
    assert live.row.version == 1 and "c3 → c4" in thread_lines(h, table)[-1]


async def test_typed_move_legal_and_illegal(harness, players, monkeypatch):
    h = harness
    deal_with(monkeypatch, 13)
    table = await start_table(h, "sarena", players[:2])
    live = await live_of(h, table)
    mover, other = table.players[live.game.to_move], table.players[1 - live.game.to_move]
    state, public = state_of(live), len(h.fake.public_messages())

    async def refused(member, move, expected, channel=table.thread):
        token = await h.command(member, "sarena", "move", channel_id=channel, move=move)
        assert h.reply_flags(token) == [64], move
        assert expected in h.reply_text(token), (move, h.reply_text(token))
        assert state_of(live) == state and live.row.version == 0
        assert len(h.fake.public_messages()) == public

    await refused(mover, "hello", "cannot read “hello” as a move")
    await refused(mover, "a1-c1", "a1 and c1 are not joined by a line")
    await refused(mover, "a1-b2", "not joined by a line")
    await refused(other, "a1-b1", "not your turn")
    await refused(Member(999, "Stranger"), "a1-b1", "no running Sàréná game in this channel")
    await refused(mover, "a1-b1", "no running Sàréná game in this channel", channel=CHANNEL_ID)

    token = await h.command(mover, "sarena", "move", channel_id=table.thread, move=" A1 b1 ")
    assert h.reply_flags(token) == [64] and h.reply_text(token) == "Done: a1 → b1, move 1."
    assert live.row.version == 1
    assert f"{mover.name} moved a1 → b1 (pile of 2" in thread_lines(h, table)[-1]
    state, public = state_of(live), len(h.fake.public_messages())
    token = await h.command(other, "sarena", "move", channel_id=table.thread, move="a1-a2")
    assert "There is no pile on a1" in h.reply_text(token)
    assert state_of(live) == state and live.row.version == 1


async def test_stale_outsider_and_out_of_turn_clicks_change_nothing(harness, players, monkeypatch):
    h = harness
    deal_with(monkeypatch, 14)
    table = await start_table(h, "sarena", players[:3])
    live = await live_of(h, table)
    old_board = json.loads(json.dumps(board(h, table)))
    first = table.players[live.game.to_move]
    token = await h.click(first, board(h, table), find_component(board(h, table), "move")["custom_id"])
    old_step = json.loads(json.dumps(ephemeral_reply(h, token)))
    await sarena_move(h, table, random.Random(1))
    state, version = state_of(live), live.row.version

    def unchanged():
        assert state_of(live) == state and live.row.version == version

    mover = table.players[live.game.to_move]
    token = await h.click(mover, old_board, find_component(old_board, "move")["custom_id"])
    assert "earlier turn" in h.reply_text(token) and all(f & 64 for f in h.reply_flags(token))
    token = await h.click(first, old_step, with_verb(old_step, "pile")[0]["custom_id"])
    assert "earlier turn" in h.reply_text(token)
    unchanged()
    move = find_component(board(h, table), "move")["custom_id"]
    token = await h.click(Member(999, "Stranger"), board(h, table), move)
    assert "not playing at this table" in h.reply_text(token)
    other = next(p for p in table.players if p is not mover)
    token = await h.click(other, board(h, table), move)
    assert "not your turn" in h.reply_text(token)
    unchanged()
    # A direction button of the right version, clicked by the wrong player or forged illegal.
    legal = live.game.legal_actions(live.game.to_move)[0]
    go = f"sarena:{table.id}:go:{version}.{legal['from']}.{legal['to']}"
    msg = h.fake._message(table.thread, {"content": "", "flags": 64, "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": go}]}]},
        [], flags=64)
    token = await h.click(other, msg, go)
    assert "not your turn" in h.reply_text(token)
    for forged in (f"sarena:{table.id}:go:{version}.a1.c1", f"sarena:{table.id}:go:{version}.zz.a1",
                   f"sarena:{table.id}:go:{version}.a1", f"sarena:{table.id}:pile:{version}.0"):
        msg = h.fake._message(table.thread, {"content": "", "flags": 64, "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": forged}]}]},
            [], flags=64)
        token = await h.click(mover, msg, forged)
        assert h.reply_text(token).startswith("⚠️"), forged
        unchanged()


# == the end ==================================================================================

@pytest.mark.slow
async def test_full_game_reveal_rebuild_and_rematch(harness, players, monkeypatch):
    h = harness
    deal_with(monkeypatch, 15)
    table = await start_table(h, "sarena", players[:3], fair=True)
    live = await live_of(h, table)
    colours = [live.game.private_view(s)["colour"] for s in range(3)]
    moves = await play_out(h, table, random.Random(15))
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished" and 9 <= moves <= 45
    rebuilt = await h.bot.tables.rebuild(table.id)
    assert rebuilt.to_json() == await final_state(h, table.id)
    result = rebuilt.public_view()["result"]

    final = board(h, table)
    assert custom_ids(final) == [f"sarena:{table.id}:rematch", f"sarena:{table.id}:replay:0.9",
                                 f"sarena:{table.id}:review:0.9"]
    summary = final["embeds"][0]["description"]
    over = [line for line in thread_lines(h, table) if line.startswith("**Game over.**")]
    assert len(over) == 1 and summary in over[0]
    assert f"The game lasted {moves} moves." in summary
    for seat, player in enumerate(table.players):
        colour = cog(h).colour(colours[seat], "en")
        assert (f"**{player.name}** — {colour} · score **{result['scores'][seat]}** · "
                f"tie-break {result['tiebreaks'][seat]}") in summary
    winners = ", ".join(f"**{table.players[s].name}**" for s in result["winners"])
    if len(result["winners"]) == 1:
        assert f"🏆 {winners} wins!" in summary
    else:
        assert f"Shared victory: {winners}." in summary
    unused = next(c for c in COLOURS if c not in colours)
    assert f"belonged to nobody: {cog(h).colour(unused, 'en')}." in summary

    await h.click(players[1], final, f"sarena:{table.id}:rematch")
    lobby = h.fake.channel_messages(CHANNEL_ID)[-1]
    new = await h.bot.store.get_table(int(find_component(lobby, "start")["custom_id"].split(":")[1]))
    assert new.status == "lobby" and new.rematch_of == table.id and new.options == {"fair": True}


async def test_resigning_leaves_the_other_player_the_winner(harness, players):
    h = harness
    table = await start_table(h, "sarena", players[:2])
    resign = find_component(board(h, table), "resign")["custom_id"]
    token = await h.click(players[1], board(h, table), resign)
    confirm = ephemeral_reply(h, token)
    assert "Resign from this game?" in confirm["content"]
    await h.click(players[1], confirm, find_component(confirm, "resign_ok")["custom_id"])
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished"
    summary = board(h, table)["embeds"][0]["description"]
    assert "Every other player has left the game." in summary
    assert f"**{players[1].name}** — " in summary and " · left the game" in summary
    assert f"🏆 **{players[0].name}** wins!" in summary
    assert f"{players[1].name} resigned and left the game." in thread_lines(h, table)


async def test_closed_dms_are_announced_and_the_game_goes_on(harness, players):
    h = harness
    h.fake.closed_dms.add(players[1].id)
    table = await start_table(h, "sarena", players[:3])
    notices = [m for m in h.fake.channel_messages(table.thread) if "direct message" in m["content"]]
    assert len(notices) == 1 and f"<@{players[1].id}>" in notices[0]["content"]
    assert "**My colour**" in notices[0]["content"]
    assert h.fake.dms_to(players[0].id) and not h.fake.dms_to(players[1].id)
    rng = random.Random(2)
    for _ in range(3):
        assert await sarena_move(h, table, rng) is not None
    live = await live_of(h, table)
    assert live.row.version == 3
    token = await h.click(players[1], board(h, table), find_component(board(h, table), "mine")["custom_id"])
    assert h.reply_flags(token) == [64]
    assert t(f"sarena.colour.{live.game.private_view(1)['colour']}") in h.reply_text(token)


# == nothing secret in public =================================================================

def everything_visible(message: dict[str, Any]) -> list[str]:
    """Every string of a message a person (or a client) can read."""
    out = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        out.append(json.dumps(embed, ensure_ascii=False))
    for c in components_of(message):
        out += [c.get("label") or "", c.get("custom_id") or "", c.get("placeholder") or ""]
        for option in c.get("options") or []:
            out += [option.get("label") or "", option.get("value") or "",
                    option.get("description") or ""]
    out += [a["filename"] for a in message.get("attachments") or []]
    return out


def assert_no_colour_in_ids(h) -> None:
    """Ephemeral steps and DMs are private, but any client can read their custom_ids and
    select values: those name squares and versions, never a colour."""
    for message in h.fake.messages.values():
        for c in components_of(message):
            assert not COLOUR_WORD.search(c.get("custom_id") or ""), c
            for option in c.get("options") or []:
                assert not COLOUR_WORD.search(option["value"]), option


def assert_view_is_public(view: dict[str, Any], state: dict[str, Any]) -> None:
    """No owner of a colour, and no chip face that has never been up, in a render input."""
    keys: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            keys.update(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(view)
    assert not keys & {"colour", "colours", "private"}, keys
    assert view["result"] is None
    for circle, pile, height in zip(view["board"], state["piles"], state["heights"]):
        chips = pile_chips(pile, height)
        assert circle["height"] == height == len(circle["chips"])
        for shown, chip in zip(circle["chips"], chips):
            assert shown["up"] == (COLOURS[UP[chip]] if UP_SEEN[chip] else None)
            assert shown["down"] == (COLOURS[DOWN[chip]] if DOWN_SEEN[chip] else None)
        if height:
            assert UP_SEEN[chips[-1]] and circle["top"] == COLOURS[UP[chips[-1]]]


@pytest.mark.slow
@pytest.mark.parametrize("seats,seed", [(2, 21), (3, 22), (4, 23)])
async def test_no_secret_in_anything_public(harness, players, monkeypatch, seats, seed):
    h = harness
    deal_with(monkeypatch, seed)
    seen_views: list[tuple[dict[str, Any], dict[str, Any]]] = []
    the_live: list[Any] = []
    real_render = cog(h).render

    def recording_render(view, names, locale="en"):
        if the_live and the_live[0].game.result() is None:
            # The board is drawn while the click waits, so the game cannot move meanwhile.
            seen_views.append((json.loads(json.dumps(view)), the_live[0].game.to_json()))
        return real_render(view, names, locale)

    monkeypatch.setattr(cog(h), "render", recording_render)
    table = await start_table(h, "sarena", players[:seats], fair=seed % 2 == 0)
    live = await live_of(h, table)
    the_live.append(live)
    await cog(h).refresh_board(live)  # the opening board, drawn again now that it is watched
    game = live.game
    colours = [game.private_view(s)["colour"] for s in range(seats)]
    secrets_ = [cog(h).private_text(live, s, game.private_view(s), "en") for s in range(seats)]
    names = [p.name for p in table.players]
    checked = set()

    def check() -> None:
        for message in h.fake.public_messages():
            key = json.dumps(message, sort_keys=True)
            if key in checked:
                continue
            checked.add(key)
            for text in everything_visible(message):
                low = text.lower()
                assert "your colour" not in low and "secret colour" not in low, text
                assert "colours revealed" not in low, text
                assert not any(secret in text for secret in secrets_), text
                for name in names:
                    assert f"**{name}** — " not in text, text  # the reveal line's shape
        assert_no_colour_in_ids(h)

    moves = await play_out(h, table, random.Random(seed), check=check)
    assert moves >= 9
    assert (await h.bot.tables.rebuild(table.id)).to_json() == await final_state(h, table.id)
    # The opening board and every board before the last move; the private steps' pictures
    # (a choice ringed) are checked as public too: they show nothing more than the board.
    assert len([view for view, _ in seen_views if "choice" not in view]) == moves
    assert any("choice" in view for view, _ in seen_views)
    for view, state in seen_views:
        assert_view_is_public({k: v for k, v in view.items() if k != "choice"}, state)
    assert_no_colour_in_ids(h)
    # Once over, every colour is revealed on the board.
    summary = board(h, table)["embeds"][0]["description"]
    assert all(cog(h).colour(c, "en") in summary for c in colours)


async def test_the_move_steps_show_the_board_with_the_choice_ringed(harness, players):
    h = harness
    table = await start_table(h, "sarena", players[:2])
    live = await h.bot.tables.get(table.id)
    player, names = table.players[live.game.to_move], live.names()
    b = board(h, table)
    move = [c for c in components_of(b) if c["custom_id"].split(":")[2] == "move"][0]
    token = await h.click(player, b, move["custom_id"])
    step = ephemeral_reply(h, token)
    view = live.game.public_view()
    piles = [c["custom_id"].rsplit(".", 1)[1] for c in components_of(step)
             if c["custom_id"].split(":")[2] == "pile"]
    assert attached(h, token) == render_sarena.render(dict(view, choice={"to": piles}), names, "en")
    pile = piles[0]
    token = await h.click(player, step, next(c["custom_id"] for c in components_of(step)
                                             if c["custom_id"].endswith("." + pile)))
    reach = [a["to"] for a in live.game.legal_actions(live.game.to_move) if a["from"] == pile]
    assert attached(h, token) == render_sarena.render(
        dict(view, choice={"from": pile, "to": reach}), names, "en")
