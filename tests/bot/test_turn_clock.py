"""Turn clocks through the fake Discord, with the store's clock moved by hand (no sleeping):
time controls in the lobby and per server, reminders, each timeout policy, votes, coming back,
and the races (a last-second move, a restart, a second process)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from bot.store import Store
from bot.domain.tables import TableService
from bot.testing.fake_discord import CHANNEL_ID, components_of, find_component
from tests.conftest import start_bot
from tests.helpers import Table, board, custom_ids, start_table

pytestmark = pytest.mark.usefixtures("no_missing_text")

T0 = 1_800_000_000.0
HOUR = 3600.0


class Clock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def timed(database):
    h = await start_bot(database)
    clock = Clock()
    h.bot.store.clock = clock
    h.clock = clock
    yield h
    await h.bot.close()


def lobby_of(h) -> dict[str, Any]:
    return next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID))
                if m["embeds"] and not m["flags"] & 64)


def thread_lines(h, table: Table) -> list[str]:
    return [m["content"] for m in h.fake.channel_messages(table.thread)
            if m["content"] and not m["flags"] & 64]


async def advance(h, seconds: float) -> None:
    h.clock.now += seconds
    await h.bot.turnclock.run_due()
    await h.settle()


async def timed_table(h, game: str, members, limit: int, policy: str | None = None,
                      **options: Any) -> Table:
    """A table started through the lobby's own menus: time per turn, then the policy."""
    host = members[0]
    await h.command(host, game, "start", **options)
    table_id = int(find_component(lobby_of(h), "join")["custom_id"].split(":")[1])
    await h.click(host, lobby_of(h), f"{game}:{table_id}:clock", values=[str(limit)])
    if policy is not None:
        await h.click(host, lobby_of(h), f"{game}:{table_id}:policy", values=[policy])
    for member in members[1:]:
        await h.click(member, lobby_of(h), f"{game}:{table_id}:join")
    await h.click(host, lobby_of(h), f"{game}:{table_id}:start")
    live = await h.bot.tables.get(table_id)
    return Table(table_id, {}, live.row.game_channel_id, list(members))


async def sarena_move(h, table: Table, seat: int | None = None) -> None:
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move if seat is None else seat
    action = live.game.legal_actions(seat)[0]
    await h.command(table.players[seat], "sarena", "move", channel_id=table.thread,
                    move=f"{action['from']}-{action['to']}")


# == the time control ===========================================================================

async def test_lobby_shows_the_time_control_and_only_the_host_changes_it(timed, players):
    h = timed
    ana, ben = players[:2]
    await h.command(ana, "sensei", "start")
    lobby = lobby_of(h)
    table_id = int(find_component(lobby, "join")["custom_id"].split(":")[1])
    clock_field = lobby["embeds"][0]["fields"][-1]
    assert clock_field["value"] == "24 h per turn · when it runs out: an AI plays the seat"
    token = await h.click(ben, lobby, f"sensei:{table_id}:clock", values=["120"])
    assert "Only the host" in h.reply_text(token)
    await h.click(ana, lobby_of(h), f"sensei:{table_id}:clock", values=["120"])
    await h.click(ana, lobby_of(h), f"sensei:{table_id}:policy", values=["forfeit"])
    row = await h.bot.store.get_table(table_id)
    assert (row.turn_limit, row.timeout_policy) == (120.0, "forfeit")
    assert lobby_of(h)["embeds"][0]["fields"][-1]["value"] == \
        "2 min per turn · when it runs out: the absent player forfeits"
    await h.click(ana, lobby_of(h), f"sensei:{table_id}:clock", values=["0"])
    assert (await h.bot.store.get_table(table_id)).turn_limit is None
    assert "policy" not in [c["custom_id"].split(":")[2] for c in components_of(lobby_of(h))]
    forged = await h.click(ana, lobby_of(h), f"sensei:{table_id}:clock", values=["7"])
    assert "earlier turn" in h.reply_text(forged) or "not valid" in h.reply_text(forged)


async def test_server_default_from_config_applies_to_new_lobbies(timed, players):
    h = timed
    ana = players[0]
    ana.permissions = str(int(ana.permissions) | 1 << 5)  # Manage Server
    token = await h.command(ana, "config", "clock", game="sarena", limit=600, policy="wait")
    assert "Saved" in h.reply_text(token)
    assert "10 min per turn" in h.reply_text(token)
    await h.command(ana, "sarena", "start")
    row = await h.bot.store.get_table(int(find_component(lobby_of(h), "join")["custom_id"]
                                          .split(":")[1]))
    assert (row.turn_limit, row.timeout_policy) == (600.0, "wait")
    token = await h.command(ana, "config", "show")
    assert "Sàréná: 10 min per turn · when it runs out: the others wait or vote" in h.reply_text(token)
    assert "Sensei: 24 h per turn" in h.reply_text(token)


async def test_config_needs_manage_server(timed, players):
    h = timed
    ben = players[1]
    ben.permissions = "0"  # no Manage Server
    token = await h.command(ben, "config", "clock", game="sensei", limit=120)
    assert "Manage Server" in h.reply_text(token)
    await h.command(ben, "sensei", "start")
    row = await h.bot.store.get_table(int(find_component(lobby_of(h), "join")["custom_id"]
                                          .split(":")[1]))
    assert row.turn_limit == 24 * HOUR  # nothing was saved


# == the clock of a running game ===============================================================

@pytest.mark.slow
async def test_board_shows_the_deadline_and_reminders_come_once(timed, players):
    h = timed
    ana, ben = players[:2]
    await h.command(ben, "reminders", dm=True)
    table = await start_table(h, "sarena", [ana, ben])
    live = await h.bot.tables.get(table.id)
    mover = live.game.to_move
    deadline = T0 + 24 * HOUR
    assert live.row.deadline == deadline and live.row.deadline_seat == mover
    assert f"<t:{int(deadline)}:R>" in board(h, table)["embeds"][0]["description"]
    assert "absent" not in [c.split(":")[2] for c in custom_ids(board(h, table))]
    await advance(h, 11 * HOUR)
    assert not any("half of your time" in line for line in thread_lines(h, table))
    await advance(h, 1 * HOUR)
    await advance(h, 0)  # run again: nothing twice
    half = [line for line in thread_lines(h, table) if "half of your time" in line]
    assert half == [f"⏳ <@{players[mover].id}>, it is your turn: half of your time is gone "
                    f"(it runs out <t:{int(deadline)}:R>)."]
    # Half the time gone: the others may now vote the absent player off.
    assert "absent" in [c.split(":")[2] for c in custom_ids(board(h, table))]
    await advance(h, 9.6 * HOUR)
    assert sum("almost up" in line for line in thread_lines(h, table)) == 1
    dms = [m["content"] for m in h.fake.dms_to(players[mover].id) if "runs out" in m["content"]]
    # Ben opted in to DM reminders, Ana did not.
    assert len(dms) == (2 if players[mover] is ben else 0)


async def test_a_move_starts_the_next_turns_clock(timed, players):
    h = timed
    table = await start_table(h, "sarena", players[:2])
    h.clock.now += 5 * HOUR
    await sarena_move(h, table)
    live = await h.bot.tables.get(table.id)
    assert live.row.deadline == T0 + 5 * HOUR + 24 * HOUR
    assert live.row.deadline_seat == live.game.to_move


@pytest.mark.slow
async def test_timeout_hands_the_seat_to_an_ai_until_the_player_is_back(timed, players):
    h = timed
    ana, ben = players[:2]
    table = await start_table(h, "sarena", [ana, ben])
    live = await h.bot.tables.get(table.id)
    absent = live.game.to_move
    version = live.row.version
    await advance(h, 24 * HOUR)
    live = await h.bot.tables.get(table.id)
    assert live.row.seats[absent].ai == "medium" and live.row.seats[absent].timed_out
    assert live.row.version == version + 1  # the AI played the absent player's move
    assert any(f"<@{players[absent].id}> ran out of time: AI · Medium plays their seat" in line
               for line in thread_lines(h, table))
    assert "back" in [c.split(":")[2] for c in custom_ids(board(h, table))]
    # The other player moves; the AI answers for the absent one.
    await sarena_move(h, table)
    live = await h.bot.tables.get(table.id)
    assert live.game.to_move != absent or live.row.status != "playing"
    token = await h.click(players[absent], board(h, table), f"sarena:{table.id}:back")
    assert "Welcome back" in h.reply_text(token)
    live = await h.bot.tables.get(table.id)
    assert live.row.seats[absent].ai is None
    assert any("is back" in line for line in thread_lines(h, table))
    # Timed out once: not rated for that seat, marked in history.
    seats = await h.bot.store._seats(table.id)
    assert seats[absent].timed_out and seats[absent].ai_played


async def test_forfeit_policy_gives_sensei_to_the_opponent(timed, players):
    h = timed
    ana, ben = players[:2]
    table_id = (await timed_table(h, "sensei", [ana, ben], 120, "forfeit", first="green")).id
    await advance(h, 119)
    assert (await h.bot.store.get_table(table_id)).status == "playing"
    await advance(h, 1)
    row = await h.bot.store.get_table(table_id)
    assert row.status == "finished"
    live = await h.bot.tables.with_game(table_id)
    assert live.game.result().winners == (1,)
    seats = await h.bot.store._seats(table_id)
    assert seats[0].timed_out
    stats = await h.bot.store.user_stats(row.guild_id, ana.id)
    assert stats == {}  # a timed-out game is not counted for the absent player
    token = await h.command(ben, "history")
    assert "Ana ⏰" in h.reply_text(token) and "not rated" in h.reply_text(token)


async def test_forfeit_in_sarena_takes_the_player_out_and_the_others_play_on(timed, players):
    h = timed
    ana, ben, cleo = players[:3]
    table_id = (await timed_table(h, "sarena", [ana, ben, cleo], 600, "forfeit")).id
    live = await h.bot.tables.get(table_id)
    absent = live.game.to_move
    await advance(h, 600)
    live = await h.bot.tables.get(table_id)
    assert live.row.status == "playing"
    assert live.game.public_view()["resigned"] == [absent]
    assert live.game.to_move != absent and live.row.deadline_seat == live.game.to_move


async def test_wait_policy_tells_the_table_and_a_majority_vote_hands_the_seat(timed, players):
    h = timed
    ana, ben, cleo = players[:3]
    table = await timed_table(h, "sarena", [ana, ben, cleo], 3600, "wait")
    table_id = table.id
    live = await h.bot.tables.get(table_id)
    absent = live.game.to_move
    version = live.row.version
    await advance(h, 3600)
    await advance(h, 3600)  # nothing more happens by itself
    live = await h.bot.tables.get(table_id)
    assert live.row.version == version and live.row.seats[absent].ai is None
    assert sum("ran out of time" in line for line in thread_lines(h, table)) == 1
    voters = [p for i, p in enumerate(table.players) if i != absent]
    token = await h.click(table.players[absent], board(h, table), f"sarena:{table_id}:absent")
    assert "Only the seat whose turn" in h.reply_text(token)
    token = await h.click(voters[0], board(h, table), f"sarena:{table_id}:absent")
    assert "1 of 2 needed" in h.reply_text(token)
    token = await h.click(voters[0], board(h, table), f"sarena:{table_id}:absent")
    assert "1 of 2 needed" in h.reply_text(token)  # one vote per player
    token = await h.click(voters[1], board(h, table), f"sarena:{table_id}:absent")
    assert "an AI now plays" in h.reply_text(token)
    live = await h.bot.tables.get(table_id)
    assert live.row.seats[absent].ai == "medium" and live.row.version == version + 1
    assert any("handed" in line for line in thread_lines(h, table))


async def test_narabi_always_lets_an_ai_teammate_play_for_the_absent(timed, players):
    h = timed
    table = await start_table(h, "narabi", players[:3])
    live = await h.bot.tables.get(table.id)
    assert live.row.timeout_policy == "ai"
    live.row.timeout_policy = "forfeit"  # even if a lobby had said otherwise
    absent = live.game.to_move
    await advance(h, 24 * HOUR)
    live = await h.bot.tables.get(table.id)
    assert live.row.status == "playing" and live.row.seats[absent].ai == "medium"


# == races =========================================================================================

async def test_a_last_second_move_wins_over_the_timeout(timed, players):
    h = timed
    table = await start_table(h, "sarena", players[:2])
    live = await h.bot.tables.get(table.id)
    old_deadline = live.row.deadline
    h.clock.now = old_deadline - 1
    await sarena_move(h, table)
    h.clock.now = old_deadline + 1
    await h.bot.turnclock.run_due()
    await h.settle()
    live = await h.bot.tables.get(table.id)
    assert all(s.ai is None and not s.timed_out for s in live.row.seats)
    assert h.bot.turnclock.fired["timeouts"] == 0


async def test_a_move_after_the_timeout_is_refused_with_the_way_back(timed, players):
    h = timed
    table = await start_table(h, "sensei", players[:2], first="green")
    h.bot.autoplayer.pause = 3600.0  # the stand-in has not played yet when Ana's move arrives
    await advance(h, 24 * HOUR)
    live = await h.bot.tables.get(table.id)
    assert live.row.seats[0].ai == "medium" and live.row.version == 0
    token = await h.command(players[0], "sensei", "move", channel_id=table.thread,
                            notation="a1-a2")
    assert "An AI is playing your seat" in h.reply_text(token)
    assert (await h.bot.tables.get(table.id)).row.version == 0


async def test_downtime_is_given_back_after_a_restart(database, players):
    path = database
    h = await start_bot(path)
    clock = Clock()
    h.bot.store.clock = clock
    h.clock = clock
    table = await start_table(h, "sarena", players[:2])
    await h.bot.store.beat()
    deadline = (await h.bot.store.get_table(table.id)).deadline
    await h.bot.close()

    store = await Store.open(path)
    store.clock = Clock(T0 + 5 * HOUR)  # the bot was down for five hours
    try:
        service = TableService(store)
        from bot.runtime.turnclock import TurnClock
        turnclock = TurnClock(service, on_change=lambda _: None)
        # the tables are restored alongside the give-back, as at start-up
        assert await turnclock.load(service.restore()) == 1
        assert turnclock.downtime == 5 * HOUR
        assert (await store.get_table(table.id)).deadline == deadline + 5 * HOUR
        # the restored table in memory has the pushed-back deadline too (its guards use it)
        assert (await service.get(table.id)).row.deadline == deadline + 5 * HOUR
        # Nothing is due: the five hours were nobody's.
        store.clock.now = deadline + 1
        await turnclock.run_due()
        assert turnclock.fired["timeouts"] == 0
    finally:
        await store.close()


async def test_two_processes_time_a_turn_out_exactly_once(timed, players, tmp_path):
    h = timed
    table = await start_table(h, "sarena", players[:2])
    deadline = (await h.bot.store.get_table(table.id)).deadline
    # A second process: its own store and table service over the same file.
    other = await Store.open(h.bot.store.target)
    try:
        other.clock = Clock(deadline + 1)
        second = TableService(other)
        await second.get(table.id)  # it knows the table as it is now
        h.clock.now = deadline + 1
        first_result = await h.bot.tables.time_out(table.id, deadline)
        second_result = await second.time_out(table.id, deadline)
        assert (first_result, second_result) == ("ai", None)
        seats = await other._seats(table.id)
        assert [s.timed_out for s in seats].count(True) == 1
    finally:
        await other.close()
    await h.settle()


@pytest.mark.slow
async def test_a_whole_timed_game_with_one_absent_player(timed, players):
    h = timed
    ana, ben = players[:2]
    table = await timed_table(h, "sarena", [ana, ben], 600)
    table_id = table.id
    rng = random.Random(4)
    for _ in range(100):
        live = await h.bot.tables.get(table_id)
        if live.row.status != "playing":
            break
        if live.game.to_move == 0:
            h.clock.now += rng.uniform(5, 300)  # Ana thinks, within her time
            action = rng.choice(live.game.legal_actions(0))
            await h.command(ana, "sarena", "move", channel_id=table.thread,
                            move=f"{action['from']}-{action['to']}")
        else:
            await advance(h, 600)  # Ben is away: his time runs out, once
    row = await h.bot.store.get_table(table_id)
    assert row.status == "finished" and row.deadline is None
    seats = await h.bot.store._seats(table_id)
    assert not seats[0].timed_out and seats[1].timed_out and seats[1].ai_played
    assert h.bot.turnclock.fired["timeouts"] == 1  # after that the AI held Ben's seat
    lines = thread_lines(h, table)
    assert sum("ran out of time" in line for line in lines) == 1
    assert any("half of your time" in line and f"<@{ben.id}>" in line for line in lines)
    assert (await h.bot.store.user_stats(row.guild_id, ben.id)) == {}
    assert sum((await h.bot.store.user_stats(row.guild_id, ana.id))["sarena"].values()) == 1
    assert custom_ids(board(h, table)) == [f"sarena:{table.id}:rematch", f"sarena:{table.id}:replay:0.9",
                                           f"sarena:{table.id}:review:0.9"]


async def test_a_restart_after_a_timeout_does_not_time_the_turn_out_again(database, players):
    path = database
    h = await start_bot(path)
    h.bot.store.clock = h.clock = Clock()
    h.bot.autoplayer.pause = 3600.0  # the stand-in has not played when the bot stops
    table = await start_table(h, "sarena", players[:2])
    await advance(h, 24 * HOUR)
    assert h.bot.turnclock.fired["timeouts"] == 1
    row = await h.bot.store.get_table(table.id)
    await h.bot.close()

    h = await start_bot(path, h.fake)
    try:
        h.bot.store.clock = h.clock = Clock(T0 + 25 * HOUR)
        await h.bot.turnclock.run_due()
        await h.settle()
        assert h.bot.turnclock.fired["timeouts"] == 0
        after = await h.bot.store.get_table(table.id)
        assert [s.ai for s in after.seats] == [s.ai for s in row.seats]
        assert after.version == row.version + 1  # the stand-in's move, resumed after the restart
        lines = thread_lines(h, table)
        assert sum("ran out of time" in line for line in lines) == 1
    finally:
        await h.bot.close()


async def test_the_scheduler_keeps_no_pile_of_ended_turns(timed, players):
    """Every turn schedules its deadline; a turn that ended early leaves entries behind. They
    are skipped when they come up and dropped in bulk once they outnumber the live ones, so
    a busy bot's heap stays proportional to its running clocks."""
    h = timed
    table = await start_table(h, "sarena", players[:2])
    clock = h.bot.turnclock
    await clock.stop()  # this test runs the rounds itself
    live = await h.bot.tables.get(table.id)
    for i in range(5000):  # 5,000 turns, each ending before its deadline
        live.row.deadline = T0 + HOUR + i
        clock._on_change(table.id)
    assert clock.pending <= 4 * 3 * 2 + 1024 + 3
    # Commits that do not change the deadline schedule nothing.
    before = clock.pending
    clock._on_change(table.id)
    assert clock.pending == before
    # When everything is due, only the live deadline's three entries (two reminders and the
    # timeout) are looked at; the ended turns' entries are skipped unread.
    h.clock.now = T0 + HOUR + 10_000
    assert await clock.run_due() == 3 and clock.pending == 0
