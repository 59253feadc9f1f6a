"""Run by test_tool_workers: a tool's pool whose one worker writes its pid and then works on."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from bot.tools import workers


def busy(where: str) -> None:
    Path(where).write_text(str(os.getpid()))
    time.sleep(120)


if __name__ == "__main__":
    with workers.pool(1) as processes:
        processes.submit(busy, sys.argv[1]).result()
