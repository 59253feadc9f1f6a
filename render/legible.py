"""What a picture must be to read on a phone, and how a renderer says a shape is decoration.

Discord shows a posted picture scaled down to fit the chat column, whole and never enlarged. On a
phone that column is about 400 px wide, and a picture taller than wide is capped in height too;
we take that cap as 500 px (about 1¼ the width). So a picture is seen at
``min(400 / width, 500 / height)`` of its size; ``display_scale`` gives that factor.

Seen at that scale, a picture is legible when
- every text's capital letters are at least 8 px tall: the capitals of an 11 px DejaVu Sans
  (0.73 em). Capital height is used rather than the nominal font size because it is what the eye
  reads and it can be measured on any font a name falls back to, whose em may hold smaller or
  bigger letters;
- every mark (a piece, an arrow, a highlight, a line that tells something) has a WCAG contrast
  of at least 3:1 with what surrounds it, and text at least 4.5:1;
- every player colour is also told by a letter or a shape.
``tests/render/test_phone_legibility.py`` measures all of it on the drawn pictures.
"""
from __future__ import annotations

from PIL import ImageDraw

#: the box a phone fits a picture in, in its pixels
PHONE_BOX = (400, 500)


def display_scale(size: tuple[int, int]) -> float:
    """How much a picture of ``size`` is scaled to fit a phone's chat column."""
    return min(1.0, PHONE_BOX[0] / size[0], PHONE_BOX[1] / size[1])


class Decor(ImageDraw.ImageDraw):
    """Draws shapes that carry no meaning of their own: shading, texture, a panel behind text, a
    halo that parts a mark from what lies under it, an eraser. These may sit close to their
    background's colour; every shape drawn any other way is held to the 3:1 contrast of a mark."""
