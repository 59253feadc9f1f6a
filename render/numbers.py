"""Numbers as people write them in the pictures and their words (no Pillow: the alt text uses it)."""
from __future__ import annotations


def number(value: float) -> str:
    """1, 1½, 2.25: halves as people write them, other fractions as decimals."""
    whole = int(value)
    if value == whole:
        return str(whole)
    if value - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{value:.2f}".rstrip("0")
