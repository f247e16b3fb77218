"""Bot moves, computed in worker processes so that no request ever waits on a bot.

A worker is handed a ``Seat`` (all a bot may know) of a copy of the state and the bot's
level; it answers with an action, which then goes through the same accept path as a
person's. Each move gets a fresh bot seeded from the game's seed, the seat and the
version, so a bot's choices do not depend on when the server was restarted.

The pool is handed no more moves at once than it has workers: a move waits in the server
(for a place among slow moves, then for a free worker), where it is counted
(``machiavel_bot_queue_length``) and timed (``machiavel_bot_queue_wait_seconds``), never
in the pool's own queue, where nobody could see it.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any, Protocol, TypeVar

from machiavel.bots import bot
from machiavel.bots.random_bot import RandomBot
from machiavel.core.contract import Seat
from machiavel.core.rng import Rng
from machiavel.server import metrics

logger = logging.getLogger("machiavel.server")

_MASK64 = (1 << 64) - 1
T = TypeVar("T")


def move_seed(game_seed: int, player: int, version: int) -> int:
    """A bot's seed for one move, mixed so that neighbouring moves do not correlate."""
    return Rng((game_seed * 1_000_003 + player * 10_007 + version) & _MASK64).next_u64()


def choose_move(level: str, seed: int, seat: Seat, params: dict[str, Any]) -> str:
    """Run in a worker: one move of a bot of ``level`` for ``seat``."""
    chooser = bot(level, seed, **params)
    try:
        return chooser.choose(seat)
    finally:
        close = getattr(chooser, "close", None)
        if callable(close):  # ISMCTS on several cores keeps a pool of its own
            close()


def fallback_move(seed: int, seat: Seat) -> str:
    """A random legal move, for when a bot fails: a broken bot must not block a game."""
    return RandomBot(seed).choose(seat)


def default_workers() -> int:
    return max(2, os.cpu_count() or 2)


def process_pool(
    workers: int, initializer: Callable[[], None] | None = None
) -> ProcessPoolExecutor:
    """Workers forked from a clean server process (no threads of ours are inherited),
    each ending with the server however it ends (``initializer``, if given, must call
    ``end_with_server``)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["machiavel.bots", "machiavel.server.bots"])
    return ProcessPoolExecutor(
        workers, mp_context=context, initializer=initializer or end_with_server
    )


def started_workers(
    workers: int, initializer: Callable[[], None] | None = None
) -> ProcessPoolExecutor:
    """``process_pool`` with every process started (``_ready`` once in each). Its first
    process waits for the forkserver to import the engines (about a second; a minute on
    a full machine): run it off the event loop (``in_daemon_thread``)."""
    pool = process_pool(workers, initializer)
    list(pool.map(_ready, range(workers)))
    return pool


def _ready(_: int) -> int:
    return os.getpid()


def kill_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's workers now, searches and all (their jobs go back to the queue)."""
    processes = list(getattr(pool, "_processes", {}).values())  # no public way in 3.11
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()
    for process in processes:
        process.join()


async def in_daemon_thread(work: Callable[[], T], abandoned: Callable[[T], None]) -> T:
    """``work()`` in a daemon thread of its own; a result nobody awaits any more (the
    caller was cancelled, or the loop is closed) goes to ``abandoned``.

    Not ``asyncio.to_thread``: the process waits for the threads of the loop's pool when
    it ends, so a node stopped (SIGTERM) while its workers start would not end before
    they are up, a minute on a busy machine where the forkserver imports the engines."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(outcome: tuple[T] | BaseException) -> None:  # in the loop
        if future.cancelled():
            if isinstance(outcome, tuple):
                abandoned(outcome[0])
        elif isinstance(outcome, tuple):
            future.set_result(outcome[0])
        else:
            future.set_exception(outcome)

    def run() -> None:  # in the thread
        outcome: tuple[T] | BaseException
        try:
            outcome = (work(),)
        except BaseException as error:  # told to the loop, whatever it is
            outcome = error
        try:
            loop.call_soon_threadsafe(settle, outcome)
        except RuntimeError:  # the loop is closed: nobody waits any more
            if isinstance(outcome, tuple):
                abandoned(outcome[0])

    threading.Thread(target=run, name="start-workers", daemon=True).start()
    return await future


def end_with_server() -> None:
    """Run first in each bot worker: it, and the processes it starts, end with the server.

    A server killed outright (SIGKILL, out of memory) shuts nothing down, and nothing else
    would tell its workers: each holds the write end of its own job queue, and the write
    end of the forkserver's liveness pipe, so the forkserver (their parent) waits for them
    while they wait for jobs, for ever. The worker's parent sentinel is a pipe whose write
    end only the server holds: it reads as closed once the server is gone.
    """
    server = multiprocessing.parent_process()
    if server is not None:
        watcher = threading.Thread(
            target=_exit_with, args=(server,), name="end-with-server", daemon=True
        )
        watcher.start()
    if sys.platform == "linux":  # a search's own pool: its processes die with this worker
        os.register_at_fork(before=_note_forking_process, after_in_child=_die_with_parent)


def _exit_with(server: BaseProcess) -> None:
    server.join()  # returns once the server is gone
    try:
        for child in multiprocessing.active_children():  # an ISMCTS search's processes
            child.kill()
    finally:
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_forking_pid = 0


def _note_forking_process() -> None:
    global _forking_pid
    _forking_pid = os.getpid()


def _die_with_parent() -> None:
    """In a process forked by a bot worker: be killed when the worker dies, even by SIGKILL."""
    ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != _forking_pid:  # the worker died before the call above
        os._exit(1)


SLOW_LEVELS = ("hard", "expert")  # searches of seconds; easy and medium answer in ms


class FairSlots:
    """``slots`` places for slow bot moves, handed to the waiting moves in turn across
    owners (round robin): a client that opened forty tables of expert bots gets one place
    in its turn, not forty before everybody else."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.busy = 0
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    @property
    def waiting(self) -> int:
        return sum(len(queue) for queue in self._waiting.values())

    async def acquire(self, owner: str) -> None:
        if self.busy < self.slots and not self._waiting:
            self.busy += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release()  # granted as it was cancelled: pass the place on
            raise

    def release(self) -> None:
        self.busy -= 1
        self._grant()

    def _grant(self) -> None:
        while self.busy < self.slots and self._waiting:
            owner, queue = next(iter(self._waiting.items()))
            turn = queue.popleft()
            del self._waiting[owner]
            if queue:
                self._waiting[owner] = queue  # its next move waits for the others' turn
            if turn.cancelled():
                continue
            self.busy += 1
            turn.set_result(None)


def _soon(loop: asyncio.AbstractEventLoop, call: Callable[[], None]) -> None:
    """Run ``call`` in ``loop`` from any thread; nothing if the loop is closed (the
    server stopped: its bot runner is gone with it)."""
    with suppress(RuntimeError):
        loop.call_soon_threadsafe(call)


@dataclass(eq=False)
class BotJob:
    game_id: str
    player: int
    version: int  # the version its action will be offered at (kept fresh, see below)
    legal: list[str]
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    scheduled_at: float = field(default_factory=time.monotonic, repr=False)


@dataclass(frozen=True)
class MoveRequest:
    """One bot move to compute: the seat (for a worker of this process) and what
    names it (for a worker elsewhere, which loads the game at ``version`` itself)."""

    game_id: str
    player: int
    version: int  # the version the seat is of (a job's own version may move on)
    level: str
    seed: int
    seat: Seat
    params: dict[str, Any]
    owner: str  # who opened the table: slow moves take turns across owners


class MoveComputer(Protocol):
    """Where bot moves are computed: this process's workers, or a cluster's queue."""

    async def compute(self, request: MoveRequest) -> str | None:
        """The bot's action, or None if the move is no longer wanted (the game moved on
        as its worker found it); cancelled when the move is no longer wanted here."""
        ...

    async def close(self) -> None: ...


class PoolMoves:
    """Bot moves computed by a pool of this process's worker processes (or any
    ``Executor``): slow moves take turns across owners for all workers but one."""

    def __init__(self, executor: Executor | None = None, workers: int | None = None) -> None:
        self._executor = executor
        self._owns_executor = executor is None
        self._workers = workers or default_workers()
        # Slow moves take all workers but one, which quick moves (easy, medium) always
        # find free: they never wait behind a search.
        self.slow = FairSlots(self._workers - 1)
        self._free_workers = asyncio.Semaphore(self._workers)  # see _compute
        self._starting: asyncio.Future[None] | None = None  # the pool's start, once begun

    async def _pool(self) -> Executor:
        """The pool, its workers started off the event loop: starting the first one waits
        for the forkserver, and every game's sockets would wait with it. The start goes on
        when the move that began it is cancelled (its game moved on): the next one needs
        the pool too."""
        while self._executor is None:
            if self._starting is None or self._starting.done():
                self._starting = asyncio.ensure_future(self._start_pool())
            await asyncio.shield(self._starting)
        return self._executor

    async def _start_pool(self) -> None:
        work = functools.partial(started_workers, self._workers)
        self._executor = await in_daemon_thread(work, kill_pool)

    async def compute(self, request: MoveRequest) -> str | None:
        waiting = metrics.WaitingBotMove(time.monotonic())
        try:
            if request.level not in SLOW_LEVELS:
                return await self._run(request, waiting)
            await self.slow.acquire(request.owner)  # slow moves take turns across owners
            try:
                return await self._run(request, waiting)
            finally:
                self.slow.release()
        finally:
            waiting.left()  # dropped before a worker took it

    async def _run(self, request: MoveRequest, waiting: metrics.WaitingBotMove) -> str:
        try:
            return await self._submit(request, waiting)
        except BrokenProcessPool:
            logger.warning("bot workers died; starting new ones")
            self._reset_pool()
            return await self._submit(request, waiting)

    async def _submit(self, request: MoveRequest, waiting: metrics.WaitingBotMove) -> str:
        """``choose_move`` in the pool, handed over once a worker is free, so that moves
        wait here, counted and timed, not in the pool's hidden queue. The place is given
        back when the pool is done with the move, not when its task is cancelled: a
        worker goes on with a move already started."""
        loop = asyncio.get_running_loop()
        await self._free_workers.acquire()
        arguments = (request.level, request.seed, request.seat, request.params)
        try:
            future = (await self._pool()).submit(choose_move, *arguments)
        except BaseException:
            self._free_workers.release()
            raise
        waiting.taken()
        future.add_done_callback(lambda _: _soon(loop, self._free_workers.release))
        action: str = await asyncio.wrap_future(future, loop=loop)
        return action

    def _reset_pool(self) -> None:
        if self._owns_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def close(self) -> None:
        if self._starting is not None:  # a pool still starting is ended once it is up
            self._starting.cancel()
        self._reset_pool()


class BotRunner:
    """Schedules bot moves and hands their actions back through ``deliver``.

    ``moves`` computes them (default: ``PoolMoves`` of ``executor`` or ``workers``
    processes); the bookkeeping here (one job per seat, kept fresh or dropped as the
    game changes) is the same wherever they are computed."""

    def __init__(
        self,
        deliver: Callable[[BotJob, str], Awaitable[None]],
        executor: Executor | None = None,
        workers: int | None = None,
        params: dict[str, dict[str, Any]] | None = None,
        moves: MoveComputer | None = None,
    ) -> None:
        self._deliver = deliver
        self.moves: MoveComputer = moves or PoolMoves(executor, workers)
        self._params = params or {}
        self.pending: dict[tuple[str, int], BotJob] = {}
        self.moves_computed = 0

    def refresh(
        self,
        game_id: str,
        players: int,
        to_move: tuple[int, ...],
        legal_of: Callable[[int], list[str]],
        version: int,
    ) -> None:
        """After a change, keep each pending job whose decision is still the same one.

        A bot thinking while another seat acts (simultaneous choices) would otherwise be
        refused as stale and think again for nothing. Its job stays good, and moves to
        the new version, if its seat is still to move with exactly the same legal
        actions: it then chose with no more than it may know now. Otherwise it is dropped.
        """
        for player in range(players):  # this game's seats, not every game's jobs
            job = self.pending.get((game_id, player))
            if job is None:
                continue
            if player in to_move and legal_of(player) == job.legal:
                job.version = version
            else:
                self.drop(job)

    def schedule(
        self,
        game_id: str,
        player: int,
        version: int,
        seat: Seat,
        legal: list[str],
        level: str,
        seed: int,
        owner: str = "",
    ) -> None:
        """Start computing a move unless this seat already has one coming. ``owner``: who
        opened the table (slow moves take turns across owners)."""
        key = (game_id, player)
        if key in self.pending:
            return
        job = BotJob(game_id, player, version, legal)
        self.pending[key] = job
        params = self._params.get(level, {})
        request = MoveRequest(game_id, player, version, level, seed, seat, params, owner or game_id)
        job.task = asyncio.get_running_loop().create_task(self._run(job, request))

    def drop(self, job: BotJob) -> None:
        key = (job.game_id, job.player)
        if self.pending.get(key) is job:
            del self.pending[key]
        if job.task is not None and job.task is not asyncio.current_task():
            job.task.cancel()

    def is_current(self, job: BotJob) -> bool:
        return self.pending.get((job.game_id, job.player)) is job

    def forget_seat(self, game_id: str, player: int) -> None:
        job = self.pending.get((game_id, player))
        if job is not None:
            self.drop(job)

    def forget_game(self, game_id: str) -> None:
        for (gid, _), job in list(self.pending.items()):
            if gid == game_id:
                self.drop(job)

    async def _run(self, job: BotJob, request: MoveRequest) -> None:
        try:
            action = await self.moves.compute(request)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception(
                "bot %s failed in game %s; playing at random", request.level, job.game_id
            )
            action = fallback_move(request.seed, request.seat)
        self.moves_computed += 1
        if action is None:  # its worker found the game moved on: this job is outdated
            if self.is_current(job):
                logger.warning(
                    "bot move of game %s at version %d given up by its worker: the stored "
                    "game moved on",
                    job.game_id,
                    request.version,
                )
                self.drop(job)
            return
        if self.is_current(job):
            metrics.arrived()  # the move has come: its push is timed from here
            await self._deliver(job, action)

    async def close(self) -> None:
        tasks = [job.task for job in self.pending.values() if job.task is not None]
        self.pending.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.moves.close()
