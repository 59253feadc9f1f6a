"""Playing through the real components, as a person clicks: open and start a table, find its
board, tap a turn's path from the board to the click that sends it. Shared by the tests and
the bench (``rest_per_move``)."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from .fake_discord import CHANNEL_ID, Member, components_of, find_component
from .harness import Harness


@dataclass
class Table:
    id: int
    lobby: dict[str, Any]
    thread: int
    players: list[Member]


async def open_lobby(h: Harness, game: str, host: Member, channel: int = CHANNEL_ID,
                     **options: Any) -> dict[str, Any]:
    await h.command(host, game, "start", channel_id=channel, **options)
    return h.fake.channel_messages(channel)[-1]


async def start_table(h: Harness, game: str, players: list[Member], channel: int = CHANNEL_ID,
                      **options: Any) -> Table:
    lobby = await open_lobby(h, game, players[0], channel, **options)
    table_id = int(find_component(lobby, "join")["custom_id"].split(":")[1])
    for p in players[1:]:
        await h.click(p, lobby, find_component(lobby, "join")["custom_id"])
    await h.click(players[0], lobby, find_component(lobby, "start")["custom_id"])
    live = await h.bot.tables.get(table_id)
    assert live is not None and live.row.status == "playing"
    return Table(table_id, h.fake.messages[int(lobby["id"])], live.row.game_channel_id, players)


def board(h: Harness, table: Table) -> dict[str, Any]:
    messages = [m for m in h.fake.channel_messages(table.thread) if m["attachments"]]
    assert messages, "no board message"
    return messages[0]


def ephemeral_reply(h: Harness, token: str) -> dict[str, Any]:
    """The ephemeral message a click produced (to click its components next)."""
    message_id = h.fake._original[token]
    return h.fake.messages[message_id]


async def random_move(h: Harness, table: Table,
                      rng: random.Random) -> tuple[Member, dict[str, Any]] | None:
    """The player to move and one of their legal actions, or None once the game is over."""
    live = await h.bot.tables.get(table.id)
    if live is None or live.game is None or live.game.result() is not None:
        return None
    seat = live.game.to_move
    return table.players[seat], rng.choice(live.game.legal_actions(seat))


#: one step of a turn: the verb of the component to click and the choice it makes (None: the
#: only component with that verb)
Tap = tuple[str, str | None]


def choice_on(message: dict[str, Any], verb: str,
              value: str | None) -> tuple[dict[str, Any], list[str] | None]:
    """The component of ``message`` that makes a choice: the button carrying ``value`` as the
    last part of its custom_id, or the select offering it (then the values to send)."""
    found = [c for c in components_of(message) if c.get("custom_id", "").split(":")[2] == verb]
    if value is None:
        assert len(found) == 1, (verb, [c["custom_id"] for c in found])
        return found[0], None
    for c in found:
        if c["type"] == 3 and value in [o["value"] for o in c["options"]]:
            return c, [value]
        if c["type"] == 2 and c["custom_id"].split(":")[3].split(".")[-1] == value:
            return c, None
    raise AssertionError(f"no {verb} choice {value} on: {[c.get('custom_id') for c in found]}")


async def tap_through(h: Harness, member: Member, message: dict[str, Any],
                      path: list[Tap]) -> tuple[str, int]:
    """Click ``path`` from ``message`` (the board) on, each step on the message the click
    before left; the last click's token and the taps it took: a button is one tap, a select
    two (open it, choose)."""
    taps, token = 0, ""
    for verb, value in path:
        component, values = choice_on(message, verb, value)
        token = await h.click(member, message, component["custom_id"], values=values)
        taps += 1 if values is None else 2
        message = ephemeral_reply(h, token)
    return token, taps


def narabi_path(board_message: dict[str, Any], action: dict[str, Any]) -> list[Tap]:
    """Switch → my card → the target (which switches)."""
    return [("switch", None), ("pick", str(action["card"])), ("confirm", str(action["target"]))]


def sarena_path(board_message: dict[str, Any], action: dict[str, Any]) -> list[Tap]:
    """Move (the one whose rows hold the pile, when the board has two) → pile → destination."""
    moves = [c for c in components_of(board_message) if c["custom_id"].split(":")[2] == "move"]
    row = int(action["from"][1])
    part = None
    for move in moves if len(moves) > 1 else []:
        first, *_, last = (int(d) for d in re.findall(r"\d", move["label"]))  # "rows 1–3"
        if first <= row <= last:
            part = move["custom_id"].rsplit(".", 1)[1]
    return [("move", part), ("pile", action["from"]), ("go", action["to"])]


def sensei_path(turn: list[dict[str, Any]]) -> list[Tap]:
    """Move → per action its piece and its square (the button that adds it to the plan) →
    Send turn."""
    from cogs.sensei.cog import encode_plan

    path: list[Tap] = [("move", None)]
    for n, action in enumerate(turn, start=1):
        piece = "char" if action["type"] == "character" else action["from"]
        path += [("from", piece), ("plan", encode_plan(turn[:n]))]
    return path + [("send", None)]
