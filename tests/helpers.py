"""Shared steps for the Discord-level tests: open a table, find the board, play a move."""
from __future__ import annotations

import asyncio
import inspect
import random
import types
from typing import Any, Callable

import pytest

import bot.domain.tables as tables_module

from bot.testing.fake_discord import components_of
from bot.testing.harness import Harness
# The steps a person's clicks take live with the bench's copy of them; tests import them here.
from bot.testing.flows import (Table, Tap, board, choice_on, ephemeral_reply,  # noqa: F401
                               narabi_path, open_lobby, random_move, sarena_path, sensei_path,
                               start_table, tap_through)


def deal_with(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the next tables start from ``seed`` (the runtime draws it from ``secrets``)."""
    monkeypatch.setattr(tables_module, "secrets", types.SimpleNamespace(randbits=lambda _: seed))


def custom_ids(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for c in components_of(message) if "custom_id" in c]


def last_message(h: Harness, channel: int) -> dict[str, Any]:
    return h.fake.channel_messages(channel)[-1]


async def narabi_switch(h: Harness, table: Table, rng: random.Random) -> dict[str, Any] | None:
    """The player to move switches through the real Switch → card → target flow."""
    picked = await random_move(h, table, rng)
    if picked is None:
        return None
    player, action = picked
    b = board(h, table)
    await tap_through(h, player, b, narabi_path(b, action))
    return action


async def final_state(h: Harness, table_id: int) -> dict[str, Any]:
    """The state of a game that just ended, as the bot holds it in memory. The store keeps
    no state for a finished game (only seed, action log and result), which this checks."""
    row = await h.bot.store.get_table(table_id)
    assert row.status == "finished" and row.state is None
    live = await h.bot.tables.get(table_id)
    assert live is not None and live.game is not None
    return live.game.to_json()


def attached(h: Harness, token: str) -> bytes:
    """The picture a click's answer attached (the last one, when it attached several)."""
    files = [r.files for r in h.fake.requests if token in r.path and r.files]
    assert files, "the answer attached no picture"
    return files[-1][0][1]


async def eventually(condition: Callable[[], Any], timeout: float = 5.0) -> bool:
    """Whether ``condition()`` (sync or async) became true within ``timeout`` seconds: a wait on
    a state, not a fixed pause, so a loaded machine does not turn into a failed test."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value or loop.time() > deadline:
            return bool(value)
        await asyncio.sleep(0.01)
