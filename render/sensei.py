"""Sensei board picture from the public view.

Static layers (the framed board per side, stone and character sprites) are drawn once at 4x and
cached; a call pastes 14 sprites, draws the turn arrows and the status bars, then encodes.
Green stones are discs and red stones are rounded squares, so the sides differ without colour.
Every word comes from the catalogs through ``bot.i18n.t`` in the table's locale.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Sequence

from PIL import Image, ImageDraw

from bot.i18n import has, t

from .arrows import arrow as _arrow, paste_layer, review_overlay
from .fonts import draw_text, font, seat_label, text_width, with_name
from .legible import Decor
from .png import to_png

CELL = 76
#: a piece's radius plus its rim, in cells: where an arrow's head stops
PIECE_RIM = 0.44
EDGE = 34  # width of the coordinate frame around the squares
TOP = 92  # status bar: whose turn it is, what is left of it
BOTTOM = 64  # footer: last turn, options
BOARD_PX = CELL * 7
WIDTH = BOARD_PX + 2 * EDGE
HEIGHT = TOP + BOARD_PX + 2 * EDGE + BOTTOM
ORIGIN = (EDGE, TOP + EDGE)  # pixel of a7's top-left corner
SS = 4  # supersampling factor for cached sprites

FRAME = (35, 39, 46)
FRAME_TEXT = (232, 234, 238)
FRAME_DIM = (160, 168, 180)
SIDES = {
    "plain": {"square": (233, 214, 172), "alt": (226, 205, 160), "line": (112, 86, 50)},
    "storm": {"square": (200, 212, 222), "alt": (190, 203, 215), "line": (76, 92, 110)},
}
HOME_TINT = ((46, 158, 79), (214, 69, 59))
SEAT_FILL = ((40, 160, 78), (222, 68, 56))
SEAT_DARK = ((10, 52, 24), (84, 16, 12))
SEAT_LIGHT = ((120, 214, 142), (255, 150, 136))
SEAT_LABEL = ("render.sensei.seat.green", "render.sensei.seat.red")  # catalog keys
STONE_ARROW = (255, 176, 0)
JUMP_ARROW = (40, 150, 255)
CURRENT_ARROW = (255, 255, 255)
LAST_MOVE = (150, 62, 0)  # frames the squares of the last turn's moves
BARRIER_RING = (150, 0, 120)
#: a private step's choice: dark violet, at least 3:1 against either board side's squares
CHOICE = (88, 38, 196)
CHOICE_EDGE = (255, 255, 255)
#: the status bar, in a darker shade of the seat's colour so that white text reads on it
BAR = ((22, 112, 50), (178, 40, 32))
NEUTRAL_BAR = (70, 74, 86)
SEPARATOR = " · "

# Text sizes (px): at the phone's scale of this picture (0.66) capitals stay 8 px or taller.
SMALL, HEADLINE = 18, 26


def _square_xy(name: str) -> tuple[int, int] | None:
    if not isinstance(name, str) or len(name) != 2:
        return None
    x, y = ord(name[0]) - ord("a"), ord(name[1]) - ord("1")
    if not (0 <= x < 7 and 0 <= y < 7):
        return None
    return x, y


def _square_box(name: str) -> tuple[int, int, int, int] | None:
    xy = _square_xy(name)
    if xy is None:
        return None
    left = ORIGIN[0] + xy[0] * CELL
    top = ORIGIN[1] + (6 - xy[1]) * CELL
    return left, top, left + CELL, top + CELL


def _centre(name: str) -> tuple[float, float]:
    box = _square_box(name)
    assert box is not None
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _blend(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


@lru_cache(maxsize=4)
def _board(side: str) -> Image.Image:
    """The framed, labelled empty board of one side, pits included."""
    colours = SIDES.get(side, SIDES["plain"])
    img = Image.new("RGB", (WIDTH, HEIGHT), FRAME)
    # The squares' shades and the home rows' tints only help the eye: the lines part squares.
    squares = Decor(img)
    for x in range(7):
        for y in range(7):
            name = f"{'abcdefg'[x]}{y + 1}"
            fill = colours["square"] if (x + y) % 2 else colours["alt"]
            if y == 0:
                fill = _blend(fill, HOME_TINT[0], 0.22)
            elif y == 6:
                fill = _blend(fill, HOME_TINT[1], 0.22)
            squares.rectangle(_square_box(name), fill=fill)
    draw = ImageDraw.Draw(img)
    left, top = ORIGIN
    for i in range(8):
        draw.line([(left + i * CELL, top), (left + i * CELL, top + BOARD_PX)],
                  fill=colours["line"], width=3)
        draw.line([(left, top + i * CELL), (left + BOARD_PX, top + i * CELL)],
                  fill=colours["line"], width=3)
    Decor(img).rectangle([left - 3, top - 3, left + BOARD_PX + 3, top + BOARD_PX + 3],
                         outline=colours["line"], width=3)
    label = font(20, True)
    for i in range(7):
        cx = left + i * CELL + CELL / 2
        cy = top + (6 - i) * CELL + CELL / 2
        for y in (top - EDGE / 2, top + BOARD_PX + EDGE / 2):
            draw.text((cx, y), "abcdefg"[i], font=label, fill=FRAME_TEXT, anchor="mm")
        for x in (left - EDGE / 2, left + BOARD_PX + EDGE / 2):
            draw.text((x, cy), str(i + 1), font=label, fill=FRAME_TEXT, anchor="mm")
    return img


@lru_cache(maxsize=1)
def _pit() -> Image.Image:
    size = CELL * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    shading = Decor(img)
    centre = size / 2
    rings = 14
    for i in range(rings):
        radius = size * (0.43 - 0.3 * i / rings)
        shade = _blend((84, 96, 110), (8, 10, 14), i / (rings - 1))
        shading.ellipse([centre - radius, centre - radius, centre + radius, centre + radius],
                        fill=shade)
    radius = size * 0.43
    # The rim tells the pit; the shades inside only give it depth.
    ImageDraw.Draw(img).ellipse([centre - radius, centre - radius, centre + radius,
                                 centre + radius], outline=(40, 48, 58), width=3 * SS)
    return img.resize((CELL, CELL), Image.LANCZOS)


@lru_cache(maxsize=8)
def _board_with_pits(side: str, pits: tuple[str, ...]) -> Image.Image:
    img = _board(side).copy()
    for name in pits:
        box = _square_box(name)
        if box:
            img.paste(_pit(), box[:2], _pit())
    return img


def _figure(draw: ImageDraw.ImageDraw, size: int, body: tuple, edge: tuple) -> None:
    """A small standing figurine: a head above a flared robe."""
    c = size / 2
    w = 3 * SS
    robe = [(c - size * 0.20, size * 0.74), (c - size * 0.07, size * 0.40),
            (c + size * 0.07, size * 0.40), (c + size * 0.20, size * 0.74)]
    draw.polygon(robe, fill=body, outline=edge, width=w)
    draw.rounded_rectangle([c - size * 0.23, size * 0.68, c + size * 0.23, size * 0.79],
                           radius=size * 0.04, fill=body, outline=edge, width=w)
    r = size * 0.115
    hy = size * 0.29
    draw.ellipse([c - r, hy - r, c + r, hy + r], fill=body, outline=edge, width=w)


@lru_cache(maxsize=4)
def _stone(seat: int, character: bool) -> Image.Image:
    size = CELL * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw, shading = ImageDraw.Draw(img), Decor(img)
    fill, dark, light = SEAT_FILL[seat], SEAT_DARK[seat], SEAT_LIGHT[seat]
    # Shadow first so stones lift off either board colour; the inner ring is a highlight.
    off = 3 * SS
    if seat == 0:
        r = size * 0.40
        box = [size / 2 - r, size / 2 - r, size / 2 + r, size / 2 + r]
        shading.ellipse([v + off for v in box], fill=(0, 0, 0, 90))
        draw.ellipse(box, fill=fill, outline=dark, width=4 * SS)
        inner = size * 0.27
        shading.ellipse([size / 2 - inner, size / 2 - inner, size / 2 + inner,
                         size / 2 + inner], outline=light, width=3 * SS)
    else:
        r = size * 0.36
        box = [size / 2 - r, size / 2 - r, size / 2 + r, size / 2 + r]
        shading.rounded_rectangle([v + off for v in box], radius=size * 0.09, fill=(0, 0, 0, 90))
        draw.rounded_rectangle(box, radius=size * 0.09, fill=fill, outline=dark, width=4 * SS)
        inner = size * 0.235
        shading.rounded_rectangle([size / 2 - inner, size / 2 - inner, size / 2 + inner,
                                   size / 2 + inner], radius=size * 0.04, outline=light,
                                  width=3 * SS)
    if character:
        if seat == 0:
            _figure(draw, size, (255, 250, 230), (12, 12, 12))
        else:
            _figure(draw, size, (22, 22, 26), (255, 250, 230))
    return img.resize((CELL, CELL), Image.LANCZOS)


def _name(names: Sequence[str], seat: int, locale: str, width: float, size: int,
          bold: bool = False) -> str:
    """A seat's number and its player's name (or colour), shortened to ``width``."""
    name = str(names[seat]) if 0 <= seat < len(names) and names[seat] else ""
    return seat_label(seat + 1, name, width, size, bold, t(SEAT_LABEL[seat], locale))


def _known(key: str, locale: str, default: str, **params: Any) -> str:
    """Catalog text for a key built from game data; ``default`` if the catalog lacks it."""
    return t(key, locale, **params) if has(key) else default


def _moves_left(kind: str, count: int, locale: str) -> str:
    # One sentence per count rather than "move(s)": the catalog has no plural rules.
    return _known(f"render.sensei.left.{kind}.{count}", locale,
                  t(f"render.sensei.left.{kind}.n", locale, count=count))


class _Words:
    """Sentences of one picture that name a seat, each fitted to a width by shortening the
    name only."""

    def __init__(self, names: Sequence[str], locale: str) -> None:
        self.names, self.locale = names, locale

    def __call__(self, key: str, seat: int, width: float, size: int, bold: bool = False,
                 slot: str = "name", **params: Any) -> str:
        return with_name(lambda name: t(key, self.locale, **{slot: name}, **params),
                         lambda room: _name(self.names, seat, self.locale, room, size, bold),
                         width, size, bold)


def _status(view: dict[str, Any], words: _Words, room: float
            ) -> tuple[tuple, str, list[str], int | None]:
    """Bar colour, headline, the lines under it and the seat whose token to show, every line
    fitting ``room``."""
    locale = words.locale
    result = view.get("result")
    if view.get("finished") and result:
        winners = result.get("winners") or []
        if result.get("draw") or not winners:
            reason = str(result.get("reason"))
            if reason not in ("no_moves", "repetition", "turn_limit"):
                reason = "agreed"
            return NEUTRAL_BAR, t("render.sensei.draw", locale), \
                [t(f"render.sensei.draw.{reason}", locale)], None
        seat = winners[0]
        reason = str(result.get("reason", ""))
        if reason == "barrier":
            detail = words("render.sensei.end.barrier", 1 - seat, room, SMALL, slot="loser",
                           count=len(result.get("details", {}).get("touching", [])))
        else:
            detail = _known(f"render.sensei.end.{reason}", locale, reason)
        return BAR[seat], words("render.sensei.wins", seat, room, HEADLINE, True), [detail], seat
    seat = view.get("to_move")
    if seat not in (0, 1):
        return NEUTRAL_BAR, "", [], None
    current = view.get("current_turn") or {}
    stones = current.get("stone_moves_left", 0)
    character = 1 if current.get("character_move_left") else 0
    lines = [t("render.sensei.turn", locale, turn=view.get("turn", 1),
               stones=_moves_left("stones", stones, locale),
               character=_moves_left("character", character, locale))]
    extras = [t("render.sensei.may_end_turn", locale)] if current.get("can_end") else []
    if view.get("draw_offer") in (0, 1):
        before = "".join(extra + SEPARATOR for extra in extras)
        extras.append(words("render.sensei.draw_offered", view["draw_offer"],
                            room - text_width(before, SMALL), SMALL))
    if extras:
        lines.append(SEPARATOR.join(extras))
    return BAR[seat], words("render.sensei.to_move", seat, room, HEADLINE, True), lines, seat


def _footer(view: dict[str, Any], words: _Words, room: float) -> list[str]:
    """The last turn and the game's options, each line fitting ``room``."""
    locale = words.locale
    lines = []
    last = view.get("last_turn")
    if last and last.get("actions"):
        notation = " ".join(a.get("notation", "") for a in last["actions"])
        if view.get("solution"):
            # A puzzle's solution drawn for someone who did not play it: named as what it is.
            lines.append(t("render.sensei.solution", locale, moves=notation))
        else:
            lines.append(words("render.sensei.last", last.get("seat", 0), room, SMALL,
                               moves=notation))
    options = view.get("options") or {}
    version, setup, board = (str(options.get(k, "")) for k in ("version", "setup", "board"))
    lines.append(t("render.sensei.options", locale,
                   version=_known(f"render.sensei.version.{version}", locale,
                                  version.capitalize()),
                   setup=_known(f"render.sensei.setup.{setup}", locale, setup),
                   board=_known(f"render.sensei.board.{board}", locale, board)))
    return lines


def _draw_bars(img: Image.Image, view: dict[str, Any], names: Sequence[str], locale: str) -> None:
    words = _Words(names, locale)
    text_left = CELL + 10
    colour, headline, lines, seat = _status(view, words, WIDTH - text_left - 12)
    Decor(img).rectangle([0, 0, WIDTH, TOP - 1], fill=colour)
    Decor(img).rectangle([0, TOP - 4, WIDTH, TOP - 1], fill=_blend(colour, (0, 0, 0), 0.45))
    if seat is not None:
        token = _stone(seat, True)
        # A light tile parts the token from the bar of its own colour.
        Decor(img).rounded_rectangle((6, TOP // 2 - 36, 78, TOP // 2 + 36), radius=14,
                                     fill=(236, 238, 242))
        img.paste(token, (4, TOP // 2 - CELL // 2), token)
    else:
        text_left = 14
    shadow = _blend(colour, (0, 0, 0), 0.55)
    _paste_text(img, (text_left, 6), headline, HEADLINE, True, (255, 255, 255), shadow)
    for i, line in enumerate(lines):
        _paste_text(img, (text_left, 40 + 24 * i), line, SMALL, False, (255, 255, 255))
    for i, line in enumerate(_footer(view, words, WIDTH - 24)):
        _paste_text(img, (12, HEIGHT - BOTTOM + 8 + 26 * i), line, SMALL, False, FRAME_DIM)


@lru_cache(maxsize=256)
def _text(text: str, size: int, bold: bool, ink: tuple, shadow: tuple | None) -> Image.Image:
    """Rendered text on transparency; cached because most lines repeat from turn to turn."""
    width = round(text_width(text, size, bold))
    img = Image.new("RGBA", (max(1, width + 3), round(size * 1.3)), (0, 0, 0, 0))
    if shadow is not None:
        draw_text(Decor(img), (1, 1), text, size, bold, fill=shadow)
    draw_text(ImageDraw.Draw(img), (0, 0), text, size, bold, fill=ink)
    return img


def _paste_text(img: Image.Image, at: tuple[int, int], text: str, size: int, bold: bool,
                ink: tuple, shadow: tuple | None = None) -> None:
    sprite = _text(text, size, bold, ink, shadow)
    img.paste(sprite, at, sprite)


def _mark(draw: ImageDraw.ImageDraw, name: str, colour: tuple) -> None:
    """A frame over the lines around a square: it stands out against the squares on both
    sides and leaves the piece inside untouched."""
    box = _square_box(name)
    if box:
        draw.rectangle([box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3], outline=colour,
                       width=6)


def _draw_choice(img: Image.Image, choice: dict[str, Any], board: dict[str, Any]) -> None:
    """A private step's piece (a frame, like the last turn's but violet) and where it may go:
    a ring around a stone the character may jump onto, a dot on an empty square; neither
    covers a piece."""
    draw = ImageDraw.Draw(img)
    _mark(draw, choice.get("from", ""), CHOICE)
    for name in choice.get("to") or ():
        box = _square_box(name)
        if not box:
            continue
        if name in board:
            draw.ellipse([box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2], outline=CHOICE, width=4)
        else:
            cx, cy, r = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, CELL * 0.14
            # The white halo only parts the dot from the square; the dot is the mark.
            Decor(img).ellipse([cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2], fill=CHOICE_EDGE)
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=CHOICE)


def render(view: dict[str, Any], names: list[str], locale: str = "en") -> bytes:
    """PNG of the public ``view`` with the players' display names, words in ``locale``."""
    # A palette image encodes about four times faster than RGB and is a third of the size;
    # mapping onto one fixed palette (no dithering) keeps flat areas flat.
    img = _compose(view, names, locale)
    return to_png(img.quantize(palette=_palette(), dither=Image.Dither.NONE))


def _compose(view: dict[str, Any], names: Sequence[str], locale: str = "en") -> Image.Image:
    options = view.get("options") or {}
    img = _board_with_pits(options.get("board", "plain"), tuple(view.get("pits") or ())).copy()
    draw = ImageDraw.Draw(img)
    last = (view.get("last_turn") or {}).get("actions") or []
    current = (view.get("current_turn") or {}).get("actions") or []
    for move in last:
        _mark(draw, move.get("from", ""), LAST_MOVE)
        _mark(draw, move.get("to", ""), LAST_MOVE)

    arrows = [(m, False) for m in last] + [(m, True) for m in current]
    board = view.get("board") or {}
    if arrows:
        overlay = Image.new("RGBA", (BOARD_PX, BOARD_PX), (0, 0, 0, 0))
        odraw = ImageDraw.Draw(overlay)
        shift = ORIGIN
        for move, ongoing in arrows:
            if _square_xy(move.get("from")) is None or _square_xy(move.get("to")) is None:
                continue
            a = _centre(move["from"])
            b = _centre(move["to"])
            a = (a[0] - shift[0], a[1] - shift[1])
            b = (b[0] - shift[0], b[1] - shift[1])
            jump = move.get("kind") == "character"
            colour = CURRENT_ARROW if ongoing else (JUMP_ARROW if jump else STONE_ARROW)
            # A jump starts on a stone, so it leaves from the stone's rim; short hops trim
            # less so that a shaft stays visible behind the head.
            short = math.hypot(b[0] - a[0], b[1] - a[1]) < CELL * 1.5
            start_trim = (0.12 if short else 0.30) if jump else 0.0
            # The head stops at the rim of a piece standing on the destination.
            end_trim = PIECE_RIM if move["to"] in board else (0.24 if short else 0.30)
            _arrow(odraw, a, b, colour + (225,), 8 if jump else 9, jump,
                   CELL * start_trim, CELL * end_trim)
        box = overlay.getbbox()
        if box:
            # Pasting only the arrows' bounding box keeps the alpha blend small.
            part = overlay.crop(box)
            img.paste(part, (ORIGIN[0] + box[0], ORIGIN[1] + box[1]), part)

    # Pieces go over the arrows: no stone or character is ever hidden by one.
    _paste_pieces(img, view)
    # A review's arrows are the point of its picture: over the pieces, see-through.
    _draw_review(img, view.get("review"))
    _draw_choice(img, view.get("choice") or {}, board)
    draw = ImageDraw.Draw(img)
    result = view.get("result") or {}
    if result.get("reason") == "barrier":
        details = result.get("details") or {}
        for name in details.get("barrier", []):
            _mark(draw, name, BARRIER_RING)
        for name in details.get("touching", []):
            box = _square_box(name)
            if box:
                draw.ellipse([box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1],
                             outline=BARRIER_RING, width=4)

    _draw_bars(img, view, names, locale)
    return img


def _draw_review(img: Image.Image, review: Any) -> None:
    """A game review's turn played and better turn (see render.arrows), from the position
    before the turn, from square centre to square centre."""
    def centre(name: Any) -> tuple[float, float] | None:
        if _square_xy(name) is None:
            return None
        x, y = _centre(name)
        return x - ORIGIN[0], y - ORIGIN[1]

    def trim(move: dict[str, Any], _: bool) -> tuple[float, float]:
        return CELL * 0.12, CELL * 0.18

    paste_layer(img, review_overlay((BOARD_PX, BOARD_PX), review, centre, width=10, trim=trim),
                ORIGIN)


def _paste_pieces(img: Image.Image, view: dict[str, Any]) -> None:
    for name, stone in (view.get("board") or {}).items():
        box = _square_box(name)
        seat = stone.get("seat")
        if box and seat in (0, 1):
            sprite = _stone(seat, bool(stone.get("character")))
            img.paste(sprite, box[:2], sprite)


def _sample_view(side: str, to_move: int | None, winner: int | None) -> dict[str, Any]:
    """A made-up position showing every sprite, arrow style and bar colour of one side."""
    board = {}
    for i, f in enumerate("abcdefg"):
        board[f"{f}{1 + i % 3}"] = {"seat": 0, "character": i == 3}
        board[f"{f}{7 - i % 3}"] = {"seat": 1, "character": i == 3}
    moves = [{"kind": "stone", "from": "a4", "to": "a6"}, {"kind": "stone", "from": "g4", "to": "d4"},
             {"kind": "character", "from": "d1", "to": "g4"}]
    return {
        "options": {"version": "arashi", "setup": "standard", "board": side},
        "board": board, "pits": ["c3", "e3", "c5", "e5"] if side == "storm" else [],
        "to_move": to_move, "turn": 12, "draw_offer": 1,
        "current_turn": {"seat": to_move, "actions": [{"kind": "stone", "from": "b2", "to": "b5"},
                                                      {"kind": "character", "from": "e1", "to": "b4"}],
                         "stone_moves_left": 1, "character_move_left": True, "can_end": True},
        "last_turn": {"seat": 1, "turn": 11, "actions": moves},
        "review": {"played": [{"from": "c1", "to": "c4"}, {"from": "f2", "to": "f5"},
                              {"from": "a3", "to": "a6"}],
                   "better": [{"from": "c1", "to": "c4"}, {"from": "g7", "to": "g5"},
                              {"from": "b6", "to": "e6"}]},
        "choice": {"from": "d1", "to": ["a1", "d4", "e2"]},
        "finished": winner is not None,
        "result": None if winner is None else {
            "winners": [winner], "reason": "barrier", "draw": False,
            "details": {"barrier": ["a2", "b2", "c2", "d1", "e2", "f3", "g2"],
                        "touching": ["b3", "d2", "f4"]}},
    }


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    samples = [_compose(_sample_view(side, to_move, winner), ["Sample", "Sample"])
               for side in SIDES for to_move, winner in ((0, None), (1, None), (None, 0))]
    sheet = Image.new("RGB", (WIDTH * len(samples), HEIGHT))
    for i, sample in enumerate(samples):
        sheet.paste(sample, (i * WIDTH, 0))
    return sheet.quantize(256, method=Image.Quantize.MEDIANCUT)
