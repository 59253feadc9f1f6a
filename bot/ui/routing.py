"""custom_id routing: ``<game>:<table id>:<verb>[:<arg>]`` for every component the bot sends.

The router reads a click's custom_id straight from the interaction (Router.on_component), so a
click on any message, sent before or after a restart, is routed by its custom_id alone; nothing
is kept in memory per message, and no view is rebuilt from the clicked message.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import discord
from discord import ui

from ..games.registry import KEY_PATTERN, is_game
from .limits import (BUTTON_LABEL, CUSTOM_ID, OPTION_DESCRIPTION, OPTION_LABEL, PLACEHOLDER,
                     SELECT_OPTIONS, clip)

log = logging.getLogger(__name__)

# Any key-shaped game: the registry, not this pattern, says which games exist, so a new game
# needs no edit here. A match is only a route once its game is known (Route.from_match).
ROUTE = re.compile(
    rf"(?P<game>{KEY_PATTERN}):(?P<table>[1-9][0-9]{{0,17}}):(?P<verb>[a-z_]{{1,16}})"
    r"(?::(?P<arg>[A-Za-z0-9_.\-]{1,64}))?")


@dataclass(frozen=True)
class Route:
    game: str
    table: int
    verb: str
    arg: str | None = None

    @property
    def custom_id(self) -> str:
        base = f"{self.game}:{self.table}:{self.verb}"
        return base if self.arg is None else f"{base}:{self.arg}"

    def args(self) -> list[str]:
        """The dot-separated parts of ``arg`` (version, choices …)."""
        return [] if self.arg is None else self.arg.split(".")

    @classmethod
    def parse(cls, custom_id: str) -> "Route | None":
        match = ROUTE.fullmatch(custom_id)
        return None if match is None else cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> "Route | None":
        """None for a game the registry does not know: such a custom_id is garbage."""
        if not is_game(match["game"]):
            return None
        return cls(match["game"], int(match["table"]), match["verb"], match["arg"])


def route(game: str, table: int, verb: str, *args: Any) -> str:
    custom_id = Route(game, table, verb, ".".join(str(a) for a in args) if args else None).custom_id
    if Route.parse(custom_id) is None or len(custom_id) > CUSTOM_ID:
        raise ValueError(f"not a routable custom_id: {custom_id}")
    return custom_id


def button(custom_id: str, label: str, *, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           emoji: str | None = None, disabled: bool = False, row: int | None = None) -> ui.Button:
    # An emoji-only button has no label at all (Discord refuses an empty one).
    return ui.Button(custom_id=custom_id, label=clip(label, BUTTON_LABEL) if label else None,
                     style=style, emoji=emoji, disabled=disabled, row=row)


def select(custom_id: str, options: list[discord.SelectOption], *, placeholder: str,
           row: int | None = None) -> ui.Select:
    for option in options:
        option.label = clip(option.label, OPTION_LABEL)
        if option.description:
            option.description = clip(option.description, OPTION_DESCRIPTION)
    return ui.Select(custom_id=custom_id, options=options[:SELECT_OPTIONS],
                     placeholder=clip(placeholder, PLACEHOLDER), min_values=1, max_values=1,
                     row=row)


#: the buttons one message can hold (5 rows of 5)
BUTTON_GRID = 25


@dataclass(frozen=True)
class Choice:
    """One answer of a step: a button of its own, or an option of the step's select."""
    value: str
    label: str
    emoji: str | None = None
    style: discord.ButtonStyle = discord.ButtonStyle.secondary


def choice_items(choices: Sequence[Choice], cid: Callable[..., str], *, placeholder: str,
                 extra: Sequence[ui.Item] = ()) -> list[ui.Item]:
    """A step's choices as buttons, each one tap, with ``extra`` (Back) after them; a select
    (two taps) when they do not all fit in one message.

    ``cid(*args)`` builds a custom_id: ``cid(value)`` is a choice's button, ``cid()`` the select,
    whose value the handler reads instead (see ``chosen``)."""
    if len(choices) + len(extra) <= BUTTON_GRID:
        return [*(button(cid(c.value), c.label, style=c.style, emoji=c.emoji) for c in choices),
                *extra]
    if len(choices) > SELECT_OPTIONS:
        raise ValueError(f"{len(choices)} choices fit neither buttons nor one select")
    options = [discord.SelectOption(label=c.label, value=c.value, emoji=c.emoji) for c in choices]
    return [select(cid(), options, placeholder=placeholder), *extra]


def selected(interaction: discord.Interaction) -> str | None:
    """The value picked in a select menu."""
    values = (interaction.data or {}).get("values") or []
    return str(values[0]) if values else None


def chosen(interaction: discord.Interaction, route_: Route, index: int) -> str | None:
    """What a step's click chose: a button carries it as argument ``index`` of its custom_id,
    the select that stands in for too many buttons as its value (``choice_items``)."""
    args = route_.args()
    return args[index] if len(args) > index else selected(interaction)


def view_of(*items: ui.Item | None) -> ui.View:
    view = ui.View(timeout=None)
    for item in items:
        if item is not None:
            view.add_item(item)
    return view


def message_has_component(interaction: discord.Interaction, custom_id: str) -> bool:
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False
