"""Fonts and text: the bundled DejaVu Sans first, so pictures look the same on every host; for a
character it lacks (a CJK name, another script), a font found on the host that has it.

Text is split into runs of characters drawn with one font each and drawn run after run on one
baseline. A character no font has is left out, so a name never shows empty boxes; the seat's
number is always drawn with it (``seat_label``), so two names that lose every character still
differ. Debian's ``fonts-noto-cjk`` (or ``fonts-wqy-zenhei``) gives Chinese, Japanese and Korean.

Colour emoji ("Chloé 🌸") come from a colour bitmap font such as Debian's
``fonts-noto-color-emoji``. FreeType draws such a font only at the size of its bitmaps, so an
emoji is drawn at that size and scaled to the text's; a sequence (👩‍💻, 👍🏽, 🇫🇷) stays one
picture. Without such a font emoji are left out like any other character no font has.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from PIL import Image, ImageDraw, ImageFont

_DIR = Path(__file__).with_name("fonts")
#: where fonts for characters DejaVu lacks are looked for (fontconfig's usual places)
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"),
             Path.home() / ".local/share/fonts", Path.home() / ".fonts")
_SUFFIXES = (".ttf", ".otf", ".ttc")
#: faces that cover whole scripts, tried before the rest
_BROAD = ("notosanscjk", "sourcehansans", "wqy-zenhei", "wqy-microhei", "droidsansfallback",
          "notosans")
#: file names of a family's other styles: found through the regular face, never tried alone
_STYLES = ("bold", "italic", "oblique", "light", "thin", "black", "medium", "heavy",
           "condensed", "semibold", "extra", "demi")
_CHECK_SIZE = 24  # size at which a font is asked whether it has a character
_SEPARATOR = " · "  # between a seat's number and its player's name
#: the one size a colour bitmap emoji font draws at (Noto Color Emoji's strike)
EMOJI_STRIKE = 109
#: characters that only join or dress the emoji before them (ZWJ, the emoji variation selector,
#: the keycap mark, the tags of subdivision flags)
_JOINERS = frozenset("\u200d\ufe0f\u20e3") | frozenset(map(chr, range(0xE0020, 0xE0080)))
_EMOJI_STYLE = "\ufe0f"
_KEYCAP = "\u20e3"
_KEYCAPS = frozenset("0123456789#*")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled face."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_DIR / name), size)


@lru_cache(maxsize=1)
def system_fonts() -> tuple[Path, ...]:
    """Regular faces on the host, in the order they are tried for a missing character: sans
    faces of broad coverage first, serif and monospace last."""
    # os.walk neither follows links into loops nor stops at an unreadable folder.
    found = {Path(top, name) for folder in FONT_DIRS for top, _, files in os.walk(folder)
             for name in files if Path(name).suffix.lower() in _SUFFIXES}

    def rank(path: Path) -> tuple[bool, bool, str]:
        name = path.name.lower()
        return ("serif" in name or "mono" in name,
                not any(family in name for family in _BROAD), name)
    return tuple(sorted((p for p in found if not any(s in p.stem.lower() for s in _STYLES)),
                        key=rank))


@lru_cache(maxsize=256)
def _face(path: str, size: int) -> ImageFont.FreeTypeFont | None:
    try:
        return ImageFont.truetype(path, size)
    except OSError:  # not a font Pillow can scale (a colour bitmap emoji font, a broken file)
        return None


@lru_cache(maxsize=256)
def _tofu(path: str) -> bytes:
    """What the font draws for a character it does not have."""
    face = _face(path, _CHECK_SIZE)
    assert face is not None
    return bytes(face.getmask("\U0010fffd"))


@lru_cache(maxsize=16384)
def _has(path: str, ch: str) -> bool:
    face = _face(path, _CHECK_SIZE)
    return face is not None and bytes(face.getmask(ch)) != _tofu(path)


@lru_cache(maxsize=1)
def emoji_font() -> ImageFont.FreeTypeFont | None:
    """The host's colour emoji font at its bitmap size, None when there is none."""
    for path in system_fonts():
        if "emoji" not in path.name.lower() or _face(str(path), _CHECK_SIZE) is not None:
            continue
        try:
            face = ImageFont.truetype(str(path), EMOJI_STRIKE)
        except OSError:
            continue
        if _emoji_has(face, "\U0001f600"):
            return face
    return None


def _emoji_has(face: ImageFont.FreeTypeFont, ch: str) -> bool:
    left, top, right, bottom = face.getbbox(ch)
    return bottom > top


@lru_cache(maxsize=4096)
def is_emoji(ch: str) -> bool:
    """Whether the colour emoji font draws ``ch`` (digits and ``#`` aside: those it has only
    to build keycaps, and text fonts draw them)."""
    face = emoji_font()
    return face is not None and not ch.isascii() and _emoji_has(face, ch)


class EmojiFace:
    """Stands for a font in a run of emoji: measures and draws them from the bitmap font,
    scaled to ``size``."""

    def __init__(self, size: int) -> None:
        face = emoji_font()
        assert face is not None
        self.face = face
        self.path = face.path
        self.size = size
        self.scale = size / EMOJI_STRIKE

    def getlength(self, text: str) -> float:
        return self.face.getlength(text) * self.scale

    def draw(self, image: Image.Image, x: float, baseline: float, text: str) -> None:
        """``text`` on ``image`` with its baseline at ``baseline``, starting at ``x``."""
        ascent, descent = self.face.getmetrics()
        strip = Image.new("RGBA", (max(1, round(self.face.getlength(text))), ascent + descent))
        ImageDraw.Draw(strip).text((0, 0), text, font=self.face, embedded_color=True)
        width = max(1, round(strip.width * self.scale))
        height = max(1, round(strip.height * self.scale))
        strip = strip.resize((width, height), Image.Resampling.LANCZOS)
        left, top = round(x), round(baseline - ascent * self.scale)
        if image.mode == "RGBA":
            # Composited (a layer's own transparency kept) over what is there; crop and paste
            # take a place partly off the picture, which older Pillow's alpha_composite refuses.
            behind = image.crop((left, top, left + width, top + height))
            image.paste(Image.alpha_composite(behind, strip), (left, top))
        else:
            image.paste(strip, (left, top), strip)


def _bold_face(path: Path) -> Path:
    """The bold face of the family of ``path`` when it is installed, else ``path`` itself."""
    stem = path.stem
    names = [stem.replace("Regular", "Bold"), f"{stem}-Bold", f"{stem}Bold", f"{stem}bd"]
    return next((path.with_name(name + path.suffix) for name in names
                 if name != stem and path.with_name(name + path.suffix).is_file()), path)


def _bundled(bold: bool) -> str:
    return str(_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"))


@lru_cache(maxsize=4096)
def source(ch: str, bold: bool = False) -> str | None:
    """Path of the font that draws ``ch`` (bold if it can), None when no font has it."""
    if ch.isspace():
        return _bundled(bold)
    for path in (_bundled(bold), _bundled(False)):
        if _has(path, ch):
            return path
    for path in system_fonts():
        if _has(str(path), ch):
            return str(_bold_face(path) if bold else path)
    return None


Face = ImageFont.FreeTypeFont | EmojiFace
_EMOJI = "emoji"  # the source of a run of emoji


def _sources(text: str, bold: bool) -> list[tuple[str, str | None]]:
    """Each character of ``text`` with the font that draws it (``_EMOJI`` for the emoji font,
    None for none). An emoji wins over a text font's plain glyph when the emoji variation
    selector asks for it (❤️), and joiners go with the emoji before them."""
    out: list[tuple[str, str | None]] = []
    for i, ch in enumerate(text):
        if ch in _JOINERS:
            out.append((ch, _EMOJI if out and out[-1][1] == _EMOJI else None))
            continue
        keycap = ch in _KEYCAPS and _KEYCAP in text[i + 1:i + 3]
        emoji = is_emoji(ch) or keycap and emoji_font() is not None
        asked = keycap or text[i + 1:i + 2] == _EMOJI_STYLE
        path = _EMOJI if emoji and asked else source(ch, bold)
        if path is None and emoji:
            path = _EMOJI
        out.append((ch, path))
    return out


def runs(text: str, size: int, bold: bool = False) -> list[tuple[str, Face]]:
    """``text`` as runs of characters that one font draws, with that font; characters that no
    font has are left out."""
    parts: list[tuple[str, str]] = []
    for ch, path in _sources(text, bold):
        if path is None:
            continue
        if parts and parts[-1][1] == path:
            parts[-1] = (parts[-1][0] + ch, path)
        else:
            parts.append((ch, path))
    return [(run, _sized(path, size, bold)) for run, path in parts]


def _sized(path: str, size: int, bold: bool) -> Face:
    if path == _EMOJI:
        return EmojiFace(size)
    if path == _bundled(bold):
        return font(size, bold)
    if path == _bundled(False):
        return font(size)
    face = _face(path, size)
    assert face is not None
    return face


def printable(text: str, bold: bool = False) -> str:
    """``text`` without the characters no font can draw, its spaces collapsed."""
    return " ".join("".join(ch for ch, path in _sources(text, bold) if path).split())


def text_width(text: str, size: int, bold: bool = False) -> float:
    return sum(face.getlength(run) for run, face in runs(text, size, bold))


def ellipsize(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` cut to fit ``width`` pixels, ending in an ellipsis when it had to be cut."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def seat_label(number: int, name: str, width: float, size: int, bold: bool = False,
               unnamed: str = "") -> str:
    """How a picture names a seat: its number, then what of ``name`` some font can draw, cut
    to fit ``width`` ("3 · 李小龍"). When nothing of the name can be drawn, ``unnamed`` in its
    place ("1 · Green"), or alone when it names the number itself ("Player 3")."""
    shown = printable(name, bold) or unnamed
    if not shown or shown == unnamed and str(number) in unnamed:
        return ellipsize(shown or str(number), width, size, bold)
    prefix = f"{number}{_SEPARATOR}"
    return prefix + ellipsize(shown, width - text_width(prefix, size, bold), size, bold)


def with_name(sentence: Callable[[str], str], name: Callable[[float], str], width: float,
              size: int, bold: bool = False) -> str:
    """``sentence(name)`` fitting ``width``: only the name is shortened, so the rest of the
    sentence always shows wherever the language puts the name. ``name(room)`` gives the name
    fitted to ``room`` pixels (e.g. a ``seat_label``)."""
    return sentence(name(width - text_width(sentence(""), size, bold)))


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              bold: bool = False, anchor: str = "la", **kwargs: Any) -> None:
    """``draw.text`` for text in any script: each run in its own font, all on the baseline the
    bundled font would use for ``anchor`` (horizontal l/m/r, vertical a/m/s/d)."""
    parts = runs(text, size, bold)
    base = font(size, bold)
    if len(parts) == 1 and parts[0][1] is base:
        draw.text(xy, parts[0][0], font=base, anchor=anchor, **kwargs)
        return
    total = sum(face.getlength(run) for run, face in parts)
    ascent, descent = base.getmetrics()
    x = xy[0] - {"l": 0, "m": total / 2, "r": total}[anchor[0]]
    y = xy[1] + {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}[anchor[1]]
    for run, face in parts:
        if isinstance(face, EmojiFace):
            face.draw(draw._image, x, y, run)
        else:
            draw.text((x, y), run, font=face, anchor="ls", **kwargs)
        x += face.getlength(run)
