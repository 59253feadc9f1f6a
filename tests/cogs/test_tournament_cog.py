"""Tournaments through the Discord stand-in: /tournament create, joining with the buttons, the
organizer's controls, rounds opening their tables in threads and running themselves with AI
seats, the standings picture, and a whole Swiss played to its end."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.testing.fake_discord import (ALL_PERMISSIONS as ALL, CHANNEL_ID, Member,
                                     components_of, snowflake)
from bot.tournaments import Entrant, Played, standings

pytestmark = pytest.mark.usefixtures("no_missing_text")

ORGANIZER = Member(101, "Olga")
PLAYERS = [Member(200 + i, f"Player {i}") for i in range(6)]
ADMIN = Member(999, "Admin", permissions=str(1 << 5))  # Manage Server


def cog(h):
    return h.bot.get_cog("Tournaments")


async def settle(h) -> None:
    """Everything the bot started, the tournament's announcements included."""
    for _ in range(50):
        await h.settle()
        await cog(h).settle()
        if h.bot.reconciler.idle and not cog(h)._tasks and not h.bot.autoplayer.active:
            return


def tournament_message(h) -> dict[str, Any]:
    return next(m for m in reversed(h.fake.channel_messages(CHANNEL_ID))
                if any(c.get("custom_id", "").startswith("tour:") for c in components_of(m)))


def button(message: dict[str, Any], verb: str) -> str:
    return next(c["custom_id"] for c in components_of(message)
                if c.get("custom_id", "").endswith(f":{verb}"))


async def create(h, member: Member = ORGANIZER, **options: Any) -> int:
    await h.command(member, "tournament", "create", **options)
    await settle(h)
    message = tournament_message(h)
    return int(button(message, "join").split(":")[1])


async def play_out(h, tournament_id: int, rounds: int = 20) -> None:
    """Let the AI seats play and the scheduler open rounds until the tournament is over."""
    for _ in range(rounds * 4):
        await settle(h)
        await cog(h).clock.run_due()
        await settle(h)
        tour = await h.bot.store.get_tournament(tournament_id)
        if tour.status in ("finished", "cancelled"):
            return
    raise AssertionError("the tournament did not finish")


def entrants_name(entrants, uid: int) -> str:
    return next(e.name for e in entrants if e.user_id == uid)


async def test_create_join_leave_and_the_message(harness):
    h = harness
    tid = await create(h, game="sensei", format="swiss", rounds=3, name="Friday Swiss")
    message = tournament_message(h)
    embed = message["embeds"][0]
    assert "Friday Swiss" in embed["title"]
    assert "<t:" in embed["description"]  # the start, as a Discord timestamp
    for p in PLAYERS[:3]:
        await h.click(p, message, button(message, "join"))
    await h.click(PLAYERS[2], message, button(message, "leave"))
    entrants = await h.bot.store.entrants(tid)
    assert [e.user_id for e in entrants] == [p.id for p in PLAYERS[:2]]
    token = await h.click(PLAYERS[0], message, button(message, "join"))
    assert "already joined" in h.reply_text(token)
    shown = h.fake.messages[int(message["id"])]["embeds"][0]["fields"][0]["value"]
    assert f"<@{PLAYERS[0].id}>" in shown and f"<@{PLAYERS[2].id}>" not in shown


@pytest.mark.slow
async def test_names_show_as_typed_never_as_markdown_or_mentions(harness):
    h = harness
    name = "@everyone **Cup** <@123> ||x|| [a](https://evil.example)"
    tid = await create(h, game="sensei", format="swiss", rounds=1, clock=0, name=name)
    sly = Member(300, "@here **Bob**")
    message = tournament_message(h)
    await h.click(sly, message, button(message, "join"))
    for _ in range(3):
        await h.command(ORGANIZER, "tournament", "ai", level="easy", tournament=tid)
    await settle(h)
    message = tournament_message(h)
    title = h.fake.messages[int(message["id"])]["embeds"][0]["title"]
    assert "\\*\\*Cup\\*\\*" in title and "\\|\\|x\\|\\|" in title and "\\[a\\]" in title
    await h.click(ORGANIZER, message, button(message, "start"))
    await settle(h)
    started = next(m["content"] for m in h.fake.channel_messages(CHANNEL_ID)
                   if "has started" in m["content"])
    assert "@\u200beveryone \\*\\*Cup\\*\\* \\<@123>" in started
    assert f"<@{sly.id}>" in started  # the person is named by a mention, not by their name
    for m in h.fake.messages.values():
        text = m.get("content") or ""
        assert "@everyone" not in text and "**Cup**" not in text and "**Bob**" not in text
        assert "](https://evil" not in text  # no masked link of theirs


async def test_only_the_organizer_or_manage_server_runs_it(harness):
    h = harness
    tid = await create(h, game="sensei", format="swiss", rounds=2)
    token = await h.command(PLAYERS[0], "tournament", "pause", tournament=tid)
    assert "organizer" in h.reply_text(token)
    message = tournament_message(h)
    token = await h.click(PLAYERS[0], message, button(message, "start"))
    assert "organizer" in h.reply_text(token)
    token = await h.command(ADMIN, "tournament", "cancel", tournament=tid)
    assert (await h.bot.store.get_tournament(tid)).status == "cancelled"
    await settle(h)
    lines = [m["content"] for m in h.fake.channel_messages(CHANNEL_ID)]
    assert any("cancelled" in line and f"<@{ADMIN.id}>" in line for line in lines)


@pytest.mark.slow
async def test_a_swiss_of_ai_players_runs_itself_to_the_end(harness):
    h = harness
    tid = await create(h, game="sensei", format="swiss", rounds=3, clock=0)
    for _ in range(5):
        await h.command(ORGANIZER, "tournament", "ai", level="easy", tournament=tid)
    await settle(h)
    message = tournament_message(h)
    await h.click(ORGANIZER, message, button(message, "start"))
    await play_out(h, tid)
    tour = await h.bot.store.get_tournament(tid)
    assert tour.status == "finished" and tour.round == 3
    games = await h.bot.store.tournament_games(tid)
    assert len(games) == 3 * 3  # two tables and a bye a round
    assert all(g.points is not None for g in games)
    pairs = [frozenset(g.seats) for g in games if len(g.seats) == 2]
    assert len(pairs) == len(set(pairs))  # five players, three rounds: no rematch needed
    byes = [g.seats[0] for g in games if len(g.seats) == 1]
    assert len(byes) == len(set(byes))
    # Each table was an ordinary table, played in a thread of its own, and finished; the
    # pairing's seat 0 (its colour balance) had the first move.
    for g in games:
        if g.table_id is not None:
            row = await h.bot.store.get_table(g.table_id)
            assert row.status == "finished" and row.thread_id is not None
            assert (await h.bot.tables.rebuild(g.table_id)).first == 0
    # The channel was told of each round and its end, with the standings picture.
    posted = h.fake.channel_messages(CHANNEL_ID)
    ends = [m for m in posted if m["attachments"] and "is over" in m["content"]]
    assert len(ends) == 3  # two round ends, then the final's (the last round's end is in it)
    assert "The winner is" in ends[-1]["content"]
    entrants = await h.bot.store.entrants(tid)
    rows = standings([Entrant(e.user_id, e.rank) for e in entrants],
                     [Played(g.round, g.board, g.seats, g.points) for g in games])
    assert tour.winner_id == rows[0].id
    token = await h.command(ORGANIZER, "tournament", "standings", tournament=tid)
    assert h.fake.replies(token)
    # Each round's message links every table's own thread, and names its bye.
    starts = [m["content"] for m in posted if "has started" in m["content"]]
    assert len(starts) == 3
    for round_no, content in enumerate(starts, start=1):
        for g in games:
            if g.round != round_no:
                continue
            if g.table_id is None:
                assert "has a bye" in content and entrants_name(entrants, g.seats[0]) in content
            else:
                row = await h.bot.store.get_table(g.table_id)
                assert f"Table {g.board}: " in content and f"<#{row.thread_id}>" in content
                assert h.fake.threads[row.thread_id]["name"].endswith(f"table {g.board}")


async def test_set_a_result_by_hand_closes_the_table_and_is_announced(harness):
    h = harness
    tid = await create(h, game="sensei", format="swiss", rounds=1, clock=0)
    message = tournament_message(h)
    for p in PLAYERS[:2]:
        await h.click(p, message, button(message, "join"))
    await h.click(ORGANIZER, message, button(message, "start"))
    await settle(h)
    games = await h.bot.store.tournament_games(tid)
    assert len(games) == 1 and games[0].points is None
    table = await h.bot.store.get_table(games[0].table_id)
    assert table.status == "playing" and table.thread_id is not None
    # Only its two players were pinged in its thread.
    thread_lines = [m for m in h.fake.channel_messages(table.thread_id) if m["content"]]
    assert {f"<@{p.id}>" for p in PLAYERS[:2]} <= {w for m in thread_lines
                                                   for w in m["content"].split() if w.startswith("<@")}
    winner = next(p for p in PLAYERS if p.id == games[0].seats[1])
    token = await h.command(ORGANIZER, "tournament", "result", round=1, table=1, winner=winner,
                            tournament=tid)
    assert "recorded" in h.reply_text(token)
    await play_out(h, tid)
    tour = await h.bot.store.get_tournament(tid)
    assert tour.status == "finished" and tour.winner_id == winner.id
    assert (await h.bot.store.get_table(games[0].table_id)).status == "cancelled"
    events = await h.bot.store.tournament_events(tid, undelivered=False)
    assert [e[2]["by"] for e in events if e[1] == "manual"] == [ORGANIZER.id]


@pytest.mark.slow
async def test_a_swiss_of_ai_seats_played_end_to_end_through_the_stand_in(database):
    """The bench plays 64 players over 6 rounds; the suite a smaller field, the same checks."""
    from bot.tools.benchmarks.tournament import swiss_standin

    figures = await swiss_standin(database, 12, 4, time_scale=100.0, ai_priority="normal")
    assert figures["status"] == "finished" and figures["games"] == 4 * 6
    assert figures["rematches"] == 0 and figures["most_byes"] <= 1
    assert figures["standings_match_results"], figures["problems"]
    assert figures["429s"] == 0
    assert [s["tables"] for s in figures["round_starts"]] == [6, 6, 6, 6]


async def test_check_in_then_start_with_those_who_checked_in(harness):
    h = harness
    now = [h.bot.store.clock()]
    h.bot.store.clock = lambda: now[0]
    tid = await create(h, game="sensei", format="swiss", rounds=1, checkin=10, starts_in=30)
    message = tournament_message(h)
    for p in PLAYERS[:3]:
        await h.click(p, message, button(message, "join"))
    message = h.fake.messages[int(message["id"])]
    token = await h.click(PLAYERS[0], message, button(message, "checkin"))
    assert "not open yet" in h.reply_text(token)
    now[0] += 20 * 60 + 1
    await cog(h).clock.run_due()
    await settle(h)
    opened = [m for m in h.fake.channel_messages(CHANNEL_ID) if "Check-in" in m["content"]]
    assert opened and all(f"<@{p.id}>" in opened[-1]["content"] for p in PLAYERS[:3])
    for p in PLAYERS[:2]:
        await h.click(p, message, button(message, "checkin"))
    now[0] += 10 * 60
    await cog(h).clock.run_due()
    await settle(h)
    entrants = await h.bot.store.entrants(tid)
    assert [e.user_id for e in entrants] == [p.id for p in PLAYERS[:2]]
    games = await h.bot.store.tournament_games(tid)
    assert len(games) == 1 and set(games[0].seats) == {p.id for p in PLAYERS[:2]}
    # The table's turn clock runs (10 minutes a turn by default; running out loses the game).
    table = await h.bot.store.get_table(games[0].table_id)
    assert table.deadline == now[0] + 600 and table.timeout_policy == "forfeit"
    assert h.bot.turnclock._scheduled.get(table.id) == table.deadline
    # Nobody shows up: the clock's policy decides the game, and the tournament hears of it.
    live = await h.bot.tables.get(table.id)
    absent = live.row.seats[live.game.to_move].user_id
    now[0] = table.deadline + 1
    await h.bot.turnclock.run_due()
    await settle(h)
    game = (await h.bot.store.tournament_games(tid))[0]
    assert dict(zip(game.seats, game.points))[absent] == 0.0 and sum(game.points) == 1.0
    await cog(h).clock.run_due()
    assert (await h.bot.store.get_tournament(tid)).status == "finished"


async def decide_people(h, tid: int, round_no: int) -> None:
    """The organizer decides the games people were to play (the AI tables play themselves):
    the first person at the table wins."""
    for g in await h.bot.store.tournament_games(tid):
        people = [p for p in PLAYERS if p.id in g.seats]
        if g.round == round_no and g.points is None and people:
            await h.command(ORGANIZER, "tournament", "result", round=round_no, table=g.board,
                            winner=people[0], tournament=tid)


@pytest.mark.slow
async def test_pause_resume_drop_and_stats(harness):
    h = harness
    tid = await create(h, game="sensei", format="swiss", rounds=2, clock=0, rated=False)
    message = tournament_message(h)
    for p in PLAYERS[:2]:
        await h.click(p, message, button(message, "join"))
    await h.command(ORGANIZER, "tournament", "ai", level="easy", tournament=tid)
    await h.command(ORGANIZER, "tournament", "ai", level="easy", tournament=tid)
    await h.click(ORGANIZER, message, button(message, "start"))
    await cog(h).clock.run_due()  # the start, whether or not the scheduler's loop came first
    await settle(h)
    token = await h.command(ORGANIZER, "tournament", "pause", tournament=tid)
    assert "paused" in h.reply_text(token)
    token = await h.command(ORGANIZER, "tournament", "pause", tournament=tid)
    assert "not running" in h.reply_text(token)
    await h.command(ORGANIZER, "tournament", "drop", player=PLAYERS[1], tournament=tid)
    await decide_people(h, tid, 1)
    await settle(h)
    await cog(h).clock.run_due()
    assert (await h.bot.store.get_tournament(tid)).round == 1  # paused: no new round
    await h.command(ORGANIZER, "tournament", "resume", tournament=tid)
    await settle(h)
    await cog(h).clock.run_due()
    await decide_people(h, tid, 2)
    await play_out(h, tid)
    tour = await h.bot.store.get_tournament(tid)
    assert tour.status == "finished"
    round2 = [g for g in await h.bot.store.tournament_games(tid) if g.round == 2]
    assert all(PLAYERS[1].id not in g.seats for g in round2)
    lines = " ".join(m["content"] for m in h.fake.channel_messages(CHANNEL_ID))
    for said in ("was paused by", "was resumed by", "was removed from the next rounds",
                 "set the result of table"):
        assert said in lines
    token = await h.command(PLAYERS[0], "stats")
    assert "tournaments played 1" in h.reply_text(token)


async def test_the_tournament_option_suggests_this_server_s_tournaments(harness):
    h = harness
    first = await create(h, game="sensei", format="swiss", rounds=2, name="Spring cup")
    second = await create(h, game="sarena", format="knockout", name="Autumn cup")
    token, payload = h._base(PLAYERS[0], CHANNEL_ID, 4)
    payload["data"] = {"id": "1", "name": "tournament", "type": 1, "options": [
        {"name": "standings", "type": 1, "options": [
            {"name": "tournament", "type": 4, "value": "autumn", "focused": True}]}]}
    h.bot._connection.parse_interaction_create(payload)
    await settle(h)
    choices = h.fake.replies(token)[0]["data"]["choices"]
    assert choices == [{"name": f"#{second} Autumn cup", "value": second}]
    assert first != second


async def test_create_is_refused_where_tables_could_not_be_played(harness):
    h = harness
    h.fake.app_permissions = str(int(h.fake.app_permissions) & ~(1 << 11))  # no Send Messages
    token = await h.command(ORGANIZER, "tournament", "create", game="sensei", format="swiss")
    assert "Send Messages" in h.reply_text(token)
    assert await h.bot.store.tournaments_of(h.fake.guild_id) == []
    h.fake.app_permissions = ALL
    thread = int(h.fake._thread(CHANNEL_ID, snowflake(), {"name": "chat"})["id"])
    token = await h.command(ORGANIZER, "tournament", "create", thread, game="sensei",
                            format="swiss")
    assert "not in a thread" in h.reply_text(token)
    assert await h.bot.store.tournaments_of(h.fake.guild_id) == []


@pytest.mark.slow
async def test_a_stop_between_making_a_thread_and_recording_it_leaves_no_spare(database):
    """A round's table opens a thread without a starter message, so Discord gives each attempt
    a new one: the bot notes the attempt first, and after a stop finds the thread it made
    instead of making a second."""
    from tests.conftest import start_bot

    h = await start_bot(database)
    lost: list[int] = []
    real = h.bot.tables.set_surface

    async def stop_after_discord_answered(live, **fields):
        if fields.get("thread_id") is not None and live.id not in lost:
            lost.append(live.id)
            raise RuntimeError("the process stops here")
        return await real(live, **fields)

    h.bot.tables.set_surface = stop_after_discord_answered
    try:
        tid = await create(h, game="sensei", format="swiss", rounds=1, clock=0, name="Stop cup")
        for _ in range(4):
            await h.command(ORGANIZER, "tournament", "ai", level="easy", tournament=tid)
        await settle(h)
        message = tournament_message(h)
        await h.click(ORGANIZER, message, button(message, "start"))
        await settle(h)
        games = [g for g in await h.bot.store.tournament_games(tid) if g.table_id is not None]
    finally:
        await h.bot.close()
    assert len(games) == 2 and sorted(lost) == sorted(g.table_id for g in games)

    h2 = await start_bot(database, h.fake, sync_commands=False)
    try:
        await play_out(h2, tid)
        made = [th for th in h2.fake.threads.values() if th["name"].startswith("Stop cup")]
        assert len(made) == len(games)  # one thread a table, none left empty
        for g in games:
            row = await h2.bot.store.get_table(g.table_id)
            assert row.thread_id in {int(th["id"]) for th in made}
            assert h2.fake.channel_messages(row.thread_id)  # the game was played in it
        starts = [m["content"] for m in h2.fake.channel_messages(CHANNEL_ID)
                  if "has started" in m["content"]]
        assert all(f"<#{th['id']}>" in starts[-1] for th in made)
    finally:
        await h2.bot.close()


@pytest.mark.slow
async def test_a_drawn_knockout_game_is_played_again_then_the_seed_goes_through(harness):
    """A knockout table's draw is played again, the first move on the other side, in a thread
    of its own that the channel is told of; after three draws the higher seed goes through."""
    h = harness
    tid = await create(h, game="sensei", format="knockout", clock=0, name="Cup")
    message = tournament_message(h)
    for p in PLAYERS[:2]:
        await h.click(p, message, button(message, "join"))
    await h.click(ORGANIZER, message, button(message, "start"))
    await settle(h)
    firsts = []
    for playoff in range(3):
        # The scheduler's own loop may be the one opening the play-off: wait for its thread.
        for _ in range(100):
            games = await h.bot.store.tournament_games(tid)
            row = await h.bot.store.get_table(games[-1].table_id)
            if len(games) == playoff + 1 and row.thread_id is not None:
                break
            await asyncio.sleep(0.05)
            await settle(h)
        assert len(games) == playoff + 1
        game = games[-1]
        assert game.points is None and game.replay_of == (None if playoff == 0 else 1)
        live = await h.bot.tables.with_game(game.table_id)
        assert live.game.to_move == 0  # seat 0 is who the pairing gave the first move
        firsts.append(game.seats[0])
        name = h.fake.threads[row.thread_id]["name"]
        assert name == ("Cup · round 1 · table 1" if playoff == 0 else
                        f"Cup · round 1 · table 1 · play-off {playoff}")
        if playoff:
            told = [m["content"] for m in h.fake.channel_messages(CHANNEL_ID)
                    if "played again" in m["content"]]
            assert len(told) == playoff and f"<#{row.thread_id}>" in told[-1]
            assert "Table 1: " in told[-1]
        # The organizer calls it a draw, naming the table as everyone knows it.
        token = await h.command(ORGANIZER, "tournament", "result", round=1, table=1, draw=True,
                                tournament=tid)
        assert "recorded" in h.reply_text(token)
        for _ in range(3):
            await settle(h)
            await cog(h).clock.run_due()
        await settle(h)
    assert firsts == [PLAYERS[0].id, PLAYERS[1].id, PLAYERS[0].id]  # the first move alternates
    tour = await h.bot.store.get_tournament(tid)
    assert tour.status == "finished" and tour.winner_id == PLAYERS[0].id  # seed 1
    for _ in range(100):  # the scheduler's own loop may be the one announcing the end
        over = [m["content"] for m in h.fake.channel_messages(CHANNEL_ID)
                if "is over" in m["content"]]
        if over:
            break
        await asyncio.sleep(0.05)
        await settle(h)
    told = [m["content"] for m in h.fake.channel_messages(CHANNEL_ID)]
    assert any(f"drawn 3 times; <@{PLAYERS[0].id}>, the higher seed, goes through" in c
               for c in told)
    assert any("The winner is" in c for c in over)


def test_a_big_round_s_message_is_split_within_discord_s_limit():
    from cogs.tournament.surfaces import chunks

    lines = ["Round 1 of 9 of **Big** has started: 300 tables, each in its own thread."] + [
        f"• Table {i}: <@{10**17 + 2 * i}> – <@{10**17 + 2 * i + 1}> → <#{10**18 + i}>"
        for i in range(1, 301)]
    messages = chunks(lines, 2000)
    assert all(len(m) <= 2000 for m in messages) and len(messages) > 1
    assert "\n".join(messages).split("\n") == lines  # every line, in order, none cut
