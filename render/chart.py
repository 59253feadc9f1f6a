"""A small picture of ratings over time: one line per game, the latest value labelled."""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from bot.i18n import t

from .fonts import ellipsize, font
from .png import to_png

WIDTH, HEIGHT = 480, 200
PAD_L, PAD_R, PAD_T, PAD_B = 14, 14, 34, 20
BACK, GRID, TEXT, MUTED = (43, 45, 49), (64, 67, 73), (235, 236, 240), (170, 174, 182)
LINES = [(88, 166, 255), (255, 177, 66), (87, 242, 135), (235, 69, 158)]


def rating_chart(series: Sequence[tuple[str, Sequence[float]]], locale: str = "en") -> bytes:
    """``series``: (game name, ratings after each rated game, oldest first) per game."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BACK)
    draw = ImageDraw.Draw(img)
    values = [v for _, points in series for v in points]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5
    inner_w, inner_h = WIDTH - PAD_L - PAD_R, HEIGHT - PAD_T - PAD_B
    for i in range(4):
        y = PAD_T + inner_h * i / 3
        draw.line([(PAD_L, y), (WIDTH - PAD_R, y)], fill=GRID, width=1)
    draw.text((PAD_L, 8), ellipsize(t("render.chart.title", locale), WIDTH - 2 * PAD_L, 16, True),
              font=font(16, True), fill=TEXT)
    legend_x = PAD_L
    for index, (name, points) in enumerate(series):
        colour = LINES[index % len(LINES)]
        if not points:
            continue
        step = inner_w / max(1, len(points) - 1)
        xy = [(PAD_L + step * i if len(points) > 1 else PAD_L + inner_w / 2,
               PAD_T + inner_h * (1 - (v - low) / (high - low))) for i, v in enumerate(points)]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=3, joint="curve")
        x, y = xy[-1]
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=colour)
        label = f"{name} {points[-1]:.1f}"
        draw.text((legend_x, HEIGHT - PAD_B + 3), label, font=font(13), fill=colour)
        legend_x += font(13).getlength(label) + 16
    draw.text((WIDTH - PAD_R, PAD_T - 2), f"{high:.1f}", font=font(12), fill=MUTED, anchor="rb")
    return to_png(img)
