"""Narabi table picture: the ring of stones around an oval, whose turn it is, the turn track and
the last switch. Input is the PUBLIC view only, so nothing secret can reach the picture.

Every word comes from the catalogs through ``bot.i18n.t`` in the table's locale.

Cards sit on one oval, seat after seat clockwise, so the picture reads exactly like the ring the
players must order. Everything that depends only on the seat count or on a stone's face is drawn
once and cached; a call pastes cached pieces and draws a few highlights.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import has, t

from .fonts import ellipsize, font
from .png import to_png

W, H = 1200, 860
CX, CY = 600, 392
RX, RY = 440, 282
CARD_W, CARD_H = 80, 108
RADIUS = 14
GAP_SLOTS = 0.9  # empty space between two seats, in card slots

BG = (54, 63, 77)
RING = (74, 85, 102)
PANEL = (40, 47, 58)
TEXT = (236, 239, 244)
MUTED = (165, 175, 190)
WHITE_FACE, WHITE_EDGE, WHITE_INK = (246, 242, 231), (196, 186, 160), (28, 28, 32)
DARK_FACE, DARK_EDGE, DARK_INK = (22, 23, 28), (160, 168, 182), (246, 242, 231)
ACTIVE = (255, 202, 40)
ACTIVE_INK = (30, 26, 10)
SWITCH = (64, 200, 255)
WIN = (102, 214, 120)
LOSS = (255, 110, 100)

TRACK_TOP = 780
TRACK_CELL, TRACK_GAP = 40, 6



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
    draw = ImageDraw.Draw(img)
    draw.ellipse((CX - RX, CY - RY, CX + RX, CY + RY), outline=RING, width=10)
    return img


@lru_cache(maxsize=1)
def _track() -> Image.Image:
    """The empty scoring track 0..24 as one strip."""
    cells = 25
    width = cells * TRACK_CELL + (cells - 1) * TRACK_GAP
    img = Image.new("RGBA", (width, TRACK_CELL), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    small = font(18, True)
    for i in range(cells):
        x = i * (TRACK_CELL + TRACK_GAP)
        draw.rounded_rectangle((x, 0, x + TRACK_CELL - 1, TRACK_CELL - 1), 8, fill=PANEL,
                               outline=RING, width=2)
        draw.text((x + TRACK_CELL / 2, TRACK_CELL / 2), str(i), font=small, fill=MUTED,
                  anchor="mm")
    return img


@lru_cache(maxsize=64)
def _card(number: int | None, colour: str, label: str | None) -> Image.Image:
    face, edge, ink = ((WHITE_FACE, WHITE_EDGE, WHITE_INK) if colour == "white"
                       else (DARK_FACE, DARK_EDGE, DARK_INK))
    img = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), RADIUS, fill=face, outline=edge,
                           width=3)
    middle = CARD_H / 2 - (10 if label else 0)
    if number is None:
        # A blank is a stone with no number: an empty ring tells it apart from a missing card.
        r = 16
        draw.ellipse((CARD_W / 2 - r, middle - r, CARD_W / 2 + r, middle + r), outline=edge,
                     width=3)
    else:
        draw.text((CARD_W / 2, middle), str(number), font=font(62, True), fill=ink, anchor="mm")
    if label:
        draw.rounded_rectangle((5, CARD_H - 28, CARD_W - 6, CARD_H - 6), 6, fill=ACTIVE)
        draw.text((CARD_W / 2, CARD_H - 17), label, font=_fit_font(label, CARD_W - 14, 16),
                  fill=ACTIVE_INK, anchor="mm")
    return img


def _fit_font(text: str, width: int, size: int):
    while size > 10 and font(size, True).getlength(text) > width:
        size -= 1
    return font(size, True)


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(font(26, True).getmask("\U0010fffd"))


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    return ch.isspace() or bytes(font(26, True).getmask(ch)) != _missing_glyph()


def _printable(name: str, seat: int, locale: str) -> str:
    # The bundled font has no emoji or CJK; dropping them beats drawing empty boxes.
    kept = "".join(ch for ch in name if _has_glyph(ch))
    return " ".join(kept.split()) or t("render.narabi.player", locale, number=seat + 1)


@lru_cache(maxsize=256)
def _pill(name: str, seat: int, active: bool, locale: str = "en") -> Image.Image:
    size = 26
    text = ellipsize(_printable(name, seat, locale), 210, size, True)
    face = font(size, True)
    width = int(face.getlength(text)) + 30
    img = Image.new("RGBA", (width, 44), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, width - 1, 43), 22, fill=ACTIVE if active else PANEL,
                           outline=ACTIVE if active else RING, width=2)
    draw.text((width / 2, 22), text, font=face, fill=ACTIVE_INK if active else TEXT, anchor="mm")
    return img


# ----------------------------------------------------------------------------- per call

def _arrow_head(draw: ImageDraw.ImageDraw, tip: tuple[float, float], tail: tuple[float, float]):
    angle = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    size = 22
    left = (tip[0] - size * math.cos(angle - 0.45), tip[1] - size * math.sin(angle - 0.45))
    right = (tip[0] - size * math.cos(angle + 0.45), tip[1] - size * math.sin(angle + 0.45))
    draw.polygon([tip, left, right], fill=SWITCH)


def _edge_point(centre: tuple[int, int], towards: tuple[int, int]) -> tuple[float, float]:
    """Where the segment from a card's centre towards a point leaves the card."""
    dx, dy = towards[0] - centre[0], towards[1] - centre[1]
    if dx == dy == 0:
        return centre
    scale = min((CARD_W / 2 + 8) / abs(dx) if dx else math.inf,
                (CARD_H / 2 + 8) / abs(dy) if dy else math.inf)
    return centre[0] + dx * scale, centre[1] + dy * scale


def _centre_text(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str) -> None:
    turn, limit = view.get("turn", 0), view.get("max_turns", 24)
    result = view.get("result")
    # A backing panel keeps the numbers readable over the last switch's arrow.
    if view.get("finished") and result:
        draw.rounded_rectangle((CX - 190, CY - 110, CX + 190, CY + 130), 28, fill=PANEL)
        reason = result.get("reason", "")
        won = bool(result.get("winners"))
        colour = WIN if won else LOSS
        # Widths cap what a translation may take; every English word fits as before.
        word = _word("reason", reason, locale, reason.upper())
        draw.text((CX, CY - 70), word, font=_fit_font(word, 440, 40), fill=colour, anchor="mm")
        draw.text((CX, CY), f"{turn} / {limit}", font=font(64, True), fill=TEXT, anchor="mm")
        rating = str(result.get("details", {}).get("rating", ""))
        rating = _word("rating", rating, locale, rating.replace("_", " ").upper())
        draw.text((CX, CY + 64), rating, font=_fit_font(rating, 360, 34), fill=colour,
                  anchor="mm")
        best = view.get("fewest_switches")
        if isinstance(best, int):
            text = t("render.narabi.best_possible", locale, best=best)
            draw.text((CX, CY + 108), text, font=_fit_font(text, 360, 24), fill=MUTED,
                      anchor="mm")
        return
    draw.rounded_rectangle((CX - 170, CY - 92, CX + 170, CY + 92), 28, fill=PANEL)
    text = t("render.narabi.switches", locale)
    draw.text((CX, CY - 58), text, font=_fit_font(text, 320, 26), fill=MUTED, anchor="mm")
    draw.text((CX, CY + 4), f"{turn} / {limit}", font=font(72, True), fill=TEXT, anchor="mm")
    if view.get("advanced"):
        text = t("render.narabi.advanced", locale)
        draw.text((CX, CY + 66), text, font=_fit_font(text, 320, 22), fill=MUTED, anchor="mm")


def render(view: dict[str, Any], names: list[str], locale: str = "en") -> bytes:
    """PNG of the public ``view`` with the players' display names, words in ``locale``."""
    seats = int(view["seats"])
    rows = view["rows"]
    per_seat = max(len(r) for r in rows)
    centres, anchors, inward = _layout(seats, per_seat)
    finished = bool(view.get("finished"))
    to_move = None if finished else view.get("to_move")

    img = _base().copy()
    draw = ImageDraw.Draw(img)

    where = {card["id"]: centres[s][k] for s, row in enumerate(rows) for k, card in enumerate(row)}
    last = view.get("last_switch")
    moved: list[tuple[int, int]] = []
    if last and last.get("card") in where and last.get("target") in where:
        # After the switch each card sits where the other was: mark both, arrow both ways.
        a, b = where[last["card"]], where[last["target"]]
        moved = [a, b]
        start, end = _edge_point(a, b), _edge_point(b, a)
        draw.line([start, end], fill=SWITCH, width=6)
        _arrow_head(draw, start, end)
        _arrow_head(draw, end, start)

    _centre_text(draw, view, locale)

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
            img.paste(face, (x - CARD_W // 2, y - CARD_H // 2), face)
    for x, y in moved:
        draw.rounded_rectangle((x - CARD_W / 2 - 4, y - CARD_H / 2 - 4,
                                x + CARD_W / 2 + 3, y + CARD_H / 2 + 3),
                               RADIUS + 4, outline=SWITCH, width=6)

    for seat in range(seats):
        name = (names[seat] if seat < len(names)
                else t("render.narabi.seat", locale, number=seat + 1))
        pill = _pill(name, seat, seat == to_move, locale)
        x, y = _layout_pill(anchors[seat], inward[seat], pill.size)
        img.paste(pill, (x, y), pill)

    track = _track()
    tx = (W - track.width) // 2
    img.paste(track, (tx, TRACK_TOP), track)
    turn = min(int(view.get("turn", 0)), 24)
    cx = tx + turn * (TRACK_CELL + TRACK_GAP)
    marker = WIN if finished and view.get("result", {}).get("winners") else (
        LOSS if finished else ACTIVE)
    draw.rounded_rectangle((cx - 4, TRACK_TOP - 4, cx + TRACK_CELL + 3, TRACK_TOP + TRACK_CELL + 3),
                           10, fill=marker)
    draw.text((cx + TRACK_CELL / 2, TRACK_TOP + TRACK_CELL / 2), str(turn), font=font(22, True),
              fill=ACTIVE_INK, anchor="mm")
    # A fixed palette makes the PNG a quarter of the bytes to compress, which is most of the time.
    return to_png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))


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
    for i, (colour, active) in enumerate(((TEXT, False), (ACTIVE_INK, True))):
        pill = _pill("Sample Player Name", 0, active)
        sample.paste(pill, (40, 500 + 60 * i), pill)
    for i, colour in enumerate((TEXT, MUTED, WIN, LOSS, SWITCH)):
        draw.text((500, 480 + 60 * i), "SOLVED 12 / 24", font=font(40, True), fill=colour)
    draw.line([(100, 700), (1100, 740)], fill=SWITCH, width=6)
    track = _track()
    sample.paste(track, (10, TRACK_TOP), track)
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
    return int(max(4, min(W - size[0] - 4, x))), int(max(4, min(H - size[1] - 4, y)))
