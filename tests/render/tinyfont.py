"""A tiny TrueType font made on the spot, so tests of the font fallback never depend on which
fonts the machine happens to have."""
from __future__ import annotations

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

UNITS = 1000


def _glyph(bars: int, weight: int):
    """``bars`` upright bars of ``weight`` units: each character gets its own look."""
    pen = TTGlyphPen(None)
    step = 800 // max(1, bars)
    for i in range(bars):
        left = 100 + i * step
        pen.moveTo((left, 0))
        pen.lineTo((left, 700))
        pen.lineTo((left + weight, 700))
        pen.lineTo((left + weight, 0))
        pen.closePath()
    return pen.glyph()


def make_font(path: Path, chars: str, weight: int = 60, family: str = "Tiny Test") -> Path:
    """A font at ``path`` that has "H" and ``chars`` (and nothing else), each a pattern of bars
    ``weight`` units thick; its missing-character glyph is empty."""
    names = [".notdef", "H"] + [f"uni{ord(ch):04X}" for ch in chars]
    builder = FontBuilder(UNITS, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord("H"): "H", **{ord(ch): f"uni{ord(ch):04X}" for ch in chars}})
    empty = TTGlyphPen(None).glyph()
    glyphs = {".notdef": empty, "H": _glyph(2, weight)}
    glyphs.update({f"uni{ord(ch):04X}": _glyph(2 + i % 4, weight) for i, ch in enumerate(chars)})
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics({name: (UNITS, 0) for name in names})
    builder.setupHorizontalHeader(ascent=880, descent=-120)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120)
    builder.setupPost()
    builder.save(str(path))
    return path
