"""Waiting on a condition, never on the clock: the one poll loop the tests share."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

STUCK = 120.0  # seconds after which a wait fails: only a stuck test gets there
# The same bound for each Playwright wait (a page load, a bot's move, a push), in ms: a
# starved machine (tests at nice 19 beside an arena) took over a minute to show a page.
PAGE_WAIT_MS = int(STUCK * 1000)
T = TypeVar("T")


def wait_until(condition: Callable[[], T | None], what: str, seconds: float = STUCK) -> T:
    """Poll ``condition`` until it gives something; fail only if that never comes."""
    deadline = time.monotonic() + seconds
    while (found := condition()) is None or found is False:
        assert time.monotonic() < deadline, f"still waiting, after {seconds} s, for {what}"
        time.sleep(0.02)  # the polling interval: the condition is checked again
    return found


async def wait_until_async(condition: Callable[[], object], what: str) -> None:
    """``wait_until`` inside an event loop, which keeps running meanwhile (what the
    condition waits for may go through it)."""
    deadline = time.monotonic() + STUCK
    while not condition():
        assert time.monotonic() < deadline, f"still waiting, after {STUCK} s, for {what}"
        await asyncio.sleep(0.02)  # the polling interval: the condition is checked again


class Progress:
    """A game's version as last seen, and since when: ``saw`` fails once a game has stayed
    at one version for ``seconds``, however long the game (a long game on a slow machine
    goes on as long as it moves)."""

    def __init__(self, what: str = "the game", seconds: float = STUCK) -> None:
        self.what = what
        self.seconds = seconds
        self.version = -1
        self.since = time.monotonic()

    def saw(self, version: int) -> None:
        now = time.monotonic()
        if version != self.version:
            self.version, self.since = version, now
            return
        assert now - self.since < self.seconds, (
            f"{self.what} stuck at version {version} for {self.seconds} s"
        )
