"""AI players through the fake Discord: solo starts, AI seats in a lobby, whole games against
each level, Narabi teammates answering and asking, restarts and cancellation mid-think."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.games.narabi.ai import answer_question
from bot.games.ai import seat_view
from bot.games.sensei import legal_turns
from bot.testing.fake_discord import CHANNEL_ID, components_of, find_component
from bot.runtime.reviews import has_review
from tests.conftest import start_bot
from tests.helpers import (Table, board, custom_ids, ephemeral_reply, eventually, final_state,
                           narabi_switch)

pytestmark = pytest.mark.usefixtures("no_missing_text")


async def board_posted(h, table_id: int) -> bool:
    return (await h.bot.tables.get(table_id)).row.board_message_id is not None


def lobby_message(h) -> dict[str, Any]:
    return next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID))
                if m["embeds"] and not m["flags"] & 64)


def table_id_of(message: dict[str, Any]) -> int:
    return int(components_of(message)[0]["custom_id"].split(":")[1])


async def solo_table(h, host, game: str, **options: Any) -> Table:
    await h.command(host, game, "start", **options)
    lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID)) if m["embeds"])
    table_id = int(lobby["embeds"][0]["title"].rsplit("#", 1)[1])
    live = await h.bot.tables.get(table_id)
    assert live is not None and live.row.status in ("playing", "finished")
    return Table(table_id, lobby, live.row.game_channel_id, [host])


def thread_lines(h, table: Table) -> list[str]:
    return [m["content"] for m in h.fake.channel_messages(table.thread)
            if m["content"] and not m["flags"] & 64]


def dm_recipients(h) -> set[int]:
    return set(h.fake.dm_channels.values())


async def answer_questions_to(h, table: Table, member, seat: int) -> int:
    """Answer, truthfully, every question an AI teammate asked ``seat``; returns how many."""
    answered = 0
    for message in list(h.fake.channel_messages(table.thread)):
        buttons = [c for c in components_of(message)
                   if c.get("custom_id", "").split(":")[2:3] == ["answer"]]
        if not buttons:
            continue
        qid = int(buttons[0]["custom_id"].split(":")[3].split(".")[0])
        question = await h.bot.store.get_question(qid)
        if question["asked"] != seat or question["answer"] is not None:
            continue
        live = await h.bot.tables.get(table.id)
        truth = answer_question(seat_view(live.game, seat), question["payload"])
        button = next(c for c in buttons if c["custom_id"].endswith(f".{int(truth)}"))
        await h.click(member, message, button["custom_id"])
        answered += 1
    return answered


async def assert_ai_game_ended_cleanly(h, table: Table) -> dict[str, Any]:
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished"
    final = await final_state(h, table.id)
    rebuilt = await h.bot.tables.rebuild(table.id)
    assert rebuilt.to_json() == final  # every AI move is in the log like anyone's
    assert all(uid > 0 for uid in dm_recipients(h))  # nobody tried to DM an AI
    assert h.bot.autoplayer.fallbacks == 0  # every AI move was its level's own, none random
    assert custom_ids(board(h, table)) == [f"{row.game}:{table.id}:rematch", f"{row.game}:{table.id}:replay:0.9",
                                           *[f"{row.game}:{table.id}:review:0.9"] * has_review(row.game)]
    return final


# == solo starts and whole games ============================================================

@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
async def test_a_whole_sensei_game_against_each_level(harness, players, level):
    h = harness
    ana = players[0]
    table = await solo_table(h, ana, "sensei", ai=level, first="green")
    lobby_text = h.fake.messages[int(table.lobby["id"])]["embeds"][0]["fields"][0]["value"]
    assert f"AI · {level.capitalize()}" in lobby_text and "<@-" not in lobby_text
    rng = random.Random(level)
    for _ in range(200):
        live = await h.bot.tables.get(table.id)
        if live.row.status != "playing":
            break
        assert live.game.to_move == 0, "the AI answered every turn of Ana's"
        turn = rng.choice(legal_turns(live.game))
        text = " ".join(("*" if a["type"] == "character" else "") + f"{a['from']}-{a['to']}"
                        for a in turn)
        await h.command(ana, "sensei", "move", channel_id=table.thread, notation=text)
    final = await assert_ai_game_ended_cleanly(h, table)
    assert final["result"]["winners"] in ([0], [1])
    lines = thread_lines(h, table)
    assert any(f"AI · {level.capitalize()}" in line for line in lines)  # its moves are logged
    assert not any("<@-" in line for line in lines)  # an AI is named, never pinged
    rows = await h.bot.store.actions(table.id)
    assert {seat for seat, _ in rows} == {0, 1}


@pytest.mark.slow
@pytest.mark.parametrize("level,count", [("easy", 4), ("medium", 2), ("hard", 3)])
async def test_a_whole_sarena_game_against_ai_players(harness, players, level, count):
    h = harness
    ana = players[0]
    table = await solo_table(h, ana, "sarena", ai=level, players=count)
    live = await h.bot.tables.get(table.id)
    assert [s.ai for s in live.row.seats] == [None] + [level] * (count - 1)
    rng = random.Random(3)
    for _ in range(200):
        live = await h.bot.tables.get(table.id)
        if live.row.status != "playing":
            break
        assert live.game.to_move == 0
        action = rng.choice(live.game.legal_actions(0))
        await h.command(ana, "sarena", "move", channel_id=table.thread,
                        move=f"{action['from']}-{action['to']}")
    await assert_ai_game_ended_cleanly(h, table)
    # Only Ana got her secret colour, by DM.
    assert dm_recipients(h) == {ana.id}


@pytest.mark.slow
async def test_a_search_past_the_think_limit_plays_a_random_legal_move_and_says_why(
        harness, players, caplog):
    h = harness
    ana = players[0]
    h.bot.autoplayer.think_limit = 0.001  # no search finishes in time
    table = await solo_table(h, ana, "sarena", ai="hard", players=2)
    live = await h.bot.tables.get(table.id)
    moved = 0
    while live.row.status == "playing" and moved < 3:
        assert live.game.to_move == 0  # the AI seat answered at once, search or not
        action = live.game.legal_actions(0)[0]
        await h.command(ana, "sarena", "move", channel_id=table.thread,
                        move=f"{action['from']}-{action['to']}")
        await h.bot.autoplayer.wait_idle()
        live = await h.bot.tables.get(table.id)
        moved += 1
    ai_moves = [seat for seat, _ in await h.bot.store.actions(table.id) if seat == 1]
    assert len(ai_moves) == h.bot.autoplayer.fallbacks >= 1
    warnings = [r.getMessage() for r in caplog.records if "think failed" in r.getMessage()]
    assert warnings and all("ThinkTimeout" in w and "AI_PRIORITY=low" in w for w in warnings)


@pytest.mark.slow
async def test_narabi_with_ai_teammates_answers_questions_truthfully(harness, players):
    h = harness
    ana = players[0]
    table = await solo_table(h, ana, "narabi", ai="hard", players=3)
    live = await h.bot.tables.get(table.id)
    assert [s.person for s in live.row.seats] == [True, False, False]
    rng = random.Random(5)
    asked = answered = 0
    for _ in range(60):
        for _ in range(4):  # each AI teammate in turn may ask Ana something
            now = await answer_questions_to(h, table, ana, 0)
            answered += now
            if not now:
                break
        live = await h.bot.tables.get(table.id)
        if live.row.status != "playing":
            break
        assert live.game.to_move == 0
        if asked < 2:
            # Ana asks AI seat 1 whether it could switch its first card with her first card.
            game = live.game
            card, other = game.rows[1][0], game.rows[0][0]
            truth = answer_question(seat_view(game, 1), {"card": card, "other": other})
            b = board(h, table)
            token = await h.click(ana, b, find_component(b, "ask")["custom_id"])
            step = ephemeral_reply(h, token)
            await h.click(ana, step, find_component(step, "askcard")["custom_id"],
                          values=[str(card)])
            step = h.fake.messages[int(step["id"])]
            await h.click(ana, step, find_component(step, "askwith")["custom_id"],
                          values=[str(other)])
            posted = thread_lines(h, table)[-1]
            assert ("Yes" in posted) == truth and ("No" in posted) != truth, posted
            assert not components_of(h.fake.channel_messages(table.thread)[-1])
            asked += 1
        await narabi_switch(h, table, rng)
    row = await h.bot.store.get_table(table.id)
    assert row.status == "finished"
    assert await h.bot.store.questions_of(table.id) == []  # a finished game keeps none
    assert asked >= 1  # the deal may end before Ana's second turn


async def test_an_ai_teammate_asks_a_person_and_plays_once_answered(harness, players,
                                                                    monkeypatch):
    h = harness
    ana = players[0]
    # Ana and one AI at a three-seat table where the AI moves first.
    await h.command(ana, "narabi", "start")
    lobby = lobby_message(h)
    table_id = table_id_of(lobby)
    for _ in range(2):
        await h.click(ana, lobby_message(h), f"narabi:{table_id}:addai", values=["hard"])
    live = await h.bot.tables.get(table_id)
    assert [s.ai for s in live.row.seats] == [None, "hard", "hard"]
    # The AI's search always wants to ask Ana about her first card, to see the flow end to end.
    calls = []

    async def ask_always(live_, seat, level, view, think):
        view = await cog_prepare(live_, seat, level, view, fake_think)
        return view

    async def fake_think(function, *args):
        calls.append(function)
        if function == "bot.games.ai:choose_question":
            game = (await h.bot.tables.get(table_id)).game
            seat = args[1]["seat"]
            return {"card": game.rows[0][0], "other": game.rows[seat][0]}
        return await h.bot.pool.call(function, *args)

    cog = h.bot.router.cog("narabi")
    cog_prepare = cog.ai_prepare
    monkeypatch.setattr(h.bot.autoplayer, "prepare", ask_always)
    await h.click(ana, lobby_message(h), f"narabi:{table_id}:start")
    live = await h.bot.tables.get(table_id)
    ai_turn = live.game.to_move != 0
    if not ai_turn:
        await narabi_switch(h, Table(table_id, lobby, live.row.game_channel_id, [ana]),
                            random.Random(1))
    live = await h.bot.tables.get(table_id)
    assert live.row.status == "playing"
    questions = await h.bot.store.questions_of(table_id)
    to_ana = [q for q in questions if q["asked"] == 0 and q["answer"] is None]
    assert to_ana, "the AI asked Ana and waits for her answer"
    version, waiting_seat = live.row.version, live.game.to_move
    assert waiting_seat != 0  # still the AI's turn: it waits
    message = next(m for m in reversed(h.fake.channel_messages(live.row.game_channel_id))
                   if any(c.get("custom_id", "").split(":")[2:3] == ["answer"]
                          for c in components_of(m)))
    assert f"<@{ana.id}>" in message["content"]
    yes = next(c for c in components_of(message) if c["custom_id"].endswith(".1"))
    await h.click(ana, message, yes["custom_id"])
    live = await h.bot.tables.get(table_id)
    assert live.row.version > version  # answered: the AI played on
    log = await h.bot.store.actions(table_id)
    assert log[version][0] == waiting_seat
    assert calls.count("bot.games.ai:choose_question") >= 1


# == the lobby ================================================================================

@pytest.mark.slow
async def test_host_adds_and_removes_ai_players_and_others_cannot(harness, players):
    h = harness
    ana, ben = players[:2]
    await h.command(ana, "sarena", "start")
    table_id = table_id_of(lobby_message(h))
    token = await h.click(ben, lobby_message(h), f"sarena:{table_id}:addai", values=["medium"])
    live = await h.bot.tables.get(table_id)
    assert len(live.row.seats) == 1
    assert "Only the host" in h.reply_text(token)
    await h.click(ana, lobby_message(h), f"sarena:{table_id}:addai", values=["medium"])
    await h.click(ben, lobby_message(h), f"sarena:{table_id}:join")
    await h.click(ana, lobby_message(h), f"sarena:{table_id}:addai", values=["hard"])
    lobby = lobby_message(h)
    players_field = lobby["embeds"][0]["fields"][0]["value"]
    assert "AI · Medium" in players_field and "AI · Hard" in players_field
    assert f"<@{ben.id}>" in players_field
    # Full: no more "Add an AI player"; the remove menu lists both AI seats.
    assert "addai" not in [c["custom_id"].split(":")[2] for c in components_of(lobby)]
    remove = find_component(lobby, "rmai")
    assert [o["value"] for o in remove["options"]] == ["1", "3"]
    await h.click(ana, lobby, remove["custom_id"], values=["1"])
    live = await h.bot.tables.get(table_id)
    assert [(s.person, s.ai) for s in live.row.seats] == [(True, None), (True, None),
                                                          (False, "hard")]
    await h.click(ana, lobby_message(h), f"sarena:{table_id}:start")
    live = await h.bot.tables.get(table_id)
    assert live.row.status == "playing"
    # Turns pass from person to AI and back without anyone waiting on the AI.
    for _ in range(6):
        live = await h.bot.tables.get(table_id)
        seat = live.game.to_move
        assert live.row.seats[seat].person
        action = live.game.legal_actions(seat)[0]
        await h.command(players[seat], "sarena", "move", channel_id=live.row.game_channel_id,
                        move=f"{action['from']}-{action['to']}")


async def test_the_last_person_leaving_closes_a_lobby_of_ai(harness, players):
    h = harness
    ana = players[0]
    await h.command(ana, "sensei", "start")
    table_id = table_id_of(lobby_message(h))
    await h.click(ana, lobby_message(h), f"sensei:{table_id}:addai", values=["easy"])
    await h.click(ana, lobby_message(h), f"sensei:{table_id}:leave")
    row = await h.bot.store.get_table(table_id)
    assert row.status == "cancelled"


# == restarts and cancellation ==============================================================

@pytest.mark.slow
async def test_ai_players_stopped_mid_turn_play_again_when_started_again(harness, players):
    h, ana = harness, players[0]
    h.bot.autoplayer.pause = 3600.0  # stopped while it waits to play
    table = await solo_table(h, ana, "sensei", ai="medium", first="red")
    assert h.bot.autoplayer._pausing == {table.id}
    await h.bot.autoplayer.stop()
    h.bot.autoplayer.poke(table.id)  # a stopped player ignores the table
    await h.settle()
    assert (await h.bot.tables.get(table.id)).row.version == 0
    h.bot.autoplayer.pause = 0.0
    assert await h.bot.autoplayer.start_again() == 1  # the one running table with an AI seat
    await h.settle()
    live = await h.bot.tables.get(table.id)
    assert live.row.version >= 1 and live.game.to_move == 0
    assert {seat for seat, _ in await h.bot.store.actions(table.id)} == {1}


@pytest.mark.slow
async def test_a_restart_in_the_middle_of_an_ai_turn_resumes_it(database, players):
    path = database
    h = await start_bot(path)
    ana = players[0]
    # The AI takes a long pause before playing: the bot stops during it.
    h.bot.autoplayer.pause = 3600.0
    table = await solo_table(h, ana, "sensei", ai="medium", first="red")
    live = await h.bot.tables.get(table.id)
    assert live.game.to_move == 1 and live.row.version == 0
    assert h.bot.autoplayer._pausing == {table.id}  # thought, and waiting to play
    await h.bot.close()

    h = await start_bot(path, h.fake)
    try:
        await h.settle()
        live = await h.bot.tables.get(table.id)
        assert live.row.version >= 1 and live.game.to_move == 0  # the AI played its turn
        seats = await h.bot.store.actions(table.id)
        assert {seat for seat, _ in seats} == {1}
    finally:
        await h.bot.close()


class StuckPool:
    """A pool whose searches never end by themselves; records how they end."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.cancelled = 0

    async def call(self, function: str, *args: Any, timeout: float | None = None) -> Any:
        self.started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise

    @property
    def busy(self) -> int:
        return 0


async def test_a_search_is_cancelled_when_its_game_ends(harness, players):
    h = harness
    ana = players[0]
    stuck = StuckPool()
    h.bot.autoplayer.pool = stuck
    await h.command(ana, "sensei", "start", ai="hard", first="red", settle=False)
    await asyncio.wait_for(stuck.started.wait(), 10)
    table_id = (await h.bot.store.tables_with_ai())[0]
    # the board is posted beside the think
    assert await eventually(lambda: board_posted(h, table_id))
    live = await h.bot.tables.get(table_id)
    b = board(h, Table(table_id, {}, live.row.game_channel_id, []))
    token = await h.click(ana, b, find_component(b, "resign")["custom_id"], settle=False)
    assert await eventually(lambda: token in h.fake._original)  # the confirmation is on its way
    step = ephemeral_reply(h, token)
    await h.click(ana, step, find_component(step, "resign_ok")["custom_id"], settle=False)
    await asyncio.wait_for(h.bot.autoplayer.wait_idle(), 10)
    assert stuck.cancelled == 1
    row = await h.bot.store.get_table(table_id)
    assert row.status == "finished"
    assert not h.bot.autoplayer.active
    await h.settle()


async def test_a_failed_search_still_plays_a_legal_move(harness, players):
    h = harness

    class BrokenPool:
        busy = 0

        async def call(self, function: str, *args: Any, timeout: float | None = None) -> Any:
            raise RuntimeError("search crashed")

    h.bot.autoplayer.pool = BrokenPool()
    table = await solo_table(h, players[0], "sarena", ai="hard")
    live = await h.bot.tables.get(table.id)
    if live.game.to_move != 0:  # pragma: no cover - depends on the deal
        await h.settle()
        live = await h.bot.tables.get(table.id)
    action = live.game.legal_actions(0)[0]
    await h.command(players[0], "sarena", "move", channel_id=table.thread,
                    move=f"{action['from']}-{action['to']}")
    live = await h.bot.tables.get(table.id)
    assert live.game.to_move == 0 and live.row.version >= 2  # the AI moved anyway



async def test_the_start_names_the_ai_that_plays_first_even_after_it_moved(harness, players):
    """The start line is posted after the deal; an AI that moves first has already played by
    then, yet the line names who was dealt the first turn."""
    h = harness
    table = await solo_table(h, players[0], "sensei", ai="easy", first="red")
    live = await h.bot.tables.get(table.id)
    assert live.game.turn > 1  # the AI has played its first turn
    started = next(line for line in thread_lines(h, table) if "plays first" in line)
    first = started.rsplit("—", 1)[1]
    assert "AI · Easy" in first and "<@" not in first, started


# == the expert level ========================================================================

async def play_a_person_turn(h, game: str, table: Table, member, rng: random.Random) -> None:
    """The person at seat 0 plays one legal turn through the real commands or clicks."""
    live = await h.bot.tables.get(table.id)
    if game == "sensei":
        turn = rng.choice(legal_turns(live.game))
        text = " ".join(("*" if a["type"] == "character" else "") + f"{a['from']}-{a['to']}"
                        for a in turn)
        await h.command(member, "sensei", "move", channel_id=table.thread, notation=text)
    elif game == "sarena":
        action = rng.choice(live.game.legal_actions(0))
        await h.command(member, "sarena", "move", channel_id=table.thread,
                        move=f"{action['from']}-{action['to']}")
    else:
        await narabi_switch(h, table, rng)


@pytest.mark.slow
@pytest.mark.parametrize("game,seats,options", [("sensei", 2, {}), ("sarena", 3, {}),
                                                ("narabi", 3, {"advanced": True})])
async def test_expert_is_offered_in_every_lobby_and_plays_legal_moves(harness, players, game,
                                                                      seats, options):
    from bot.games.ai import PLAYER_LEVELS
    from bot.i18n import t

    h = harness
    ana = players[0]
    await h.command(ana, game, "start", **options)
    table_id = table_id_of(lobby_message(h))
    menu = find_component(lobby_message(h), "addai")
    offered = {o["value"]: o for o in menu["options"]}
    assert list(offered) == list(PLAYER_LEVELS) == ["easy", "medium", "hard", "expert"]
    assert offered["expert"]["label"] == "Expert"
    # Narabi says its expert plays as hard; the other games say how long it thinks.
    own = {"narabi": "Plays like Hard"}.get(game, "a second and a half")
    assert own in offered["expert"]["description"]
    assert offered["expert"]["description"] == h.bot.router.cog(game).level_description(
        "expert", "en") != t("ai.level.hard.description", "en")
    for _ in range(seats - 1):
        await h.click(ana, lobby_message(h), f"{game}:{table_id}:addai", values=["expert"])
    live = await h.bot.tables.get(table_id)
    assert [s.ai for s in live.row.seats] == [None] + ["expert"] * (seats - 1)
    assert "AI · Expert" in lobby_message(h)["embeds"][0]["fields"][0]["value"]
    await h.click(ana, lobby_message(h), f"{game}:{table_id}:start")
    live = await h.bot.tables.get(table_id)
    table = Table(table_id, lobby_message(h), live.row.game_channel_id, [ana])
    rng = random.Random(game)
    for _ in range(3):
        live = await h.bot.tables.get(table_id)
        if live.row.status != "playing":
            break
        assert live.game.to_move == 0, "the expert AI answered at once"
        await play_a_person_turn(h, game, table, ana, rng)
    rows = await h.bot.store.actions(table_id)
    assert {seat for seat, _ in rows} - {0}, "an expert seat played"
    live = await h.bot.tables.get(table_id)
    if live.row.status == "playing":
        # Every AI move is legal: the log rebuilds the very same game.
        assert (await h.bot.tables.rebuild(table_id)).to_json() == live.game.to_json()
    else:
        await assert_ai_game_ended_cleanly(h, table)


@pytest.mark.slow
async def test_the_start_commands_offer_expert_within_discords_limits(harness, players):
    from bot.ui.lobby import AI_CHOICES

    assert [c.value for c in AI_CHOICES] == ["easy", "medium", "hard", "expert"]
    assert len(AI_CHOICES) <= 25 and all(len(c.name) <= 100 for c in AI_CHOICES)
    h = harness
    table = await solo_table(h, players[0], "sensei", ai="expert", first="red")
    live = await h.bot.tables.get(table.id)
    assert [s.ai for s in live.row.seats] == [None, "expert"]
    assert live.game.turn > 1  # the expert played the first turn
    assert any("AI · Expert" in line for line in thread_lines(h, table))
