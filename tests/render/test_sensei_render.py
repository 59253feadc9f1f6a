"""The Sensei picture: valid, small, and showing what the public view says."""
from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from bot import i18n
from bot.games.sensei import Sensei, parse_turn, play_turn
from render.sensei import BAR, CELL, HEIGHT, ORIGIN, SEAT_FILL, WIDTH, render

PNG_LIMIT = 100_000


def picture(view, names=("Alice", "Bob")) -> Image.Image:
    data = render(json.loads(json.dumps(view)), list(names))
    assert data.startswith(b"\x89PNG") and len(data) <= PNG_LIMIT
    img = Image.open(io.BytesIO(data))
    assert img.size == (WIDTH, HEIGHT)
    return img.convert("RGB")


def centre_pixel(img: Image.Image, square: str) -> tuple[int, int, int]:
    x, y = ord(square[0]) - ord("a"), int(square[1]) - 1
    return img.getpixel((ORIGIN[0] + x * CELL + CELL // 2 + 22,  # between the inner ring and the rim
                         ORIGIN[1] + (6 - y) * CELL + CELL // 2))


def near(a, b, tolerance=40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def random_game(options: dict, seed: int, turns: int) -> Sensei:
    rng = random.Random(seed)
    game = Sensei.new(2, options, seed)
    while game.to_move is not None and game.turn < turns:
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    return game


@pytest.mark.slow
@pytest.mark.parametrize("board", ["plain", "storm"])
@pytest.mark.parametrize("setup", ["standard", "crossed"])
def test_start_positions_show_the_stones(board, setup):
    img = picture(Sensei.new(2, {"board": board, "setup": setup, "first": "green"}, 1)
                  .public_view())
    assert near(centre_pixel(img, "a1"), SEAT_FILL[0])
    assert near(centre_pixel(img, "a7"), SEAT_FILL[1])
    b1 = SEAT_FILL[1] if setup == "crossed" else SEAT_FILL[0]
    assert near(centre_pixel(img, "b1"), b1)
    pit = centre_pixel(img, "c3")
    assert (max(pit) < 90) == (board == "storm")


def test_a_moved_stone_appears_on_its_new_square():
    game = Sensei.new(2, {"first": "green"}, 1)
    play_turn(game, 0, parse_turn("a1-a5"))
    img = picture(game.public_view())
    assert near(centre_pixel(img, "a5"), SEAT_FILL[0])
    assert not near(centre_pixel(img, "a3"), SEAT_FILL[0])


def test_status_bar_takes_the_colour_of_the_side_to_move():
    for first, seat in (("green", 0), ("red", 1)):
        img = picture(Sensei.new(2, {"first": first}, 1).public_view())
        assert near(img.getpixel((WIDTH - 5, 5)), BAR[seat], 6)


@pytest.mark.parametrize("seed", range(4))
def test_mid_game_and_partial_turn_pictures(seed):
    game = random_game({"board": "storm" if seed % 2 else "plain"}, seed, 8)
    picture(game.public_view())
    if game.to_move is not None:
        game.apply(game.to_move, game.legal_actions(game.to_move)[0])
        picture(game.public_view())


def test_finished_pictures():
    game = Sensei.new(2, {}, 1)
    game.apply(0, {"type": "resign"})
    picture(game.public_view())
    game = Sensei.new(2, {}, 1)
    game.apply(0, {"type": "offer_draw"})
    game.apply(1, {"type": "accept_draw"})
    picture(game.public_view())
    for seed in range(40):
        game = random_game({}, seed, 400)
        if game.result() is not None and game.result().reason == "arrived":
            break
    picture(game.public_view())


def test_barrier_result_picture():
    data = Sensei.new(2, {}, 0).to_json()
    data.update(stones=[["a4", "b4", "c4", "d4", "e4", "f4", "g4"], ["b5", "d5", "f6", "a7"]],
                characters=["a4", "a7"], active=1)
    game = Sensei.from_json(data)
    play_turn(game, 1, parse_turn("f6-f5"))
    assert game.result().reason == "barrier"
    picture(game.public_view())


@pytest.mark.parametrize("names", [[], ["A"], ["Ürsula 🐉 " * 8, "Bob"], ["", ""]])
def test_any_names_render(names):
    picture(Sensei.new(2, {}, 1).public_view(), names)


def fake_language(monkeypatch, prefix: str) -> None:
    """Add a language "xx" in which every ``prefix`` key reads "ZZZ" (English stays real)."""
    real = i18n.catalogs()
    fake = {key: "ZZZ" for key in real["en"] if key.startswith(prefix)}
    assert fake
    monkeypatch.setattr(i18n, "catalogs", lambda: {**real, "xx": fake})


def test_words_come_from_the_catalog(monkeypatch):
    running = random_game({"board": "storm"}, 3, 6)
    running.apply(running.to_move, running.legal_actions(running.to_move)[0])
    won = Sensei.new(2, {}, 1)
    won.apply(0, {"type": "resign"})
    drawn = Sensei.new(2, {}, 1)
    drawn.apply(0, {"type": "offer_draw"})
    drawn.apply(1, {"type": "accept_draw"})
    views = [g.public_view() for g in (running, won, drawn)]
    names = ["Alice", "Bob"]
    english = [render(view, names, "en") for view in views]
    fake_language(monkeypatch, "render.sensei.")
    for view, picture in zip(views, english):
        assert render(view, names) == picture  # English is the default
        assert render(view, names, "xx") != picture
        assert render(view, names, "en") == picture
    # Unnamed seats are called by their colour, in the table's language.
    assert render(views[0], [], "xx") != render(views[0], [], "en")


def test_every_option_value_has_an_english_word():
    english = i18n.catalogs()["en"]
    missing = [(spec.name, value) for spec in Sensei.options_spec
               if spec.name in ("version", "setup", "board") for value in spec.choices
               if f"render.sensei.{spec.name}.{value}" not in english]
    assert not missing


def test_arrows_never_hide_a_stone_or_the_character():
    """Storm side, Arashi: a1-a6 a6-a4 *d1-a4 ends with every arrow on a4, where the character
    now stands on a stone. Every occupied square looks exactly as it does without arrows."""
    from bot.games.sensei import Sensei
    from bot.games.sensei.notation import parse_turn
    from render.sensei import CELL, _compose, _square_box

    game = Sensei.new(2, {"version": "arashi", "setup": "standard", "board": "storm",
                          "first": "green"}, 1)
    for action in parse_turn("a1-a6 a6-a4 *d1-a4"):
        game.apply(0, action)
    view = game.public_view()
    bare = dict(view, last_turn=None, current_turn=dict(view["current_turn"], actions=[]))
    with_arrows = _compose(view, ["Ana", "Ben"]).convert("RGB")
    without = _compose(bare, ["Ana", "Ben"]).convert("RGB")
    assert with_arrows.tobytes() != without.tobytes()  # the arrows are drawn
    radius = CELL * 0.36
    for name in view["board"]:
        left, top, right, bottom = _square_box(name)
        cx, cy = (left + right) / 2, (top + bottom) / 2
        for x in range(int(cx - radius), int(cx + radius) + 1, 2):
            for y in range(int(cy - radius), int(cy + radius) + 1, 2):
                if (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2:
                    assert with_arrows.getpixel((x, y)) == without.getpixel((x, y)), (name, x, y)


def barrier_loss_view() -> dict:
    data = Sensei.new(2, {}, 0).to_json()
    data.update(stones=[["a4", "b4", "c4", "d4", "e4", "f4", "g4"], ["b5", "d5", "f6", "a7"]],
                characters=["a4", "a7"], active=1)
    game = Sensei.from_json(data)
    play_turn(game, 1, parse_turn("f6-f5"))
    return game.public_view()


@pytest.mark.parametrize("locale", sorted(i18n.catalogs()))
def test_the_barrier_loss_line_reads_with_any_name(locale):
    """A name never takes a grammatical ending ("1 · You's barrier"): every language says the
    whole line around the name, whatever the name is."""
    from render.sensei import _Words, _status
    _, _, lines, _ = _status(barrier_loss_view(), _Words(["You", "AI"], locale), 10_000)
    assert "1 · You" in lines[0] and "You's" not in lines[0] and "3" in lines[0]
    if locale == "en":
        assert lines[0] == "1 · You: barrier touched by 3 stones"


def test_a_puzzle_solution_is_named_the_solution_not_a_turn_someone_played():
    from render.sensei import _footer, _Words
    game = Sensei.new(2, {"first": "green"}, 0)
    play_turn(game, 0, parse_turn("a1-a2 b1-b2"))
    view, words = game.public_view(), _Words(["Opponent", "You"], "en")
    assert _footer(view, words, 10_000)[0] == "Last: 1 · Opponent a1-a2 b1-b2"
    assert _footer(dict(view, solution=True), words, 10_000)[0] == "Solution: a1-a2 b1-b2"
    assert render(dict(view, solution=True), ["Opponent", "You"], "pl") != \
        render(view, ["Opponent", "You"], "pl")
