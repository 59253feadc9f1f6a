"""Fonts and text: the bundled DejaVu Sans first, so pictures look the same on every host; for a
character it lacks (a CJK name, another script), a font found on the host that has it.

Text is split into runs of characters drawn with one font each and drawn run after run on one
baseline. A character no font has is left out, so a name never shows empty boxes; the seat's
number is always drawn with it (``seat_label``), so two names that lose every character still
differ. Debian's ``fonts-noto-cjk`` (or ``fonts-wqy-zenhei``) gives Chinese, Japanese and Korean.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from PIL import ImageDraw, ImageFont

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


def runs(text: str, size: int, bold: bool = False) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """``text`` as runs of characters that one font draws, with that font; characters that no
    font has are left out."""
    parts: list[tuple[str, str]] = []
    for ch in text:
        path = source(ch, bold)
        if path is None:
            continue
        if parts and parts[-1][1] == path:
            parts[-1] = (parts[-1][0] + ch, path)
        else:
            parts.append((ch, path))
    return [(run, _sized(path, size, bold)) for run, path in parts]


def _sized(path: str, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    if path == _bundled(bold):
        return font(size, bold)
    if path == _bundled(False):
        return font(size)
    face = _face(path, size)
    assert face is not None
    return face


def printable(text: str, bold: bool = False) -> str:
    """``text`` without the characters no font can draw, its spaces collapsed."""
    return " ".join("".join(ch for ch in text if source(ch, bold)).split())


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
        draw.text((x, y), run, font=face, anchor="ls", **kwargs)
        x += face.getlength(run)
