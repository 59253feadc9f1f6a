"""Alt text (render/alt): each game's picture told in words from its public view, the most
important first, within Discord's 1,024 characters in every language, with nothing secret."""
from __future__ import annotations

import random

import pytest

from bot.games.narabi import Narabi
from bot.games.sarena import Sarena
from bot.games.sensei import Sensei
from bot.i18n import LANGUAGES, t
from render.alt import LIMIT, describe, fit
from render.alt.tables import chart, standings
from render.tournament import Line

NAMES = ["Ana", "Ben", "Cy", "Dee"]
#: the longest display names Discord allows (32), in a script of wide letters
LONG = ["鬱" * 32, "Ω" * 32, "ß" * 32, "Ж" * 32]


def played(cls, seats: int, moves: int, seed: int = 7):
    game = cls.new(seats, {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.finished:
            break
        seat = game.to_move
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def to_the_end(cls, seats: int, seed: int = 7):
    return played(cls, seats, 10_000, seed)


def test_sensei_names_every_stone_by_square_and_each_character():
    view = Sensei.new(2, {"first": "green"}, 3).public_view()
    text = describe("sensei", view, NAMES, "en")
    assert text.startswith("Sensei board, turn 1. Ana (Green) to move; left this turn: "
                           "2 stone moves, 1 character move.")
    assert "Ana (Green): character on d1; 6 stones on a1, b1, c1, e1, f1, g1." in text
    assert "Ben (Red): character on d7; 6 stones on a7, b7, c7, e7, f7, g7." in text


def test_sensei_tells_the_last_turn_and_the_result():
    game = played(Sensei, 2, 3)
    view = game.public_view()
    last = view["last_turn"]
    moves = ", ".join(("*" if a["kind"] == "character" else "") + f"{a['from']}-{a['to']}"
                      for a in last["actions"])
    assert f"Last turn, {NAMES[last['seat']]}" in describe("sensei", view, NAMES, "en")
    assert moves in describe("sensei", view, NAMES, "en")
    end = to_the_end(Sensei, 2).public_view()
    winner = end["result"]["winners"][0]
    text = describe("sensei", end, NAMES, "en")
    assert f"{NAMES[winner]} ({'Green' if winner == 0 else 'Red'}) wins: " in text
    assert "to move" not in text


def test_sensei_storm_side_names_its_pits():
    view = Sensei.new(2, {"board": "storm"}, 3).public_view()
    assert "Pits on c3, e3, c5, e5." in describe("sensei", view, NAMES, "en")


def test_sarena_gives_the_top_colour_and_height_of_every_pile():
    game = played(Sarena, 3, 6)
    view = game.public_view()
    text = describe("sarena", view, NAMES, "en")
    to_move = NAMES[view["to_move"]]
    assert text.startswith(f"Sàréná board, move {view['move']}. {to_move} to move.")
    for circle in view["board"]:
        if circle["height"]:
            colour = t(f"sarena.colour.{circle['top']}", "en")
            group = text.split(f"{colour} on top", 1)[1].split(".", 1)[0]
            assert f"height {circle['height']} on " in group
            assert circle["square"] in group.split(f"height {circle['height']} on ", 1)[1] \
                .split(";", 1)[0], (circle, group)
        else:
            assert circle["square"] in text.split("Empty circles: ", 1)[1].split(".", 1)[0]


def test_sarena_never_tells_a_seats_colour_before_the_end():
    game = played(Sarena, 4, 10)
    text = describe("sarena", game.public_view(), NAMES, "en")
    for seat in range(4):
        colour = t(f"sarena.colour.{game.private_view(seat)['colour']}", "en")
        assert f"{NAMES[seat]}, {colour}" not in text
    assert "Colours and scores" not in text
    # … and at the end, as the picture does, it tells them all with the scores.
    end = to_the_end(Sarena, 4)
    text = describe("sarena", end.public_view(), NAMES, "en")
    result = end.public_view()["result"]
    for seat, colour in enumerate(result["colours"]):
        assert f"{NAMES[seat]}, {t(f'sarena.colour.{colour}', 'en')}" in text


def test_narabi_reads_the_ring_by_its_public_faces_only():
    game = played(Narabi, 3, 4)
    view = game.public_view()
    text = describe("narabi", view, NAMES, "en")
    assert text.startswith(f"Narabi table, {view['turn']} of {view['max_turns']} switches used. "
                           f"{NAMES[view['to_move']]} switches next.")
    ring = text.split("The ring, clockwise: ", 1)[1]
    for seat, row in enumerate(view["rows"]):
        faces = ", ".join(f"{c['colour']} {'blank' if c['number'] is None else c['number']}"
                          for c in row)
        assert f"{NAMES[seat]}: {faces}" in ring
    # No condition while the game runs: not even in a private step's words.
    conditions = {t(f"render.narabi.condition.{c['condition']}", "en")
                  for seat in range(3) for c in game.private_view(seat)["cards"]}
    assert not any(f"({word})" in text for word in conditions)
    end = to_the_end(Narabi, 3)
    text = describe("narabi", end.public_view(), NAMES, "en")
    assert any(f"({word})" in text for word in conditions)


def test_a_review_picture_tells_its_arrows_right_after_the_game():
    view = dict(Sensei.new(2, {}, 3).public_view(),
                review={"played": [{"from": "c1", "to": "c4", "kind": "stone"}],
                        "better": [{"from": "d1", "to": "d5", "kind": "character"}]})
    text = describe("sensei", view, NAMES, "en")
    assert text.startswith("Sensei board, turn 1. The arrows show the turn played, c1-c4, "
                           "and a better one, *d1-d5.")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_picture_fits_discords_limit_in_every_language(language):
    views = [("sensei", Sensei.new(2, {"board": "storm"}, 1).public_view(), 2),
             ("sensei", to_the_end(Sensei, 2).public_view(), 2),
             ("sarena", played(Sarena, 4, 3).public_view(), 4),
             ("sarena", to_the_end(Sarena, 4).public_view(), 4),
             ("narabi", played(Narabi, 5, 2).public_view(), 5),
             ("narabi", to_the_end(Narabi, 5).public_view(), 5)]
    for game, view, seats in views:
        for names in (NAMES + ["Eve"], LONG + ["Ω" * 32]):
            text = describe(game, view, names[:seats], language)
            assert 0 < len(text) <= LIMIT, (game, language, len(text))
            assert "{" not in text and "alt." not in text, text  # every key filled
            assert t(f"{game}.name", language).split()[0] in text[:60], text[:60]


def test_fit_keeps_the_head_and_cuts_the_tail_at_a_separator():
    head = "Board, move 3. Ana to move."
    tail = "Piles: " + ", ".join(f"a{i}" for i in range(400)) + "."
    text = fit([head, tail, "Never reached."], limit=200)
    assert text.startswith(head + " Piles: a0, a1") and text.endswith("…")
    assert len(text) <= 200 and "Never" not in text
    assert not text[:-1].endswith((",", " "))
    assert fit(["a" * 50, "b" * 5000]) == "a" * 50 + " " + "b" * (LIMIT - 52) + "…"
    assert fit(["short", "", "  ", "end."]) == "short end."


def test_standings_and_charts_in_words():
    lines = [Line(1, "Ana", 2.5, 3, 2, 3), Line(2, "Ben", 1, 3, 1, 3),
             Line(3, "Cy", 0.5, 2, 0, 3, dropped=True)]
    text = standings("Autumn cup", lines, "en", round_no=3, rounds=5)
    assert text == ("Autumn cup. After round 3 of 5: 1. Ana, 2½ points. 2. Ben, 1 point. "
                    "3. Cy, ½ points, withdrawn.")
    final = standings("Autumn cup", lines * 200, "ru", round_no=5, rounds=5, finished=True)
    assert final.startswith("Autumn cup. Итоговая таблица: 1. Ana, 2½ очка.")
    assert len(final) <= LIMIT and final.endswith("…")
    words = chart([("Sensei", [1500.0, 1520.5, 1490.0]), ("Narabi", [])], "en")
    assert words == ("Rating after each rated game. Sensei: 1500.0 at first, 1490.0 now, "
                     "1520.5 at best, after 3 games.")
