"""A game review's pictures: the turn played and the better turn as arrows of two colours, on
the Sensei and Sàréná boards, drawn from the public view only."""
from __future__ import annotations

import io
import os
import random

import pytest
from PIL import Image, ImageChops

from bot.games import game_class
from render import sarena, sensei
from render.arrows import REVIEW_BETTER, REVIEW_PLAYED

NAMES = ["Ana", "Ben", "Cleo"]


def position(key: str, seats: int, actions: int, seed: int = 5):
    """A game after ``actions`` random moves, at the start of a turn, and two of its moves."""
    game = game_class(key).new(seats, {}, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        seat = game.to_move
        moves = [a for a in game.legal_actions(seat) if "from" in a]
        game.apply(seat, rng.choice(moves))
        if key == "sensei" and any(a.get("type") == "end_turn" for a in game.legal_actions(seat)):
            game.apply(seat, {"type": "end_turn"})
    moves = [a for a in game.legal_actions(game.to_move) if "from" in a]
    return game, moves


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def count_near(picture: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixels lie within 60 of ``colour`` (the sum of the three channels' distances),
    counted by Pillow's own operations (a Python loop over every pixel took seconds)."""
    distances = ImageChops.difference(picture, Image.new("RGB", picture.size, colour)).split()
    # each channel capped at 61 so their sum (at most 183) never saturates an 8-bit add
    capped = [channel.point(lambda v: min(v, 61)) for channel in distances]
    total = ImageChops.add(ImageChops.add(capped[0], capped[1]), capped[2])
    return sum(total.histogram()[:61])


def save(name: str, png: bytes) -> None:
    folder = os.environ.get("REVIEW_PICTURES")  # look at them: REVIEW_PICTURES=/tmp/rv
    if folder:
        with open(os.path.join(folder, name), "wb") as out:
            out.write(png)


def check(module, key: str, seats: int) -> None:
    game, moves = position(key, seats, 6)
    view = game.public_view()
    view.pop("last_turn", None)
    view.pop("last_move", None)
    plain = module.render(view, NAMES[:seats], "en")
    played, better = moves[0], moves[-1]
    both = module.render({**view, "review": {"played": [played], "better": [better]}},
                         NAMES[:seats], "en")
    only = module.render({**view, "review": {"played": [played], "better": []}},
                         NAMES[:seats], "en")
    same = module.render({**view, "review": {"played": [played], "better": [played]}},
                         NAMES[:seats], "en")
    save(f"{key}-review.png", both)
    save(f"{key}-review-same.png", same)
    base, drawn, alone, twin = map(pixels, (plain, both, only, same))
    assert count_near(base, REVIEW_PLAYED) < 20 and count_near(base, REVIEW_BETTER) < 20
    assert count_near(drawn, REVIEW_PLAYED) > 150 and count_near(drawn, REVIEW_BETTER) > 100
    assert count_near(alone, REVIEW_PLAYED) > 150 and count_near(alone, REVIEW_BETTER) < 20
    # One path in both: the two arrows lie side by side, both visible.
    assert count_near(twin, REVIEW_PLAYED) > 150 and count_near(twin, REVIEW_BETTER) > 100
    # Garbage in the arrows is ignored, never drawn nor raised.
    junk = module.render({**view, "review": {"played": [{"from": "z9", "to": 3}], "better": 7}},
                         NAMES[:seats], "en")
    assert pixels(junk).tobytes() == base.tobytes()


@pytest.mark.slow
def test_sensei_review_arrows():
    check(sensei, "sensei", 2)


@pytest.mark.slow
def test_sarena_review_arrows():
    check(sarena, "sarena", 3)
