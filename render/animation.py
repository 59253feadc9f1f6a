"""An animated picture of a whole game: one frame per turn, from pictures already drawn."""
from __future__ import annotations

import io
from typing import Callable, Sequence

from PIL import Image

#: milliseconds each position stays on screen (the last one longer)
FRAME_MS = 900
LAST_MS = 3000


def animate(views: Sequence[dict], names: list[str], locale: str,
            render: Callable[[dict, list[str], str], bytes]) -> bytes:
    """A looping GIF of ``views`` (public views, oldest first) drawn by ``render``."""
    frames = [Image.open(io.BytesIO(render(view, names, locale))) for view in views]
    frames = [frame.convert("P") if frame.mode != "P" else frame for frame in frames]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_MS]
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=durations,
                   loop=0)
    return buf.getvalue()
