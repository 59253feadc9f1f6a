"""Narabi through Discord: switching, private cards, asking, advanced mode, the reveal, leaks."""
from __future__ import annotations

import json
import logging
import random
import re

import pytest

from bot.logs import CAP, CAPPED

from bot.i18n import catalogs
from bot.testing.fake_discord import CHANNEL_ID, Member, components_of, find_component
from bot.ui import routing
from render import narabi as render_narabi
from tests.helpers import (attached, board, deal_with, ephemeral_reply, narabi_path,
                           narabi_switch, open_lobby, random_move, start_table, tap_through)

CONDITION_TEXTS = {k: v for k, v in catalogs()["en"].items() if k.startswith("narabi.condition.")}


pytestmark = pytest.mark.usefixtures("no_missing_text")


async def test_private_cards_by_button_and_dm(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:4])
    live = await h.bot.tables.get(table.id)
    for seat, player in enumerate(table.players):
        dms = h.fake.dms_to(player.id)
        assert len(dms) == 1
        for card in live.game.private_view(seat)["cards"]:
            assert CONDITION_TEXTS[f"narabi.condition.{card['condition']}"] in dms[0]["content"]
    token = await h.click(players[2], board(h, table), find_component(board(h, table), "mine")["custom_id"])
    assert h.reply_flags(token) == [64]
    mine = live.game.private_view(2)["cards"]
    for card in mine:
        assert CONDITION_TEXTS[f"narabi.condition.{card['condition']}"] in h.reply_text(token)
    # after a switch both players involved hear about the card they received: the mover in
    # the private answer to their own click (no DM: it would cost a call Discord counts), the
    # other player, who did not act, by DM
    player, action = await random_move(h, table, random.Random(8))
    b = board(h, table)
    token, _ = await tap_through(h, player, b, narabi_path(b, action))
    mover, target_seat = live.game.public_view()["last_switch"]["seat"], \
        live.game.public_view()["last_switch"]["target_seat"]
    assert table.players[mover] == player
    assert "you now hold" in h.reply_text(token)
    assert "switched" in h.fake.public_followups[token][0]["content"]  # the turn line
    assert len(h.fake.dms_to(player.id)) == 1
    dms = h.fake.dms_to(table.players[target_seat].id)
    assert len(dms) == 2 and "you now hold" in dms[-1]["content"]
    third = next(s for s in range(4) if s not in (mover, target_seat))
    assert len(h.fake.dms_to(table.players[third].id)) == 1


def with_verb(message, verb: str) -> list[dict]:
    return [c for c in components_of(message) if c["custom_id"].split(":")[2] == verb]


def choice_of(component) -> int:
    """The card a step's button chooses (the last part of its custom_id)."""
    return int(component["custom_id"].rsplit(".", 1)[1])


async def test_switch_in_three_taps_only_legal_targets_and_back(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:5])
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    player = table.players[seat]
    token = await h.click(player, board(h, table), find_component(board(h, table), "switch")["custom_id"])
    step = ephemeral_reply(h, token)
    mine = live.game.private_view(seat)["cards"]
    # Every card of mine, a button each; their conditions (mine to see) above them.
    assert [choice_of(c) for c in with_verb(step, "pick")] == [c["id"] for c in mine]
    for card in mine:
        assert CONDITION_TEXTS[f"narabi.condition.{card['condition']}"] in step["content"]
    legal = live.game.legal_actions(seat)
    card = legal[0]["card"]
    pick = next(c for c in with_verb(step, "pick") if choice_of(c) == card)
    await h.click(player, step, pick["custom_id"])
    step = h.fake.messages[int(step["id"])]
    # Only the legal targets, each a button that switches: the existing confirm route.
    targets = with_verb(step, "confirm")
    assert {choice_of(c) for c in targets} == {a["target"] for a in legal if a["card"] == card}
    assert all(c["custom_id"].startswith(f"narabi:{table.id}:confirm:0.{card}.")
               for c in targets)
    # Back (nothing sent yet) returns to the cards.
    back = find_component(step, "switch")
    assert back["label"] == "Back"
    await h.click(player, step, back["custom_id"])
    step = h.fake.messages[int(step["id"])]
    assert with_verb(step, "pick") and live.row.version == 0
    await h.click(player, step, pick["custom_id"])
    step = h.fake.messages[int(step["id"])]
    await h.click(player, step, targets[0]["custom_id"])
    step = h.fake.messages[int(step["id"])]
    # the mover learns the card they received right there (no DM to the mover)
    assert step["content"].startswith("Done: turn 1 played.\nNarabi #") and step["components"] == []
    assert "you now hold" in step["content"]
    assert live.row.version == 1
    assert live.game.public_view()["last_switch"]["target"] == choice_of(targets[0])


@pytest.mark.slow
async def test_a_card_without_target_says_so_and_an_illegal_switch_is_refused(harness, players,
                                                                            monkeypatch):
    h = harness
    for i in range(12):
        deal_with(monkeypatch, i)  # the same deals every run
        table = await start_table(h, "narabi", players[:3], channel=CHANNEL_ID + i)
        live = await h.bot.tables.get(table.id)
        seat = live.game.to_move
        playable = {a["card"] for a in live.game.legal_actions(seat)}
        stuck = [c["id"] for c in live.game.private_view(seat)["cards"] if c["id"] not in playable]
        if stuck:
            break
    else:
        raise AssertionError("every card had a target in 12 deals")
    player = table.players[seat]
    token = await h.click(player, board(h, table), find_component(board(h, table), "switch")["custom_id"])
    step = ephemeral_reply(h, token)
    pick = next(c for c in with_verb(step, "pick") if choice_of(c) == stuck[0])
    assert pick["label"].endswith("(no legal target)")
    await h.click(player, step, pick["custom_id"])
    step = h.fake.messages[int(step["id"])]
    assert "no legal target right now" in step["content"]
    assert [c["custom_id"].split(":")[2] for c in components_of(step)] == ["switch"]  # Back
    # A forged switch of that card is refused, clearly, and changes nothing.
    target = next(c["id"] for row in live.game.public_view()["rows"][:seat] +
                  live.game.public_view()["rows"][seat + 1:] for c in row)
    forged = f"narabi:{table.id}:confirm:0.{stuck[0]}.{target}"
    msg = h.fake._message(table.thread, {"content": "", "flags": 64, "components": [
        {"type": 1, "components": [{"type": 2, "style": 3, "label": "x",
                                   "custom_id": forged}]}]}, [], flags=64)
    token = await h.click(player, msg, forged)
    assert "does not allow that switch" in h.reply_text(token) and live.row.version == 0


async def test_targets_fall_back_to_a_select_when_buttons_do_not_fit(harness, players,
                                                                     monkeypatch):
    """At most 12 targets and 5 cards in a real deal: a step with more choices than buttons fit
    still works, with one select whose choice does what the button would."""
    h = harness
    monkeypatch.setattr(routing, "BUTTON_GRID", 2)
    table = await start_table(h, "narabi", players[:5])
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    player = table.players[seat]
    legal = live.game.legal_actions(seat)
    card = max({a["card"] for a in legal}, key=lambda c: sum(a["card"] == c for a in legal))
    wanted = sorted(a["target"] for a in legal if a["card"] == card)
    assert len(wanted) >= 2  # with Back, more than the two buttons allowed
    token = await h.click(player, board(h, table), find_component(board(h, table), "switch")["custom_id"])
    step = ephemeral_reply(h, token)
    [cards] = components_of(step)
    assert cards["type"] == 3 and cards["custom_id"] == f"narabi:{table.id}:pick:0"
    await h.click(player, step, cards["custom_id"], values=[str(card)])
    step = h.fake.messages[int(step["id"])]
    targets, back = components_of(step)
    assert targets["type"] == 3 and targets["custom_id"] == f"narabi:{table.id}:confirm:0.{card}"
    assert sorted(int(o["value"]) for o in targets["options"]) == wanted
    assert back["label"] == "Back"
    await h.click(player, step, targets["custom_id"], values=[str(wanted[-1])])
    assert live.row.version == 1
    assert live.game.public_view()["last_switch"]["target"] == wanted[-1]


async def test_asking_flow(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    live = await h.bot.tables.get(table.id)
    asker, asked, other = table.players[0], table.players[1], table.players[2]
    token = await h.click(asker, board(h, table), find_component(board(h, table), "ask")["custom_id"])
    step = ephemeral_reply(h, token)
    rows = live.game.public_view()["rows"]
    card, with_card = rows[1][0]["id"], rows[2][0]["id"]
    await h.click(asker, step, find_component(step, "askcard")["custom_id"], values=[str(card)])
    step = h.fake.messages[int(step["id"])]
    values = {int(o["value"]) for o in find_component(step, "askwith")["options"]}
    assert card not in values and with_card in values
    await h.click(asker, step, find_component(step, "askwith")["custom_id"], values=[str(with_card)])
    question = h.fake.channel_messages(table.thread)[-1]
    assert "asks <@%d>" % asked.id in question["content"]
    yes = find_component(question, "answer")["custom_id"]
    token = await h.click(other, question, yes)
    assert "Only the player asked" in h.reply_text(token)
    await h.click(asked, question, yes)
    question = h.fake.messages[int(question["id"])]
    assert "**Yes**" in question["content"] and question["components"] == []
    assert live.row.version == 0  # talking is not a move


@pytest.mark.slow
async def test_advanced_mode_no_asking_no_undo(harness, players):
    h = harness
    lobby = await open_lobby(h, "narabi", players[0], advanced=True)
    assert "Advanced mode: **on**" in json.dumps(lobby["embeds"], ensure_ascii=False)
    await h.click(players[0], lobby, find_component(lobby, "cancel")["custom_id"])
    table = await start_table(h, "narabi", players[:3], advanced=True)
    verbs = [c["custom_id"].split(":")[2] for c in components_of(board(h, table))]
    assert "ask" not in verbs and "switch" in verbs
    live = await h.bot.tables.get(table.id)
    forged = f"narabi:{table.id}:ask:0"
    msg = h.fake._message(table.thread, {"content": "", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "x", "custom_id": forged}]}]}, [])
    token = await h.click(table.players[0], msg, forged)
    assert "Asking is off" in h.reply_text(token)
    # find a deal where the player after the mover could undo the switch, then try it
    rng = random.Random(9)
    for _ in range(40):
        if live.game.result() is not None:
            break
        last = live.game.public_view()["last_switch"]
        if last is not None:
            seat = live.game.to_move
            undo = [a for a in live.game.legal_actions(seat)]  # legal ones exclude the undo
            mine = {c["id"] for c in live.game.private_view(seat)["cards"]}
            if last["target_seat"] == seat and last["card"] in mine:
                custom_id = f"narabi:{table.id}:confirm:{live.row.version}.{last['card']}.{last['target']}"
                assert {"type": "switch", "card": last["card"], "target": last["target"]} not in undo
                msg = h.fake._message(table.thread, {"content": "", "flags": 64, "components": [
                    {"type": 1, "components": [{"type": 2, "style": 3, "label": "ok",
                                               "custom_id": custom_id}]}]}, [], flags=64)
                version = live.row.version
                token = await h.click(table.players[seat], msg, custom_id)
                assert live.row.version == version
                text = h.reply_text(token)
                assert "undo the previous switch" in text or "condition" in text
                if "undo the previous switch" in text:
                    return
        await narabi_switch(h, table, rng)
    raise AssertionError("no undo opportunity arose in 40 turns of this deal")


@pytest.mark.slow
async def test_end_reveals_every_condition_and_best_solution(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:3])
    rng = random.Random(10)
    while await narabi_switch(h, table, rng) is not None:
        pass
    live = await h.bot.tables.get(table.id)
    thread = [m["content"] for m in h.fake.channel_messages(table.thread)]
    over = next(c for c in thread if c.startswith("**Game over.**"))
    for row in live.game.public_view()["rows"]:
        for card in row:
            assert CONDITION_TEXTS[f"narabi.condition.{card['condition']}"] in over
    assert any("could have been solved" in c or "cannot be solved within" in c
               or "was not computed" in c for c in thread)


def _public_strings(h) -> list[str]:
    out = []
    for m in h.fake.public_messages():
        out.append(m["content"])
        out.append(json.dumps(m["embeds"], ensure_ascii=False))
        for c in components_of(m):
            out.append(json.dumps(c, ensure_ascii=False))
        out.extend(a["filename"] for a in m["attachments"])
    return out


def _contains_condition_key(view) -> bool:
    if isinstance(view, dict):
        return "condition" in view or any(_contains_condition_key(v) for v in view.values())
    if isinstance(view, list):
        return any(_contains_condition_key(v) for v in view)
    return False


@pytest.mark.slow
@pytest.mark.parametrize("seats, advanced, seed", [(3, False, 1), (4, True, 2), (5, False, 3),
                                                   (5, True, 4), (4, False, 5)])
async def test_no_condition_reaches_a_public_surface(harness, players, caplog, seats, advanced, seed):
    caplog.set_level(logging.DEBUG)
    for name in CAPPED:  # as bot.logs.configure does at LOG_LEVEL=DEBUG
        logging.getLogger(name).setLevel(CAP)
    h = harness
    cog = h.bot.get_cog("NarabiCog")
    render_inputs = []
    original = cog.render

    def spy(view, names, locale="en"):
        render_inputs.append(json.loads(json.dumps(view)))
        return original(view, names, locale)

    cog.render = spy
    table = await start_table(h, "narabi", players[:seats], advanced=advanced)
    live = await h.bot.tables.get(table.id)
    rng = random.Random(seed)
    texts = list(CONDITION_TEXTS.values())
    while live.game.result() is None:
        for s in _public_strings(h):
            for text in texts:
                assert text not in s
        for m in h.fake.messages.values():  # ephemeral and DMs too: custom_ids are readable
            for c in components_of(m):
                assert re.fullmatch(r"narabi:\d+:[a-z_]+(:[0-9.]+)?", c.get("custom_id", "")), c
        assert not any(_contains_condition_key(v) for v in render_inputs)
        for record in caplog.records:
            assert not any(text in record.getMessage() for text in texts)
        if await narabi_switch(h, table, rng) is None:
            break
        # a question now and then, answered, to cover asking's public messages
        if not advanced and rng.random() < 0.3 and live.game.result() is None:
            b = board(h, table)
            token = await h.click(table.players[0], b, find_component(b, "ask")["custom_id"])
            step = ephemeral_reply(h, token)
            opts = find_component(step, "askcard")["options"]
            await h.click(table.players[0], step, find_component(step, "askcard")["custom_id"],
                          values=[rng.choice(opts)["value"]])
            step = h.fake.messages[int(step["id"])]
            opts = find_component(step, "askwith")["options"]
            await h.click(table.players[0], step, find_component(step, "askwith")["custom_id"],
                          values=[rng.choice(opts)["value"]])
    assert render_inputs, "the board was rendered"
    assert live.game.result() is not None
    # once over, the reveal is public on purpose
    assert _contains_condition_key(render_inputs[-1])


async def open_targets(h, table, live) -> tuple[list[str], dict]:
    """Switch, then the mover's first card that has a target: the card buttons' labels and
    the step of targets."""
    mover = table.players[live.game.to_move]
    b = board(h, table)
    token = await h.click(mover, b, find_component(b, "switch")["custom_id"])
    step = ephemeral_reply(h, token)
    cards = [c["label"] for c in with_verb(step, "pick")]
    card = live.game.legal_actions(live.game.to_move)[0]["card"]
    pick = next(c for c in with_verb(step, "pick") if choice_of(c) == card)
    await h.click(mover, step, pick["custom_id"])
    return cards, h.fake.messages[int(step["id"])]


@pytest.mark.slow
async def test_no_two_choices_read_the_same(harness, players):
    """Two stones can look alike (two blanks of one colour): every button of the switch also
    names its place in the row, so no two read the same."""
    h = harness
    for i in range(3):
        table = await start_table(h, "narabi", players[:5], channel=CHANNEL_ID + i)
        live = await h.bot.tables.get(table.id)
        cards, step = await open_targets(h, table, live)
        assert len(set(cards)) == len(cards) and all("place" in label for label in cards)
        shown = [c["label"] for c in with_verb(step, "confirm")]
        assert len(set(shown)) == len(shown)
        assert all(" · place " in label for label in shown)


async def test_a_long_name_is_cut_before_the_place(harness):
    """A button label is 80 characters at most: a long name gives way, the stone and its place
    stay."""
    h = harness
    cog = h.bot.get_cog("NarabiCog")
    long_names = [Member(200 + i, f"{i}-{'Bartholomew-Maximilian-' * 3}") for i in range(5)]
    table = await start_table(h, "narabi", long_names)
    live = await h.bot.tables.get(table.id)
    _, step = await open_targets(h, table, live)
    shown = [c["label"] for c in with_verb(step, "confirm")]
    assert len(set(shown)) == len(shown)
    stones = {c["id"]: cog.stone(c, "en") for row in live.game.public_view()["rows"] for c in row}
    for target in with_verb(step, "confirm"):
        label = target["label"]
        assert len(label) <= 80 and "…'s " in label and label.endswith("in the row")
        assert f"'s {stones[choice_of(target)]} · place " in label


async def test_the_switch_steps_show_the_table_with_the_choice_framed(harness, players):
    h = harness
    table = await start_table(h, "narabi", players[:4])
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    player, names = table.players[seat], live.names()
    actions = live.game.legal_actions(seat)
    card = actions[0]["card"]
    targets = [a["target"] for a in actions if a["card"] == card]
    token = await h.click(player, board(h, table), find_component(board(h, table), "switch")["custom_id"])
    step = ephemeral_reply(h, token)
    view = live.game.public_view()
    assert attached(h, token) == render_narabi.render(view, names, "en")
    pick = next(c for c in components_of(step) if c["custom_id"].endswith(f".{card}"))
    token = await h.click(player, step, pick["custom_id"])
    # Exactly the public table with this card and the cards it may take framed: no secret.
    framed = render_narabi.render(dict(view, choice={"card": card, "targets": targets}),
                                  names, "en")
    assert attached(h, token) == framed != render_narabi.render(view, names, "en")
    assert [a["filename"] for a in h.fake.messages[int(step["id"])]["attachments"]] == ["step.png"]


async def test_a_seat_condition_names_the_seat_it_means_for_its_holder(harness, players,
                                                                         monkeypatch):
    """Issue 54: "the player on your right" is the seat before yours (seat 3 of 3 for seat 1),
    which the ring picture, seen from above, draws on the left. The holder's private text now
    names that seat as the picture labels it, and a new holder reads their own neighbour."""
    h = harness
    deal_with(monkeypatch, 0)  # seat 1 of 3 is dealt the "right" condition on card 7
    table = await start_table(h, "narabi", players[:3])
    live = await h.bot.tables.get(table.id)
    assert live.game.cards[7]["condition"]["id"] == "right" and 7 in live.game.rows[0]
    token = await h.click(players[0], board(h, table),
                          find_component(board(h, table), "mine")["custom_id"])
    text = h.reply_text(token)
    right = CONDITION_TEXTS["narabi.condition.right"]
    assert f"{right} That is **3 · {live.row.seats[2].name}**." in text
    # Every holder's DM at the start names, for each seat condition, the seat it means for
    # that holder (seat + offset round the ring).
    for seat, player in enumerate(players[:3]):
        dm = h.fake.dms_to(player.id)[0]["content"]
        for card in live.game.rows[seat]:
            condition = live.game.cards[card]["condition"]
            if condition["kind"] == "seat":
                target = (seat + condition["offset"]) % 3
                named = f"That is **{target + 1} · {live.row.seats[target].name}**."
                assert f"{CONDITION_TEXTS['narabi.condition.' + condition['id']]} {named}" in dm
