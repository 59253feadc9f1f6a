"""Shared steps for the Discord-level tests: open a table, find the board, play a move."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot.testing.fake_discord import CHANNEL_ID, Harness, Member, components_of, find_component


@dataclass
class Table:
    id: int
    lobby: dict[str, Any]
    thread: int
    players: list[Member]


def custom_ids(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for c in components_of(message) if "custom_id" in c]


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


def last_message(h: Harness, channel: int) -> dict[str, Any]:
    return h.fake.channel_messages(channel)[-1]


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


async def narabi_switch(h: Harness, table: Table, rng: random.Random) -> dict[str, Any] | None:
    """The player to move switches through the real Switch → pick → target → confirm flow."""
    picked = await random_move(h, table, rng)
    if picked is None:
        return None
    player, action = picked
    b = board(h, table)
    token = await h.click(player, b, find_component(b, "switch")["custom_id"])
    step = ephemeral_reply(h, token)
    pick = find_component(step, "pick")
    await h.click(player, step, pick["custom_id"], values=[str(action["card"])])
    step = h.fake.messages[int(step["id"])]
    await h.click(player, step, find_component(step, "target")["custom_id"],
                  values=[str(action["target"])])
    step = h.fake.messages[int(step["id"])]
    await h.click(player, step, find_component(step, "confirm")["custom_id"])
    return action


async def final_state(h: Harness, table_id: int) -> dict[str, Any]:
    """The state of a game that just ended, as the bot holds it in memory. The store keeps
    no state for a finished game (only seed, action log and result), which this checks."""
    row = await h.bot.store.get_table(table_id)
    assert row.status == "finished" and row.state is None
    live = await h.bot.tables.get(table_id)
    assert live is not None and live.game is not None
    return live.game.to_json()
