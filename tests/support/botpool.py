"""The tests' shared bot workers (tests/server/conftest.py's ``bot_pool``)."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from machiavel.server.bots import process_pool


class SharedBotPool:
    """Bot worker processes shared by the tests' apps (starting them costs a little), made
    anew when a worker died: a pool with a dead worker refuses every later move
    (BrokenProcessPool), which would fail every test after the one that broke it."""

    def __init__(self) -> None:
        self.pool = process_pool(2)

    def current(self) -> ProcessPoolExecutor:
        if self.pool._broken:  # the test that broke it has failed already, with why
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = process_pool(2)
        return self.pool
