"""Functions the thinkpool tests run in worker processes (importable in a fresh interpreter)."""
from __future__ import annotations

import os
import time


def square(x: int) -> int:
    return x * x


def spin(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def boom() -> None:
    raise ValueError("nope")


def pid() -> int:
    return os.getpid()


def die() -> None:
    os._exit(3)


def priority() -> tuple[int, bool]:
    """This worker's nice value and whether it runs at Linux's idle priority."""
    return os.nice(0), os.sched_getscheduler(0) == os.SCHED_IDLE
