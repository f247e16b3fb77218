"""The server's pool of bot workers starts off the event loop (``PoolMoves._pool``): its
first process waits for the forkserver, which imports the engines. Here the start is a
stand-in held by the test (a thread pool handed over once the test lets it go), so the
moments that matter are the test's own: a move cancelled while the pool starts, the
server closing meanwhile, a start that fails."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

import machiavel
from machiavel.server import bots
from machiavel.server.bots import MoveRequest, PoolMoves
from support.waiting import STUCK, wait_until_async


class HeldStart:
    """``started_workers`` held until ``go`` is set; counts its calls and keeps its pools."""

    def __init__(self, fails: bool = False) -> None:
        self.entered = threading.Event()
        self.go = threading.Event()
        self.fails = fails
        self.pools: list[ThreadPoolExecutor] = []

    def __call__(self, workers: int, initializer: Callable[[], None] | None = None) -> object:
        self.entered.set()
        assert self.go.wait(STUCK), "the test never let the pool's start go"
        if self.fails:
            raise OSError("the forkserver could not start")
        pool = ThreadPoolExecutor(workers)
        self.pools.append(pool)
        return pool


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> HeldStart:
    start = HeldStart()
    monkeypatch.setattr(bots, "started_workers", start)
    return start


def request() -> MoveRequest:
    state = machiavel.game("tyrus").new(2, seed=1)
    player = state.to_move[0]
    return MoveRequest("g", player, 0, "easy", 7, state.seat(player), {}, "owner")


async def entered(start: HeldStart) -> None:
    """Once the pool's start is under way (its thread is in ``started_workers``)."""
    assert await asyncio.to_thread(start.entered.wait, STUCK), "the pool never began to start"


def test_a_move_cancelled_while_the_pool_starts_leaves_the_pool_to_the_next(
    held: HeldStart,
) -> None:
    async def scenario() -> str | None:
        moves = PoolMoves(workers=2)
        first = asyncio.ensure_future(moves.compute(request()))
        await entered(held)
        first.cancel()  # its game moved on: the move is no longer wanted
        held.go.set()
        try:
            return await moves.compute(request())
        finally:
            await moves.close()

    action = asyncio.run(scenario())
    assert action in machiavel.game("tyrus").new(2, seed=1).legal_actions(1)
    assert len(held.pools) == 1  # started once, kept for the next move


def test_a_pool_that_comes_up_after_the_server_closed_is_ended(held: HeldStart) -> None:
    async def scenario() -> None:
        moves = PoolMoves(workers=2)
        waiting = asyncio.ensure_future(moves.compute(request()))
        await entered(held)
        await moves.close()
        held.go.set()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        # The thread hands the pool back through the loop, which ends it.
        await wait_until_async(
            lambda: held.pools and held.pools[0]._shutdown, "the late pool's end"
        )

    asyncio.run(scenario())
    assert len(held.pools) == 1


def test_a_start_that_fails_fails_its_move_and_the_next_starts_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    failing = HeldStart(fails=True)
    failing.go.set()
    monkeypatch.setattr(bots, "started_workers", failing)

    async def scenario() -> str | None:
        moves = PoolMoves(workers=2)
        with pytest.raises(OSError, match="forkserver"):
            await moves.compute(request())
        failing.fails = False
        try:
            return await moves.compute(request())
        finally:
            await moves.close()

    assert asyncio.run(scenario()) is not None
    assert len(failing.pools) == 1
