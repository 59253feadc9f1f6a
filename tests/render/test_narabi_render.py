"""Narabi picture: valid PNGs of sane size, drawn from the public view only."""
from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from bot import i18n
from bot.games.narabi import Narabi
from bot.games.narabi.deck import DECK
from render.narabi import render

NAMES = ["Ada", "Bartholomew the Magnificent, Keeper of Very Long Names", "Chloé 🌸",
         "李小龍", "  "]
CONDITION_IDS = {c["id"] for c in DECK.conditions} - {"white", "dark"}


def play(seats: int, seed: int, switches: int | None) -> Narabi:
    game = Narabi.new(seats, {"advanced": seed % 2 == 0}, seed)
    rng = random.Random(seed)
    while not game.finished and (switches is None or game.turn < switches):
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    return game


def decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize("switches", [0, 5, None])
def test_renders_valid_png_of_sane_size(seats: int, switches: int | None) -> None:
    game = play(seats, seats * 10 + (switches or 0), switches)
    view = game.public_view()
    if switches is not None:
        assert not view["finished"]
        # The renderer's whole input while the game runs carries no condition at all.
        text = json.dumps(view)
        assert "condition" not in text
        assert not any(f'"{cond}"' in text for cond in CONDITION_IDS)
    data = render(view, NAMES[:seats])
    img = decode(data)
    assert 800 <= img.width <= 1600 and 600 <= img.height <= 1200
    assert len(data) < 120_000
    # Not a blank canvas: the stones and the track add many colours.
    assert len(img.convert("RGB").getcolors(1 << 16) or []) > 8


def test_finished_view_with_solver_figure_renders() -> None:
    game = play(5, 3, None)
    view = game.public_view()
    assert view["finished"] and all("condition" in c for row in view["rows"] for c in row)
    view["fewest_switches"] = 6
    assert decode(render(view, NAMES)).size == decode(render(game.public_view(), NAMES)).size


def test_missing_names_and_unknown_condition_ids_do_not_break_the_picture() -> None:
    game = play(4, 1, None)
    view = game.public_view()
    view["rows"][0][0]["condition"] = "some_new_card"
    decode(render(view, []))


def test_last_switch_changes_the_picture() -> None:
    game = play(4, 7, 3)
    view = game.public_view()
    assert view["last_switch"] is not None
    plain = dict(view, last_switch=None)
    assert render(view, NAMES[:4]) != render(plain, NAMES[:4])


def fake_language(monkeypatch, prefix: str) -> None:
    """Add a language "xx" in which every ``prefix`` key reads "ZZZ" (English stays real)."""
    real = i18n.catalogs()
    fake = {key: "ZZZ" for key in real["en"] if key.startswith(prefix)}
    assert fake
    monkeypatch.setattr(i18n, "catalogs", lambda: {**real, "xx": fake})


def test_words_come_from_the_catalog(monkeypatch):
    running = play(4, 2, 5).public_view()
    finished = play(5, 3, None).public_view()
    finished["fewest_switches"] = 6
    english = [render(view, NAMES[:view["seats"]], "en") for view in (running, finished)]
    fake_language(monkeypatch, "render.narabi.")
    for view, picture in zip((running, finished), english):
        names = NAMES[:view["seats"]]
        assert render(view, names) == picture  # English is the default
        assert render(view, names, "xx") != picture
        # Caches are keyed by what they draw, so the languages never mix up.
        assert render(view, names, "en") == picture
    # An unnamed seat is labelled in the table's language too.
    assert render(running, [], "xx") != render(running, [], "en")


def test_every_deck_id_has_an_english_label():
    english = i18n.catalogs()["en"]
    ids = {("condition", c["id"]) for c in DECK.conditions}
    ids |= {("rating", r["id"]) for r in DECK.ratings} | {("rating", DECK.defeat_rating)}
    ids |= {("reason", r) for r in ("solved", "out_of_turns", "no_legal_switch", "abandoned")}
    assert not [i for i in ids if f"render.narabi.{i[0]}.{i[1]}" not in english]


def test_the_switch_arrow_bows_round_the_names_a_straight_line_would_strike_through():
    """Issue 54: on a phone the last switch's arrow ran under "3 · AI · Easy", which then read
    as struck through. Three seats, the third switch: seat 3's card and seat 2's trade places
    across the ring, straight under both their names."""
    from render.narabi import _hits, card_places, label_boxes, switch_path

    game = Narabi.new(3, {}, 0)
    rng = random.Random(0)
    for _ in range(3):
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    view = game.public_view()
    names = ["Ana", "Ben", "AI · Easy"]
    where, labels = card_places(view), label_boxes(view, names)
    last = view["last_switch"]
    straight = [where[last["card"]], where[last["target"]]]
    assert sum(_hits(straight, box, 0) for box in labels) == 2
    path = switch_path(view, where, labels)
    assert not any(_hits(path, box, 0) for box in labels)
    # It still joins the two cards: each end is at the edge of one of them.
    ends = sorted(path[0:1] + path[-1:])
    for end, card in zip(ends, sorted(straight)):
        assert abs(end[0] - card[0]) <= 60 and abs(end[1] - card[1]) <= 80
    # And the picture drawn is the one with that path (the arrow's colour beside a name, not
    # under it): every name's box is free of the arrow's blue.
    img = decode(render(view, names)).convert("RGB")
    from render.narabi import SWITCH
    for x0, y0, x1, y1 in labels:
        band = img.crop((int(x0) - 4, int(y0), int(x1) + 4, int(y1)))
        assert SWITCH[:3] not in {px for px in band.getdata()}
