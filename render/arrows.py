"""Arrows on a board picture: the move arrows of Sensei's last turn, and a game review's two
kinds, the turn played (solid purple, 🟣) and the better turn the expert found (dashed blue,
🔵). A review draws both side by side when they share a path, so neither hides the other.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from PIL import Image, ImageDraw

ARROW_EDGE = (20, 20, 24)
#: a review's turn played and the better turn (the viewer's legend names them 🟣 and 🔵)
REVIEW_PLAYED = (170, 60, 235)
REVIEW_BETTER = (0, 150, 255)

Point = tuple[float, float]


def arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, colour: tuple, width: int,
          dashed: bool, trim_start: float, trim_end: float) -> None:
    """An arrow with a dark rim from ``start`` to ``end``, its ends cut back by the trims;
    ``colour`` may carry an alpha (draw on an RGBA overlay, then paste it)."""
    sx, sy = start
    ex, ey = end
    length = math.hypot(ex - sx, ey - sy)
    if length <= trim_start + trim_end + 4:
        return
    ux, uy = (ex - sx) / length, (ey - sy) / length
    sx, sy = sx + ux * trim_start, sy + uy * trim_start
    ex, ey = ex - ux * trim_end, ey - uy * trim_end
    head = width * 2.6
    px, py = -uy, ux
    shaft_end = (ex - ux * head * 0.9, ey - uy * head * 0.9)
    tip = [(ex, ey), (ex - ux * head + px * head * 0.62, ey - uy * head + py * head * 0.62),
           (ex - ux * head - px * head * 0.62, ey - uy * head - py * head * 0.62)]
    segments = []
    if dashed:
        dash, gap = width * 2.2, width * 1.4
        total = math.hypot(shaft_end[0] - sx, shaft_end[1] - sy)
        pos = 0.0
        while pos < total:
            stop = min(pos + dash, total)
            segments.append(((sx + ux * pos, sy + uy * pos), (sx + ux * stop, sy + uy * stop)))
            pos = stop + gap
    else:
        segments.append(((sx, sy), shaft_end))
    edge = ARROW_EDGE + colour[3:]
    # The overlay is drawn without blending, so the coloured core simply overwrites the rim.
    rim = 2  # the dark rim also closes each dash's ends
    for (ax, ay), (bx, by) in segments:
        draw.line([(ax - ux * rim, ay - uy * rim), (bx + ux * rim, by + uy * rim)], fill=edge,
                  width=width + 2 * rim)
    for a, b in segments:
        draw.line([a, b], fill=colour, width=width)
    draw.polygon(tip, fill=colour, outline=edge, width=2)


def review_overlay(size: tuple[int, int], review: Any, centre: Callable[[Any], Point | None],
                   *, width: int, trim: Callable[[dict[str, Any], bool], tuple[float, float]]
                   ) -> Image.Image | None:
    """A transparent layer with a review's arrows: ``review`` is ``{"played": [moves],
    "better": [moves]}``, each move ``{"from", "to"}``; ``centre`` gives a square's pixel
    (None: off the board), ``trim(move, is_start_on_piece)`` how much to cut off each end.
    None when there is nothing to draw."""
    if not isinstance(review, dict):
        return None
    played = _moves(review.get("played"))
    better = _moves(review.get("better"))
    if not played and not better:
        return None
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    played_paths = {(m["from"], m["to"]) for m in played}
    better_paths = {(m["from"], m["to"]) for m in better}
    # Better first, so the turn played lies on top where they cross.
    for moves, colour, dashed, side, others in ((better, REVIEW_BETTER, True, -1, played_paths),
                                               (played, REVIEW_PLAYED, False, 1, better_paths)):
        for move in moves:
            a, b = centre(move["from"]), centre(move["to"])
            if a is None or b is None:
                continue
            # The same path in both: each arrow moves half a width aside.
            shift = side * width * 0.75 if (move["from"], move["to"]) in others else 0.0
            length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
            nx, ny = -(b[1] - a[1]) / length * shift, (b[0] - a[0]) / length * shift
            start_trim, end_trim = trim(move, dashed)
            arrow(draw, (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), colour + (215,), width,
                  dashed, start_trim, end_trim)
    return layer


def paste_layer(img: Image.Image, layer: Image.Image | None, at: tuple[int, int] = (0, 0)) -> None:
    """Paste only the drawn part of ``layer`` (a small alpha blend)."""
    if layer is None:
        return
    box = layer.getbbox()
    if box:
        part = layer.crop(box)
        img.paste(part, (at[0] + box[0], at[1] + box[1]), part)


def _moves(moves: Any) -> Sequence[dict[str, Any]]:
    if not isinstance(moves, list):
        return []
    return [m for m in moves if isinstance(m, dict) and isinstance(m.get("from"), str)
            and isinstance(m.get("to"), str)]
