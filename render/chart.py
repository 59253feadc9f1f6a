"""A small picture of ratings over time: one line per game, the latest value labelled.

Each line also has a marker shape of its own, on its latest point and before its name in the
legend, so the lines are told apart without their colours. The first point carries the same
shape hollow, so a line's start is seen even when it is one step long. The grid's lines are
labelled with their values (left) and the first and last game with their numbers (below)."""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from bot.i18n import t

from .fonts import draw_text, ellipsize, text_width
from .legible import Decor
from .png import to_png

WIDTH, PLOT_H = 480, 150
PAD_L, PAD_R, PAD_T = 14, 14, 34
#: room left of the plot for the grid's values, and below it for the games' numbers
AXIS_W, AXIS_H = 48, 20
LEGEND_ROW = 24
BACK, GRID, TEXT, MUTED = (43, 45, 49), (64, 67, 73), (235, 236, 240), (170, 174, 182)
LINES = [(88, 166, 255), (255, 177, 66), (87, 242, 135), (245, 110, 180)]
# Text sizes (px): at the phone's scale of this picture (0.83) capitals stay 8 px or taller.
SMALL, TITLE = 14, 16
MARKER = 6  # half the size of a marker


def _marker(draw: ImageDraw.ImageDraw, index: int, x: float, y: float,
            colour: tuple[int, int, int], hollow: bool = False) -> None:
    """The shape of line ``index``: a disc, a square, a triangle or a diamond; ``hollow``
    (the first point): its outline around the background."""
    r = MARKER
    shape = index % len(LINES)
    paint = {"fill": BACK, "outline": colour, "width": 3} if hollow else {"fill": colour}
    if shape == 0:
        draw.ellipse((x - r, y - r, x + r, y + r), **paint)
    elif shape == 1:
        draw.rectangle((x - r + 1, y - r + 1, x + r - 1, y + r - 1), **paint)
    elif shape == 2:
        draw.polygon([(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)], **paint)
    else:
        draw.polygon([(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)],
                     **paint)


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


def rating_chart(series: Sequence[tuple[str, Sequence[float]]], locale: str = "en",
                 title: str = "render.chart.title") -> bytes:
    """``series``: (game name, ratings after each rated game, oldest first) per game;
    ``title``: the catalog key of the title (what a point is: a rated game, a puzzle)."""
    shown = [(i, name, points) for i, (name, points) in enumerate(series) if points]
    labels = [ellipsize(f"{name} {points[-1]:.1f}", WIDTH - 2 * PAD_L - 2 * MARKER - 6, SMALL)
              for _, name, points in shown]
    rows = _legend_rows(labels)
    height = PAD_T + PLOT_H + AXIS_H + 12 + LEGEND_ROW * len(rows)
    img = Image.new("RGB", (WIDTH, height), BACK)
    draw = ImageDraw.Draw(img)
    values = [v for _, _, points in shown for v in points]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5
    left = PAD_L + AXIS_W
    inner_w = WIDTH - left - PAD_R - MARKER
    for i in range(4):
        y = PAD_T + PLOT_H * i / 3
        Decor(img).line([(left, y), (WIDTH - PAD_R, y)], fill=GRID, width=1)
        value = high - (high - low) * i / 3
        draw_text(draw, (left - 6, y), f"{value:.1f}", SMALL, anchor="rm", fill=MUTED)
    draw_text(draw, (PAD_L, 8), ellipsize(t(title, locale), WIDTH - 2 * PAD_L, TITLE, True),
              TITLE, True, fill=TEXT)
    longest = max((len(points) for _, _, points in shown), default=0)
    x_first = left + MARKER
    axis_y = PAD_T + PLOT_H + AXIS_H / 2 + 2
    if longest:
        draw_text(draw, (x_first, axis_y), "1", SMALL, anchor="mm", fill=MUTED)
    if longest > 1:
        draw_text(draw, (x_first + inner_w, axis_y), str(longest), SMALL, anchor="mm",
                  fill=MUTED)
    for index, _, points in shown:
        colour = LINES[index % len(LINES)]
        step = inner_w / max(1, longest - 1)
        xy = [(x_first + step * i if longest > 1 else x_first + inner_w / 2,
               PAD_T + PLOT_H * (1 - (v - low) / (high - low))) for i, v in enumerate(points)]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=3, joint="curve")
            _marker(draw, index, *xy[0], colour, hollow=True)
        _marker(draw, index, *xy[-1], colour)
    for row_number, row in enumerate(rows):
        x = PAD_L
        y = PAD_T + PLOT_H + AXIS_H + 12 + LEGEND_ROW * row_number + LEGEND_ROW / 2
        for entry in row:
            index = shown[entry][0]
            colour = LINES[index % len(LINES)]
            _marker(draw, index, x + MARKER, y, colour)
            x += 2 * MARKER + 6
            draw_text(draw, (x, y), labels[entry], SMALL, anchor="lm", fill=colour)
            x += text_width(labels[entry], SMALL) + 16
    return to_png(img)
