"""Narabi table picture: the ring of stones around an oval, whose turn it is, the switches used
and the last switch. Input is the PUBLIC view only, so nothing secret can reach the picture.

Every word comes from the catalogs through ``bot.i18n.t`` in the table's locale.

Cards sit on one oval, seat after seat clockwise, so the picture reads exactly like the ring the
players must order. The picture is portrait and its text large enough to read on a phone (see
``render.legible``): the switch count sits in the middle of the ring, the outcome of a finished
game and the switch track under it. Everything that depends only on the seat count or on a
stone's face is drawn once and cached; a call pastes cached pieces and draws a few highlights.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import has, t

from .fonts import draw_text, font, seat_label, text_width
from .legible import Decor
from .png import to_png

W, H = 800, 1000
CX, CY = 400, 441
RX, RY = 344, 373
CARD_W, CARD_H = 80, 106
RADIUS = 14
GAP_SLOTS = 0.6  # empty space between two seats, in card slots

BG = (54, 63, 77)
RING = (74, 85, 102)
PANEL = (40, 47, 58)
TEXT = (236, 239, 244)
MUTED = (165, 175, 190)
WHITE_FACE, WHITE_EDGE, WHITE_INK = (246, 242, 231), (110, 100, 80), (28, 28, 32)
DARK_FACE, DARK_EDGE, DARK_INK = (22, 23, 28), (160, 168, 182), (246, 242, 231)
ACTIVE = (255, 202, 40)
ACTIVE_INK = (30, 26, 10)
SWITCH = (64, 200, 255)
WIN = (102, 214, 120)
LOSS = (255, 110, 100)
#: a private step's chosen card (a frame inside the mover's glow: dark on its yellow) and the
#: cards it may take (a frame on the table: light on its dark)
CHOSEN = (120, 16, 100)
TARGET = (255, 120, 215)

# Text sizes (px): at the phone's scale of this picture (0.5) capitals stay 8 px or taller.
SMALL, NAME, WORD, COUNTER = 23, 24, 30, 56
LABEL_W = 112  # widest one-line condition label; a longer one with a space takes two lines
BAND_Y = 868  # outcome and switch track, under the ring
TRACK_Y, TRACK_CELL = 952, 26
_CENTRE_PANEL = (CX - 130, CY - 90, CX + 130, CY + 90)


def _word(group: str, ident: str, locale: str, default: str) -> str:
    """Catalog text for an id from the game data (condition, reason, rating); ``default`` for an
    id the catalog does not know yet, so new deck data never shows a raw key."""
    key = f"render.narabi.{group}.{ident}"
    return t(key, locale) if has(key) else default


# ----------------------------------------------------------------------------- geometry

@lru_cache(maxsize=1)
def _oval_table() -> tuple[list[tuple[float, float]], list[float]]:
    """Points around the oval from the top, clockwise, with their cumulative arc length."""
    steps = 2000
    points, lengths, total = [], [], 0.0
    prev = None
    for i in range(steps + 1):
        t = -math.pi / 2 + 2 * math.pi * i / steps
        point = (CX + RX * math.cos(t), CY + RY * math.sin(t))
        if prev is not None:
            total += math.dist(prev, point)
        points.append(point)
        lengths.append(total)
        prev = point
    return points, lengths


def _at_arc(arc: float) -> tuple[float, float]:
    points, lengths = _oval_table()
    arc %= lengths[-1]
    lo, hi = 0, len(lengths) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if lengths[mid] < arc:
            lo = mid + 1
        else:
            hi = mid
    return points[lo]


@lru_cache(maxsize=16)
def _layout(seats: int, per_seat: int) -> tuple[Any, Any, Any]:
    """Card centres per seat (ring order), and each seat's middle point on the oval with the
    inward direction there (where its name goes)."""
    total = _oval_table()[1][-1]
    slot = total / (seats * (per_seat + GAP_SLOTS))
    centres, anchors, inward = [], [], []
    for seat in range(seats):
        middle = seat * (per_seat + GAP_SLOTS) * slot
        row = []
        for k in range(per_seat):
            x, y = _at_arc(middle + (k - (per_seat - 1) / 2) * slot)
            row.append((round(x), round(y)))
        centres.append(tuple(row))
        x, y = _at_arc(middle)
        anchors.append((x, y))
        # Inward normal of the ellipse at that point.
        nx, ny = -(x - CX) / RX ** 2, -(y - CY) / RY ** 2
        norm = math.hypot(nx, ny)
        inward.append((nx / norm, ny / norm))
    return tuple(centres), tuple(anchors), tuple(inward)


# ----------------------------------------------------------------------------- static layers

@lru_cache(maxsize=1)
def _base() -> Image.Image:
    img = Image.new("RGB", (W, H), BG)
    Decor(img).ellipse((CX - RX, CY - RY, CX + RX, CY + RY), outline=RING, width=10)
    return img


def _label_lines(label: str) -> list[str]:
    """A condition label on one line, or on two when it is too wide and has a space."""
    if text_width(label, SMALL) <= LABEL_W or " " not in label:
        return [label]
    first, _, rest = label.partition(" ")
    return [first, rest]


@lru_cache(maxsize=64)
def _card(number: int | None, colour: str, label: str | None) -> Image.Image:
    """A stone card, with its condition under the number once conditions are shown. A long
    condition label is wider than the card, so the sprite is as wide as what it holds."""
    face, edge, ink = ((WHITE_FACE, WHITE_EDGE, WHITE_INK) if colour == "white"
                       else (DARK_FACE, DARK_EDGE, DARK_INK))
    lines = _label_lines(label) if label else []
    tag_w = max((text_width(line, SMALL) for line in lines), default=0) + 14
    width = max(CARD_W, math.ceil(tag_w))
    img = Image.new("RGBA", (width, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    left = (width - CARD_W) // 2
    draw.rounded_rectangle((left, 0, left + CARD_W - 1, CARD_H - 1), RADIUS, fill=face,
                           outline=edge, width=3)
    middle = CARD_H / 2 if not lines else 26 if len(lines) == 2 else 32
    size = 58 if not lines else 38 if len(lines) == 2 else 44
    if number is None:
        # A blank is a stone with no number: an empty ring tells it apart from a missing card.
        r = size * 0.3
        draw.ellipse((width / 2 - r, middle - r, width / 2 + r, middle + r), outline=edge,
                     width=4)
    else:
        draw.text((width / 2, middle), str(number), font=font(size, True), fill=ink,
                  anchor="mm")
    if lines:
        top = CARD_H - 8 - 27 * len(lines)
        Decor(img).rounded_rectangle(((width - tag_w) / 2, top, (width + tag_w) / 2,
                                      CARD_H - 6), 7, fill=ACTIVE)
        for i, line in enumerate(lines):
            draw_text(draw, (width / 2, top + 15 + 27 * i), line, SMALL, anchor="mm",
                      fill=ACTIVE_INK)
    return img


@lru_cache(maxsize=256)
def _pill(name: str | None, seat: int, active: bool, locale: str = "en") -> Image.Image:
    """A seat's number and name (None: nobody's name is known); the seat to move has it on
    the turn colour."""
    unnamed = "render.narabi.seat" if name is None else "render.narabi.player"
    text = seat_label(seat + 1, name or "", 200, NAME, True,
                      t(unnamed, locale, number=seat + 1))
    width = int(text_width(text, NAME, True)) + 28
    img = Image.new("RGBA", (width, 42), (0, 0, 0, 0))
    (ImageDraw.Draw(img) if active else Decor(img)).rounded_rectangle(
        (0, 0, width - 1, 41), 21, fill=ACTIVE if active else PANEL,
        outline=ACTIVE if active else RING, width=2)
    draw_text(ImageDraw.Draw(img), (width / 2, 21), text, NAME, True, anchor="mm",
              fill=ACTIVE_INK if active else TEXT)
    return img


# ----------------------------------------------------------------------------- per call

def _arrow_head(draw: ImageDraw.ImageDraw, tip: tuple[float, float], tail: tuple[float, float]):
    angle = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    size = 26
    left = (tip[0] - size * math.cos(angle - 0.45), tip[1] - size * math.sin(angle - 0.45))
    right = (tip[0] - size * math.cos(angle + 0.45), tip[1] - size * math.sin(angle + 0.45))
    draw.polygon([tip, left, right], fill=SWITCH)


Box = tuple[float, float, float, float]
#: how far the switch arrow may bow out of the straight line, tried in this order
_BENDS = (0, 60, -60, 120, -120, 180, -180, 240, -240, 320, -320)


def _hits(path: list[tuple[float, float]], box: Box, margin: float = 8) -> bool:
    x0, y0, x1, y1 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    for (ax, ay), (bx, by) in zip(path, path[1:]):
        # Every point tried below lies within the segment's own bounds: a segment whose
        # bounds miss the box cannot hit it (most of them; the arrow's layout was a tenth of
        # the test suite's drawing time without this).
        if max(ax, bx) < x0 or min(ax, bx) > x1 or max(ay, by) < y0 or min(ay, by) > y1:
            continue
        for i in range(9):
            x, y = ax + (bx - ax) * i / 8, ay + (by - ay) * i / 8
            if x0 <= x <= x1 and y0 <= y <= y1:
                return True
    return False


def switch_path(view: dict[str, Any], where: dict[int, tuple[int, int]],
                labels: list[Box]) -> list[tuple[float, float]]:
    """The last switch's arrow, card edge to card edge. A straight line across the ring can
    run under a seat's name or the switch count (on a phone the name then looks struck
    through), so it bows, as little as it can, around names first, then cards, then the count."""
    last = view.get("last_switch")
    if not last or last.get("card") not in where or last.get("target") not in where:
        return []
    a, b = where[last["card"]], where[last["target"]]
    cards = [(x - CARD_W / 2, y - CARD_H / 2, x + CARD_W / 2, y + CARD_H / 2)
             for x, y in where.values() if (x, y) not in (a, b)]
    length = math.dist(a, b) or 1.0
    normal = (-(b[1] - a[1]) / length, (b[0] - a[0]) / length)
    best: tuple[int, list[tuple[float, float]]] | None = None
    for bend in _BENDS:
        # A quadratic curve whose middle lies ``bend`` pixels off the straight line.
        ctrl = ((a[0] + b[0]) / 2 + normal[0] * 2 * bend, (a[1] + b[1]) / 2 + normal[1] * 2 * bend)
        start, end = _edge_point(a, ctrl), _edge_point(b, ctrl)
        path = [((1 - u) ** 2 * start[0] + 2 * (1 - u) * u * ctrl[0] + u * u * end[0],
                 (1 - u) ** 2 * start[1] + 2 * (1 - u) * u * ctrl[1] + u * u * end[1])
                for u in (i / 32 for i in range(33))]
        cost = (100 * sum(_hits(path, box) for box in labels)
                + 10 * sum(_hits(path, box, 0) for box in cards)
                + _hits(path, _CENTRE_PANEL, 0))
        if best is None or cost < best[0]:
            best = (cost, path)
        if cost == 0:
            break
    return best[1] if best else []


def _edge_point(centre: tuple[int, int], towards: tuple[int, int]) -> tuple[float, float]:
    """Where the segment from a card's centre towards a point leaves the card."""
    dx, dy = towards[0] - centre[0], towards[1] - centre[1]
    if dx == dy == 0:
        return centre
    scale = min((CARD_W / 2 + 8) / abs(dx) if dx else math.inf,
                (CARD_H / 2 + 8) / abs(dy) if dy else math.inf)
    return centre[0] + dx * scale, centre[1] + dy * scale


def _outcome(view: dict[str, Any], locale: str) -> tuple[tuple[int, ...], str, str] | None:
    """Colour, reason and rating words of a finished game."""
    result = view.get("result")
    if not (view.get("finished") and result):
        return None
    reason = result.get("reason", "")
    rating = str(result.get("details", {}).get("rating", ""))
    return (WIN if result.get("winners") else LOSS,
            _word("reason", reason, locale, reason.upper()),
            _word("rating", rating, locale, rating.replace("_", " ").upper()))


def _centre_text(img: Image.Image, view: dict[str, Any], locale: str) -> None:
    """The switch count in the middle of the ring (a backing panel keeps it readable over the
    last switch's arrow), with the mode, or the rating once the game is over."""
    draw = ImageDraw.Draw(img)
    Decor(img).rounded_rectangle(_CENTRE_PANEL, 28, fill=PANEL)
    turn, limit = view.get("turn", 0), view.get("max_turns", 24)
    draw_text(draw, (CX, CY - 56), t("render.narabi.switches", locale), SMALL, True,
              anchor="mm", fill=MUTED)
    draw.text((CX, CY + 2), f"{turn} / {limit}", font=font(COUNTER, True), fill=TEXT,
              anchor="mm")
    outcome = _outcome(view, locale)
    if outcome:
        draw_text(draw, (CX, CY + 58), outcome[2], WORD, True, anchor="mm", fill=outcome[0])
    elif view.get("advanced"):
        draw_text(draw, (CX, CY + 58), t("render.narabi.advanced", locale), SMALL, True,
                  anchor="mm", fill=MUTED)


def _band(img: Image.Image, view: dict[str, Any], locale: str) -> None:
    """Under the ring: how a finished game ended, and the track of switches used."""
    draw = ImageDraw.Draw(img)
    outcome = _outcome(view, locale)
    if outcome:
        Decor(img).rounded_rectangle((20, BAND_Y, W - 20, BAND_Y + 72), 20, fill=PANEL)
        best = view.get("fewest_switches")
        draw_text(draw, (CX, BAND_Y + (22 if isinstance(best, int) else 36)), outcome[1], WORD,
                  True, anchor="mm", fill=outcome[0])
        if isinstance(best, int):
            draw_text(draw, (CX, BAND_Y + 54), t("render.narabi.best_possible", locale,
                                                 best=best), SMALL, anchor="mm", fill=MUTED)
    limit = int(view.get("max_turns", 24))
    used = min(int(view.get("turn", 0)), limit)
    fill = outcome[0] if outcome else ACTIVE
    step = (W - 80) / limit
    for i in range(limit):
        x = 40 + i * step
        draw.rounded_rectangle((x + 2, TRACK_Y, x + step - 2, TRACK_Y + TRACK_CELL), 6,
                               fill=fill if i < used else PANEL,
                               outline=fill if i < used else MUTED, width=3)


def _draw_choice(draw: ImageDraw.ImageDraw, choice: dict[str, Any],
                 where: dict[int, tuple[int, int]]) -> None:
    """A private step's card and the cards it may be switched with, each framed around the
    card, never over it."""
    frames = [(choice.get("card"), CHOSEN, 2)] + [(card, TARGET, 7)
                                                   for card in choice.get("targets") or ()]
    for card, colour, gap in frames:
        if card in where:
            x, y = where[card]
            out = gap + 4
            draw.rounded_rectangle((x - CARD_W / 2 - out, y - CARD_H / 2 - out,
                                    x + CARD_W / 2 + out, y + CARD_H / 2 + out),
                                   RADIUS + out, outline=colour, width=4)


def render(view: dict[str, Any], names: list[str], locale: str = "en") -> bytes:
    """PNG of the public ``view`` with the players' display names, words in ``locale``."""
    img = _compose(view, names, locale)
    # A fixed palette makes the PNG a quarter of the bytes to compress, which is most of the time.
    return to_png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))


def card_places(view: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """Each card's centre in the picture."""
    rows = view["rows"]
    centres = _layout(int(view["seats"]), max(len(r) for r in rows))[0]
    return {card["id"]: centres[s][k] for s, row in enumerate(rows) for k, card in enumerate(row)}


def _pills(view: dict[str, Any], names: list[str], locale: str) -> list[tuple[Image.Image, tuple[int, int]]]:
    """Each seat's name pill and where it goes."""
    seats = int(view["seats"])
    _, anchors, inward = _layout(seats, max(len(r) for r in view["rows"]))
    to_move = None if view.get("finished") else view.get("to_move")
    out = []
    for seat in range(seats):
        pill = _pill(names[seat] if seat < len(names) else None, seat, seat == to_move, locale)
        out.append((pill, _layout_pill(anchors[seat], inward[seat], pill.size)))
    return out


def label_boxes(view: dict[str, Any], names: list[str], locale: str = "en") -> list[Box]:
    """Where each seat's name is written."""
    return [(x, y, x + p.width, y + p.height) for p, (x, y) in _pills(view, names, locale)]


def _compose(view: dict[str, Any], names: list[str], locale: str = "en") -> Image.Image:
    seats = int(view["seats"])
    rows = view["rows"]
    centres = _layout(seats, max(len(r) for r in rows))[0]
    finished = bool(view.get("finished"))
    to_move = None if finished else view.get("to_move")

    img = _base().copy()
    draw = ImageDraw.Draw(img)

    where = card_places(view)
    pills = _pills(view, names, locale)
    path = switch_path(view, where, [(x, y, x + p.width, y + p.height) for p, (x, y) in pills])
    if path:
        # After the switch each card sits where the other was: an arrow both ways.
        draw.line(path, fill=SWITCH, width=6, joint="curve")
        _arrow_head(draw, path[0], path[min(3, len(path) - 1)])
        _arrow_head(draw, path[-1], path[max(-4, -len(path))])

    _centre_text(img, view, locale)

    for seat, row in enumerate(rows):
        for k, card in enumerate(row):
            x, y = centres[seat][k]
            if seat == to_move:
                draw.rounded_rectangle((x - CARD_W / 2 - 9, y - CARD_H / 2 - 9,
                                        x + CARD_W / 2 + 8, y + CARD_H / 2 + 8),
                                       RADIUS + 8, fill=ACTIVE)
            label = None
            # Conditions show once the game is over (a replay of it says so with "reveal").
            if (finished or view.get("reveal")) and card.get("condition"):
                label = _word("condition", str(card["condition"]), locale,
                              str(card["condition"]))
            face = _card(card.get("number"), card.get("colour", "white"), label)
            img.paste(face, (x - face.width // 2, y - CARD_H // 2), face)

    _draw_choice(draw, view.get("choice") or {}, where)
    for pill, (x, y) in pills:
        img.paste(pill, (x, y), pill)
    _band(img, view, locale)
    return img


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A palette covering every colour the picture uses, anti-aliased edges included.

    The sample texts below only collect ink colours and are never shown, so they stay literal."""
    sample = _base().copy()
    draw = ImageDraw.Draw(sample)
    x = 10
    for colour in ("white", "dark"):
        for number in (None, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9):
            for label in (None, "left 2"):
                face = _card(number, colour, label)
                for glow in (None, ACTIVE):
                    if glow:
                        draw.rounded_rectangle((x - 9, 300, x + CARD_W + 8, 300 + CARD_H + 17),
                                               RADIUS + 8, fill=glow)
                    sample.paste(face, (x, 308 if glow else 150), face)
                x = (x + CARD_W + 12) % (W - CARD_W)
    for i, active in enumerate((False, True)):
        pill = _pill("Sample Player Name", 0, active)
        sample.paste(pill, (40, 500 + 60 * i), pill)
    for i, colour in enumerate((TEXT, MUTED, WIN, LOSS, SWITCH)):
        draw.text((40, 640 + 50 * i), "SOLVED 12 / 24", font=font(WORD, True), fill=colour)
    draw.line([(100, 940), (700, 980)], fill=SWITCH, width=6)
    for i, colour in enumerate((CHOSEN, TARGET)):
        draw.rounded_rectangle((500 + 90 * i, 500, 580 + 90 * i, 620), RADIUS, outline=colour,
                               width=4)
    return sample.quantize(256, method=Image.Quantize.FASTOCTREE)


def _layout_pill(anchor: tuple[float, float], inward: tuple[float, float],
                 size: tuple[int, int]) -> tuple[int, int]:
    """Top-left corner of a seat's name pill, just inside the oval from its middle card slot."""
    nx, ny = inward
    card_extent = abs(nx) * CARD_W / 2 + abs(ny) * CARD_H / 2
    pill_extent = abs(nx) * size[0] / 2 + abs(ny) * size[1] / 2
    d = card_extent + pill_extent + 14
    x = anchor[0] + nx * d - size[0] / 2
    y = anchor[1] + ny * d - size[1] / 2
    left, top, right, bottom = _CENTRE_PANEL
    if x < right + 8 and x + size[0] > left - 8 and y < bottom + 8 and y + size[1] > top - 8:
        # A long name would run into the switch count: it moves up or down, out of its way.
        y = top - 8 - size[1] if y + size[1] / 2 < CY else bottom + 8
    return int(max(4, min(W - size[0] - 4, x))), int(max(4, min(H - size[1] - 4, y)))
