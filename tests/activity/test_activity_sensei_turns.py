"""Sensei on the Activity's board, server side: a planned turn stays planned (its arrows marked,
its turn number the table's) until Send; a game ended by the unfair-barrier rule on the
loser's untouched starting stones is told as a barrier the loser has, not one it built; and a
finished game offers a rematch that opens on the same board."""
from __future__ import annotations

import aiohttp
import pytest

from bot.testing.activity_kit import Page, code_for, start_activity_bot
from bot.testing.fake_discord import Member
from bot.testing.flows import start_table


@pytest.fixture
async def sensei(tmp_path):
    h = await start_activity_bot(tmp_path / "bot.sqlite3")
    players = [Member(101, "Ana"), Member(102, "Ben")]
    table = await start_table(h, "sensei", players)
    async with aiohttp.ClientSession() as http:
        yield h, table, http
    await h.bot.close()


def stones(home: int, files: str) -> list[dict]:
    """Stones of ``files`` from the player's home rank to the rank beside the other's."""
    far = 2 if home == 7 else 6
    return [{"type": "stone", "from": f"{file}{home}", "to": f"{file}{far}"} for file in files]


def hop(home: int, to: str) -> dict:
    """The character from d on the home rank to a neighbouring stone there: one square."""
    return {"type": "character", "from": f"d{home}", "to": f"{to}{home}"}


async def mover_page(h, table, http):
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    page = Page(h, http)
    await page.sign_in(*code_for(h, table.players[seat], table.thread))
    state = await page.state(table.id)
    return page, seat, state


async def test_a_full_plan_is_shown_as_planned_in_the_turn_being_played(sensei):
    h, table, http = sensei
    page, seat, state = await mover_page(h, table, http)
    home = state["public"]["home_ranks"][seat]
    plan = stones(home, "ac") + [hop(home, "e")]  # two stones and the character: a full turn
    turn = state["public"]["turn"]
    status, answer = await page.call("POST", f"/api/tables/{table.id}/plan",
                                     {"version": state["version"], "plan": plan})
    assert status == 200, answer
    # The trial copy closed the turn (three actions), yet the answer is about this turn.
    assert answer["public"]["turn"] == turn + 1 or answer["public"]["finished"]
    assert answer["turn"] == turn and answer["planned"] == 3
    planned = [a for a in answer["last"] if a.get("planned")]
    assert [(a["from"], a["to"], a["kind"]) for a in planned] == \
        [(m["from"], m["to"], m["type"]) for m in plan]
    assert all(a["ongoing"] for a in planned)
    # Nothing of the plan is drawn as the last turn.
    sent_looking = [(a["from"], a["to"]) for a in answer["last"] if not a.get("ongoing")]
    assert not set(sent_looking) & {(m["from"], m["to"]) for m in plan}
    # Nothing was sent: the table did not move.
    assert (await h.bot.tables.get(table.id)).row.version == state["version"]


async def test_a_barrier_of_starting_stones_is_had_not_built_and_a_rematch_opens_here(sensei):
    h, table, http = sensei
    page, seat, state = await mover_page(h, table, http)
    loser = 1 - seat
    mine, theirs = state["public"]["home_ranks"][seat], state["public"]["home_ranks"][loser]
    other = Page(h, http)
    await other.sign_in(*code_for(h, table.players[loser], table.thread))
    # Two stones beside the other's starting stones; they only hop their character along
    # their home rank; a third stone: their untouched starting stones are a barrier touched
    # by three.
    status, answer = await page.act(table.id, state["version"], stones(mine, "ac"))
    assert status == 200, answer
    status, answer = await other.act(table.id, answer["state"]["version"], [hop(theirs, "c")])
    assert status == 200, answer
    status, answer = await page.act(table.id, answer["state"]["version"], stones(mine, "e"))
    assert status == 200, answer
    result = answer["state"]["public"]["result"]
    assert result["reason"] == "barrier" and result["winners"] == [seat]
    home = state["public"]["home_ranks"][loser]
    assert result["details"]["loser"] == loser
    assert sorted(result["details"]["barrier"]) == [f"{f}{home}" for f in "abcdefg"]
    await h.settle()
    said = "\n".join(m["content"] or "" for m in h.fake.channel_messages(table.thread))
    loser_name = table.players[loser].name
    assert "has a barrier touched by 3 opposing stones" in said, said
    assert "built" not in said
    assert loser_name in said

    # The finished board offers a rematch: the same seats, hosted by whoever asks; with a
    # person on the other seat it is a lobby in the channel, and it opens on this board.
    status, answer = await page.call("POST", f"/api/tables/{table.id}/rematch", {})
    assert status == 200, answer
    rematch = answer["table"]
    assert rematch["status"] == "lobby" and rematch["id"] != table.id
    assert rematch["names"] == [p.name for p in table.players]
    opened = await page.state(rematch["id"])
    assert opened["status"] == "lobby" and opened["names"] == rematch["names"]
    row = (await h.bot.tables.get(rematch["id"])).row
    assert row.rematch_of == table.id and row.host_id == table.players[seat].id


async def test_a_rematch_is_for_finished_games_and_the_seated_only(sensei):
    h, table, http = sensei
    page, _, _ = await mover_page(h, table, http)
    status, answer = await page.call("POST", f"/api/tables/{table.id}/rematch", {})
    assert status == 409 and answer["error"]["code"] == "rematch_unfinished"
    watcher = Page(h, http)
    await watcher.sign_in(*code_for(h, Member(103, "Cleo"), table.thread))
    status, answer = await watcher.call("POST", f"/api/tables/{table.id}/rematch", {})
    assert status == 403 and answer["error"]["code"] == "not_seated"


async def test_a_rematch_against_the_ai_starts_at_once_and_opens_on_this_board(tmp_path):
    from bot.store import SeatRow
    from bot.testing.fake_discord import CHANNEL_ID
    h = await start_activity_bot(tmp_path / "bot.sqlite3")
    try:
        ana = Member(101, "Ana")
        tables = h.bot.tables
        live = await tables.open_lobby("sensei", guild_id=h.fake.guild_id, channel_id=CHANNEL_ID,
                                       host_id=ana.id, host_name=ana.name, options=None,
                                       locale="en", seats=[SeatRow(0, ana.id, ana.name)])
        await tables.add_ai(live.id, ana.id, "easy", "AI · Easy")
        live = await tables.start(live.id, ana.id, use_thread=False, seed=3)
        async with aiohttp.ClientSession() as http:
            page = Page(h, http)
            await page.sign_in(*code_for(h, ana, CHANNEL_ID))
            state = await page.state(live.id)
            status, answer = await page.act(live.id, state["version"], [{"type": "resign"}])
            assert status == 200 and answer["state"]["status"] == "finished", answer
            status, answer = await page.call("POST", f"/api/tables/{live.id}/rematch", {})
            assert status == 200, answer
            rematch = answer["table"]
            assert rematch["status"] == "playing" and rematch["names"] == ["Ana", "AI · Easy"]
            opened = await page.state(rematch["id"])
            assert opened["status"] == "playing" and opened["seat"] == 0
            assert opened["seats"][1]["ai"] == "easy"
    finally:
        await h.bot.close()
