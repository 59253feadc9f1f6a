"""PNG encoding tuned for speed: board pictures are flat colours, so light zlib is enough."""
from __future__ import annotations

import io

from PIL import Image


def to_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=3)
    return buf.getvalue()
