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
