"""The cycle collector kept off the clicks' path: long-lived objects frozen, cyclic garbage
among them still freed at the next quiet round, rounds only when no click is under way."""
from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from bot import heap
from tests.conftest import start_bot


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture(autouse=True)
def restore_collector():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_a_round_freezes_the_survivors_out_of_later_collections():
    kept = Node()
    heap.collect_and_freeze()
    assert gc.get_freeze_count() > 0
    assert not any(o is kept for o in gc.get_objects())  # no longer walked by any collection


def test_cyclic_garbage_frozen_by_one_round_is_freed_by_the_next():
    ref = cycle()
    gc.freeze()  # as if a round had frozen it while it was still in use
    gc.collect()
    assert ref() is not None  # frozen: out of the collector's sight
    heap.collect_and_freeze()
    assert ref() is None


def test_tune_raises_only_the_young_threshold():
    before = gc.get_threshold()
    heap.tune()
    assert gc.get_threshold() == (heap.YOUNG_THRESHOLD, before[1], before[2])


async def test_rounds_wait_for_a_quiet_moment():
    quiet = asyncio.Event()
    collector = heap.QuietCollector(quiet, interval=0.01)
    collector.start()
    try:
        assert collector.rounds == 1  # the first round runs at start
        await asyncio.sleep(0.1)
        assert collector.rounds == 1  # clicks under way all along: no pause among them
        quiet.set()
        await asyncio.sleep(0.1)
        assert collector.rounds > 1
    finally:
        await collector.stop()


async def test_the_bot_collects_only_between_clicks(tmp_path):
    h = await start_bot(tmp_path / "h.sqlite3", manage_heap=True)
    try:
        assert h.bot.heap.rounds == 1 and gc.get_freeze_count() > 0
        with h.bot.in_flight():
            assert not h.bot.heap.quiet.is_set()
        assert h.bot.heap.quiet.is_set()
    finally:
        await h.bot.close()
    assert h.bot.heap._task is None
