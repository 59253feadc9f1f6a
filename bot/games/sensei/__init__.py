"""Sensei (Ferti 2016, after Diaballik): two players, stones and a character, pure rules."""
from __future__ import annotations

from .game import Sensei
from .notation import format_action, format_turn, parse_action, parse_turn
from .turns import check_turn, legal_turns, play_turn

__all__ = ["Sensei", "parse_turn", "parse_action", "format_turn", "format_action",
           "check_turn", "play_turn", "legal_turns"]
