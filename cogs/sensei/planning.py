"""The buttons that plan a Sensei turn: a piece, then where it goes, and the plan as
custom_id text. One builder for every place a turn is planned (a table's private menu, a
puzzle, a lesson); each passes how its buttons' custom_ids are made, so the controls look and
work the same everywhere."""
from __future__ import annotations

from typing import Any, Callable

import discord

from bot.domain.tables import TableError
from bot.games import IllegalAction
from bot.games.sensei import Sensei
from bot.games.sensei.notation import MAX_ACTIONS, format_action, parse_action
from bot.i18n import t
from bot.markdown import md
from bot.ui.routing import button

#: what a "from" button names instead of a square when the character is to move
CHARACTER = "char"
SEAT_MARK = ("🟢", "🔴")


def piece_buttons(game: Sensei, seat: int, picked: Callable[[str], str],
                  locale: str) -> tuple[list[discord.ui.Item], str | None]:
    """A button per stone that can move (its square) and one for the character (⛩️ its
    square) when it can jump; ``picked(piece)`` makes a button's custom_id (``piece`` is a
    square or ``CHARACTER``). Also what to ask: None when nothing can move."""
    stones = game.movable_stones(seat)
    items: list[discord.ui.Item] = [button(picked(square), square, emoji=SEAT_MARK[seat])
                                    for square in stones]
    jumps = bool(game.character_targets(seat))
    if jumps:
        at = game.public_view()["characters"][seat]
        items.append(button(picked(CHARACTER), at, emoji="⛩️",
                            style=discord.ButtonStyle.primary))
    if not (stones or jumps):
        return items, None
    return items, t("sensei.step.pick" if stones and jumps else
                    "sensei.step.pick_stone" if stones else "sensei.step.pick_character", locale)


def target_buttons(game: Sensei, seat: int, piece: str, planned: Callable[[dict[str, Any]], str],
                   locale: str) -> tuple[list[discord.ui.Item], str, dict[str, Any]]:
    """A button per square ``piece`` may reach (a stone reaches at most 12 squares, a
    character at most 6 stones); ``planned(action)`` makes the custom_id of the button that
    adds that action. Also what to say, and the picture's mark of the piece and its targets
    (the ``choice`` of the public view)."""
    if piece == CHARACTER:
        frm = game.public_view()["characters"][seat]
        kind, targets = "character", game.character_targets(seat)
        text = md("sensei.step.character_to", locale, square=frm)
    else:
        frm = piece
        kind = "stone"
        targets = game.stone_destinations(seat, piece) if piece else []
        text = md("sensei.step.stone_to", locale, square=frm)
    items: list[discord.ui.Item] = [
        button(planned({"type": kind, "from": frm, "to": to}), to) for to in targets]
    return items, text, {"from": frm, "to": targets}


def encode_plan(plan: list[dict[str, Any]]) -> str:
    """A plan as custom_id text: ``c2-c5_xd1-c5`` (``x`` for the character's ``*``, which a
    custom_id route does not carry)."""
    return "_".join(format_action(a).replace("*", "x") for a in plan)


def decode_plan(text: str) -> list[dict[str, Any]]:
    tokens = [token for token in text.split("_") if token]
    if len(tokens) > MAX_ACTIONS:
        raise TableError("stale")
    try:
        return [parse_action(token.replace("x", "*", 1) if token.startswith("x") else token)
                for token in tokens]
    except IllegalAction:
        raise TableError("stale") from None
