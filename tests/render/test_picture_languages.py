"""Every board picture in every language: each text drawn stays inside the picture, and no
translated label had to be cut short to fit its box (only a player's over-long name may be)."""
from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import ImageDraw

from bot.i18n import LANGUAGES, catalogs
from bot.games import game_class
from render import narabi, sarena, sensei

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli"]
#: names the renderers lay out once to size their palettes and boxes
SPECIMENS = ["Sample Player Name", "Specimen player", "Another one", "Third", "Fourth", "Sample"]
RENDERERS = {"narabi": narabi.render, "sensei": sensei.render, "sarena": sarena.render}
SETUPS = {
    "narabi": [(3, {"advanced": False}), (5, {"advanced": True})],
    "sensei": [(2, {"version": "arashi", "setup": "standard", "board": "storm"}),
               (2, {"version": "shizukana", "setup": "crossed", "board": "plain"})],
    "sarena": [(2, {"fair": False}), (4, {"fair": True})],
}


def positions(key: str) -> list[dict[str, Any]]:
    """Public views at the start, in the middle and at the end of seeded random games, with a
    resignation too (its own texts)."""
    views = []
    for seats, options in SETUPS[key]:
        for seed, resign_at in ((1, None), (2, 3)):
            rnd = random.Random(seed)
            game = game_class(key).new(seats, options, seed)
            views.append(game.public_view())
            moves = 0
            while game.result() is None and moves < 400:
                seat = game.to_move
                if resign_at is not None and moves == resign_at:
                    game.apply(seat, {"type": "resign"})
                    break
                game.apply(seat, rnd.choice(game.legal_actions(seat)))
                moves += 1
                if moves == 7:
                    views.append(game.public_view())
            views.append(game.public_view())
    return views


@pytest.fixture(scope="module")
def views() -> dict[str, list[dict[str, Any]]]:
    return {key: positions(key) for key in RENDERERS}


@pytest.mark.slow
@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang in catalogs()])
@pytest.mark.parametrize("key", sorted(RENDERERS))
def test_every_text_fits_in_every_language(monkeypatch, views, key, language):
    drawn: list[tuple[str, tuple[float, float, float, float], tuple[int, int]]] = []
    original = ImageDraw.ImageDraw.text

    def recording(self, xy, text, *args, **kwargs):
        box = self.textbbox(xy, text, *args, **{k: v for k, v in kwargs.items()
                                               if k in ("font", "anchor", "spacing", "align",
                                                        "direction", "features", "stroke_width")})
        drawn.append((str(text), box, self.im.size))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    for view in views[key]:
        RENDERERS[key](view, NAMES[:view.get("seats", 2) or 2], language)
    # (pieces drawn once are cached across pictures: judge everything drawn in this language)
    assert drawn, "nothing was drawn"
    for text, (left, top, right, bottom), (width, height) in drawn:
        assert left >= -1 and top >= -1 and right <= width + 1 and bottom <= height + 1, \
            (key, language, text, (left, top, right, bottom), (width, height))
        if "…" in text:
            # Only a name may be shortened, wherever it stands in its sentence; every other
            # label must fit as written.
            before = text[:text.index("…")].rstrip()
            assert any(before.endswith(name[:k].rstrip()) for name in NAMES + SPECIMENS
                       for k in range(2, len(name) + 1)), (key, language, text)
