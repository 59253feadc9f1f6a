"""Tournaments in the store, on SQLite and on a real PostgreSQL: a round is paired once even
when two processes race for it, a game's points are written by the transaction that ends its
table and never twice, unrated tournaments leave the ratings alone, and an organizer's result
closes the table and is logged."""
from __future__ import annotations

import asyncio
import time

import pytest

from bot.domain.tables import TableService
from bot.domain.tournaments import TournamentError, TournamentService
from bot.store import StaleWrite, Store


async def service(database) -> TournamentService:
    store = await Store.open(database)
    return TournamentService(store, TableService(store))


async def tournament(svc: TournamentService, players: int, *, rated: bool = True,
                     rounds: int = 3, fmt: str = "swiss"):
    now = svc.store.clock()
    t = await svc.create(guild_id=1, channel_id=5, organizer_id=7, name="Cup", game="sensei",
                         options={}, fmt=fmt, rounds=rounds, per_table=2, turn_limit=None,
                         rated=rated, starts_at=now, checkin=None, round_every=None,
                         locale="en-US", seed=1234)
    for i in range(players):
        await svc.join(t.id, 100 + i, f"P{i}")
    return t


async def finish_round(svc: TournamentService, tid: int, round_no: int) -> None:
    """The player to move at each table of the round resigns (a real end of a real table)."""
    for g in await svc.store.tournament_games(tid):
        if g.round == round_no and g.table_id is not None and g.points is None:
            live = await svc.tables.get(g.table_id)
            seat = live.game.to_move
            await svc.tables.act(g.table_id, live.row.seats[seat].user_id, {"type": "resign"})


async def test_a_swiss_runs_round_by_round_from_the_store(database):
    svc = await service(database)
    t = await tournament(svc, 5)
    what, tables = await svc.advance(t.id)
    assert what == "round" and len(tables) == 2  # five players: two tables and a bye
    for round_no in (1, 2, 3):
        tour = await svc.store.get_tournament(t.id)
        assert tour.round == round_no and tour.status == "running"
        assert await svc.advance(t.id) == ("nothing", [])  # not due while games are played
        await finish_round(svc, t.id, round_no)
        tour = await svc.store.get_tournament(t.id)
        assert tour.next_at is not None  # the last game's end made it due, in its transaction
        what, _ = await svc.advance(t.id)
        assert what == ("round" if round_no < 3 else "finished")
    tour = await svc.store.get_tournament(t.id)
    assert tour.status == "finished" and tour.winner_id is not None
    games = await svc.store.tournament_games(t.id)
    assert len(games) == 9 and all(g.points is not None for g in games)
    kinds = [k for _, k, _, _ in await svc.store.tournament_events(t.id)]
    assert kinds.count("round") == 3 and kinds.count("round_end") == 3 and kinds[-1] == "finished"
    assert await svc.store.event_stats(1, tour.winner_id) == (1, 1)
    await svc.store.close()


async def test_tables_ending_at_once_end_their_round_once(database):
    # Two processes' views: on PostgreSQL their transactions run side by side.
    first, second = await service(database), await service(database)
    t = await tournament(first, 8, rounds=2)
    await first.advance(t.id)
    games = await first.store.tournament_games(t.id)
    moves = []
    for index, g in enumerate(games):
        svc = (first, second)[index % 2]
        live = await svc.tables.get(g.table_id)
        seat = live.game.to_move
        moves.append(svc.tables.act(g.table_id, live.row.seats[seat].user_id, {"type": "resign"}))
    await asyncio.gather(*moves)
    tour = await first.store.get_tournament(t.id)
    assert tour.next_at is not None  # due: the round is over
    kinds = [k for _, k, _, _ in await first.store.tournament_events(t.id)]
    assert kinds.count("round_end") == 1
    assert (await first.advance(t.id))[0] == "round"
    await first.store.close()
    await second.store.close()


async def test_a_round_is_paired_once_when_two_processes_race(database):
    first = await service(database)
    second = await service(database)  # another process's view of the same database
    t = await tournament(first, 8)
    results = await asyncio.gather(first.advance(t.id), second.advance(t.id), first.advance(t.id))
    opened = [r for r in results if r[0] == "round"]
    assert len(opened) == 1
    assert all(r[0] in ("raced", "nothing") for r in results if r[0] != "round")
    games = await first.store.tournament_games(t.id)
    assert len(games) == 4
    rows = await first.store._fetchall("SELECT COUNT(*) FROM game_tables")
    assert rows[0][0] == 4  # no table of a losing attempt was left behind
    # The same round written again by hand is refused by the round's key and the version.
    tour = await first.store.get_tournament(t.id)
    with pytest.raises(StaleWrite):
        await first.store.open_round(tour.__class__(**{**tour.__dict__, "version": tour.version - 1}),
                                     1, 1, [], [])
    await first.store.close()
    await second.store.close()


async def test_ai_players_entered_at_once_all_get_in(database):
    """Organizers typing ``/tournament ai`` quickly, on two processes: every AI player gets
    its own id and number (each used to take the same id, and all but one were refused)."""
    first = await service(database)
    second = await service(database)
    t = await tournament(first, 2)
    await asyncio.gather(*(svc.add_ai(t.id, 7, "easy", "Bot") for svc in (first, second) * 3))
    entrants = await first.store.entrants(t.id)
    ai = [e for e in entrants if e.ai == "easy"]
    assert len(entrants) == 8 and len(ai) == 6
    assert sorted(e.user_id for e in ai) == [-6, -5, -4, -3, -2, -1]
    assert sorted(e.name for e in ai) == [f"Bot {n}" for n in range(1, 7)]
    assert len({e.rank for e in entrants}) == 8
    await first.advance(t.id)
    with pytest.raises(TournamentError):
        await first.add_ai(t.id, 7, "easy", "Bot")  # started: no more players
    await first.store.close()
    await second.store.close()


async def test_a_result_is_counted_once(database):
    svc = await service(database)
    t = await tournament(svc, 2, rounds=1)
    await svc.advance(t.id)
    game = (await svc.store.tournament_games(t.id))[0]
    live = await svc.tables.get(game.table_id)
    seat = live.game.to_move
    row = live.row
    await svc.tables.act(game.table_id, row.seats[seat].user_id, {"type": "resign"})
    points = (await svc.store.tournament_games(t.id))[0].points
    assert sorted(points) == [0.0, 1.0]
    # The same end written again (a retried commit, another process) is refused whole.
    import dataclasses
    with pytest.raises(StaleWrite):
        await svc.store.record_actions(dataclasses.replace(row, version=row.version),
                                       user_id=row.seats[seat].user_id,
                                       actions=[(seat, {"type": "resign"})], state={},
                                       result={"winners": [1 - seat], "reason": "resign",
                                               "draw": False, "details": {}},
                                       outcomes=[])
    assert (await svc.store.tournament_games(t.id))[0].points == points
    kinds = [k for _, k, _, _ in await svc.store.tournament_events(t.id)]
    assert kinds.count("round_end") == 1
    await svc.store.close()


async def test_rated_and_unrated_tournaments(database):
    svc = await service(database)
    rated = await tournament(svc, 2, rounds=1)
    await svc.advance(rated.id)
    await finish_round(svc, rated.id, 1)
    t2 = await svc.create(guild_id=1, channel_id=6, organizer_id=7, name="Fun", game="sensei",
                          options={}, fmt="swiss", rounds=1, per_table=2, turn_limit=None,
                          rated=False, starts_at=svc.store.clock(), checkin=None,
                          round_every=None, locale="en-US", seed=9)
    for i in range(2):
        await svc.join(t2.id, 300 + i, f"Q{i}")
    await svc.advance(t2.id)
    await finish_round(svc, t2.id, 1)
    unrated = {tid: why for tid, why in await svc.store._fetchall(
        "SELECT table_id, unrated FROM results")}
    g1 = (await svc.store.tournament_games(rated.id))[0].table_id
    g2 = (await svc.store.tournament_games(t2.id))[0].table_id
    assert unrated[g1] is None and unrated[g2] == "tournament"
    assert await svc.store.rating_of(1, "sensei", 100) is not None
    assert await svc.store.rating_of(1, "sensei", 300) is None
    await svc.store.close()


async def test_an_organizers_result_closes_the_table_and_is_logged(database):
    svc = await service(database)
    t = await tournament(svc, 2, rounds=1)
    await svc.advance(t.id)
    game = (await svc.store.tournament_games(t.id))[0]
    with pytest.raises(TournamentError):
        await svc.set_result(t.id, 1, 1, 555, 7)  # not at that table
    await svc.set_result(t.id, 1, 1, game.seats[0], 7)
    row = await svc.store.get_table(game.table_id)
    assert row.status == "cancelled"
    after = (await svc.store.tournament_games(t.id))[0]
    assert after.points == (1.0, 0.0) and after.manual
    events = await svc.store.tournament_events(t.id)
    manual = [p for _, k, p, _ in events if k == "manual"]
    assert manual == [{"round": 1, "board": 1, "points": [1.0, 0.0], "by": 7, "before": None,
                       "seats": list(game.seats)}]
    assert (await svc.advance(t.id))[0] == "finished"
    await svc.store.close()


async def test_pause_drop_cancel_and_check_in(database):
    svc = await service(database)
    now = time.time()
    svc.store.clock = lambda: now
    t = await svc.create(guild_id=1, channel_id=5, organizer_id=7, name="Late", game="sensei",
                         options={}, fmt="swiss", rounds=2, per_table=2, turn_limit=600,
                         rated=True, starts_at=now + 3600, checkin=600, round_every=None,
                         locale="en-US", seed=5)
    for i in range(4):
        await svc.join(t.id, 100 + i, f"P{i}")
    with pytest.raises(TournamentError):
        await svc.check_in(t.id, 100)  # not open yet
    now += 3000
    assert (await svc.advance(t.id))[0] == "checkin"
    for uid in (100, 101, 102):
        await svc.check_in(t.id, uid)
    now += 600
    what, tables = await svc.advance(t.id)
    assert what == "round" and len(tables) == 1  # three checked in: a table and a bye
    assert [e.user_id for e in await svc.store.entrants(t.id)] == [100, 101, 102]
    live = await svc.tables.get(tables[0])
    assert live.row.deadline == now + 600 and live.row.timeout_policy == "forfeit"
    await svc.pause(t.id, 7)
    with pytest.raises(TournamentError):
        await svc.pause(t.id, 7)
    await svc.drop(t.id, 102, 7)
    await finish_round(svc, t.id, 1)
    assert (await svc.advance(t.id))[0] == "nothing"  # paused: no new round
    await svc.resume(t.id, 7)
    what, tables = await svc.advance(t.id)
    assert what == "round"
    games = [g for g in await svc.store.tournament_games(t.id) if g.round == 2]
    assert all(102 not in g.seats for g in games)
    stopped = await svc.cancel(t.id, 7)
    assert stopped == tables
    assert (await svc.store.get_table(tables[0])).status == "cancelled"
    await svc.store.close()


async def play_through(svc: TournamentService, tid: int) -> list:
    for _ in range(30):
        what, _ = await svc.advance(tid)
        tour = await svc.store.get_tournament(tid)
        if tour.status == "finished":
            return await svc.store.tournament_games(tid)
        await finish_round(svc, tid, tour.round)
    raise AssertionError("did not finish")


async def test_round_robin_and_knockout_run_to_their_end(database):
    svc = await service(database)
    rr = await tournament(svc, 5, fmt="round_robin")
    games = await play_through(svc, rr.id)
    assert (await svc.store.get_tournament(rr.id)).rounds == 5
    pairs = [frozenset(g.seats) for g in games if len(g.seats) == 2]
    assert len(pairs) == len(set(pairs)) == 10  # everyone met everyone once
    assert sorted(g.seats[0] for g in games if len(g.seats) == 1) == [100, 101, 102, 103, 104]
    ko = await tournament(svc, 6, fmt="knockout", rated=False)  # seeded as they joined
    games = await play_through(svc, ko.id)
    tour = await svc.store.get_tournament(ko.id)
    assert tour.rounds == 3 and tour.round == 3
    final = [g for g in games if g.round == 3]
    assert len(final) == 1 and tour.winner_id in final[0].seats
    assert [g.seats for g in games if g.round == 1 and len(g.seats) == 1] == [(100,), (101,)]
    await svc.store.close()


async def test_narabi_duplicate_deals_the_same_to_every_team(database):
    svc = await service(database)
    t = await svc.create(guild_id=1, channel_id=5, organizer_id=7, name="Dup", game="narabi",
                         options={}, fmt="duplicate", rounds=2, per_table=3, turn_limit=None,
                         rated=True, starts_at=svc.store.clock(), checkin=None,
                         round_every=None, locale="en-US", seed=42)
    assert not t.rated  # a cooperative game keeps no rating
    with pytest.raises(TournamentError):
        await svc.create(guild_id=1, channel_id=5, organizer_id=7, name="No", game="narabi",
                         options={}, fmt="swiss", rounds=2, per_table=3, turn_limit=None,
                         rated=True, starts_at=svc.store.clock(), checkin=None,
                         round_every=None, locale="en-US", seed=42)
    for i in range(6):
        await svc.join(t.id, 100 + i, f"P{i}")
    what, tables = await svc.advance(t.id)
    assert what == "round" and len(tables) == 2
    rows = [await svc.store.get_table(tid) for tid in tables]
    assert rows[0].seed == rows[1].seed and len(rows[0].seats) == len(rows[1].seats) == 3
    first, second = [await svc.tables.get(tid) for tid in tables]
    assert first.game.public_view() == second.game.public_view()
    await finish_round(svc, t.id, 1)
    standing = await svc.standing(t.id)
    # Both teams abandoned the same deal: a tie, half a matchpoint each.
    assert {r.score for r in standing.rows} == {0.5}
    await svc.store.close()


async def test_a_rated_tournament_seeds_by_rating(database):
    svc = await service(database)
    first = await tournament(svc, 2, rounds=1)
    await svc.advance(first.id)
    game = (await svc.store.tournament_games(first.id))[0]
    live = await svc.tables.get(game.table_id)
    loser = live.row.seats[live.game.to_move].user_id
    await svc.tables.act(game.table_id, loser, {"type": "resign"})
    winner = next(uid for uid in game.seats if uid != loser)
    # A second tournament: the winner joined last, yet is seeded first; the unrated after.
    t = await svc.create(guild_id=1, channel_id=6, organizer_id=7, name="Two", game="sensei",
                         options={}, fmt="knockout", rounds=None, per_table=2, turn_limit=None,
                         rated=True, starts_at=svc.store.clock(), checkin=None,
                         round_every=None, locale="en-US", seed=3)
    for uid in (500, 501, loser, winner):
        await svc.join(t.id, uid, f"U{uid}")
    await svc.advance(t.id)
    ranks = {e.user_id: e.rank for e in await svc.store.entrants(t.id)}
    assert ranks == {winner: 1, loser: 2, 500: 3, 501: 4}
    games = [g.seats for g in await svc.store.tournament_games(t.id)]
    assert {frozenset(s) for s in games} == {frozenset((winner, 501)), frozenset((loser, 500))}
    await svc.store.close()


async def test_sarena_tables_of_three_and_four_grouped_by_score(database):
    svc = await service(database)
    t = await svc.create(guild_id=1, channel_id=5, organizer_id=7, name="Piles", game="sarena",
                         options={}, fmt="swiss", rounds=2, per_table=4, turn_limit=None,
                         rated=True, starts_at=svc.store.clock(), checkin=None,
                         round_every=None, locale="en-US", seed=8)
    for i in range(7):
        await svc.join(t.id, 100 + i, f"P{i}")
    for round_no in (1, 2):
        what, tables = await svc.advance(t.id)
        assert what == "round"
        sizes = sorted([len((await svc.store.get_table(tid)).seats) for tid in tables])
        assert sizes == [3, 4]
        # Everyone but one resigns, one after the other: the last one in wins the table.
        for tid in tables:
            for _ in range(4):
                live = await svc.tables.get(tid)
                if live.row.status != "playing":
                    break
                seat = live.game.to_move
                await svc.tables.act(tid, live.row.seats[seat].user_id, {"type": "resign"})
    assert (await svc.advance(t.id))[0] == "finished"
    games = await svc.store.tournament_games(t.id)
    assert all(g.points is not None and sum(g.points) == 1.0 for g in games)
    top = {uid for g in games if g.round == 1 for uid, p in zip(g.seats, g.points) if p == 1.0}
    round2 = [set(g.seats) for g in games if g.round == 2]
    assert any(top <= seats for seats in round2)  # the two winners of round 1 sit together
    await svc.store.close()


async def play_a_turn(svc: TournamentService, table_id: int) -> None:
    """The player to move plays a whole turn (the first legal actions, never resigning)."""
    live = await svc.tables.get(table_id)
    seat = live.game.to_move
    while live.game.to_move == seat and live.row.status == "playing":
        action = next(a for a in live.game.legal_actions(seat)
                      if a["type"] not in ("resign", "offer_draw"))
        await svc.tables.act(table_id, live.row.seats[seat].user_id, action)
        live = await svc.tables.get(table_id)


async def test_a_player_who_never_moves_loses_by_forfeit_and_it_is_marked(database):
    """The clock's resignation of a player who made no move is a forfeit (not a game played,
    for the Swiss rules); one who had moved and then ran out of time simply lost."""
    svc = await service(database)
    now = time.time()
    svc.store.clock = lambda: now
    t = await svc.create(guild_id=1, channel_id=5, organizer_id=7, name="Clock", game="sensei",
                         options={}, fmt="swiss", rounds=2, per_table=2, turn_limit=600,
                         rated=False, starts_at=now, checkin=None, round_every=None,
                         locale="en-US", seed=9)
    for i in range(4):
        await svc.join(t.id, 100 + i, f"P{i}")
    _, tables = await svc.advance(t.id)
    # Table 1: the first player never moves. Table 2: both play a turn, then the first
    # player's time runs out.
    await play_a_turn(svc, tables[1])
    await play_a_turn(svc, tables[1])
    for table_id in tables:
        live = await svc.tables.get(table_id)
        deadline = live.row.deadline
        now = deadline + 1
        assert await svc.tables.time_out(table_id, deadline) == "forfeit"
    games = {g.table_id: g for g in await svc.store.tournament_games(t.id)}
    assert games[tables[0]].detail.get("forfeit") is True
    assert games[tables[1]].points is not None and "forfeit" not in games[tables[1]].detail
    await svc.store.close()


async def test_a_drawn_knockout_game_is_played_again_from_the_store(database):
    svc = await service(database)
    t = await tournament(svc, 2, fmt="knockout")
    _, tables = await svc.advance(t.id)
    for playoff in range(3):
        await svc.set_result(t.id, 1, 1, None, 7)  # a draw, by the table's first board
        what, tables = await svc.advance(t.id)
        games = await svc.store.tournament_games(t.id)
        if playoff < 2:
            assert what == "replays" and len(tables) == 1 and len(games) == playoff + 2
            assert games[-1].replay_of == 1 and games[-1].seats == tuple(reversed(games[-2].seats))
        else:
            assert what == "finished"
    tour = await svc.store.get_tournament(t.id)
    assert tour.winner_id == 100  # three draws: the higher seed
    await svc.store.close()


async def test_a_thread_delivered_while_the_round_is_read_is_never_lost(database):
    """The round's message waits for its tables' threads: each table is either threaded or
    still waiting for its thread step, whenever the delivery lands. It once read the threads
    and the waiting steps apart; a thread recorded (and its step done) in between showed its
    table as neither, and the message said it played in the channel."""
    svc = await service(database)
    t = await tournament(svc, 4)
    _, tables = await svc.advance(t.id)
    assert await svc.store.round_threads(tables) == ({}, 2)  # both wait for their threads
    store, real, delivered = svc.store, svc.store._fetchall, []

    async def a_thread_lands_during_the_read(sql, params=()):
        rows = await real(sql, params)
        if not delivered:  # the delivery of the first table's thread, right after this read
            delivered.append(tables[0])
            await store.set_surface(tables[0], thread_id=4242)
            for item_id, kind, _ in await store.outbox(tables[0]):
                if kind == "thread":
                    await store.outbox_done(item_id)
        return rows

    store._fetchall = a_thread_lands_during_the_read
    threads, waiting = await store.round_threads(tables)
    store._fetchall = real
    # Read before the delivery: still waiting; or after it: threaded. Never neither.
    assert waiting == 2 - len(threads)
    assert await store.round_threads(tables) == ({tables[0]: 4242}, 1)
    await store.close()
