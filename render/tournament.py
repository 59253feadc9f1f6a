"""A tournament's standings as a picture: rank, name, score, the tie-breaks, and which round it
is after. Public facts only (names and results everyone saw).

Sized for a phone: 400 px wide, the chat column's width, and at most 16 rows (about 570 px
tall), so Discord shows it at 0.88 of its size or more: the names' capitals stay above 11 px and
the small print's above 9 px. So three number columns at most: score, BH and SB (the games
played are not drawn; a dropped player is marked ✕). A footer names BH and SB, which the message
under the picture explains.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from PIL import Image, ImageDraw

from bot.i18n import t

from .fonts import draw_text, ellipsize
from .numbers import number
from .legible import Decor
from .png import to_png

WIDTH = 400
PAD = 12
#: where the column headers sit, under the title and the round
HEAD = 62
ROW = 26
MAX_ROWS = 16
BACK, STRIPE, TEXT, MUTED = (43, 45, 49), (50, 53, 59), (235, 236, 240), (178, 182, 190)
GOLD, OUT = (250, 204, 82), (150, 154, 162)
SIZE, SMALL, TITLE = 18, 15, 20


@dataclass(frozen=True)
class Line:
    rank: int
    name: str
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int
    dropped: bool = False


def standings_png(title: str, lines: Sequence[Line], locale: str, *, round_no: int,
                  rounds: int, finished: bool = False, tie_breaks: bool = True) -> bytes:
    """``round_no``: the last round counted (0 while the first is still played)."""
    shown = list(lines[:MAX_ROWS])
    more = len(lines) - len(shown)
    height = HEAD + ROW * (len(shown) + 1) + (ROW if more else 0) + (ROW if tie_breaks else 0) \
        + PAD
    img = Image.new("RGB", (WIDTH, height), BACK)
    draw = ImageDraw.Draw(img)
    state = (t("render.tournament.final", locale) if finished else
             t("render.tournament.round", locale, round=round_no, rounds=rounds or "?")
             if round_no else t("render.tournament.none", locale))
    draw_text(draw, (PAD, 8), ellipsize(title, WIDTH - 2 * PAD, TITLE, True), TITLE, True,
              fill=TEXT)
    draw_text(draw, (PAD, 35), ellipsize(state, WIDTH - 2 * PAD, SMALL), SMALL, fill=MUTED)
    # Columns from the right: SB, Buchholz, score; the name takes what is left.
    cols = [("sb", 62), ("bh", 60), ("score", 58)] if tie_breaks else [("score", 58)]
    x = WIDTH - PAD
    right: dict[str, float] = {}
    for key, width in cols:
        right[key] = x
        x -= width
    name_right = x - 8
    rank_w = 32
    y = HEAD
    header = {"score": t("render.tournament.score", locale),
              "bh": t("render.tournament.buchholz_short", locale),
              "sb": t("render.tournament.sb_short", locale)}
    draw_text(draw, (PAD, y), "#", SMALL, True, fill=MUTED)
    draw_text(draw, (PAD + rank_w, y),
              ellipsize(t("render.tournament.player", locale), name_right - PAD - rank_w, SMALL,
                        True), SMALL, True, fill=MUTED)
    for key, _ in cols:
        draw_text(draw, (right[key], y), header[key], SMALL, True, anchor="ra", fill=MUTED)
    y += ROW
    for index, line in enumerate(shown):
        if index % 2 == 0:
            Decor(img).rectangle((PAD - 6, y - 4, WIDTH - PAD + 6, y + ROW - 4), fill=STRIPE)
        colour = OUT if line.dropped else (GOLD if line.rank == 1 else TEXT)
        draw_text(draw, (PAD, y), str(line.rank), SIZE, line.rank == 1, fill=colour)
        name = line.name + (" ✕" if line.dropped else "")
        draw_text(draw, (PAD + rank_w, y),
                  ellipsize(name, name_right - PAD - rank_w, SIZE), SIZE, fill=colour)
        values = {"score": number(line.score), "bh": number(line.buchholz),
                  "sb": number(line.sonneborn_berger)}
        for key, _ in cols:
            draw_text(draw, (right[key], y), values[key], SIZE, key == "score", anchor="ra",
                      fill=colour)
        y += ROW
    if more:
        draw_text(draw, (PAD + rank_w, y), t("render.tournament.more", locale, count=more),
                  SMALL, fill=MUTED)
        y += ROW
    if tie_breaks:
        draw_text(draw, (PAD, y), ellipsize(t("render.tournament.legend", locale),
                                            WIDTH - 2 * PAD, SMALL), SMALL, fill=MUTED)
    return to_png(img)
