"""Sàréná board picture from the public view.

The picture is portrait, board above and panel below, so that on a phone (see
``render.legible``) the board is as big as the width allows and every word stays readable.

Static layers (the framed board with its lines, circles, arrow rings and coordinates; pile,
highlight and move-arrow sprites) are drawn once at 4x and cached; a call pastes at most 36
pile sprites, the last-move marks and the panel text, then encodes.

A pile shows only what the table sees: its top face (colour plus its letter, for colour-blind
players) and its height (stacked neutral chip edges plus a number badge). Lower chips are drawn
in one neutral colour whatever their faces.

Every word, and the colour letters too, comes from the catalogs through ``bot.i18n.t`` in the
table's locale; the arrow circle key is drawn once per locale into the cached frame.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Sequence

from PIL import Image, ImageDraw

from bot.i18n import t

from .arrows import paste_layer, review_overlay
from .fonts import draw_text, font, seat_label, text_width, with_name
from .legible import Decor
from .png import to_png

SIZE = 6
CELL = 88
BOARD_PX = CELL * SIZE
BOARD_X, BOARD_Y = 44, 16  # row numbers left of the board, column letters below it
WIDTH = BOARD_X + BOARD_PX + 28
PANEL_X, PANEL_Y = 16, BOARD_Y + BOARD_PX + 52
PANEL_W = WIDTH - 2 * PANEL_X
HEIGHT = 800
SS = 4  # supersampling factor for cached layers

# Text sizes (px): at the phone's scale of this picture (0.625) capitals stay 8 px or taller.
SMALL, NAME, BIG = 18, 20, 26

FRAME = (35, 39, 46)
FRAME_TEXT = (232, 234, 238)
FRAME_DIM = (156, 164, 178)
BOARD_FILL = (233, 218, 184)
BOARD_EDGE = (170, 140, 96)
LINE = (120, 92, 56)
SLOT_FILL = (218, 198, 158)
SLOT_EDGE = (140, 108, 66)
ARROW_MARK = (176, 84, 40)
CHIP_EDGE = (190, 182, 168)  # lower chips of a pile: light grey, so the dark rims between show
CHIP_RIM = (24, 20, 16)  # every chip's outline on the board: dark against anything near it
PANEL_RIM = (214, 216, 222)  # a chip's outline in the panel, light against the dark frame
BADGE = (30, 34, 42)
HIGHLIGHT = (20, 95, 220)
#: a private step's pile and where it may go: dark magenta rings, apart from the last move's blue
CHOICE = (150, 20, 110)
TURN_MARK = (255, 196, 64)
TURN_FILL = (58, 64, 76)
WIN_MARK = (255, 196, 64)

SLOT_R = 30
CHIP_R = 25
CHIP_STEP = 4  # vertical offset between stacked chips
ARROW_RING_R = 39
ARROW_W = 4.5
BADGE_SIDE = 30

FACES = {
    # fill, ink; the letter is the catalog's render.sarena.mark.<colour>
    "white": ((246, 244, 238), (30, 30, 34)),
    "black": ((36, 36, 42), (240, 240, 240)),
    "red": ((204, 46, 40), (255, 255, 255)),
    "yellow": ((246, 196, 40), (30, 30, 34)),
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
    back, half = width * 2.4, width * 1.1
    base = (tip[0] - tangent[0] * back, tip[1] - tangent[1] * back)
    draw.polygon([tip, (base[0] + normal[0] * half, base[1] + normal[1] * half),
                  (base[0] - normal[0] * half, base[1] - normal[1] * half)], fill=colour)


def _arrow_circle(img: Image.Image, cx: float, cy: float, ring: float, width: float) -> None:
    """Two turning arrows around a circle say "a pile arriving here flips"."""
    # The lines stop short of the arrows instead of running under them.
    clear = ring + 1.2 * width
    Decor(img).ellipse((cx - clear, cy - clear, cx + clear, cy + clear), fill=BOARD_FILL)
    draw = ImageDraw.Draw(img)
    _arc_arrow(draw, cx, cy, ring, 200, 340, width, ARROW_MARK)
    _arc_arrow(draw, cx, cy, ring, 20, 160, width, ARROW_MARK)


def _slot(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, width: float,
          edge: tuple[int, int, int] = SLOT_EDGE) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=SLOT_FILL, outline=edge,
                 width=round(width))


@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """Frame, board, lines, circles, arrow rings and coordinates."""
    img = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), FRAME)
    draw = ImageDraw.Draw(img)
    pad = 12
    draw.rounded_rectangle(((BOARD_X - pad) * SS, (BOARD_Y - pad) * SS,
                            (BOARD_X + BOARD_PX + pad) * SS, (BOARD_Y + BOARD_PX + pad) * SS),
                           radius=16 * SS, fill=BOARD_FILL, outline=BOARD_EDGE, width=3 * SS)
    for y in range(SIZE):
        for x in range(SIZE):
            cx, cy = _centre(x, y)
            if x + 1 < SIZE:
                draw.line((cx * SS, cy * SS, (cx + CELL) * SS, cy * SS), fill=LINE, width=5 * SS)
            if y + 1 < SIZE:
                draw.line((cx * SS, cy * SS, cx * SS, (cy - CELL) * SS), fill=LINE, width=5 * SS)
    for y in range(SIZE):
        for x in range(SIZE):
            cx, cy = (v * SS for v in _centre(x, y))
            if (x + y) % 2 == 0:
                _arrow_circle(img, cx, cy, ARROW_RING_R * SS, ARROW_W * SS)
            _slot(draw, cx, cy, SLOT_R * SS, 3 * SS)
    label = font(22 * SS, True)
    for i in range(SIZE):
        cx, cy = _centre(i, i)  # column i's x, row i's y
        draw.text((cx * SS, (BOARD_Y + BOARD_PX + 34) * SS), "abcdef"[i], font=label,
                  fill=FRAME_TEXT, anchor="mm")
        draw.text(((BOARD_X - 28) * SS, cy * SS), str(i + 1), font=label, fill=FRAME_TEXT,
                  anchor="mm")
    return img.resize((WIDTH, HEIGHT), Image.LANCZOS)


@lru_cache(maxsize=8)
def _frame(locale: str) -> Image.Image:
    """The base with the key to the arrow circles in ``locale`` at the bottom."""
    img = _base().copy()
    side = 40
    key = Image.new("RGB", (side * SS, side * SS), FRAME)
    centre = side * SS / 2
    _arrow_circle(key, centre, centre, 14 * SS, 3 * SS)
    _slot(ImageDraw.Draw(key), centre, centre, 8 * SS, 2 * SS)
    y = HEIGHT - 22
    img.paste(key.resize((side, side), Image.LANCZOS), (PANEL_X, y - side // 2))
    text = t("render.sarena.legend", locale)
    draw_text(ImageDraw.Draw(img), (PANEL_X + side + 10, y), text, SMALL, anchor="lm",
              fill=FRAME_DIM)
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
        draw.ellipse((c - r, c + dy - r, c + r, c + dy + r), fill=CHIP_EDGE, outline=CHIP_RIM,
                     width=2 * SS)
    fill, ink = FACES[colour]
    draw.ellipse((c - r, c + top_dy - r, c + r, c + top_dy + r), fill=fill, outline=CHIP_RIM,
                 width=round(2.5 * SS))
    draw_text(draw, (c, c + top_dy), letter, 26 * SS, True, anchor="mm", fill=ink)
    return img.resize((SPRITE, SPRITE), Image.LANCZOS)


@lru_cache(maxsize=8)
def _badge(height: int) -> Image.Image:
    side = BADGE_SIDE * SS
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((SS, SS, side - SS, side - SS), fill=BADGE, outline=(250, 250, 250),
                 width=2 * SS)
    draw.text((side / 2, side / 2 + SS / 2), str(height), font=font(20 * SS, True),
              fill=(255, 255, 255), anchor="mm")
    return img.resize((BADGE_SIDE, BADGE_SIDE), Image.LANCZOS)


@lru_cache(maxsize=1)
def _slot_highlight() -> Image.Image:
    """An empty circle outlined in the highlight colour: where the last move left or arrived."""
    size = 2 * (SLOT_R + 2) * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    _slot(ImageDraw.Draw(img), size / 2, size / 2, SLOT_R * SS, 6 * SS, HIGHLIGHT)
    return img.resize((size // SS, size // SS), Image.LANCZOS)


@lru_cache(maxsize=4)
def _move_arrow(dx: int, dy: int) -> Image.Image:
    """Arrow from a cell centre one cell in direction (dx, dy) on screen, as a 2-cell sprite."""
    size = 2 * CELL * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    halo = Decor(img)
    c = size / 2
    sx, sy = c - dx * CELL * SS / 2, c - dy * CELL * SS / 2  # source centre
    length = (CELL - SLOT_R - 8) * SS
    tip = (sx + dx * length, sy + dy * length)
    head, half, shaft = 20 * SS, 14 * SS, 8 * SS
    base = (tip[0] - dx * head, tip[1] - dy * head)
    nx, ny = -dy, dx
    # A white halo first keeps the arrow readable over the lines and any chip colour.
    outline, grow = (255, 255, 255), 4 * SS
    halo.line((sx, sy, base[0], base[1]), fill=outline, width=shaft + 5 * SS)
    back = (base[0] - dx * 3 * SS, base[1] - dy * 3 * SS)
    halo.polygon([(tip[0] + dx * grow, tip[1] + dy * grow),
                  (back[0] + nx * (half + grow), back[1] + ny * (half + grow)),
                  (back[0] - nx * (half + grow), back[1] - ny * (half + grow))], fill=outline)
    halo.ellipse((sx - 11 * SS, sy - 11 * SS, sx + 11 * SS, sy + 11 * SS), fill=outline)
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
        for end in (src, dst):
            _paste_centred(img, _slot_highlight(), *_centre(*end))
    for circle in view.get("board", ()):
        h = circle.get("height") or 0
        top = circle.get("top")
        if h <= 0 or top not in FACES:
            continue
        cx, cy = _centre(circle["x"], circle["y"])
        _paste_centred(img, _pile_sprite(top, min(h, 4), _letter(top, locale)), cx, cy)
    if src and dst:
        (sx, sy), (cx, cy) = _centre(*src), _centre(*dst)
        dx, dy = (cx > sx) - (cx < sx), (cy > sy) - (cy < sy)
        if abs(dx) + abs(dy) == 1:
            _paste_centred(img, _move_arrow(dx, dy), (sx + cx) / 2, (sy + cy) / 2)
    _draw_review(img, view.get("review"))
    _draw_choice(img, view.get("choice") or {})
    # Height badges last, so neither the move arrow nor a neighbour covers a number.
    for circle in view.get("board", ()):
        h = circle.get("height") or 0
        if h >= 2 and circle.get("top") in FACES:
            cx, cy = _centre(circle["x"], circle["y"])
            top_dy = -(min(h, 4) - 1) * CHIP_STEP / 2
            _paste_centred(img, _badge(h), cx + CHIP_R - 3, cy + top_dy - CHIP_R + 6)


def _draw_review(img: Image.Image, review: Any) -> None:
    """A game review's move played and better move (see render.arrows), over the piles."""
    def centre(name: Any) -> tuple[float, float] | None:
        xy = _square_xy(name)
        return None if xy is None else _centre(*xy)

    def trim(move: dict[str, Any], _: bool) -> tuple[float, float]:
        return CELL * 0.16, CELL * 0.24

    paste_layer(img, review_overlay(img.size, review, centre, width=12, trim=trim))


def _draw_choice(img: Image.Image, choice: dict[str, Any]) -> None:
    """A private step's pile (a thick ring around its circle) and the circles it may go to
    (thinner rings), outside the piles so no chip is covered."""
    draw = ImageDraw.Draw(img)
    rings = [(choice.get("from"), 6)] + [(name, 4) for name in choice.get("to") or ()]
    for name, width in rings:
        xy = _square_xy(name)
        if xy:
            cx, cy = _centre(*xy)
            r = SLOT_R + 4 + width
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=CHOICE, width=width)


def _name(names: Sequence[str], seat: int, locale: str, width: float, size: int,
          bold: bool = False) -> str:
    """A seat's number and name, shortened to ``width``."""
    name = names[seat] if seat < len(names) else ""
    return seat_label(seat + 1, name, width, size, bold,
                      t("render.sarena.seat", locale, number=seat + 1))


def _result(view: dict[str, Any]) -> dict[str, Any] | None:
    result = view.get("result")
    return result if view.get("finished") and isinstance(result, dict) else None


def _headline(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str],
              locale: str, y: int) -> None:
    """Who won (or the move number) on the left, the moves played on the right."""
    x, right = PANEL_X, PANEL_X + PANEL_W
    result = _result(view)
    if result is None:
        draw_text(draw, (x, y), t("render.sarena.move", locale, move=view.get("move", 1)),
                  NAME, anchor="lm", fill=FRAME_TEXT)
        return
    moves = t("render.sarena.game_over", locale,
              moves=view.get("moves_played", view.get("move", 0)))
    draw_text(draw, (right, y), moves, SMALL, anchor="rm", fill=FRAME_DIM)
    room = PANEL_W - text_width(moves, SMALL) - 16
    winners = result.get("winners") or []
    if len(winners) == 1:
        verdict = with_name(lambda name: "★ " + t("render.sarena.wins", locale, name=name),
                            lambda width: _name(names, winners[0], locale, width, NAME, True),
                            room, NAME, True)
    else:
        verdict = t("render.sarena.shared_victory" if winners else "render.sarena.no_winner",
                    locale)
    draw_text(draw, (x, y), verdict, NAME, True, anchor="lm", fill=WIN_MARK)


def _last_move(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, y: int) -> None:
    last = view.get("last_move")
    if not (isinstance(last, dict) and last.get("from") and last.get("to")):
        return
    x = PANEL_X
    # A puzzle's solution drawn for someone who did not play it is named as what it is.
    label = "render.sarena.solution" if view.get("solution") else "render.sarena.last_move"
    parts = [(t(label, locale), SMALL, False, FRAME_DIM),
             (t("render.sarena.last_move.squares", locale, src=last["from"], dst=last["to"]),
              NAME, True, FRAME_TEXT)]
    if last.get("flipped"):
        parts.append((t("render.sarena.flipped", locale), SMALL, False, FRAME_TEXT))
    for text, size, bold, ink in parts:
        draw_text(draw, (x, y), text, size, bold, anchor="lm", fill=ink)
        x += text_width(text, size, bold) + 12


def _seat_note(view: dict[str, Any], seat: int, locale: str) -> tuple[str, tuple[int, ...]]:
    result = _result(view)
    if seat in set(view.get("resigned") or ()):
        return t("render.sarena.left_game", locale), FRAME_DIM
    if seat == view.get("to_move") and result is None:
        return t("render.sarena.to_move", locale), TURN_MARK
    if result is not None:
        tiebreak = (result.get("tiebreaks") or [None] * (seat + 1))[seat]
        return t("render.sarena.tiebreak", locale, value=tiebreak), FRAME_DIM
    return "", FRAME_DIM


def _panel_chip(img: Image.Image, colour: str, locale: str, x: int, y: int) -> None:
    fill, ink = FACES[colour]
    draw = ImageDraw.Draw(img)
    draw.ellipse((x, y, x + 40, y + 40), fill=fill, outline=PANEL_RIM, width=2)
    draw_text(draw, (x + 20, y + 21), _letter(colour, locale), NAME, True, anchor="mm",
              fill=ink)


def _seat_cell(img: Image.Image, view: dict[str, Any], names: Sequence[str], locale: str,
               seat: int, box: tuple[int, int, int, int]) -> None:
    """One seat: colour chip at the end, number and name, a note below, score at the end."""
    draw = ImageDraw.Draw(img)
    left, top, right, bottom = box
    result = _result(view)
    resigned = seat in set(view.get("resigned") or ())
    turn = seat == view.get("to_move") and result is None
    if turn:
        draw.rounded_rectangle(box, radius=10, fill=TURN_FILL, outline=TURN_MARK, width=3)
    text_x = left + 10
    score_w = 0.0
    if result is not None:
        colour = (result.get("colours") or [None] * (seat + 1))[seat]
        if colour in FACES:
            _panel_chip(img, colour, locale, left + 4, (top + bottom) // 2 - 20)
            text_x = left + 54
        if not resigned:
            score = (result.get("scores") or [None] * (seat + 1))[seat]
            won = seat in set(result.get("winners") or ())
            text = f"{'★ ' if won else ''}{score}"
            draw_text(draw, (right - 8, (top + bottom) // 2), text, BIG, True, anchor="rm",
                      fill=WIN_MARK if won else FRAME_TEXT)
            score_w = text_width(text, BIG, True) + 12
    room = right - 8 - text_x - score_w
    name = _name(names, seat, locale, room, NAME, True)
    draw_text(draw, (text_x, top + 14), name, NAME, True, anchor="lm",
              fill=FRAME_DIM if resigned else FRAME_TEXT)
    note, ink = _seat_note(view, seat, locale)
    draw_text(draw, (text_x, bottom - 13), note, SMALL, anchor="lm", fill=ink)


def _draw_panel(img: Image.Image, view: dict[str, Any], names: Sequence[str],
                locale: str) -> None:
    """Everything under the board that changes from call to call (the key is in ``_frame``)."""
    draw = ImageDraw.Draw(img)
    _headline(draw, view, names, locale, PANEL_Y + 12)
    _last_move(draw, view, locale, PANEL_Y + 40)
    seats = int(view.get("seats") or len(names))
    cell_w, cell_h = (PANEL_W - 8) // 2, 50
    for seat in range(seats):
        left = PANEL_X + (seat % 2) * (cell_w + 8)
        top = PANEL_Y + 58 + (seat // 2) * (cell_h + 4)
        _seat_cell(img, view, names, locale, seat, (left, top, left + cell_w, top + cell_h))


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
               "last_move": {"from": "c3", "to": "c4", "flipped": True},
               "choice": {"from": "b2", "to": ["b3", "a2"]},
               # Several review arrows, so that their two colours get places in the palette.
               "review": {"played": [{"from": f"{c}4", "to": f"{c}5"} for c in "abcdef"],
                          "better": [{"from": f"{c}2", "to": f"{c}1"} for c in "abcdef"]}}
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
