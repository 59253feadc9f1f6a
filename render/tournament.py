"""A tournament's standings as a picture: rank, name, score, the tie-breaks, games played,
and which round it is. Public facts only (names and results everyone saw).

Sized for a phone: 480 px wide and at most 20 rows (about 580 px tall), so Discord's chat
column shows it at 0.83 of its size and the 16 px text keeps capitals above 8 px."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from PIL import Image, ImageDraw

from bot.i18n import t

from .fonts import draw_text, ellipsize, text_width
from .legible import Decor
from .png import to_png

WIDTH = 480
PAD = 14
HEAD = 64
ROW = 24
MAX_ROWS = 20
BACK, STRIPE, TEXT, MUTED = (43, 45, 49), (50, 53, 59), (235, 236, 240), (178, 182, 190)
GOLD, OUT = (250, 204, 82), (150, 154, 162)
SIZE, SMALL, TITLE = 16, 14, 18


@dataclass(frozen=True)
class Line:
    rank: int
    name: str
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int
    dropped: bool = False


def number(value: float) -> str:
    """1, 1½, 2.25: halves as people write them, other fractions as decimals."""
    whole = int(value)
    if value == whole:
        return str(whole)
    if value - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{value:.2f}".rstrip("0")


def standings_png(title: str, lines: Sequence[Line], locale: str, *, round_no: int,
                  rounds: int, finished: bool = False, tie_breaks: bool = True) -> bytes:
    shown = list(lines[:MAX_ROWS])
    more = len(lines) - len(shown)
    height = HEAD + ROW * (len(shown) + 1) + (ROW if more else 0) + PAD
    img = Image.new("RGB", (WIDTH, height), BACK)
    draw = ImageDraw.Draw(img)
    state = (t("render.tournament.final", locale) if finished else
             t("render.tournament.round", locale, round=round_no, rounds=rounds or "?"))
    state_w = text_width(state, SMALL)
    draw_text(draw, (WIDTH - PAD, 12), state, SMALL, anchor="ra", fill=MUTED)
    draw_text(draw, (PAD, 10), ellipsize(title, WIDTH - 3 * PAD - state_w, TITLE, True),
              TITLE, True, fill=TEXT)
    # Columns from the right: games, SB, Buchholz, score; the name takes what is left.
    cols = [("games", 40), ("sb", 58), ("bh", 58), ("score", 52)] if tie_breaks else \
        [("games", 40), ("score", 52)]
    x = WIDTH - PAD
    right: dict[str, float] = {}
    for key, width in cols:
        right[key] = x
        x -= width
    name_right = x - 8
    rank_w = 34
    y = HEAD - 8
    header = {"score": t("render.tournament.score", locale),
              "bh": t("render.tournament.buchholz_short", locale),
              "sb": t("render.tournament.sb_short", locale),
              "games": t("render.tournament.games_short", locale)}
    draw_text(draw, (PAD, y), "#", SMALL, True, fill=MUTED)
    draw_text(draw, (PAD + rank_w, y), t("render.tournament.player", locale), SMALL, True,
              fill=MUTED)
    for key, _ in cols:
        draw_text(draw, (right[key], y), header[key], SMALL, True, anchor="ra", fill=MUTED)
    y += ROW
    for index, line in enumerate(shown):
        if index % 2 == 0:
            Decor(img).rectangle((PAD - 6, y - 3, WIDTH - PAD + 6, y + ROW - 3), fill=STRIPE)
        colour = OUT if line.dropped else (GOLD if line.rank == 1 else TEXT)
        draw_text(draw, (PAD, y), str(line.rank), SIZE, line.rank == 1, fill=colour)
        name = line.name + (" ✕" if line.dropped else "")
        draw_text(draw, (PAD + rank_w, y),
                  ellipsize(name, name_right - PAD - rank_w, SIZE), SIZE, fill=colour)
        values = {"score": number(line.score), "bh": f"{line.buchholz:g}",
                  "sb": f"{line.sonneborn_berger:g}", "games": str(line.games)}
        for key, _ in cols:
            draw_text(draw, (right[key], y), values[key], SIZE, key == "score", anchor="ra",
                      fill=colour)
        y += ROW
    if more:
        draw_text(draw, (PAD + rank_w, y), t("render.tournament.more", locale, count=more),
                  SMALL, fill=MUTED)
    return to_png(img)
