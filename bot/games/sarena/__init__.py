"""Sàréná: 2-4 players move piles of two-faced chips; each secretly owns one colour."""
from __future__ import annotations

from .notation import format_move, parse_move
from .playout import playout
from .rules import Sarena

__all__ = ["Sarena", "parse_move", "format_move", "playout"]
