"""Sàréná board picture from the public view.

Static layers (the framed board with its lines, circles, arrow rings and coordinates; pile,
highlight and move-arrow sprites) are drawn once at 4x and cached; a call pastes at most 36
pile sprites, the last-move marks and the side panel text, then encodes.

A pile shows only what the table sees: its top face (colour plus its letter, for colour-blind
players) and its height (stacked neutral chip edges plus a number badge). Lower chips are drawn
in one neutral colour whatever their faces.

Every word, and the colour letters too, comes from the catalogs through ``bot.i18n.t`` in the
table's locale; the title and the key are drawn once per locale into the cached frame.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Sequence

from PIL import Image, ImageDraw

from bot.i18n import t

from .fonts import ellipsize, font
from .png import to_png

SIZE = 6
CELL = 100
EDGE = 46  # coordinate band around the board
BOARD_PX = CELL * SIZE
BOARD_X, BOARD_Y = EDGE, 24
PANEL_X = BOARD_X + BOARD_PX + EDGE // 2 + 16
PANEL_W = 286
WIDTH = PANEL_X + PANEL_W + 18
TEXT_W = PANEL_W + 14  # room for a panel line, up to 4 px from the picture's edge
HEIGHT = BOARD_Y + BOARD_PX + EDGE + 10
SS = 4  # supersampling factor for cached layers

FRAME = (35, 39, 46)
FRAME_TEXT = (232, 234, 238)
FRAME_DIM = (150, 158, 172)
BOARD_FILL = (233, 218, 184)
BOARD_EDGE = (170, 140, 96)
LINE = (150, 118, 76)
SLOT_FILL = (218, 198, 158)
SLOT_EDGE = (140, 108, 66)
ARROW_MARK = (176, 84, 40)
CHIP_EDGE = (112, 100, 88)
CHIP_EDGE_DARK = (66, 58, 50)
BADGE = (30, 34, 42)
HIGHLIGHT = (33, 118, 255)
TURN_MARK = (255, 196, 64)
TURN_FILL = (58, 64, 76)
WIN_MARK = (255, 196, 64)

SLOT_R = 38
CHIP_R = 31
CHIP_STEP = 5  # vertical offset between stacked chips
ARROW_RING_R = 45
BADGE_SIDE = 34

FACES = {
    # fill, outline, ink; the letter is the catalog's render.sarena.mark.<colour>
    "white": ((246, 244, 238), (120, 120, 120), (30, 30, 34)),
    "black": ((36, 36, 42), (10, 10, 12), (240, 240, 240)),
    "red": ((204, 46, 40), (120, 20, 16), (255, 255, 255)),
    "yellow": ((246, 196, 40), (150, 110, 10), (30, 30, 34)),
}


def _letter(colour: str, locale: str) -> str:
    """The colour-blind mark of a face, e.g. "W" for white in English."""
    return t(f"render.sarena.mark.{colour}", locale)


def _centre(x: int, y: int) -> tuple[int, int]:
    """Pixel centre of circle (x, y); row 1 is at the bottom."""
    return BOARD_X + x * CELL + CELL // 2, BOARD_Y + (SIZE - 1 - y) * CELL + CELL // 2


def _square_xy(name: object) -> tuple[int, int] | None:
    if not isinstance(name, str) or len(name) != 2:
        return None
    x, y = ord(name[0]) - ord("a"), ord(name[1]) - ord("1")
    return (x, y) if 0 <= x < SIZE and 0 <= y < SIZE else None


def _arc_arrow(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, start: float,
               end: float, width: float, colour: tuple[int, int, int]) -> None:
    """An arc from ``start`` to ``end`` degrees (clockwise on screen) with a head at ``end``."""
    draw.arc((cx - r, cy - r, cx + r, cy + r), start, end - 8, fill=colour, width=round(width))
    a = math.radians(end)
    tip = (cx + r * math.cos(a), cy + r * math.sin(a))
    tangent = (-math.sin(a), math.cos(a))
    normal = (math.cos(a), math.sin(a))
    back, half = width * 2.6, width * 1.5
    base = (tip[0] - tangent[0] * back, tip[1] - tangent[1] * back)
    draw.polygon([tip, (base[0] + normal[0] * half, base[1] + normal[1] * half),
                  (base[0] - normal[0] * half, base[1] - normal[1] * half)], fill=colour)


@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """Frame, board, lines, circles, arrow rings and coordinates."""
    img = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), FRAME)
    draw = ImageDraw.Draw(img)
    pad = 14
    draw.rounded_rectangle(((BOARD_X - pad) * SS, (BOARD_Y - pad) * SS,
                            (BOARD_X + BOARD_PX + pad) * SS, (BOARD_Y + BOARD_PX + pad) * SS),
                           radius=18 * SS, fill=BOARD_FILL, outline=BOARD_EDGE, width=3 * SS)
    for y in range(SIZE):
        for x in range(SIZE):
            cx, cy = _centre(x, y)
            if x + 1 < SIZE:
                nx, _ = _centre(x + 1, y)
                draw.line((cx * SS, cy * SS, nx * SS, cy * SS), fill=LINE, width=5 * SS)
            if y + 1 < SIZE:
                _, ny = _centre(x, y + 1)
                draw.line((cx * SS, cy * SS, cx * SS, ny * SS), fill=LINE, width=5 * SS)
    for y in range(SIZE):
        for x in range(SIZE):
            cx, cy = (v * SS for v in _centre(x, y))
            r = SLOT_R * SS
            if (x + y) % 2 == 0:
                # Arrow circle: two turning arrows around it say "a pile arriving here flips".
                ring = ARROW_RING_R * SS
                draw.ellipse((cx - ring - 3 * SS, cy - ring - 3 * SS, cx + ring + 3 * SS,
                              cy + ring + 3 * SS), fill=BOARD_FILL)
                _arc_arrow(draw, cx, cy, ring, 200, 340, 3.2 * SS, ARROW_MARK)
                _arc_arrow(draw, cx, cy, ring, 20, 160, 3.2 * SS, ARROW_MARK)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=SLOT_FILL, outline=SLOT_EDGE,
                         width=3 * SS)
    label = font(24 * SS, True)
    for i in range(SIZE):
        cx, _ = _centre(i, 0)
        draw.text((cx * SS, (BOARD_Y + BOARD_PX + 32) * SS), "abcdef"[i], font=label,
                  fill=FRAME_TEXT, anchor="mm")
        _, cy = _centre(0, i)
        draw.text(((BOARD_X - 30) * SS, cy * SS), str(i + 1), font=label, fill=FRAME_TEXT,
                  anchor="mm")
    return img.resize((WIDTH, HEIGHT), Image.LANCZOS)


@lru_cache(maxsize=8)
def _frame(locale: str) -> Image.Image:
    """The base with the panel's fixed words (title and the arrow circle key) in ``locale``."""
    img = _base().copy()
    draw = ImageDraw.Draw(img)
    x = PANEL_X
    draw.text((x, BOARD_Y - 6), ellipsize(t("render.sarena.title", locale), TEXT_W, 34, True),
              font=font(34, True), fill=FRAME_TEXT)
    # Key at the bottom: what an arrow circle does.
    ky = BOARD_Y + BOARD_PX - 40
    draw.ellipse((x, ky, x + 30, ky + 30), fill=SLOT_FILL, outline=ARROW_MARK, width=3)
    draw.text((x + 15, ky + 15), "↻", font=font(20, True), fill=ARROW_MARK, anchor="mm")
    legend = "\n".join(ellipsize(line, TEXT_W - 42, 16, False)
                       for line in t("render.sarena.legend", locale).split("\n"))
    draw.text((x + 42, ky + 15), legend, font=font(16), fill=FRAME_DIM, anchor="lm", spacing=2)
    return img


SPRITE = 2 * (CHIP_R + 3 * CHIP_STEP + 6)  # square sprite side, pile centred


@lru_cache(maxsize=64)
def _pile_sprite(colour: str, height: int, letter: str) -> Image.Image:
    size = SPRITE * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = size / 2
    r = CHIP_R * SS
    step = CHIP_STEP * SS
    top_dy = -(height - 1) * step / 2
    # Chips below the top one: neutral edges only, never their faces.
    for k in range(height - 1, 0, -1):
        dy = top_dy + k * step
        draw.ellipse((c - r, c + dy - r, c + r, c + dy + r), fill=CHIP_EDGE,
                     outline=CHIP_EDGE_DARK, width=2 * SS)
    fill, outline, ink = FACES[colour]
    draw.ellipse((c - r, c + top_dy - r, c + r, c + top_dy + r), fill=fill, outline=outline,
                 width=2 * SS)
    inner = r - 6 * SS
    draw.ellipse((c - inner, c + top_dy - inner, c + inner, c + top_dy + inner),
                 outline=tuple(max(0, v - 28) for v in fill), width=1 * SS)
    draw.text((c, c + top_dy), letter, font=font(30 * SS, True), fill=ink, anchor="mm")
    return img.resize((SPRITE, SPRITE), Image.LANCZOS)


@lru_cache(maxsize=8)
def _badge(height: int) -> Image.Image:
    side = BADGE_SIDE * SS
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((SS, SS, side - SS, side - SS), fill=BADGE, outline=(250, 250, 250),
                 width=2 * SS)
    draw.text((side / 2, side / 2 + SS / 2), str(height), font=font(24 * SS, True),
              fill=(255, 255, 255), anchor="mm")
    return img.resize((BADGE_SIDE, BADGE_SIDE), Image.LANCZOS)


@lru_cache(maxsize=2)
def _ring(radius: int, width: int) -> Image.Image:
    size = (radius + width) * 2 * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((SS, SS, size - SS, size - SS), outline=HIGHLIGHT,
                                width=width * SS)
    return img.resize((size // SS, size // SS), Image.LANCZOS)


@lru_cache(maxsize=4)
def _move_arrow(dx: int, dy: int) -> Image.Image:
    """Arrow from a cell centre one cell in direction (dx, dy) on screen, as a 2-cell sprite."""
    size = 2 * CELL * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = size / 2
    sx, sy = c - dx * CELL * SS / 2, c - dy * CELL * SS / 2  # source centre
    length = (CELL - SLOT_R - 10) * SS
    tip = (sx + dx * length, sy + dy * length)
    head, half, shaft = 22 * SS, 15 * SS, 9 * SS
    base = (tip[0] - dx * head, tip[1] - dy * head)
    nx, ny = -dy, dx
    # A white halo first keeps the arrow readable over the lines and any chip colour.
    outline, grow = (255, 255, 255), 4 * SS
    draw.line((sx, sy, base[0], base[1]), fill=outline, width=shaft + 5 * SS)
    back = (base[0] - dx * 3 * SS, base[1] - dy * 3 * SS)
    draw.polygon([(tip[0] + dx * grow, tip[1] + dy * grow),
                  (back[0] + nx * (half + grow), back[1] + ny * (half + grow)),
                  (back[0] - nx * (half + grow), back[1] - ny * (half + grow))], fill=outline)
    draw.ellipse((sx - 11 * SS, sy - 11 * SS, sx + 11 * SS, sy + 11 * SS), fill=outline)
    draw.line((sx, sy, base[0], base[1]), fill=HIGHLIGHT, width=shaft)
    draw.polygon([tip, (base[0] + nx * half, base[1] + ny * half),
                  (base[0] - nx * half, base[1] - ny * half)], fill=HIGHLIGHT)
    draw.ellipse((sx - 8 * SS, sy - 8 * SS, sx + 8 * SS, sy + 8 * SS), fill=HIGHLIGHT)
    return img.resize((2 * CELL, 2 * CELL), Image.LANCZOS)


def _paste_centred(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    img.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)




def _draw_board(img: Image.Image, view: dict[str, Any], locale: str) -> None:
    last = view.get("last_move") or {}
    src, dst = _square_xy(last.get("from")), _square_xy(last.get("to"))
    if src and dst:
        _paste_centred(img, _ring(SLOT_R + 3, 4), *_centre(*src))
    for circle in view.get("board", ()):
        h = circle.get("height") or 0
        top = circle.get("top")
        if h <= 0 or top not in FACES:
            continue
        cx, cy = _centre(circle["x"], circle["y"])
        _paste_centred(img, _pile_sprite(top, min(h, 4), _letter(top, locale)), cx, cy)
    if src and dst:
        cx, cy = _centre(*dst)
        _paste_centred(img, _ring(ARROW_RING_R + 3, 5), cx, cy)
        sx, sy = _centre(*src)
        dx, dy = (cx > sx) - (cx < sx), (cy > sy) - (cy < sy)
        if abs(dx) + abs(dy) == 1:
            _paste_centred(img, _move_arrow(dx, dy), (sx + cx) / 2, (sy + cy) / 2)
    # Height badges last, so neither the move arrow nor a neighbour covers a number.
    for circle in view.get("board", ()):
        h = circle.get("height") or 0
        if h >= 2 and circle.get("top") in FACES:
            cx, cy = _centre(circle["x"], circle["y"])
            top_dy = -(min(h, 4) - 1) * CHIP_STEP / 2
            _paste_centred(img, _badge(h), cx + CHIP_R - 3, cy + top_dy - CHIP_R + 7)


def _seat_name(names: Sequence[str], seat: int, locale: str) -> str:
    if seat < len(names) and names[seat]:
        return names[seat]
    return t("render.sarena.seat", locale, number=seat + 1)


def _draw_panel(img: Image.Image, view: dict[str, Any], names: Sequence[str],
                locale: str) -> None:
    """Everything in the side panel that changes from call to call (title and key are in
    ``_frame``)."""
    draw = ImageDraw.Draw(img)
    x, right = PANEL_X, PANEL_X + PANEL_W
    result = view.get("result")
    finished = bool(view.get("finished")) and isinstance(result, dict)
    status = (t("render.sarena.game_over", locale,
                moves=view.get("moves_played", view.get("move", 0))) if finished
              else t("render.sarena.move", locale, move=view.get("move", 1)))
    draw.text((x, BOARD_Y + 40), ellipsize(status, TEXT_W, 24, False), font=font(24),
              fill=FRAME_DIM)

    seats = int(view.get("seats") or len(names))
    resigned = set(view.get("resigned") or ())
    to_move = view.get("to_move")
    winners = set(result.get("winners", ())) if finished else set()
    row_h = 66
    y = BOARD_Y + 96
    for seat in range(seats):
        name = _seat_name(names, seat, locale)
        left = seat in resigned
        if seat == to_move:
            draw.rounded_rectangle((x - 8, y - 6, right, y + row_h - 10), radius=10,
                                   fill=TURN_FILL, outline=TURN_MARK, width=3)
        text_x = x + 6
        if finished:
            colour = (result.get("colours") or [None] * seats)[seat]
            if colour in FACES:
                fill, outline, ink = FACES[colour]
                draw.ellipse((x, y + 4, x + 42, y + 46), fill=fill, outline=outline, width=2)
                draw.text((x + 21, y + 25), _letter(colour, locale), font=font(22, True),
                          fill=ink, anchor="mm")
            text_x = x + 54
        name_w = right - text_x - (78 if finished else 12)
        draw.text((text_x, y), ellipsize(name, name_w, 24, seat == to_move),
                  font=font(24, seat == to_move), fill=FRAME_DIM if left else FRAME_TEXT)
        if left:
            note, ink = t("render.sarena.left_game", locale), FRAME_DIM
        elif seat == to_move:
            note, ink = t("render.sarena.to_move", locale), TURN_MARK
        elif finished:
            tiebreak = (result.get("tiebreaks") or [None] * seats)[seat]
            note, ink = t("render.sarena.tiebreak", locale, value=tiebreak), FRAME_DIM
        else:
            note, ink = "", FRAME_DIM
        draw.text((text_x, y + 30), ellipsize(note, name_w, 18, seat == to_move),
                  font=font(18, seat == to_move), fill=ink)
        if finished and not left:
            score = (result.get("scores") or [None] * seats)[seat]
            won = seat in winners
            draw.text((right - 8, y + 4), f"{'★ ' if won else ''}{score}", font=font(30, True),
                      fill=WIN_MARK if won else FRAME_TEXT, anchor="ra")
        y += row_h

    y += 8
    if finished:
        if len(winners) == 1:
            seat = next(iter(winners))
            # Only the name is shortened, so the verdict itself always shows.
            room = PANEL_W - font(24, True).getlength(t("render.sarena.wins", locale, name=""))
            name = ellipsize(_seat_name(names, seat, locale), room, 24, True)
            verdict = t("render.sarena.wins", locale, name=name)
        else:
            verdict = t("render.sarena.shared_victory" if winners else "render.sarena.no_winner",
                        locale)
        draw.text((x, y), verdict, font=font(24, True), fill=WIN_MARK)
        y += 40
    last = view.get("last_move")
    if isinstance(last, dict) and last.get("from") and last.get("to"):
        label = ellipsize(t("render.sarena.last_move", locale), TEXT_W, 18, False)
        draw.text((x, y), label, font=font(18), fill=FRAME_DIM)
        text = t("render.sarena.last_move.squares", locale, src=last["from"], dst=last["to"])
        if last.get("flipped"):
            text += "  " + t("render.sarena.flipped", locale)
        draw.text((x, y + 24), ellipsize(text, TEXT_W, 24, True), font=font(24, True),
                  fill=FRAME_TEXT)


def _compose(view: dict[str, Any], names: Sequence[str], locale: str = "en") -> Image.Image:
    img = _frame(locale).copy()
    _draw_board(img, view, locale)
    _draw_panel(img, view, names, locale)
    return img


def _specimen_views() -> list[dict[str, Any]]:
    """Views that between them use every sprite and panel style, to build the palette from."""
    colours = list(FACES)
    board = [{"x": i % SIZE, "y": i // SIZE, "height": i % 5, "top": colours[i // 5 % 4]}
             for i in range(SIZE * SIZE)]
    running = {"seats": 4, "move": 12, "to_move": 1, "resigned": [3], "board": board,
               "last_move": {"from": "c3", "to": "c4", "flipped": True}}
    finished = {"seats": 4, "move": 30, "finished": True, "to_move": None, "board": board,
                "last_move": {"from": "d2", "to": "e2", "flipped": False},
                "result": {"winners": [0, 2], "reason": "score", "draw": False,
                           "colours": colours, "scores": [12, 9, 12, 3],
                           "tiebreaks": [7, 5, 7, 1]}}
    return [running, finished]


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    # Pictures use a few hundred colours (flat fills plus antialiased edges); one fixed 256-colour
    # palette taken from specimen pictures makes per-call quantizing and PNG encoding cheap and
    # the files several times smaller, with no visible change.
    names = ["Specimen player", "Another one", "Third", "Fourth"]
    sheets = [_compose(view, names) for view in _specimen_views()]
    specimen = Image.new("RGB", (WIDTH, HEIGHT * len(sheets)))
    for i, sheet in enumerate(sheets):
        specimen.paste(sheet, (0, HEIGHT * i))
    return specimen.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def render(view: dict[str, Any], names: list[str], locale: str = "en") -> bytes:
    """PNG of the board in ``view`` (a Sarena public view) with the players' display names,
    words in ``locale``."""
    img = _compose(view, names, locale)
    return to_png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))
