"""Every public message under its own author. Discord stores a message made through an
interaction with that interaction's person (``interaction_metadata``) and draws it as "Ana used
/sensei move": such a message may only report what that person did. An AI's move, the clock's
verdicts and reminders, and a game's end are the bot's own words."""
from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from bot.games.sensei import legal_turns
from bot.testing.fake_discord import BOT_ID, CHANNEL_ID, find_component
from bot.testing.interaction_metadata import author_of
from tests.conftest import start_bot
from tests.helpers import Table, board, eventually, sensei_path, start_table, tap_through

T0 = 1_800_000_000.0
HOUR = 3600.0
#: the mover a turn line names: Sensei's "Turn 3 · Ana: …", Sàréná's "Ana moved a1 → b1 …"
MOVER = re.compile(r"^(?:Turn \d+ · (?P<who>.+?)(?:: | resigned| cannot move| offers| declined"
                   r"| accepted)|(?P<mover>.+?) (?:moved|resigned|cannot move) )")


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def who(line: str) -> str:
    """The mover a turn line names ("" when it is no turn line)."""
    found = MOVER.match(line)
    return (found["who"] or found["mover"]) if found else ""


def public(h) -> list[dict[str, Any]]:
    """Every message everyone in the server sees (no DMs, nothing ephemeral)."""
    return h.fake.public_messages()


def misattributed(h, names: dict[int, str]) -> list[str]:
    """Public messages whose interaction names a person for something they did not do. A
    message may carry a person's interaction when it is that interaction's own answer (the
    person's command or click), or a follow-up that is the line of that person's own move."""
    wrong = []
    for message in public(h):
        user = author_of(message)
        if user is None:
            continue
        metadata = message["interaction_metadata"]
        if "original_response_message_id" not in metadata:
            continue  # the answer to their own command or click
        if who(message["content"]) != names[user]:
            wrong.append(f"{names.get(user, user)}: {message['content'][:80]}")
    return wrong


async def ai_table(h, ana) -> Table:
    await h.command(ana, "sensei", "start", ai="easy", first="green")
    lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID)) if m["embeds"])
    table_id = int(lobby["embeds"][0]["title"].rsplit("#", 1)[1])
    live = await h.bot.tables.get(table_id)
    return Table(table_id, lobby, live.row.game_channel_id, [ana])


async def test_a_game_against_the_ai_names_nobody_for_what_they_did_not_do(harness, players):
    h = harness
    ana = players[0]
    table = await ai_table(h, ana)
    shown: list[str] = []  # every text the board message showed, edit after edit

    def on_edit(event: str, message: dict[str, Any]) -> None:
        if event == "edit" and message["id"] == board(h, table)["id"] and message["content"]:
            shown.append(message["content"])
    h.fake.listeners.append(on_edit)
    live = await h.bot.tables.get(table.id)
    rng = random.Random(11)
    turns = 0
    while live.game.result() is None and turns < 6:
        since, version, seen = len(h.fake.requests), live.row.version, len(shown)
        turn = rng.choice(legal_turns(live.game))
        await tap_through(h, ana, board(h, table), sensei_path(turn))
        await h.settle()
        turns += 1
        moves = 1 + any("AI" in who(text) for text in shown[seen:])  # Ana's turn, the AI's
        # ≤ 1 counted call a move: the board's edit (and once, at the end, the lobby's)
        counted = [r for r in h.fake.counted(since) if r.path.startswith(f"/channels/{table.thread}/")]
        assert live.row.board_version == live.row.version > version
        assert 1 <= len(counted) <= moves, [r.json.get("content") for r in counted]
        assert all(r.method == "PATCH" for r in counted)  # the board's edit, nothing else
    # Ana's resignation ends it: her own line through her own click, the end in the bot's name
    if live.row.status == "playing":
        await resign(h, ana, table)
    assert live.row.status == "finished"
    names = {ana.id: "Ana"}
    assert misattributed(h, names) == []
    # The AI's lines and the end were shown on the board, by the bot itself
    ai_lines = [text for text in shown if "AI" in who(text)]
    assert len(ai_lines) >= turns - 1
    assert any("Game over" in text for text in shown)
    assert not any("AI" in who(m["content"]) for m in public(h) if author_of(m) is not None)
    # and what went out through Ana's interactions is hers: one line per turn of hers
    hers = lines_through(h, ana)
    assert turns <= len(hers) <= turns + 1 and all(m["content"].startswith("Turn") for m in hers)


async def resign(h, member, table: Table) -> None:
    await h.click(member, board(h, table), find_component(board(h, table), "resign")["custom_id"])
    ask = h.fake.messages[max(m for m, v in h.fake.messages.items() if v["flags"] & 64)]
    await h.click(member, ask, find_component(ask, "resign_ok")["custom_id"])
    await h.settle()


@pytest.fixture
async def timed(database):
    h = await start_bot(database)
    h.clock = h.bot.store.clock = Clock()
    yield h
    await h.bot.close()


async def advance(h, seconds: float) -> None:
    h.clock.now += seconds
    await h.bot.turnclock.run_due()
    await h.settle()


async def test_clock_reminders_and_a_forfeit_go_out_under_the_bots_name(timed, players):
    """Ana moves; Ben lets his time run out. The reminders, the verdict and the end are the
    bot's: none rides on Ana's interaction, the last one in the thread."""
    h = timed
    ana, ben = players[:2]
    await h.command(ana, "sensei", "start", first="green")
    lobby = next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID))
                 if m["embeds"] and not m["flags"] & 64)
    table_id = int(find_component(lobby, "join")["custom_id"].split(":")[1])
    await h.click(ana, lobby, f"sensei:{table_id}:clock", values=["3600"])
    await h.click(ana, lobby, f"sensei:{table_id}:policy", values=["forfeit"])
    await h.click(ben, lobby, f"sensei:{table_id}:join")
    await h.click(ana, lobby, f"sensei:{table_id}:start")
    live = await h.bot.tables.get(table_id)
    table = Table(table_id, lobby, live.row.game_channel_id, [ana, ben])
    assert table.players[live.game.to_move] is ana
    await tap_through(h, ana, board(h, table), sensei_path(legal_turns(live.game)[0]))
    assert live.game.to_move == 1
    await advance(h, 0.5 * HOUR)   # half of Ben's time: a reminder that pings him
    await advance(h, 0.45 * HOUR)  # almost up
    reminders = [m for m in public(h) if f"<@{ben.id}>" in m["content"] and "⏳" in m["content"]]
    assert reminders and all(author_of(m) is None for m in reminders)
    await advance(h, 0.1 * HOUR)   # out of time: Ben forfeits
    assert live.row.status == "finished"
    assert misattributed(h, {ana.id: "Ana", ben.id: "Ben"}) == []
    verdict = [m for m in public(h) if "ran out of time" in m["content"]]
    assert verdict and all(author_of(m) is None for m in verdict)
    assert "Game over" in board(h, table)["content"]
    assert str(BOT_ID) == board(h, table)["author"]["id"]


async def test_a_persons_move_goes_through_their_own_interaction_only(harness, players):
    """Two people: each turn line is a follow-up of its mover's own click, naming the mover."""
    h = harness
    table = await start_table(h, "sensei", players[:2])
    live = await h.bot.tables.get(table.id)
    rng = random.Random(3)
    for _ in range(4):
        mover = table.players[live.game.to_move]
        token, _ = await tap_through(h, mover, board(h, table),
                                     sensei_path(rng.choice(legal_turns(live.game))))
        lines = h.fake.public_followups.get(token, [])
        assert len(lines) == 1 and who(lines[0]["content"]) == mover.name
    assert misattributed(h, {p.id: p.name for p in players[:2]}) == []


async def test_an_ai_line_pings_only_someone_away_and_in_the_bots_own_message(harness, players):
    """Ana, Ben and an AI at Sàréná. While both play, the AI's line rides on the board's edit,
    the move's one counted call: each of them acted minutes ago at most and sees the board
    change. An edit pings nobody, so when the AI hands the turn to someone away for longer, its
    line is a message of the bot's own that pings them (still nobody's interaction)."""
    h = harness
    clock = h.bot.store.clock = Clock()
    ana, ben = players[:2]
    await h.command(ana, "sarena", "start")
    lobby = h.fake.channel_messages(CHANNEL_ID)[-1]
    table_id = int(find_component(lobby, "join")["custom_id"].split(":")[1])
    await h.click(ben, lobby, f"sarena:{table_id}:join")
    await h.click(ana, h.fake.messages[int(lobby["id"])], f"sarena:{table_id}:addai",
                  values=["easy"])
    await h.click(ana, h.fake.messages[int(lobby["id"])], f"sarena:{table_id}:start")
    live = await h.bot.tables.get(table_id)
    assert [s.person for s in live.row.seats] == [True, True, False]
    table = Table(table_id, lobby, live.row.game_channel_id, [ana, ben])

    async def move(pause: float = 0.0) -> list[dict[str, Any]]:
        """The person whose turn it is moves after ``pause`` seconds; the AI's lines that
        went out as messages of their own."""
        clock.now += pause
        seat = live.game.to_move
        action = live.game.legal_actions(seat)[0]
        before = set(h.fake.messages)
        await h.command(table.players[seat], "sarena", "move", channel_id=table.thread,
                        move=f"{action['from']}-{action['to']}")
        await h.settle()
        new = [h.fake.messages[m] for m in set(h.fake.messages) - before]
        return [m for m in new if "AI" in m["content"].split("Next")[0] and "Next" in m["content"]]

    await h.settle()  # the AI's first move, when the deal gave it the first turn
    since, first_version = len(h.fake.requests), live.row.version
    for _ in range(4):  # the people in turn (the AI after Ben), a minute apart each
        assert await move(60.0) == []
    assert live.row.status == "playing"
    moves = live.row.version - first_version
    counted = [r for r in h.fake.counted(since) if r.path.startswith(f"/channels/{table.thread}/")]
    assert len(counted) <= moves and all(r.method == "PATCH" for r in counted)
    assert live.row.board_version == live.row.version
    # Ana moves at once, then Ben takes 6 minutes: the AI's line hands the turn to
    # Ana, away 6 minutes, and pings her in a message of the bot's own, not on Ben's
    if live.game.to_move == 1:
        assert await move(60.0) == []
    assert live.game.to_move == 0
    await move(0.0)
    pinged_by_ai = await move(6 * 60.0)
    assert len(pinged_by_ai) == 1 and author_of(pinged_by_ai[0]) is None
    assert f"<@{ana.id}>" in pinged_by_ai[0]["content"]
    assert misattributed(h, {ana.id: "Ana", ben.id: "Ben"}) == []


async def test_a_repair_before_the_click_is_answered_keeps_the_line_for_the_mover(
        harness, players):
    """Another event may bring the table's repair between a move's commit and the answer to
    its click (an AI's search ending, a turn clock, a second process): the line waits for the
    answer and goes out through the mover's interaction, instead of riding on the board where
    the next edit drops it."""
    h = harness
    ana = players[0]
    table, live = await settled_ai_table(h, ana)
    remember = h.bot.relay.remember_move
    repairs = []

    def remember_then_repair(interaction, table_id, version):
        remember(interaction, table_id, version)
        # runs at the next await: while the click's answer is on its way to Discord
        repairs.append(asyncio.ensure_future(h.bot.reconciler.sync(table_id)))

    h.bot.relay.remember_move = remember_then_repair
    route = h.fake._interaction_route

    async def answer_after_the_repair(method, path, body, files):
        if path.strip("/").startswith("interactions") and repairs:
            await asyncio.gather(*repairs)  # the click's answer reaches Discord after it
        return await route(method, path, body, files)

    h.fake._interaction_route = answer_after_the_repair
    await tap_through(h, ana, board(h, table), sensei_path(rng_turn(live)))
    await h.settle()
    await asyncio.gather(*repairs)
    await h.settle()
    assert repairs
    hers = lines_through(h, ana)
    assert len(hers) == 1 and who(hers[0]["content"]) == "Ana"


@pytest.mark.parametrize("late,kept", [(3.5, True), (61.0, False)])
async def test_a_click_answered_seconds_after_its_commit_keeps_the_line_for_the_mover(
        harness, players, late, kept):
    """On a loaded machine a click's answer may reach Discord seconds after its move was
    committed (Discord counts its three seconds from the click, earlier), while a repair
    publishes the table: the line waits for as long as the click's handler runs, with no
    clock of its own to race. The relay's real time is moved on while the answer is on its way
    (a line used to wait 3 s at most, then rode on the board where the next edit dropped it).
    Only a handler hung for a minute lets its line go, on the board's edit, in the bot's name."""
    h = harness
    ana = players[0]
    table, live = await settled_ai_table(h, ana)
    now = [1000.0]
    h.bot.relay.real_time = lambda: now[0]
    remember = h.bot.relay.remember_move
    committed = []

    def remember_move(interaction, table_id, version):
        remember(interaction, table_id, version)
        committed.append(table_id)

    h.bot.relay.remember_move = remember_move
    route = h.fake._interaction_route
    held = []

    async def answer_seconds_later(method, path, body, files):
        if path.strip("/").startswith("interactions") and committed and not held:
            now[0] += late  # the machine is slow: seconds pass before the answer leaves
            held.append(await h.bot.reconciler.sync(committed[-1]))
        return await route(method, path, body, files)

    h.fake._interaction_route = answer_seconds_later
    await tap_through(h, ana, board(h, table), sensei_path(rng_turn(live)))
    await h.settle()
    assert held  # the repair ran between the commit and the answer
    hers = lines_through(h, ana)
    on_board = [r for r in h.fake.requests if r.method == "PATCH" and isinstance(r.json, dict)
                and any(who(line) == "Ana" for line in (r.json.get("content") or "").split("\n"))]
    if kept:
        assert len(hers) == 1 and who(hers[0]["content"]) == "Ana" and not on_board
    else:
        assert hers == [] and on_board  # told all the same, by the bot


async def test_a_repair_between_the_commit_and_the_handler_keeps_the_line_for_the_mover(
        harness, players):
    """The commit lands before the click's handler gets on (its coroutine waits for the loop,
    longer on a busy machine): a repair that reads the outbox in between finds the mover's
    line before the relay knows whose it is, and the AI may have answered, so the table's
    version is the AI's by then. The line waits for the click all the same, and the click
    carries the mover's line, not the AI's."""
    h = harness
    ana = players[0]
    table, live = await settled_ai_table(h, ana)
    act_many = h.bot.tables.act_many
    repaired = []

    async def commit_then_repair(table_id, user_id, *args, **kwargs):
        outcome = await act_many(table_id, user_id, *args, **kwargs)
        if user_id == ana.id:  # before her handler goes on: a repair, then the AI's reply
            repaired.append(await h.bot.reconciler.sync(table_id))
            assert await eventually(lambda: live.row.version > outcome.version)
        return outcome

    h.bot.tables.act_many = commit_then_repair
    await tap_through(h, ana, board(h, table), sensei_path(rng_turn(live)))
    await h.settle()
    assert repaired
    hers = lines_through(h, ana)
    assert len(hers) == 1 and who(hers[0]["content"]) == "Ana"


async def settled_ai_table(h, ana) -> tuple[Table, Any]:
    """Ana's game against the easy AI, its start published."""
    table = await ai_table(h, ana)
    await h.settle()
    return table, await h.bot.tables.get(table.id)


def lines_through(h, member) -> list[dict[str, Any]]:
    """The follow-ups made through ``member``'s interactions (not the answers themselves)."""
    return [m for m in public(h) if author_of(m) == member.id
            and "original_response_message_id" in m["interaction_metadata"]]


def rng_turn(live) -> Any:
    return random.Random(3).choice(legal_turns(live.game))


async def test_an_end_queued_that_the_state_does_not_show_is_not_told(harness, players):
    """A bench run once found a Narabi table's end queued while its state had no result, and
    the repair of its messages stopped on it. The board is still brought up to date, the end
    is dropped rather than made up, and the outbox is emptied."""
    h = harness
    table = await start_table(h, "narabi", players[:3])
    live = await h.bot.tables.get(table.id)
    assert live.game.result() is None
    await h.bot.store.queue_outbox(table.id, [("over", {})])
    await h.bot.reconciler.sync(table.id)
    assert await h.bot.store.outbox(table.id) == []
    assert not any("Game over" in (m["content"] or "")
                   for m in h.fake.channel_messages(table.thread))
