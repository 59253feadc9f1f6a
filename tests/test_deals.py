"""The suite plays the same games on every run: every deal a test makes is drawn from a sequence
named by the test (tests/conftest.py, ``deals_follow_the_test``)."""
from __future__ import annotations

import random
import zlib

import pytest

from bot.testing.fake_discord import CHANNEL_ID


def expected_draws(request, count: int) -> list[int]:
    named = random.Random(zlib.crc32(request.node.nodeid.encode()))
    return [named.getrandbits(63) for _ in range(count)]


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_a_tables_deal_is_the_next_draw_of_the_tests_sequence(request, harness, players):
    h = harness
    draws = expected_draws(request, 2)
    await h.command(players[0], "sensei", "start", ai="easy")
    await h.command(players[1], "sarena", "start", ai="easy", players=2)
    lobbies = [m for m in h.fake.channel_messages(CHANNEL_ID) if m["embeds"]]
    ids = sorted({int(m["embeds"][0]["title"].rsplit("#", 1)[1]) for m in lobbies})
    seeds = [(await h.bot.store.get_table(table_id)).seed for table_id in ids]
    assert seeds == draws[:2]  # two tables, two different deals, both named by the test

