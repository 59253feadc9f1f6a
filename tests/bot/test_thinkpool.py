from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.runtime.thinkpool import ThinkFailed, ThinkPool, ThinkTimeout
from tests.helpers import eventually

JOBS = "tests.bot.thinkpool_jobs"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def ended(pid: int) -> bool:
    """Whether process ``pid`` ended: awaited on the process's own end (its pidfd becomes
    readable when it exits, reaped or not), where polling ``alive`` for a few seconds raced a
    loaded machine. The bound only turns a worker that is never killed into a failure."""
    if not hasattr(os, "pidfd_open"):
        return await eventually(lambda: not alive(pid))
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    loop = asyncio.get_running_loop()
    exited = loop.create_future()
    loop.add_reader(fd, lambda: exited.done() or exited.set_result(True))
    try:
        return await asyncio.wait_for(exited, 60)
    except asyncio.TimeoutError:
        return False
    finally:
        loop.remove_reader(fd)
        os.close(fd)


@pytest.fixture
async def pool():
    p = ThinkPool(1)
    yield p
    await p.close()


async def test_results_come_from_another_reused_process(pool: ThinkPool):
    assert await pool.call(f"{JOBS}:square", 7) == 49
    first = await pool.call(f"{JOBS}:pid")
    second = await pool.call(f"{JOBS}:pid")
    assert first == second != os.getpid()
    assert pool.busy == 0 and pool.waiting == 0


async def test_more_calls_than_workers_queue_and_all_complete():
    pool = ThinkPool(2)
    try:
        # Two calls hold both workers long enough to see the other four wait (a worker
        # forked by the fork server starts too quickly for squares to be seen queueing).
        calls = [asyncio.ensure_future(pool.call(f"{JOBS}:spin", 0.3)) for _ in range(2)]
        calls += [asyncio.ensure_future(pool.call(f"{JOBS}:square", i)) for i in range(2, 6)]
        assert await eventually(lambda: pool.busy == 2)
        assert pool.waiting == 4
        assert await asyncio.gather(*calls) == [0.3, 0.3, 4, 9, 16, 25]
        assert len({await pool.call(f"{JOBS}:pid") for _ in range(4)}) <= 2
        assert pool.busy == 0 and pool.waiting == 0
    finally:
        await pool.close()


async def test_cancelling_a_running_call_kills_its_worker(pool: ThinkPool):
    old = await pool.call(f"{JOBS}:pid")
    call = asyncio.ensure_future(pool.call(f"{JOBS}:spin", 30.0))
    assert await eventually(lambda: pool.busy == 1)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert pool.busy == 0
    assert await ended(old)
    new = await pool.call(f"{JOBS}:pid")
    assert new != old and alive(new)


async def test_cancelling_a_waiting_call_leaves_the_queue(pool: ThinkPool):
    running = asyncio.ensure_future(pool.call(f"{JOBS}:spin", 0.2))
    queued = asyncio.ensure_future(pool.call(f"{JOBS}:square", 3))
    after = asyncio.ensure_future(pool.call(f"{JOBS}:square", 4))
    assert await eventually(lambda: pool.waiting == 2)
    queued.cancel()
    with pytest.raises(asyncio.CancelledError):
        await queued
    assert pool.waiting == 1
    assert await running == 0.2
    assert await after == 16
    assert pool.waiting == 0


async def test_timeout_kills_the_worker_and_the_pool_keeps_working(pool: ThinkPool):
    old = await pool.call(f"{JOBS}:pid")
    with pytest.raises(ThinkTimeout):
        await pool.call(f"{JOBS}:spin", 30.0, timeout=0.2)
    assert await ended(old)
    assert await pool.call(f"{JOBS}:square", 5) == 25


async def test_an_exception_is_reported_and_the_worker_stays(pool: ThinkPool):
    old = await pool.call(f"{JOBS}:pid")
    with pytest.raises(ThinkFailed, match="ValueError: nope"):
        await pool.call(f"{JOBS}:boom")
    assert await pool.call(f"{JOBS}:pid") == old


async def test_a_dying_worker_fails_the_call_and_is_replaced(pool: ThinkPool):
    old = await pool.call(f"{JOBS}:pid")
    with pytest.raises(ThinkFailed, match="died"):
        await pool.call(f"{JOBS}:die")
    assert await ended(old)
    assert await pool.call(f"{JOBS}:pid") not in (old, os.getpid())


async def test_only_bot_and_tests_functions_may_be_called(pool: ThinkPool):
    with pytest.raises(ValueError):
        await pool.call("os:system", "true")
    with pytest.raises(ValueError):
        await pool.call(f"{JOBS}.square")  # no ":name"
    assert pool.busy == 0 and not multiprocessing.active_children()


async def test_zero_workers_run_in_a_thread():
    pool = ThinkPool(0)
    try:
        assert await pool.call(f"{JOBS}:square", 6) == 36
        assert await pool.call(f"{JOBS}:pid") == os.getpid()
        with pytest.raises(ThinkFailed, match="ValueError: nope"):
            await pool.call(f"{JOBS}:boom")
        with pytest.raises(ThinkTimeout):
            await pool.call(f"{JOBS}:spin", 0.5, timeout=0.05)
        assert not multiprocessing.active_children()
    finally:
        await pool.close()


async def test_close_leaves_no_child_processes():
    pool = ThinkPool(2)
    pids = {await pool.call(f"{JOBS}:pid")}
    calls = [asyncio.ensure_future(pool.call(f"{JOBS}:spin", 30.0)) for _ in range(3)]
    assert await eventually(lambda: pool.busy == 2 and pool.waiting == 1)
    pids |= {p.pid for p in multiprocessing.active_children()}
    assert len(pids) == 2
    await pool.close()
    for call in calls:  # the running ones and the queued one
        with pytest.raises(ThinkFailed, match="closed"):
            await call
    assert not any(alive(pid) for pid in pids)
    assert not multiprocessing.active_children()
    with pytest.raises(ThinkFailed, match="closed"):
        await pool.call(f"{JOBS}:square", 3)


async def test_a_background_call_waits_behind_others_and_gives_way_to_them(pool: ThinkPool):
    from bot.runtime.thinkpool import ThinkPreempted

    # Waiting: a background call queued first still goes after a search queued later.
    busy = asyncio.ensure_future(pool.call(f"{JOBS}:spin", 0.3))
    assert await eventually(lambda: pool.busy == 1)
    order: list[str] = []
    review = asyncio.ensure_future(pool.call(f"{JOBS}:square", 3, background=True))
    review.add_done_callback(lambda _: order.append("review"))
    assert await eventually(lambda: pool.background_waiting == 1)
    search = asyncio.ensure_future(pool.call(f"{JOBS}:square", 4))
    search.add_done_callback(lambda _: order.append("search"))
    assert await asyncio.gather(busy, search, review) == [0.3, 16, 9]
    assert order == ["search", "review"]
    # Running: a long background call gives its worker up as soon as a search must wait.
    long = asyncio.ensure_future(pool.call(f"{JOBS}:spin", 30, background=True))
    assert await eventually(lambda: pool.busy == 1)
    started = asyncio.get_running_loop().time()
    assert await pool.call(f"{JOBS}:square", 5) == 25
    assert asyncio.get_running_loop().time() - started < 10
    with pytest.raises(ThinkPreempted):
        await long
    assert pool.busy == 0 and pool.waiting == 0 and pool.background_waiting == 0


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="idle scheduling is Linux's")
async def test_each_ai_priority_reaches_the_bots_search_processes(tmp_path):
    from bot.client import TabletopBot
    from bot.config import AI_PRIORITIES, Settings
    from bot.store import Store

    here = os.nice(0)
    seen = {}
    for name in AI_PRIORITIES:
        store = await Store.open(tmp_path / f"{name}.sqlite3")
        bot = TabletopBot(Settings("", tmp_path / f"{name}.sqlite3", None, "INFO", ai_workers=1,
                                   ai_priority=name), store)
        try:
            seen[name] = await bot.pool.call(f"{JOBS}:priority")
        finally:
            await bot.pool.close()
            await store.close()
    assert seen == {"idle": (min(here + 10, 19), True), "low": (min(here + 10, 19), False),
                    "normal": (here, False)}


#: a bot stand-in: a pool whose one worker is mid-search when the process is killed
_SEARCHING = f"""
import asyncio, os, sys
from bot.runtime.thinkpool import ThinkPool

async def main():
    pool = ThinkPool(1)
    search = asyncio.ensure_future(pool.call("{JOBS}:spin", 60.0))
    while not pool._workers:
        await asyncio.sleep(0.01)
    with open(sys.argv[1] + ".part", "w") as out:
        out.write(str(next(iter(pool._workers)).process.pid))
    os.replace(sys.argv[1] + ".part", sys.argv[1])
    await search

if __name__ == "__main__":
    asyncio.run(main())
"""


@pytest.mark.slow
@pytest.mark.parametrize("start", ["forkserver", "spawn"])
async def test_a_worker_mid_search_dies_with_its_bot(start, tmp_path):
    """Killed outright, the bot closes nothing: its workers must end by themselves, also when
    the fork server (not the bot) is their parent."""
    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start} start method here")
    script = tmp_path / "searching.py"
    script.write_text(_SEARCHING.replace("ThinkPool(1)", f"ThinkPool(1, start_method={start!r})"))
    root = str(Path(__file__).resolve().parents[2])
    found = tmp_path / "worker-pid"
    # No pipe to the bot: a worker holding one would hold up the wait for the bot's end.
    bot = await asyncio.create_subprocess_exec(
        sys.executable, str(script), str(found), cwd=root, env=dict(os.environ, PYTHONPATH=root),
        stdout=asyncio.subprocess.DEVNULL)
    try:
        assert await eventually(found.exists, timeout=30)
        worker = int(found.read_text())
        await asyncio.sleep(0.2)
        assert alive(worker) and bot.returncode is None  # searching
    finally:
        bot.send_signal(signal.SIGKILL)
        await bot.wait()
    try:
        assert await ended(worker)
    finally:
        if alive(worker):
            os.kill(worker, signal.SIGKILL)  # not left searching after a failure


#: a process that watches the process named on its command line, as a forked worker watches
#: its bot; with "poll", as on a system without pidfd (macOS)
_WATCHING = """
import os, sys, time
from bot.runtime import thinkpool
if sys.argv[2] == "poll":
    del os.pidfd_open
thinkpool._watch(int(sys.argv[1]))
time.sleep(60)
"""


@pytest.mark.parametrize("how", ["pidfd", "poll"])
async def test_a_watching_worker_ends_with_the_process_it_watches(how):
    if how == "pidfd" and not hasattr(os, "pidfd_open"):
        pytest.skip("no pidfd here")
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=root)
    watched = await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(60)")
    watcher = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _WATCHING, str(watched.pid), how, cwd=root, env=env)
    try:
        await asyncio.sleep(0.5)
        assert watcher.returncode is None  # watching, not ended
        watched.send_signal(signal.SIGKILL)
        await watched.wait()
        assert await asyncio.wait_for(watcher.wait(), 10) == 1
    finally:
        for process in (watched, watcher):
            if process.returncode is None:
                process.kill()
                await process.wait()
