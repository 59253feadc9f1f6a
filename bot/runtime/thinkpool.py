"""Worker processes for pure, CPU-heavy functions (AI searches, the puzzle solver).

``concurrent.futures.ProcessPoolExecutor`` cannot stop a task once it runs; a search must stop
when its game ends, so here a cancelled or timed-out call kills its worker (SIGKILL) and a fresh
one is started on the next need. Workers start lazily, are reused between calls, and lower their
own priority so the event loop keeps answering clicks while they search.

``workers=0`` runs calls in the default thread executor instead (for hosts that cannot start
processes); cancellation and timeouts then only abandon the result: the thread runs to its end.

A ``background=True`` call (a finished game's review) never delays the others: it takes a slot
only when no other call waits for one, and gives its slot up (its worker killed, the call
raising ThinkPreempted, to be run again later) as soon as another call has to wait.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import functools
import importlib
import logging
import multiprocessing
import os
import select
import signal
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any, Callable, Iterable

log = logging.getLogger(__name__)

#: Call names come from code but may be stored with data; never import arbitrary modules.
ALLOWED_PREFIXES = ("bot.", "render.", "tests.")


class ThinkTimeout(Exception):
    """The call ran past its ``timeout``; its worker was killed."""


class ThinkFailed(Exception):
    """The function raised (``detail`` is "TypeName: message"), its worker died, or the pool is
    closed."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class ThinkPreempted(ThinkFailed):
    """A background call gave its worker up to a call that had to wait; run it again later."""

    def __init__(self) -> None:
        super().__init__("preempted")


def check_name(function: str) -> tuple[str, str]:
    module, _, name = function.partition(":")
    if not name or not module.startswith(ALLOWED_PREFIXES):
        raise ValueError(f"not a callable think function: {function!r}")
    return module, name


def resolve(function: str) -> Callable[..., Any]:
    module, name = check_name(function)
    return getattr(importlib.import_module(module), name)


def _run_here(function: str, args: tuple[Any, ...]) -> Any:
    try:
        return resolve(function)(*args)
    except Exception as exc:
        raise ThinkFailed(f"{type(exc).__name__}: {exc}") from None


def _die_with_parent(parent_pid: int) -> None:
    # Pipe EOF already ends an idle worker; PDEATHSIG also ends one that is mid-search.
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent_pid:
        # Forked by the fork server, whose child it is, and which outlives the bot while any
        # worker lives: the worker watches the bot itself.
        _watch(parent_pid)


def _watch(pid: int) -> None:
    """End this process as soon as process ``pid`` has ended (now, if it already has)."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):  # no pidfd (Linux before 5.3, macOS): look each second
        handle = None

    def watch() -> None:
        if handle is not None:
            select.select([handle], [], [])  # readable once the process has ended
        else:
            with contextlib.suppress(ProcessLookupError):
                while True:  # signal 0 only asks whether the process is there
                    time.sleep(1.0)
                    os.kill(pid, 0)
        os._exit(1)

    threading.Thread(target=watch, name="watch-bot", daemon=True).start()


def _worker_main(conn: Connection, nice: int, parent_pid: int, idle: bool = True) -> None:
    _die_with_parent(parent_pid)
    # Ctrl-C reaches the whole process group; the parent decides when workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(nice)
    except OSError:
        pass
    try:
        # Searches only take CPU time nobody else wants: the bot's own process (clicks,
        # commits) always runs first. Linux only; elsewhere the nice value above must do.
        # (Pictures are waited for by a click: their workers keep a normal priority.)
        if idle:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        pass
    functions: dict[str, Callable[..., Any]] = {}
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return  # the parent closed the pipe (or died)
        try:
            if function not in functions:
                functions[function] = resolve(function)
            reply = ForkingPickler.dumps(("ok", functions[function](*args)))
        except Exception as exc:
            # Only text crosses back: traceback objects do not pickle and may hold game secrets.
            reply = ForkingPickler.dumps(("error", f"{type(exc).__name__}: {exc}"))
        try:
            conn.send_bytes(reply)
        except OSError:
            return


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection


#: how workers start: forked from a fork server where there is one (Linux, macOS) — a fresh
#: interpreter started once, with ``preload`` imported, then forked for each worker in a few
#: milliseconds instead of the fifty a fresh interpreter takes — else spawned afresh
DEFAULT_START = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() \
    else "spawn"
_preloaded: set[str] = set()


def _preload(context: Any, modules: Iterable[str]) -> None:
    """Add ``modules`` to what the process's one fork server imports when it starts (its
    workers then find them imported). Once it runs, the workers import what else they need."""
    wanted = _preloaded | set(modules)
    if wanted != _preloaded:
        _preloaded.update(wanted)
        context.set_forkserver_preload(sorted(_preloaded))


class ThinkPool:
    def __init__(self, workers: int, *, nice: int = 10, start_method: str | None = None,
                 idle: bool = True, preload: Iterable[str] = ()) -> None:
        if workers < 0:
            raise ValueError("workers must be >= 0")
        self._size = workers
        self._nice = nice
        self._idle_priority = idle
        self._context = multiprocessing.get_context(start_method or DEFAULT_START)
        if self._context.get_start_method() == "forkserver":
            _preload(self._context, ["bot.runtime.thinkpool", *preload])
        self._free = workers  # slots not held by a call; a slot owns at most one process
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        #: background calls waiting for a slot: served only when no other call waits
        self._background: collections.deque[asyncio.Future[None]] = collections.deque()
        #: one future per running background call; set, it makes the call give its slot up
        self._yielding: list[asyncio.Future[None]] = []
        self._idle: list[_Worker] = []
        self._workers: set[_Worker] = set()
        self._dying: set[BaseProcess] = set()  # killed, not yet reaped
        self._busy = 0
        self._closed = False

    def warm(self) -> None:
        """Start the fork server now (blocking: call it in a thread), so that the first call
        does not wait while it starts and imports ``preload``."""
        if self._size and self._context.get_start_method() == "forkserver":
            from multiprocessing import forkserver
            forkserver.ensure_running()

    @property
    def processes(self) -> int:
        """How many worker processes the pool may run (0: calls run in threads)."""
        return self._size

    @property
    def busy(self) -> int:
        return self._busy

    @property
    def waiting(self) -> int:
        return sum(1 for w in self._waiters if not w.done())

    @property
    def background_waiting(self) -> int:
        return sum(1 for w in self._background if not w.done())

    async def call(self, function: str, *args: Any, timeout: float | None = None,
                   background: bool = False) -> Any:
        if self._closed:
            raise ThinkFailed("closed")
        check_name(function)
        if self._size == 0:
            return await self._call_in_thread(function, args, timeout)
        await self._acquire(background)
        try:
            if self._closed:
                raise ThinkFailed("closed")
            worker = self._take_worker()
            self._busy += 1
            stop = asyncio.get_running_loop().create_future() if background else None
            if stop is not None:
                self._yielding.append(stop)
            try:
                return await self._run(worker, function, args, timeout, stop)
            finally:
                self._busy -= 1
                if stop is not None:
                    self._yielding.remove(stop)
        finally:
            self._release()

    async def _acquire(self, background: bool = False) -> None:
        queue = self._background if background else self._waiters
        if self._free > 0 and not self.waiting and not (background and self.background_waiting):
            self._free -= 1
            return
        waiter = asyncio.get_running_loop().create_future()
        queue.append(waiter)
        if not background:
            self._preempt()
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release()  # a slot was handed over just as we were cancelled: pass it on
            raise
        finally:
            if waiter in queue:
                queue.remove(waiter)

    def _preempt(self) -> None:
        """A call has to wait: one running background call gives its slot up."""
        for stop in self._yielding:
            if not stop.done():
                stop.set_result(None)
                return

    def _release(self) -> None:
        for queue in (self._waiters, self._background):
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(None)  # hand the slot over directly: FIFO, no barging
                    return
        self._free += 1

    def _take_worker(self) -> _Worker:
        while self._idle:
            worker = self._idle.pop()
            if worker.process.is_alive():
                return worker
            self._discard(worker)  # died while idle (e.g. the OOM killer): replace it quietly
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_worker_main, args=(child, self._nice, os.getpid(),
                                                                  self._idle_priority),
                                        name="think-worker", daemon=True)
        process.start()
        child.close()  # so that the worker's death shows here as EOF
        log.info("think worker %s started", process.pid)
        worker = _Worker(process, parent)
        self._workers.add(worker)
        return worker

    async def _run(self, worker: _Worker, function: str, args: tuple[Any, ...],
                   timeout: float | None, stop: asyncio.Future[None] | None = None) -> Any:
        try:
            data = ForkingPickler.dumps((function, args))
        except Exception:
            self._idle.append(worker)  # nothing was sent: the worker is still clean
            raise
        loop = asyncio.get_running_loop()
        readable = loop.create_future()
        fd = worker.conn.fileno()
        loop.add_reader(fd, lambda: readable.done() or readable.set_result(None))
        try:
            worker.conn.send_bytes(data)
            async with asyncio.timeout(timeout):
                if stop is None:
                    await readable
                else:
                    await asyncio.wait({readable, stop}, return_when=asyncio.FIRST_COMPLETED)
            if not readable.done():
                self._discard(worker, "gave way")
                raise ThinkPreempted()
            # recv blocks only until the rest of a message already being written arrives.
            status, value = worker.conn.recv()
        except asyncio.CancelledError:
            self._discard(worker, "cancelled")
            raise
        except ThinkPreempted:
            raise
        except TimeoutError:
            self._discard(worker, "timed out")
            raise ThinkTimeout(f"{function} ran past {timeout} s") from None
        except (EOFError, OSError):
            self._discard(worker)
            raise ThinkFailed("closed" if self._closed else "worker process died") from None
        except Exception as exc:  # e.g. a result that does not unpickle here: start afresh
            self._discard(worker)
            raise ThinkFailed(f"{type(exc).__name__}: {exc}") from None
        finally:
            loop.remove_reader(fd)
        self._idle.append(worker)
        if status == "error":
            raise ThinkFailed(value)
        return value

    def _discard(self, worker: _Worker, reason: str | None = None) -> None:
        if worker not in self._workers:
            return
        self._workers.discard(worker)
        if reason is not None:
            log.info("think worker %s killed (%s)", worker.process.pid, reason)
        process = worker.process
        process.kill()
        worker.conn.close()
        # Reap without blocking the loop: the sentinel becomes readable once the process ended.
        loop = asyncio.get_running_loop()
        self._dying.add(process)

        def reap() -> None:
            loop.remove_reader(process.sentinel)
            process.join()
            self._dying.discard(process)

        loop.add_reader(process.sentinel, reap)

    async def _call_in_thread(self, function: str, args: tuple[Any, ...],
                              timeout: float | None) -> Any:
        loop = asyncio.get_running_loop()
        self._busy += 1
        try:
            async with asyncio.timeout(timeout):
                return await loop.run_in_executor(None, functools.partial(_run_here, function, args))
        except TimeoutError:
            raise ThinkTimeout(f"{function} ran past {timeout} s") from None
        finally:
            self._busy -= 1

    async def close(self) -> None:
        self._closed = True
        for queue in (self._waiters, self._background):
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_exception(ThinkFailed("closed"))
        for worker in list(self._workers):
            worker.process.kill()  # busy calls see EOF and discard their worker themselves
        for worker in self._idle:
            self._discard(worker)
        self._idle.clear()
        for worker in list(self._workers):
            worker.process.join()
        loop = asyncio.get_running_loop()
        for process in list(self._dying):
            loop.remove_reader(process.sentinel)
            process.join()  # SIGKILLed: returns at once
        self._dying.clear()
