"""The Sàréná picture: valid PNG, what it shows, and that it can only show public facts."""
from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image

from bot import i18n
from bot.games.base import Game
from bot.games.sarena import Sarena
from bot.games.sarena.board import EDGES, SQUARE_NAMES
from bot.games.sarena.playout import choice_random, choose_edge
from render import sarena as picture
from render.sarena import render

NAMES = ["Alice", "Bartholomew the Magnificent of Very Long Names", "Chen", "Dee"]


def played(seed: int, seats: int, moves: int | None = None) -> Game:
    game = Sarena.new(seats, {"fair": True}, seed)
    rnd = choice_random(seed).random
    while game.to_move is not None and (moves is None
                                        or game.public_view()["moves_played"] < moves):
        src, dst = EDGES[choose_edge(game.legal_edges(), rnd)]
        game.apply(game.to_move, {"type": "move", "from": SQUARE_NAMES[src],
                                  "to": SQUARE_NAMES[dst]})
    return game


def decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    assert img.size == (picture.WIDTH, picture.HEIGHT)
    return img.convert("RGB")


def near(pixel, colour, tolerance: int = 45) -> bool:
    return sum(abs(p - c) for p, c in zip(pixel, colour)) <= tolerance


@pytest.mark.slow
def test_start_picture_shows_every_top_colour_and_marks_arrow_circles():
    game = Sarena.new(2, {}, 3)
    view = game.public_view()
    img = decode(render(view, NAMES[:2]))
    for circle in view["board"]:
        cx, cy = picture._centre(circle["x"], circle["y"])
        # Left part of the top disc (the letter sits in the middle).
        assert near(img.getpixel((cx - picture.CHIP_R + 9, cy)), picture.FACES[circle["top"]][0])
        a, r = math.radians(60), picture.ARROW_RING_R - 1.6  # middle of the arc's stroke
        ring = (round(cx + r * math.cos(a)), round(cy + r * math.sin(a)))
        assert near(img.getpixel(ring), picture.ARROW_MARK, 60) == circle["arrow"]


@pytest.mark.slow
def test_last_move_is_highlighted_and_emptied_circles_look_empty():
    game = played(8, 3, 12)
    view = game.public_view()
    img = decode(render(view, NAMES[:3]))
    last = view["last_move"]
    src = view["board"][picture._square_xy(last["from"])[0]
                        + 6 * picture._square_xy(last["from"])[1]]
    assert src["height"] == 0
    assert near(img.getpixel(picture._centre(src["x"], src["y"])), picture.HIGHLIGHT)
    for circle in view["board"]:
        if circle["height"] == 0 and circle["square"] != last["from"]:
            cx, cy = picture._centre(circle["x"], circle["y"])
            assert near(img.getpixel((cx - 20, cy)), picture.SLOT_FILL)


def test_height_changes_the_picture_but_hidden_faces_do_not():
    game = played(21, 2, 10)
    view = game.public_view()
    base = render(view, NAMES[:2])
    taller = dict(view, board=[dict(c) for c in view["board"]])
    pile = next(c for c in taller["board"] if c["height"] == 1)
    pile["height"] = 3
    assert render(taller, NAMES[:2]) != base
    # The memory-aid faces of lower chips are never drawn.
    blind = dict(view, board=[dict(c, chips=[]) for c in view["board"]])
    assert render(blind, NAMES[:2]) == base


@pytest.mark.slow
def test_picture_is_identical_for_games_that_differ_only_in_secrets():
    # Same deal and moves, different secret colours: the colours live outside the view.
    game = played(5, 4, 15)
    state = game.to_json()
    state["colours"] = list(reversed(state["colours"]))
    twin = Sarena.from_json(state)
    assert twin.public_view() == game.public_view()
    assert render(twin.public_view(), NAMES) == render(game.public_view(), NAMES)


def test_finished_picture_and_size_budget():
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        game = played(seed, seats)
        view = game.public_view()
        data = render(view, NAMES[:seats])
        assert len(data) <= 120_000
        img = decode(data)
        # The winner's score is written in the winner colour in the side panel.
        panel = img.crop((picture.PANEL_X, 0, picture.WIDTH, picture.HEIGHT))
        assert any(near(px, picture.WIN_MARK, 30) for _, px in panel.getcolors(1 << 16))


def test_renders_resigned_players_and_missing_names():
    game = Sarena.new(4, {}, 6)
    game.apply(2, {"type": "resign"})
    data = render(game.public_view(), [])
    decode(data)
    game.apply(0, {"type": "resign"})
    game.apply(1, {"type": "resign"})
    assert game.result().reason == "resigned"
    decode(render(game.public_view(), ["", "B", "C", "D"]))


def test_mid_game_picture_with_tall_piles_fits_the_budget():
    rng = random.Random(0)
    for _ in range(5):
        game = played(rng.randrange(10**6), 4, 20)
        assert len(render(game.public_view(), NAMES)) <= 120_000


def fake_language(monkeypatch, prefix: str, text: str = "ZZZ") -> None:
    """Add a language "xx" in which every ``prefix`` key reads ``text`` (English stays real)."""
    real = i18n.catalogs()
    fake = {key: text for key in real["en"] if key.startswith(prefix)}
    assert fake
    monkeypatch.setattr(i18n, "catalogs", lambda: {**real, "xx": fake})


def test_words_come_from_the_catalog(monkeypatch):
    running = played(8, 3, 12).public_view()
    finished = played(2, 3).public_view()
    assert finished["finished"]
    english = [render(view, NAMES[:3], "en") for view in (running, finished)]
    fake_language(monkeypatch, "render.sarena.")
    for view, expected in zip((running, finished), english):
        assert render(view, NAMES[:3]) == expected  # English is the default
        assert render(view, NAMES[:3], "xx") != expected
        # The per-language frame and sprites are cached by language: no mix-up either way.
        assert render(view, NAMES[:3], "en") == expected


def test_colour_letters_come_from_the_catalog(monkeypatch):
    view = Sarena.new(2, {}, 3).public_view()
    board_box = (picture.BOARD_X, picture.BOARD_Y, picture.BOARD_X + picture.BOARD_PX,
                 picture.BOARD_Y + picture.BOARD_PX)
    english = decode(render(view, NAMES[:2])).crop(board_box)
    fake_language(monkeypatch, "render.sarena.mark.", "Q")
    other = decode(render(view, NAMES[:2], "xx")).crop(board_box)
    assert english.tobytes() != other.tobytes()
    for colour in picture.FACES:
        assert i18n.t(f"render.sarena.mark.{colour}", "en") == colour[0].upper()
