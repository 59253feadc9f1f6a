"""The table's regulation over the store (SQLite and PostgreSQL): a game that repeats a position
a third time is drawn at an AI's table and at a tournament's (which then finishes), and a casual
game between people is offered a draw instead and goes on."""
from __future__ import annotations

from bot.domain.tables import TableService
from bot.domain.tournaments import TournamentService
from bot.store import SeatRow, Store

#: each side's b-file stone one square out and back: every fourth turn starts as the first
OUT_AND_BACK = {0: ("b1", "b2"), 1: ("b7", "b6")}


def next_cycle_turn(game, seat: int) -> list[dict]:
    home, out = OUT_AND_BACK[seat]
    frm, to = (home, out) if game.public_view()["board"].get(home) else (out, home)
    return [{"type": "stone", "from": frm, "to": to}, {"type": "end_turn"}]


async def open_table(tables: TableService, seats: list[SeatRow]) -> int:
    live = await tables.open_lobby("sensei", guild_id=1, channel_id=5, host_id=seats[0].user_id
                                   if seats[0].user_id > 0 else 7, host_name="Host",
                                   options={"first": "green"}, locale="en-US", seats=seats)
    await tables.start(live.id, live.row.host_id, use_thread=False, seed=11)
    return live.id


async def test_an_ai_table_that_repeats_a_position_a_third_time_is_drawn(database):
    store = await Store.open(database)
    tables = TableService(store)
    table_id = await open_table(tables, [SeatRow(0, -1, "AI · Medium 1", ai="medium"),
                                         SeatRow(1, -2, "AI · Medium 2", ai="medium")])
    for turn in range(1, 9):
        live = await tables.get(table_id)
        assert live.row.status == "playing", f"ended before turn {turn}"
        seat = live.game.to_move
        for action in next_cycle_turn(live.game, seat):
            outcome = await tables.act_for_ai(table_id, seat, action,
                                              expected_version=live.row.version)
    # The eighth turn brought the first position back a third time.
    assert outcome.result is not None and outcome.result.draw
    assert outcome.result.reason == "repetition" and outcome.result.details["count"] == 3
    assert any(e["type"] == "game_over" and e["reason"] == "repetition" for e in outcome.events)
    row = await store.get_table(table_id)
    assert row.status == "finished"
    assert [kind for _, kind, _ in await store.outbox(table_id)][-2:] == ["over", "after"]
    # A finished game keeps no state: rebuilt from its log after a restart, it is drawn again.
    rebuilt = await TableService(store).with_game(table_id)
    assert rebuilt.game.result() == outcome.result
    await store.close()


async def test_people_at_a_casual_table_are_offered_a_draw_and_may_play_on(database):
    store = await Store.open(database)
    tables = TableService(store)
    table_id = await open_table(tables, [SeatRow(0, 100, "Ana"), SeatRow(1, 101, "Ben")])
    for turn in range(1, 13):
        live = await tables.get(table_id)
        seat = live.game.to_move
        await tables.act_many(table_id, 100 + seat, next_cycle_turn(live.game, seat))
    live = await tables.get(table_id)
    assert live.row.status == "playing" and live.game.turn == 13  # still going: people decide
    offers = [payload for _, kind, payload in await store.outbox(table_id)
              if kind == "regulation"]
    # Once, when the first position came back a third time (not at every repetition after).
    assert offers == [{"reason": "repetition", "count": 3, "turn": 9}]
    await tables.act(table_id, 100, {"type": "offer_draw"})
    outcome = await tables.act(table_id, 101, {"type": "offer_draw"})
    assert outcome.result.draw and outcome.result.reason == "agreed_draw"
    await store.close()


async def test_a_tournament_table_that_repeats_is_drawn_and_the_tournament_finishes(database):
    store = await Store.open(database)
    svc = TournamentService(store, TableService(store))
    now = store.clock()
    t = await svc.create(guild_id=1, channel_id=5, organizer_id=7, name="Cup", game="sensei",
                         options={}, fmt="swiss", rounds=1, per_table=2, turn_limit=None,
                         rated=True, starts_at=now, checkin=None, round_every=None,
                         locale="en-US", seed=99)
    for i in range(2):
        await svc.join(t.id, 100 + i, f"P{i}")
    what, (table_id,) = await svc.advance(t.id)
    assert what == "round"
    for _ in range(8):
        live = await svc.tables.get(table_id)
        assert live.row.status == "playing"
        seat = live.game.to_move
        await svc.tables.act_many(table_id, live.row.seats[seat].user_id,
                                  next_cycle_turn(live.game, seat))
    assert (await store.get_table(table_id)).status == "finished"
    (game,) = await store.tournament_games(t.id)
    assert game.points == (0.5, 0.5)
    assert await svc.advance(t.id) == ("finished", [])
    assert (await store.get_tournament(t.id)).status == "finished"
    await store.close()
