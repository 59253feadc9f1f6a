"""The cycle collector run between clicks: automatic collection off while the bot runs, young
generations collected at quiet moments, a full collection that frees what was frozen, a
backstop for a bot that is never quiet, the process's collector given back at the end."""
from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from bot.runtime import heap
from tests.conftest import start_bot
from tests.helpers import eventually


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture(autouse=True)
def restore_collector():
    # Nothing frozen before the test (tests/conftest.py freezes between tests): a freeze seen
    # during it is the bot's own.
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.enable()


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


@pytest.mark.slow
async def test_collections_wait_for_a_quiet_moment():
    quiet = asyncio.Event()
    collector = heap.QuietCollector(quiet, interval=3600, young_every=0.01)
    collector.start()
    try:
        assert not gc.isenabled() and collector.rounds == 1  # the first full round at start
        ref = cycle()
        await asyncio.sleep(0.1)
        assert collector.young_rounds == 0 and ref() is not None  # clicks under way all along
        quiet.set()
        assert await eventually(lambda: collector.young_rounds > 0 and ref() is None)
    finally:
        await collector.stop()
    assert gc.isenabled()


async def test_a_bot_never_quiet_still_collects(monkeypatch):
    monkeypatch.setattr(heap, "BACKSTOP", 1000)
    collector = heap.QuietCollector(asyncio.Event(), interval=3600)
    collector.start()
    try:
        ref = cycle()
        garbage = [[] for _ in range(2000)]  # allocations past the backstop
        collector.after_click()
        assert collector.backstops == 1 and ref() is None
        del garbage
    finally:
        await collector.stop()


@pytest.mark.slow
async def test_the_full_round_does_not_wait_for_ever(monkeypatch):
    monkeypatch.setattr(heap, "FULL_PATIENCE", 0.05)
    collector = heap.QuietCollector(asyncio.Event(), interval=0.01, young_every=0.01)
    collector.start()
    try:
        assert await eventually(lambda: collector.rounds > 1)  # never quiet, yet they went on
    finally:
        await collector.stop()


@pytest.mark.slow
async def test_the_bot_collects_only_between_clicks(tmp_path):
    h = await start_bot(tmp_path / "h.sqlite3", manage_heap=True)
    try:
        assert h.bot.heap.rounds == 1 and gc.get_freeze_count() > 0 and not gc.isenabled()
        with h.bot.in_flight():
            assert not h.bot.heap.quiet.is_set()
        assert h.bot.heap.quiet.is_set()
    finally:
        await h.bot.close()
    assert h.bot.heap._task is None and gc.isenabled()
