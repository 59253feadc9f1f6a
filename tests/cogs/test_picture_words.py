"""Pictures speak (issue 52): every picture the bot uploads through the stand-in, in a whole
game of each game, its private steps, its replay, its review, a puzzle, a lesson and a
tournament's standings, carries a description (alt text) that names the position, in the
reader's language, within 1,024 characters, with nothing secret in it."""
from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games.sensei import legal_turns
from bot.i18n import t
from bot.testing.fake_discord import Member, components_of, find_component
from render.alt import LIMIT
from tests.cogs.test_learning import ending, puzzle_of, tap
from tests.cogs.test_review import REVIEWED, reviewed
from tests.cogs.test_tournament_cog import ORGANIZER, button, create, play_out, settle
from tests.cogs.test_tournament_cog import tournament_message
from tests.helpers import board, ephemeral_reply, narabi_switch, start_table
from bot.testing.flows import sarena_path, sensei_path, tap_through
from bot.ui import review as viewer_module
from tests.conftest import start_bot

pytestmark = pytest.mark.usefixtures("no_missing_text")


@pytest.fixture
async def harness(tmp_path):
    """On SQLite only: what is checked here is what Discord receives, not the store."""
    h = await start_bot(tmp_path / "bot.sqlite3")
    yield h
    await h.bot.close()


def uploads(h, since: int = 0) -> list[tuple[str, str, str | None]]:
    """Every picture uploaded from request ``since`` on and accepted: (path, file name,
    description), as the request body declared it."""
    found = []
    for request in h.fake.requests[since:]:
        if not request.files or request.status >= 400:
            continue
        body = request.json or {}
        declared = (body.get("data") if "data" in body else body).get("attachments") or []
        by_index = {str(a.get("id")): a for a in declared}
        for index, (name, _) in enumerate(request.files):
            if name.endswith((".png", ".gif")):
                found.append((request.path, name, by_index.get(str(index), {}).get("description")))
    return found


def all_speak(pictures: list[tuple[str, str, str | None]]) -> list[str]:
    assert pictures, "no picture was uploaded"
    for path, name, description in pictures:
        assert description, f"{name} uploaded to {path} without a description"
        assert len(description) <= LIMIT
    return [d for _, _, d in pictures]  # type: ignore[misc]


async def first_move_by_clicks(h, table, game: str, rng: random.Random) -> None:
    """The first move through the real components, so that the private steps' pictures are
    uploaded too."""
    if game == "narabi":
        await narabi_switch(h, table, rng)
        return
    live = await h.bot.tables.get(table.id)
    seat = live.game.to_move
    b = board(h, table)
    if game == "sarena":
        action = rng.choice(live.game.legal_actions(seat))
        await tap_through(h, table.players[seat], b, sarena_path(b, action))
    else:
        turn = rng.choice([turn for turn in legal_turns(live.game) if turn])
        await tap_through(h, table.players[seat], b, sensei_path(turn))


async def play_to_the_end(h, table, rng: random.Random, actions: int = 40) -> None:
    """Random actions, each published as a click's would be; past ``actions`` the player to
    move resigns (a random Sensei game may wander for long)."""
    for done in range(10_000):
        live = await h.bot.tables.get(table.id)
        if live.row.status != "playing":
            break
        seat = live.game.to_move
        legal = [a for a in live.game.legal_actions(seat)
                 if a.get("type") not in ("resign", "offer_draw")]
        action = rng.choice(legal) if done < actions else {"type": "resign"}
        await h.bot.tables.act(table.id, table.players[seat].id, action)
        h.bot.reconciler.mark(table.id)  # what a click's publishing does: the board follows
        await h.settle()


def secrets_of(game: str, live, names: list[str]) -> list[str]:
    """What no picture of the running game may say: who holds which colour (Sàréná), any
    card's condition (Narabi)."""
    if game == "sarena":
        colours = [live.game.private_view(seat)["colour"] for seat in range(len(names))]
        return [f"{names[seat]}, {t('sarena.colour.' + colour, 'en')}"
                for seat, colour in enumerate(colours)]
    if game == "narabi":
        return [f"({t('render.narabi.condition.' + card['condition'], 'en')})"
                for seat in range(len(names)) for card in live.game.private_view(seat)["cards"]]
    return []


def names_the_position(game: str, view: dict[str, Any], text: str) -> None:
    if game == "sensei":
        for square in view["board"]:
            assert square in text, (square, text)
        for square in view["characters"]:
            assert f"character on {square}" in text
    elif game == "sarena":
        for circle in view["board"]:
            if circle["height"]:
                assert circle["square"] in text.split(
                    f"{t('sarena.colour.' + circle['top'], 'en')} on top", 1)[1], circle
    else:
        for row in view["rows"]:
            for card in row:
                face = "blank" if card["number"] is None else card["number"]
                assert f"{card['colour']} {face}" in text


@pytest.mark.parametrize("game,seats", [("sensei", 2), ("sarena", 3), ("narabi", 3)])
async def test_every_picture_of_a_whole_game_and_its_replay_speaks(harness, players, game, seats):
    h, rng = harness, random.Random(5)
    table = await start_table(h, game, players[:seats])
    names = [p.name for p in players[:seats]]
    live = await h.bot.tables.get(table.id)
    hidden = secrets_of(game, live, names)
    start = 0
    await first_move_by_clicks(h, table, game, rng)
    await play_to_the_end(h, table, rng)
    words = all_speak(uploads(h, start))
    assert any(path.startswith("/interactions/") or "/webhooks/" in path
               for path, _, _ in uploads(h, start)), "a private step's picture"
    # While the game ran, nothing secret; its end is told as the picture tells it.
    *running, last = words
    for text in running:
        assert not any(secret in text for secret in hidden), text
    live = await h.bot.tables.get(table.id)
    names_the_position(game, live.game.public_view(), last)
    assert last.startswith(t(f"{game}.name", "en").split()[0])
    # The replay viewer, a step of it and the download: every picture speaks, step by step.
    since = len(h.fake.requests)
    b = board(h, table)
    token = await h.click(players[0], b, find_component(b, "replay")["custom_id"])
    viewer = ephemeral_reply(h, token)
    first, _back, forward, *_ = components_of(viewer)
    await h.click(players[0], viewer, forward["custom_id"])
    viewer = h.fake.messages[int(viewer["id"])]
    download = next(c for c in components_of(viewer) if c.get("emoji", {}).get("name") == "⬇️")
    await h.click(players[0], viewer, download["custom_id"])
    replay = all_speak(uploads(h, since))
    assert len(replay) == 3 and uploads(h, since)[-1][1].endswith(".gif")
    start_view = live.cls.new(seats, live.row.options, live.row.seed).public_view()
    names_the_position(game, start_view, replay[0])
    assert "The last one:" in replay[-1]


async def test_the_board_speaks_the_servers_language_a_step_its_players(harness):
    h = harness
    h.fake.guild_locale = "de"
    ana, ben = Member(100, "Ana", locale="fr"), Member(101, "Ben", locale="ru")
    table = await start_table(h, "sensei", [ana, ben])
    live = await h.bot.tables.get(table.id)
    mover = table.players[live.game.to_move]
    b = board(h, table)
    (public,) = all_speak(uploads(h))
    assert public.startswith("Sensei-Spielbrett, Zug 1.") and "Figur auf d1" in public
    since = len(h.fake.requests)
    await h.click(mover, b, find_component(b, "move")["custom_id"])
    (private,) = all_speak(uploads(h, since))
    expected = "Plateau de Sensei, tour 1." if mover is ana else "Поле Sensei, ход 1."
    assert private.startswith(expected), private


@pytest.fixture
async def reviewing(tmp_path, monkeypatch):
    monkeypatch.setattr(viewer_module, "has_review", lambda game: game in REVIEWED)
    harness = await start_bot(tmp_path / "bot.sqlite3", reviews="tests.cogs.review_jobs")
    harness.bot.reviewer.reviewed = lambda game: game in REVIEWED
    yield harness
    await harness.bot.close()


async def test_a_review_page_speaks_in_its_readers_language(reviewing, players):
    h = reviewing
    table = await start_table(h, "sensei", players[:2])
    await play_to_the_end(h, table, random.Random(3))
    await reviewed(h, table.id)
    reader = Member(777, "Dora", locale="de")
    token = await h.command(reader, "review", game_id=table.id)
    summary = ephemeral_reply(h, token)
    since = len(h.fake.requests)
    await h.click(reader, summary, components_of(summary)[2]["custom_id"])
    (words,) = all_speak(uploads(h, since))
    # Private to the reader: in German, the picture's arrows and the position in words.
    assert words.startswith("Sensei-Spielbrett, Zug ") and "Die Pfeile zeigen" in words
    assert "Figur auf" in words


async def test_puzzle_chart_and_lesson_pictures_speak(harness, players):
    h, ana = harness, players[0]
    since = len(h.fake.requests)
    for _ in range(2):
        step = await puzzle_of(h, ana, "sarena")
        await tap(h, ana, step, ending(step, "gu"))
    for words in all_speak(uploads(h, since)):
        assert words.startswith("Sàréná board, move ") and " on top, " in words
    since = len(h.fake.requests)
    await h.command(ana, "puzzle", "stats")
    (chart,) = all_speak(uploads(h, since))
    assert chart.startswith("Puzzle rating after each puzzle. Sàréná: ")
    assert chart.endswith(" puzzles.") or chart.endswith(" puzzle.")
    assert "after 2 puzzles" in chart
    since = len(h.fake.requests)
    step = ephemeral_reply(h, await h.command(ana, "sensei", "learn"))
    await tap(h, ana, step, ending(step, "n"))
    for words in all_speak(uploads(h, since)):
        assert words.startswith("Sensei board, turn ") and "character on" in words


async def test_the_standings_picture_names_every_player_and_score(harness):
    h = harness
    tid = await create(h, game="sensei", format="swiss", rounds=1, clock=0)
    for _ in range(3):
        await h.command(ORGANIZER, "tournament", "ai", level="easy", tournament=tid)
    await settle(h)
    since = len(h.fake.requests)
    message = tournament_message(h)
    await h.click(ORGANIZER, message, button(message, "start"))
    await play_out(h, tid)
    standings = [w for w in all_speak(uploads(h, since)) if ". Final standings: " in w]
    assert standings, "the final standings' picture"
    entrants = await h.bot.store.entrants(tid)
    for entrant in entrants:
        assert f". {entrant.name}, " in standings[-1]
    assert standings[-1].count(" point") == len(entrants)
