"""The tests' shared bot workers: a worker's death breaks one test, not every later one."""

from __future__ import annotations

import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from support.botpool import SharedBotPool


def test_a_pool_whose_worker_died_is_made_anew() -> None:
    shared = SharedBotPool()
    try:
        broken = shared.current()
        assert broken.submit(abs, -3).result(timeout=60) == 3  # its workers are up
        for process in list(broken._processes.values()):
            assert process.pid is not None
            os.kill(process.pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            broken.submit(abs, -4).result(timeout=60)
        fresh = shared.current()
        assert fresh is not broken
        assert fresh.submit(abs, -5).result(timeout=60) == 5
        assert shared.current() is fresh  # a whole pool is kept
    finally:
        shared.pool.shutdown(wait=True, cancel_futures=True)
