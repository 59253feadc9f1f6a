"""Worker processes for the measuring tools (arena, compare_sensei, calibrate).

A tool killed with SIGTERM does not stop its pool's workers (only Ctrl-C, sent to the whole
process group, does): each worker here watches its parent and exits once the parent is gone, so
a stopped match leaves nothing running.
"""
from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

#: how often a worker looks at its parent, in seconds
WATCH_EVERY = 1.0


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(1)


def _start_watching(parent: int) -> None:
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def pool(jobs: int) -> ProcessPoolExecutor:
    """``jobs`` spawned processes that end with the process that made them."""
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_watching, initargs=(os.getpid(),))
