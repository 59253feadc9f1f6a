"""Each game through the Activity's API: the seat's legal targets come from the rules (Sensei's
after a partial plan, replayed on a copy), a move is committed by the domain's own code, and a
refusal reads as the thread's, in the session's language."""
from __future__ import annotations

import random

import aiohttp
import pytest

from bot.domain.refusals import error_text
from bot.games import IllegalAction
from bot.games.sensei import legal_turns
from bot.i18n import t
from bot.testing.activity_kit import Page, code_for, start_activity_bot
from bot.testing.fake_discord import Member
from bot.testing.flows import start_table


@pytest.fixture
async def h(tmp_path):
    harness = await start_activity_bot(tmp_path / "bot.sqlite3")
    yield harness
    await harness.bot.close()


async def pages(h, http, table, lang=None):
    out, instance = [], None
    for member in table.players:
        code, instance = code_for(h, member, table.thread, instance)
        page = Page(h, http)
        await page.sign_in(code, instance, lang)
        out.append(page)
    return out


async def test_sensei_plan_targets_send_and_refusals(h):
    table = await start_table(h, "sensei", [Member(101, "Ana", locale="de"), Member(102, "Ben")])
    live = await h.bot.tables.get(table.id)
    async with aiohttp.ClientSession() as http:
        ps = await pages(h, http, table)
        seat = live.game.to_move
        page, other = ps[seat], ps[1 - seat]
        assert page.signed["lang"] == ("de" if seat == 0 else "en")
        state = await page.state(table.id)
        legal = state["legal"]
        # Every legal first action is offered: each piece with exactly its targets.
        expected: dict[str, set[str]] = {}
        for action in live.game.legal_actions(seat):
            if action["type"] in ("stone", "character"):
                expected.setdefault(action["from"], set()).add(action["to"])
        assert {k: set(v["to"]) for k, v in legal["pieces"].items()} == expected
        assert legal["open"] and not legal["can_send"]
        assert (await other.state(table.id))["legal"] is None

        turn = random.Random(1).choice([t for t in legal_turns(live.game) if len(t) >= 2])
        status, planned = await page.call("POST", f"/api/tables/{table.id}/plan",
                                          {"version": state["version"], "plan": turn[:1]})
        assert status == 200 and planned["legal"]["can_send"]
        trial = live.game.copy()
        trial.apply(seat, turn[0])
        assert planned["public"] == trial.public_view()
        assert live.game.public_view() == state["public"]  # nothing was played
        # A plan the rules refuse is answered with the thread's sentence.
        bad = {"type": "stone", "from": "a1", "to": "a1"}
        status, refused = await page.call("POST", f"/api/tables/{table.id}/plan",
                                          {"version": state["version"], "plan": [bad]})
        assert status == 422
        try:
            live.game.copy().apply(seat, bad)
        except IllegalAction as exc:
            assert refused["error"]["message"] == error_text(exc, "sensei", page.signed["lang"])
        # Sending nothing is refused; sending the plan plays the whole turn.
        status, refused = await page.act(table.id, state["version"], [])
        assert status == 400
        status, played = await page.act(table.id, state["version"], turn)
        assert status == 200, played
        assert played["state"]["public"]["last_turn"]["seat"] == seat
        assert live.game.to_move == 1 - seat
        # It was the opponent's board too: they are to move now.
        assert (await other.state(table.id))["your_turn"]


async def test_narabi_switches_questions_and_answers(h):
    players = [Member(101, "Ana"), Member(102, "Ben"), Member(103, "Cleo")]
    table = await start_table(h, "narabi", players)
    live = await h.bot.tables.get(table.id)
    async with aiohttp.ClientSession() as http:
        ps = await pages(h, http, table)
        seat = live.game.to_move
        page = ps[seat]
        state = await page.state(table.id)
        switches = state["legal"]["switches"]
        assert set(switches) <= {str(c["id"]) for c in state["private"]["cards"]}
        wanted = {(a["card"], a["target"]) for a in live.game.legal_actions(seat)}
        assert {(int(c), target) for c, ts in switches.items() for target in ts} == wanted
        # A question to a teammate, answered by them through their own board.
        before = len(h.fake.channel_messages(table.thread))
        asked_seat = (seat + 1) % 3
        card = state["public"]["rows"][asked_seat][0]["id"]
        other = state["public"]["rows"][seat][0]["id"]
        status, answer = await page.call("POST", f"/api/tables/{table.id}/ask",
                                         {"card": card, "other": other})
        assert status == 200 and answer["question"]["asked"] == asked_seat
        qid = answer["question"]["id"]
        status, refused = await ps[(seat + 2) % 3].call(
            "POST", f"/api/tables/{table.id}/answer", {"question": qid, "answer": True})
        assert status == 409 and refused["error"]["code"] == "narabi_not_asked"
        status, _ = await ps[asked_seat].call("POST", f"/api/tables/{table.id}/answer",
                                              {"question": qid, "answer": False})
        assert status == 200
        questions = (await page.state(table.id))["questions"]
        assert questions[-1]["id"] == qid and questions[-1]["answer"] is False
        await h.settle()
        # The answer reached the thread as well.
        answered = t("narabi.ask.answer_no", live.row.locale, player=players[asked_seat].name)
        assert any(answered in m["content"] for m in h.fake.channel_messages(table.thread)[before:])
        # The question was posted in the thread too, naming who asked.
        posted = h.fake.channel_messages(table.thread)[before:]
        assert any(players[seat].name in m["content"] for m in posted)
        # The switch itself.
        card_id, targets = next(iter(switches.items()))
        status, played = await page.act(table.id, state["version"],
                                        [{"type": "switch", "card": int(card_id),
                                          "target": targets[0]}])
        assert status == 200, played
        assert played["state"]["last"][0]["kind"] == "switch"


async def test_a_refusal_reads_in_the_sessions_language(h):
    table = await start_table(h, "sarena", [Member(101, "Ana"), Member(102, "Ben")])
    live = await h.bot.tables.get(table.id)
    async with aiohttp.ClientSession() as http:
        ps = await pages(h, http, table, lang="pl")
        seat = live.game.to_move
        waiting = ps[1 - seat]
        assert waiting.signed["lang"] == "pl"
        action = live.game.legal_actions(seat)[0]
        status, refused = await waiting.act(table.id, live.row.version, [action])
        assert status == 422
        try:
            live.game.copy().apply(1 - seat, action)
        except IllegalAction as exc:
            assert refused["error"]["message"] == error_text(exc, "sarena", "pl")
        assert refused["error"]["message"] != error_text(IllegalAction(refused["error"]["code"]),
                                                         "sarena", "en")
        status, refused = await waiting.call("POST", "/api/tables", {"game": "chess"})
        assert status == 400 and refused["error"]["message"] == t(
            "activity.server.error.bad_request", "pl")


async def test_the_channel_list_and_a_new_lobby(h):
    table = await start_table(h, "sarena", [Member(101, "Ana"), Member(102, "Ben")])
    async with aiohttp.ClientSession() as http:
        code, instance = code_for(h, Member(101, "Ana"), table.thread)
        page = Page(h, http)
        await page.sign_in(code, instance)
        status, listing = await page.call("GET", "/api/tables")
        assert status == 200 and listing["open"] == table.id
        assert [e["id"] for e in listing["tables"]] == [table.id]
        assert set(listing["games"]) == {"narabi", "sensei", "sarena"}
        # In the parent channel (the Entry Point's list), a new game.
        code, instance = code_for(h, Member(105, "Eli"), table.lobby and int(table.lobby["channel_id"]))
        host = Page(h, http)
        await host.sign_in(code, instance)
        status, made = await host.call("POST", "/api/tables", {"game": "narabi"})
        assert status == 200 and made["table"]["status"] == "lobby"
        await h.settle()
        lobby_id = made["table"]["id"]
        live = await h.bot.tables.get(lobby_id)
        assert live.row.host_id == 105 and live.row.lobby_message_id is not None
        status, listing = await host.call("GET", "/api/tables")
        assert lobby_id in [e["id"] for e in listing["tables"]]
