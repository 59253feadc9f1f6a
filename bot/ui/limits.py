"""Discord's size limits, and the one way text is fitted into them (an ellipsis shows the cut)."""
from __future__ import annotations

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_VALUE = 1024
BUTTON_LABEL = 80
OPTION_LABEL = 100
OPTION_DESCRIPTION = 100
PLACEHOLDER = 150
CUSTOM_ID = 100
SELECT_OPTIONS = 25
THREAD_NAME = 100
ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[:limit - len(ELLIPSIS)].rstrip() + ELLIPSIS
