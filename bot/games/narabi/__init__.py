"""Narabi (Daniel Fehr, 2018): cooperative, 3–5 players, hidden switching conditions."""
from __future__ import annotations

from .rules import Narabi

__all__ = ["Narabi"]
