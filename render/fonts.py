"""Fonts shipped with the project so pictures look the same on every host."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

_DIR = Path(__file__).with_name("fonts")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_DIR / name), size)


def ellipsize(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` cut to fit ``width`` pixels, ending in an ellipsis when it had to be cut."""
    face = font(size, bold)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
