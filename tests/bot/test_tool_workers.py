"""The measuring tools' worker processes end with the tool, however it is stopped."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

CHILD = Path(__file__).with_name("tool_workers_child.py")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie that nobody reaps is gone as far as work goes.
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


def _wait(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def test_a_tool_killed_outright_leaves_no_worker_running(tmp_path):
    where = tmp_path / "worker.pid"
    root = Path(__file__).resolve().parents[2]
    tool = subprocess.Popen([sys.executable, str(CHILD), str(where)], cwd=root,
                            env={**os.environ, "PYTHONPATH": str(root)})
    try:
        assert _wait(lambda: where.exists() and where.read_text(), 60), "the worker never started"
        worker = int(where.read_text())
        assert _alive(worker)
        tool.send_signal(signal.SIGKILL)  # no handler, no pool shutdown: only the watch helps
        tool.wait(10)
        assert _wait(lambda: not _alive(worker), 15), "the worker outlived its tool"
    finally:
        tool.kill()
