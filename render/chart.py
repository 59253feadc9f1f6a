"""A small picture of ratings over time: one line per game, the latest value labelled.

Each line also has a marker shape of its own, on its latest point and before its name in the
legend, so the lines are told apart without their colours."""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from bot.i18n import t

from .fonts import draw_text, ellipsize, text_width
from .legible import Decor
from .png import to_png

WIDTH, PLOT_H = 480, 150
PAD_L, PAD_R, PAD_T = 14, 14, 34
LEGEND_ROW = 24
BACK, GRID, TEXT, MUTED = (43, 45, 49), (64, 67, 73), (235, 236, 240), (170, 174, 182)
LINES = [(88, 166, 255), (255, 177, 66), (87, 242, 135), (245, 110, 180)]
# Text sizes (px): at the phone's scale of this picture (0.83) capitals stay 8 px or taller.
SMALL, TITLE = 14, 16
MARKER = 6  # half the size of a marker


def _marker(draw: ImageDraw.ImageDraw, index: int, x: float, y: float,
            colour: tuple[int, int, int]) -> None:
    """The shape of line ``index``: a disc, a square, a triangle or a diamond."""
    r = MARKER
    shape = index % len(LINES)
    if shape == 0:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    elif shape == 1:
        draw.rectangle((x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=colour)
    elif shape == 2:
        draw.polygon([(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)], fill=colour)
    else:
        draw.polygon([(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)],
                     fill=colour)


def _legend_rows(labels: Sequence[str]) -> list[list[int]]:
    """Indices of the legend's entries row by row, as many to a row as fit."""
    rows: list[list[int]] = [[]]
    x = PAD_L
    for index, label in enumerate(labels):
        width = 2 * MARKER + 6 + text_width(label, SMALL) + 16
        if rows[-1] and x + width > WIDTH - PAD_R:
            rows.append([])
            x = PAD_L
        rows[-1].append(index)
        x += width
    return rows


def rating_chart(series: Sequence[tuple[str, Sequence[float]]], locale: str = "en") -> bytes:
    """``series``: (game name, ratings after each rated game, oldest first) per game."""
    shown = [(i, name, points) for i, (name, points) in enumerate(series) if points]
    labels = [ellipsize(f"{name} {points[-1]:.1f}", WIDTH - 2 * PAD_L - 2 * MARKER - 6, SMALL)
              for _, name, points in shown]
    rows = _legend_rows(labels)
    height = PAD_T + PLOT_H + 12 + LEGEND_ROW * len(rows)
    img = Image.new("RGB", (WIDTH, height), BACK)
    draw = ImageDraw.Draw(img)
    values = [v for _, _, points in shown for v in points]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5
    inner_w = WIDTH - PAD_L - PAD_R
    for i in range(4):
        y = PAD_T + PLOT_H * i / 3
        Decor(img).line([(PAD_L, y), (WIDTH - PAD_R, y)], fill=GRID, width=1)
    # The highest value, top right, says what the top line of the grid stands for.
    top = f"{high:.1f}"
    draw_text(draw, (WIDTH - PAD_R, 10), top, SMALL, anchor="ra", fill=MUTED)
    room = WIDTH - 2 * PAD_L - text_width(top, SMALL) - 16
    draw_text(draw, (PAD_L, 8), ellipsize(t("render.chart.title", locale), room, TITLE, True),
              TITLE, True, fill=TEXT)
    for index, _, points in shown:
        colour = LINES[index % len(LINES)]
        step = inner_w / max(1, len(points) - 1)
        xy = [(PAD_L + step * i if len(points) > 1 else PAD_L + inner_w / 2,
               PAD_T + PLOT_H * (1 - (v - low) / (high - low))) for i, v in enumerate(points)]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=3, joint="curve")
        _marker(draw, index, *xy[-1], colour)
    for row_number, row in enumerate(rows):
        x, y = PAD_L, PAD_T + PLOT_H + 12 + LEGEND_ROW * row_number + LEGEND_ROW / 2
        for entry in row:
            index = shown[entry][0]
            colour = LINES[index % len(LINES)]
            _marker(draw, index, x + MARKER, y, colour)
            x += 2 * MARKER + 6
            draw_text(draw, (x, y), labels[entry], SMALL, anchor="lm", fill=colour)
            x += text_width(labels[entry], SMALL) + 16
    return to_png(img)
