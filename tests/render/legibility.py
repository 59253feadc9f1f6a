"""Measuring a picture as a phone shows it: what was drawn, where it ended up, and how it reads.

``Tracer`` wraps Pillow's drawing calls (text and every shape primitive) and the image operations
that move drawn things around (copy, resize, crop, paste, convert, quantize). Each drawn thing is
remembered with the image it was drawn on; when that image is resized into a sprite, pasted into a
bigger picture or copied from a cache, the things it holds follow with their new scale and offset.
So for the picture that is finally encoded, every text and shape is known in that picture's own
pixels, however many cached layers and supersampled sprites it went through.

``see`` then reads the final picture around each of them: the size of text at phone scale, and
the WCAG contrast of each mark with what it was drawn on (the final pixels just around where it
shows that came from things drawn before it, not things drawn over it later).
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Iterator

from PIL import (Image, ImageChops, ImageColor, ImageDraw, ImageFilter, ImageFont,
                 ImageStat)

import render
from render import fonts
from render.legible import Decor, display_scale

#: shape primitives the renderers use; another one must be taught to ``_footprint`` first
SHAPES = ("line", "polygon", "ellipse", "rectangle", "rounded_rectangle", "arc")
#: what the tracer attaches to an image: [(drawn thing, scale x, scale y, dx, dy)]
_ATTR = "_traced"
#: a mark counts where its own drawing covers at least this much of a final pixel (of 255)
_COVERED = 8


@dataclass(eq=False)
class Drawn:
    """One call to a drawing primitive, in the pixels of the image it was drawn on."""
    kind: str  # "text" or the primitive's name
    args: dict[str, Any]
    decor: bool  # drawn through ``render.legible.Decor``: carries no meaning
    text: str = ""
    font: ImageFont.FreeTypeFont | None = None
    _mask: tuple[int, int, Image.Image] | None = field(default=None, repr=False)

    @property
    def fill(self) -> tuple[int, ...] | None:
        return _rgba(self.args.get("fill"))

    @property
    def outline(self) -> tuple[int, ...] | None:
        return _rgba(self.args.get("outline")) if self.kind not in ("line", "arc") else None

    @property
    def width(self) -> float:
        return float(self.args.get("width") or (1 if self.kind in ("line", "arc") else 0))

    def mask(self) -> tuple[int, int, Image.Image]:
        """(left, top, coverage) of the call in its canvas's pixels, drawn again in white."""
        if self._mask is None:
            self._mask = _footprint(self)
        return self._mask


@dataclass(frozen=True)
class Placed:
    """A drawn thing in the final picture: canvas pixel (x, y) lands at (x·sx + dx, y·sy + dy)."""
    drawn: Drawn
    sx: float
    sy: float
    dx: float
    dy: float

    def moved(self, fx: float = 1, fy: float = 1, dx: float = 0, dy: float = 0) -> "Placed":
        return Placed(self.drawn, self.sx * fx, self.sy * fy, self.dx * fx + dx,
                      self.dy * fy + dy)


def _rgba(colour: Any) -> tuple[int, ...] | None:
    if colour is None:
        return None
    if isinstance(colour, str):
        colour = ImageColor.getrgb(colour)
    if isinstance(colour, int):
        colour = (colour,) * 3
    colour = tuple(int(v) for v in colour)
    return colour if len(colour) == 4 else colour[:3] + (255,)


def _points(xy: Any) -> list[tuple[float, float]]:
    flat: list[float] = []

    def walk(value: Any) -> None:
        if isinstance(value, (int, float)):
            flat.append(float(value))
        else:
            for part in value:
                walk(part)
    walk(xy)
    return list(zip(flat[0::2], flat[1::2]))


_ORIGINAL: dict[str, Any] = {name: getattr(ImageDraw.ImageDraw, name)
                             for name in ("text",) + SHAPES}


def _footprint(drawn: Drawn) -> tuple[int, int, Image.Image]:
    """The call drawn again, white on black, on a canvas just big enough for it."""
    args = dict(drawn.args)
    if drawn.kind == "text":
        draw = ImageDraw.Draw(Image.new("L", (1, 1)))
        left, top, right, bottom = draw.textbbox(args["xy"], drawn.text, font=drawn.font,
                                                 anchor=args.get("anchor"))
        left, top = int(left) - 2, int(top) - 2
        canvas = Image.new("L", (int(right) - left + 3, int(bottom) - top + 3))
        x, y = args["xy"]
        _ORIGINAL["text"](ImageDraw.Draw(canvas), (x - left, y - top), drawn.text, fill=255,
                          font=drawn.font, anchor=args.get("anchor"))
        return left, top, canvas
    points = _points(args["xy"])
    grow = drawn.width + 2
    left = int(min(x for x, _ in points) - grow)
    top = int(min(y for _, y in points) - grow)
    right = int(max(x for x, _ in points) + grow) + 1
    bottom = int(max(y for _, y in points) + grow) + 1
    canvas = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    args["xy"] = [(x - left, y - top) for x, y in points]
    for ink in ("fill", "outline"):
        if args.get(ink) is not None:
            args[ink] = 255
    args.pop("self", None)
    _ORIGINAL[drawn.kind](ImageDraw.Draw(canvas), **args)
    return left, top, canvas


def clear_render_caches() -> None:
    """Forget every cached layer and sprite, so the next pictures draw them (traced) again."""
    for info in pkgutil.iter_modules(render.__path__):
        module = importlib.import_module(f"render.{info.name}")
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def _traced(img: Image.Image) -> list[Placed]:
    return img.__dict__.setdefault(_ATTR, [])


class Tracer:
    """Records every drawing call and follows drawn things through image operations.

    Use as a context manager; ``pictures`` collects each picture that was encoded (PNG/GIF),
    with the things drawn into it."""

    def __init__(self) -> None:
        self.pictures: list[tuple[Image.Image, list[Placed]]] = []
        self._undo: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> "Tracer":
        for name in SHAPES:
            self._wrap_shape(name)
        self._wrap_text()
        self._wrap_image_ops()
        return self

    def __exit__(self, *exc: Any) -> None:
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)
        self._undo.clear()

    def _patch(self, owner: Any, name: str, replacement: Any) -> None:
        self._undo.append((owner, name, getattr(owner, name)))
        setattr(owner, name, replacement)

    def _wrap_shape(self, name: str) -> None:
        original = _ORIGINAL[name]
        signature = inspect.signature(original)

        @functools.wraps(original)
        def shape(draw: ImageDraw.ImageDraw, *args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(draw, *args, **kwargs)
            bound.apply_defaults()
            values = dict(bound.arguments)
            values.pop("self")
            _traced(draw._image).append(Placed(Drawn(name, values, isinstance(draw, Decor)),
                                               1, 1, 0, 0))
            return original(draw, *args, **kwargs)
        self._patch(ImageDraw.ImageDraw, name, shape)

    def _wrap_text(self) -> None:
        original = _ORIGINAL["text"]

        @functools.wraps(original)
        def text(draw: ImageDraw.ImageDraw, xy: Any, text: Any, fill: Any = None,
                 font: Any = None, anchor: Any = None, *args: Any, **kwargs: Any) -> Any:
            drawn = Drawn("text", {"xy": tuple(xy), "fill": fill, "anchor": anchor},
                          isinstance(draw, Decor), str(text), font)
            if str(text).strip():
                _traced(draw._image).append(Placed(drawn, 1, 1, 0, 0))
            return original(draw, xy, text, fill, font, anchor, *args, **kwargs)
        self._patch(ImageDraw.ImageDraw, "text", text)

    def _wrap_image_ops(self) -> None:
        image = Image.Image

        def follow(name: str, move: Any) -> None:
            original = getattr(image, name)

            @functools.wraps(original)
            def operation(img: Image.Image, *args: Any, **kwargs: Any) -> Any:
                result = original(img, *args, **kwargs)
                # Pillow's own operations call each other: the innermost one placed the things.
                if (isinstance(result, Image.Image) and result is not img
                        and _ATTR not in result.__dict__):
                    _traced(result).extend(move(img, result, *args, **kwargs))
                return result
            self._patch(image, name, operation)

        def same(img: Image.Image, result: Image.Image, *_: Any, **__: Any) -> list[Placed]:
            return list(_traced(img))

        def resized(img: Image.Image, result: Image.Image, *_: Any, **__: Any) -> list[Placed]:
            fx, fy = result.width / img.width, result.height / img.height
            return [p.moved(fx, fy) for p in _traced(img)]

        def cropped(img: Image.Image, result: Image.Image, box: Any = None,
                    **__: Any) -> list[Placed]:
            left, top = (box or (0, 0))[:2]
            return [p.moved(dx=-left, dy=-top) for p in _traced(img)]

        for name in ("copy", "convert", "quantize"):
            follow(name, same)
        follow("resize", resized)
        follow("crop", cropped)

        original_paste = image.paste

        @functools.wraps(original_paste)
        def paste(img: Image.Image, im: Any, box: Any = None, *args: Any, **kwargs: Any) -> Any:
            if isinstance(im, Image.Image):
                left, top = (box or (0, 0))[:2]
                _traced(img).extend(p.moved(dx=left, dy=top) for p in _traced(im))
            return original_paste(img, im, box, *args, **kwargs)
        self._patch(image, "paste", paste)

        original_save = image.save

        @functools.wraps(original_save)
        def save(img: Image.Image, *args: Any, **kwargs: Any) -> Any:
            self.pictures.append((img, list(_traced(img))))
            return original_save(img, *args, **kwargs)
        self._patch(image, "save", save)


# ----------------------------------------------------------------------------- measuring

def luminance(colour: tuple[int, ...]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def linear(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG 2 contrast ratio, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def over(colour: tuple[int, ...], background: tuple[int, ...]) -> tuple[int, ...]:
    """``colour`` (with its alpha) as it shows over ``background``."""
    alpha = colour[3] / 255 if len(colour) > 3 else 1.0
    return tuple(round(c * alpha + b * (1 - alpha)) for c, b in zip(colour[:3], background[:3]))


@functools.lru_cache(maxsize=64)
def cap_ratio(path: str, index: int) -> float:
    """Height of a capital H as a fraction of the font size, measured on the font itself; a
    face without Latin capitals (or one drawn only at its bitmaps' size: colour emoji) is taken
    at the bundled font's proportion."""
    try:
        big = ImageFont.truetype(path, 200, index=index)
    except OSError:
        return cap_ratio(fonts.font(1).path, 0)
    if bytes(big.getmask("H")) == bytes(big.getmask("\U0010fffd")):
        return cap_ratio(fonts.font(1).path, 0)
    _, top, _, bottom = big.getbbox("H")
    return (bottom - top) / 200


@dataclass
class Seen:
    """One drawn thing as the phone shows it."""
    placed: Placed
    scale: float  # final picture pixels to phone pixels
    #: where its own drawing covers the final picture (left, top, right, bottom)
    box: tuple[int, int, int, int]
    #: median colour of the final pixels 2 px around its visible part, leaving out pixels of
    #: its own inks (a line running into a line of its colour is one mark); None when nothing of
    #: it shows (drawn over, or off the picture) or nothing but itself surrounds it
    background: tuple[int, ...] | None

    @property
    def drawn(self) -> Drawn:
        return self.placed.drawn

    @property
    def centre(self) -> tuple[float, float]:
        return (self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2

    @property
    def shape(self) -> tuple[str, int]:
        """Its primitive, and for a polygon its number of corners."""
        corners = len(_points(self.drawn.args["xy"])) if self.drawn.kind == "polygon" else 0
        return self.drawn.kind, corners

    def overlaps(self, other: "Seen") -> bool:
        """Whether some final pixel is covered by both."""
        left, top = max(self.box[0], other.box[0]), max(self.box[1], other.box[1])
        right, bottom = min(self.box[2], other.box[2]), min(self.box[3], other.box[3])
        if right <= left or bottom <= top:
            return False
        masks = []
        for thing in (self, other):
            where = _where(thing.placed)
            masks.append(where.core.crop((left - where.left, top - where.top,
                                          right - where.left, bottom - where.top)))
        return ImageChops.multiply(*masks).getbbox() is not None

    @property
    def cap_px(self) -> float:
        """Height of capitals in phone pixels (text only)."""
        font = self.drawn.font
        assert isinstance(font, ImageFont.FreeTypeFont), self.drawn.text
        return cap_ratio(font.path, font.index) * font.size * self.placed.sy * self.scale

    @property
    def stroke_px(self) -> float:
        """Thickness of a line, arc or outline in phone pixels."""
        return self.drawn.width * self.placed.sy * self.scale

    @property
    def is_stroke(self) -> bool:
        """Drawn as a line only: a line, an arc, or an outline with nothing inside."""
        return self.drawn.kind in ("line", "arc") or (self.drawn.kind != "text"
                                                      and self.drawn.fill is None)

    def contrast(self) -> float:
        """Best contrast of the thing's inks (outline or fill; text ink) with its surroundings."""
        assert self.background is not None
        return max(contrast(over(ink, self.background), self.background)
                   for ink in _inks(self.drawn))


def _inks(drawn: Drawn) -> list[tuple[int, ...]]:
    outline = drawn.outline if drawn.width else None
    return [c for c in (outline, drawn.fill) if c is not None]


def _threshold(least: int) -> list[int]:
    return [255 if v >= least else 0 for v in range(256)]


_COVERED_LUT, _CORE_LUT = _threshold(_COVERED), _threshold(200)


@dataclass(frozen=True)
class _Where:
    """A drawn thing's masks in the final picture, the same in every picture it is part of."""
    left: int
    top: int
    covered: Image.Image  # its drawing touches the pixel at all
    core: Image.Image  # its drawing covers the pixel (almost) whole
    beside: Image.Image  # pixels within 2 px of ``core``, but not 1 px of ``covered``

    @property
    def box(self) -> tuple[int, int, int, int]:
        left, top, right, bottom = self.covered.getbbox() or (0, 0, 0, 0)
        return self.left + left, self.top + top, self.left + right, self.top + bottom


def _saturated(mask: Image.Image) -> Image.Image:
    """255 wherever ``mask`` is not 0 (cheaper than ``point`` for a mask made per picture)."""
    return ImageChops.add(mask, mask, scale=1 / 128)


def _grown(mask: Image.Image, by: int) -> Image.Image:
    """``mask`` (0 or 255) grown by ``by`` pixels each way (a box blur is cheap at any size)."""
    return _saturated(mask.filter(ImageFilter.BoxBlur(by)))


@functools.lru_cache(maxsize=1 << 16)
def _where(placed: Placed) -> _Where:
    left, top, mask = placed.drawn.mask()
    width = max(1, round(mask.width * placed.sx))
    height = max(1, round(mask.height * placed.sy))
    if (width, height) != mask.size:
        mask = mask.resize((width, height), Image.BOX)
    pad = 4
    framed = Image.new("L", (width + 2 * pad, height + 2 * pad))
    framed.paste(mask, (pad, pad))
    covered, core = framed.point(_COVERED_LUT), framed.point(_CORE_LUT)
    beside = ImageChops.subtract(_grown(core, 2), _grown(covered, 1))
    return _Where(round(left * placed.sx + placed.dx) - pad,
                  round(top * placed.sy + placed.dy) - pad, covered, core, beside)


def _showing(pixels: Image.Image, inks: list[tuple[int, ...]]) -> Image.Image:
    """Mask of the pixels that look like one of ``inks`` (a translucent ink may be tinted)."""
    found = Image.new("L", pixels.size)
    for ink in inks:
        diff = ImageChops.difference(pixels, Image.new("RGB", pixels.size, ink[:3])).split()
        worst = ImageChops.lighter(ImageChops.lighter(diff[0], diff[1]), diff[2])
        tolerance = Image.new("L", pixels.size, 29 + (255 - ink[3]))
        found = ImageChops.lighter(found, _saturated(ImageChops.subtract(tolerance, worst)))
    return found


def _layers(size: tuple[int, int], wheres: list[_Where]) -> Image.Image:
    """Which drawn thing (1-based, in drawing order) covers each pixel last; 0 for none."""
    layers = Image.new("I", size, 0)
    for n, where in enumerate(wheres, 1):
        layers.paste(n, (where.left, where.top), where.core)
    return layers


def _seen(rgb: Image.Image, layers: Image.Image, n: int, placed: Placed, where: _Where,
          scale: float) -> Seen:
    box = (where.left, where.top, where.left + where.covered.width,
           where.top + where.covered.height)
    clip = (max(0, box[0]), max(0, box[1]), min(rgb.width, box[2]), min(rgb.height, box[3]))
    if clip[2] <= clip[0] or clip[3] <= clip[1]:
        return Seen(placed, scale, where.box, None)
    pixels = rgb.crop(clip)
    order = layers.crop(clip)
    # 255 where drawn before thing n (z < n), and where n shows (z == n): a linear map of the
    # 32-bit layer numbers that converting to 8 bits clips to 0 or 255 (quicker than ImageMath)
    under = order.point(lambda z: z * -255 + 255 * n).convert("L")
    last = ImageChops.subtract(order.point(lambda z: z * -255 + 255 * (n + 1)).convert("L"), under)
    at = (clip[0] - box[0], clip[1] - box[1])
    # Cached layers put the same thing among the same pixels in most pictures.
    digest = hashlib.blake2b(pixels.tobytes() + under.tobytes() + last.tobytes(),
                             digest_size=16).digest()
    key = (placed, at, digest)
    if key not in _BACKGROUNDS:
        _BACKGROUNDS[key] = _background(where, pixels, under, last, at, _inks(placed.drawn))
    return Seen(placed, scale, where.box, _BACKGROUNDS[key])


_BACKGROUNDS: dict[tuple[Placed, tuple[int, int], bytes], tuple[int, ...] | None] = {}


def _background(where: _Where, pixels: Image.Image, under: Image.Image, last: Image.Image,
                at: tuple[int, int], inks: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """Median colour of what the thing was drawn on, right around where it shows."""
    inner = (at[0], at[1], at[0] + pixels.width, at[1] + pixels.height)
    own = _showing(pixels, inks)
    visible = ImageChops.multiply(ImageChops.multiply(where.core.crop(inner), own), last)
    if not visible.getbbox():
        return None
    ring = ImageChops.multiply(_grown(visible, 2), where.beside.crop(inner))
    # Only what lay there before it counts, and not pixels of its own colour (a line running
    # into a line of its colour is one mark).
    ring = ImageChops.subtract(ImageChops.multiply(ring, under), own)
    if not ring.getbbox():
        return None
    return tuple(int(v) for v in ImageStat.Stat(pixels, ring).median)


def see(picture: Image.Image, placed: list[Placed]) -> Iterator[Seen]:
    """Every drawn thing of ``picture`` as a phone shows it."""
    rgb = picture.convert("RGB")
    scale = display_scale(rgb.size)
    wheres = [_where(p) for p in placed]
    layers = _layers(rgb.size, wheres)
    for n, (p, where) in enumerate(zip(placed, wheres), 1):
        # Decoration is held to nothing: where it is, and that it lies under the rest, is enough.
        yield Seen(p, scale, where.box, None) if p.drawn.decor else \
            _seen(rgb, layers, n, p, where, scale)
