"""`machiavel bots`: a bot worker node of a cluster (docs/cluster.md, "Bot worker nodes").

A node takes bot moves from the Redis queue (``botqueue.py``) while it has a worker
process free, computes each in a worker (which loads the game from the database at the
job's version and replays it) and answers the server process that asked. Several nodes
may serve one queue. Each keeps one worker free of slow searches, as a server does, so
that quick moves never wait behind one; slow moves take turns across table owners in
the queue itself, cluster-wide.

A node renews its heartbeat every second; once it has not for ``ALIVE_SECONDS``, any
other node gives the jobs it held back to the queue (a node killed outright loses no
move, and no move waits for the longest search to find out).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import redis
from prometheus_client import start_http_server
from redis import asyncio as aioredis
from redis.exceptions import RedisError

from machiavel.core.contract import Setup, State
from machiavel.core.errors import CorruptState, IllegalAction, InvalidSetup, UnknownGame
from machiavel.core.registry import game as registered_game
from machiavel.server.botqueue import (
    ANSWERS_KEEP_SECONDS,
    FINISH,
    GIVE_BACK_ONE,
    LEAVE,
    MAX_SKIPPED,
    REAP,
    TAKE,
    WAITING,
    Answer,
    BadMessage,
    Job,
    QueueKeys,
    connect,
)
from machiavel.server.bots import (
    SLOW_LEVELS,
    choose_move,
    default_workers,
    end_with_server,
    fallback_move,
    in_daemon_thread,
    kill_pool,
    started_workers,
)
from machiavel.server.cluster import process_name
from machiavel.server.damage import DamagedGame
from machiavel.server.metrics import BOT_QUEUE_LENGTH, BOT_QUEUE_WAIT, REGISTRY
from machiavel.server.outage import is_unreachable
from machiavel.server.storage import Repository, safe_url

logger = logging.getLogger("machiavel.bots")

HEARTBEAT_SECONDS = 1.0  # how often a node says it is alive, and looks for dead ones
ALIVE_SECONDS = 5.0  # a node silent this long is dead: its jobs go to the others
POLL_SECONDS = 1.0  # a node looks at the queue at least this often (missed notices)
RETRY_SECONDS = 1.0  # between two tries while Redis cannot be reached
KEPT_REPLAYS = 64  # games a worker process keeps replayed, to replay only new actions


# ---- in a worker process ---------------------------------------------------------------
_repository: Repository | None = None
_replays: OrderedDict[str, State] = OrderedDict()


def start_worker() -> None:
    """Run first in each worker of a node: Ctrl-C is the node's to handle (it ends its
    workers), and a worker ends with its node however the node ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_server()


def compute_job(database: str, job: Job) -> str | None:
    """Run in a worker: the move ``job`` asks for, or None if it is no longer wanted
    (no such game, over, moved on so that the bot's decision is another one, or no
    longer replayable: the server then shows it read-only)."""
    try:
        state = _state_for(database, job)
    except (DamagedGame, CorruptState, IllegalAction, InvalidSetup, UnknownGame) as error:
        logger.error("bot job of game %s dropped: the game does not replay: %s", job.game_id, error)
        return None
    if state is None:
        return None
    seat = state.clone().seat(job.player)  # the kept replay stays as stored
    try:
        return choose_move(job.level, job.seed, seat, job.params)
    except Exception:
        logger.exception("bot %s failed in game %s; playing at random", job.level, job.game_id)
        return fallback_move(job.seed, seat)


def _state_for(database: str, job: Job) -> State | None:
    """The game at the job's version, if the job is still wanted."""
    loaded = _repository_of(database).load(job.game_id)
    if loaded is None:
        return None
    record, actions = loaded
    if record.outcome is not None or len(actions) < job.version:
        return None
    setup = Setup(record.game, record.players, record.seed, record.options)
    state = _replayed(record.id, setup, actions[: job.version])
    if job.player not in state.to_move:
        return None
    later = actions[job.version :]
    if later and not _same_decision(state, later, job.player):
        return None
    return state


def _repository_of(database: str) -> Repository:
    global _repository
    if _repository is None:
        _repository = Repository(database)
    return _repository


def _replayed(game_id: str, setup: Setup, actions: Sequence[tuple[int, str]]) -> State:
    """The game after ``actions``: from the replay kept of it when that is a step on the
    way (a bot game asks for each next version in turn), else from its setup."""
    state = _replays.pop(game_id, None)
    if state is None or state.setup != setup or not _is_prefix(state.history, actions):
        state = registered_game(setup.game).state_from_setup(setup)
    for player, action in actions[len(state.history) :]:
        state.apply(player, action)
    _replays[game_id] = state
    while len(_replays) > KEPT_REPLAYS:
        _replays.popitem(last=False)
    return state


def _is_prefix(history: Sequence[tuple[int, str]], actions: Sequence[tuple[int, str]]) -> bool:
    return len(history) <= len(actions) and list(history) == list(actions[: len(history)])


def _same_decision(state: State, later: Sequence[tuple[int, str]], player: int) -> bool:
    """Whether the bot's decision is still the same after the later actions (others'
    simultaneous choices): the server then still wants it (``BotRunner.refresh``)."""
    after = state.clone()
    for actor, action in later:
        after.apply(actor, action)
    return player in after.to_move and after.legal_actions(player) == state.legal_actions(player)


# ---- the node --------------------------------------------------------------------------
class Heartbeat(threading.Thread):
    """Says every second that the node is alive (a key expiring unless renewed), and
    gives the jobs of the nodes that no longer say so back to the queue.

    A thread of its own, with its own connection: the node's event loop may be busy for
    a moment (its workers starting) without the node being taken for dead."""

    def __init__(self, redis_url: str, keys: QueueKeys, node: str) -> None:
        super().__init__(name="heartbeat", daemon=True)
        self._redis = redis.Redis.from_url(redis_url)
        self._keys = keys
        self._node = node
        self._stopped = threading.Event()
        self._unreachable = False

    def beat(self) -> None:
        keys = self._keys
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.alive(self._node), b"1", px=int(ALIVE_SECONDS * 1000))
            pipe.sadd(keys.key("nodes"), self._node)
            pipe.execute()
        self._redis.eval(REAP, 1, keys.base)
        BOT_QUEUE_LENGTH.set(int(self._redis.eval(WAITING, 1, keys.base)))

    def run(self) -> None:
        while not self._stopped.wait(HEARTBEAT_SECONDS):
            try:
                self.beat()
            except RedisError as error:
                if not self._unreachable:
                    logger.error("the bot queue (Redis) cannot be reached: %s", error)
                self._unreachable = True
            else:
                self._unreachable = False
        self._redis.close()

    def stop(self) -> None:
        self._stopped.set()


class BotNode:
    """Takes jobs from the queue while a worker is free; answers; keeps its heartbeat."""

    def __init__(
        self,
        redis_url: str,
        database: str,
        *,
        workers: int | None = None,
        prefix: str = "machiavel",
        name: str | None = None,
    ) -> None:
        self.redis_url = redis_url
        self.database = database
        self.workers = workers or default_workers()
        self.slow_places = max(1, self.workers - 1)  # one worker stays free of searches
        self.keys = QueueKeys(prefix)
        self.name = name or process_name()
        self._redis: aioredis.Redis = connect(redis_url)
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[asyncio.Task[None], bool] = {}  # job task -> whether slow
        self._wake = asyncio.Event()
        self._starting = asyncio.Lock()
        self._unreachable = False

    @property
    def slow_running(self) -> int:
        return sum(self._running.values())

    def describe(self) -> str:
        return (
            f"machiavel bots: node {self.name}, {self.workers} workers "
            f"({self.slow_places} for slow moves), serving the bot queue "
            f"{self.keys.prefix!r} of {safe_url(self.redis_url)} "
            f"on the database {safe_url(self.database)}"
        )

    async def run(self, stop: asyncio.Event, serving: Callable[[], None] | None = None) -> None:
        """Serve until ``stop`` is set; then give the jobs held back and end the workers.
        ``serving`` is called once the node serves."""
        await self._redis.ping()  # fails at once if Redis is not there
        heartbeat = Heartbeat(self.redis_url, self.keys, self.name)
        await asyncio.to_thread(heartbeat.beat)
        heartbeat.start()
        helpers = [asyncio.create_task(self._listen())]
        try:
            if not await self._started(stop):  # before the first job, which does not wait
                return
            if serving is not None:
                serving()
            while not stop.is_set():
                await self._fill()
                await _first_of(stop.wait(), self._wake.wait(), timeout=POLL_SECONDS)
                self._wake.clear()
        finally:
            for task in [*helpers, *self._running]:
                task.cancel()
            await asyncio.gather(*helpers, *self._running, return_exceptions=True)
            self._end_workers()
            heartbeat.stop()
            await asyncio.to_thread(heartbeat.join)
            try:
                await self._redis.eval(LEAVE, 1, self.keys.base, self.name)
            except RedisError as error:  # its jobs go back once its heartbeat runs out
                logger.error("could not give the jobs back at once: %s", error)
            await self._redis.aclose()

    # ---- taking and answering ---------------------------------------------------------
    async def _fill(self) -> None:
        """Take jobs while a worker is free (a slow one only while a slow place is)."""
        while len(self._running) < self.workers:
            allow_slow = self.slow_running < self.slow_places
            try:
                taken = await self._redis.eval(
                    TAKE, 1, self.keys.base, self.name, "1" if allow_slow else "0", MAX_SKIPPED
                )
            except RedisError as error:
                self._report(error)
                return
            self._reachable()
            if not taken:
                return
            job_id, raw = bytes(taken[0]).decode("utf-8", "replace"), bytes(taken[1])
            self._start(job_id, raw)

    def _start(self, job_id: str, raw: bytes) -> None:
        try:
            job = Job.read(raw, job_id)
        except BadMessage as error:
            logger.error("a job on the bot queue was dropped: %s", error)
            job = None
        task = asyncio.create_task(self._serve(job_id, job))
        self._running[task] = job is not None and job.level in SLOW_LEVELS
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._running.pop(task, None)
        self._wake.set()  # a worker is free: take the next job
        if not task.cancelled() and (error := task.exception()) is not None:
            logger.error("a bot job failed: %r", error)

    async def _serve(self, job_id: str, job: Job | None) -> None:
        if job is None:
            await self._finish(job_id, "", "")
            return
        waited = max(0.0, time.time() - job.queued_at)
        BOT_QUEUE_WAIT.observe(waited)
        try:
            action = await self._compute(job)
        except Exception as error:  # not the bot's (it plays at random then): ours
            if is_unreachable(error):
                logger.error("the database cannot be reached; bot job given back: %s", error)
            else:
                logger.exception("bot job of game %s failed; given back", job.game_id)
            await asyncio.sleep(RETRY_SECONDS)  # not straight back to this node
            await self._redis.eval(GIVE_BACK_ONE, 1, self.keys.base, self.name, job_id)
            return
        answer = Answer(job.id, action, waited).to_text()
        await self._finish(job_id, self.keys.answers(job.reply_to), answer)

    async def _compute(self, job: Job) -> str | None:
        loop = asyncio.get_running_loop()
        pool = await self._workers()
        try:
            return await loop.run_in_executor(pool, compute_job, self.database, job)
        except BrokenProcessPool:
            if self._pool is pool:  # not replaced yet by another job that found it broken
                logger.warning("bot workers died; starting new ones")
                self._end_workers()
            pool = await self._workers()
            return await loop.run_in_executor(pool, compute_job, self.database, job)

    async def _finish(self, job_id: str, reply: str, answer: str) -> None:
        while True:
            try:
                await self._redis.eval(
                    FINISH,
                    1,
                    self.keys.base,
                    self.name,
                    job_id,
                    reply,
                    answer,
                    ANSWERS_KEEP_SECONDS,
                )
                return
            except RedisError as error:
                self._report(error)
                await asyncio.sleep(RETRY_SECONDS)

    async def _started(self, stop: asyncio.Event) -> bool:
        """Start the workers; False if ``stop`` came first (the node then ends at once,
        and a pool that comes up later is stopped as it does)."""
        starting = asyncio.ensure_future(self._workers())
        await _first_of(starting, stop.wait(), timeout=None)
        if starting.cancelled():
            return False
        starting.result()  # raises what starting them raised
        return True

    async def _workers(self) -> Executor:
        """The worker processes, started if need be in a thread: starting them takes
        seconds on a busy machine, which the event loop does not wait for."""
        async with self._starting:
            if self._pool is None:
                work = functools.partial(started_workers, self.workers, start_worker)
                self._pool = await in_daemon_thread(work, kill_pool)
        return self._pool

    def _end_workers(self) -> None:
        """Stop the workers now, searches and all (their jobs go back to the queue)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            kill_pool(pool)

    # ---- notices ------------------------------------------------------------------------
    async def _listen(self) -> None:
        """Wake up on each new job (a notice missed is made up for by the poll)."""
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.keys.channel)
                while True:
                    if await pubsub.get_message(timeout=POLL_SECONDS) is not None:
                        self._wake.set()
            except RedisError as error:
                self._report(error)
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _report(self, error: RedisError) -> None:
        if not self._unreachable:
            self._unreachable = True
            logger.error("the bot queue (Redis) cannot be reached: %s", error)

    def _reachable(self) -> None:
        if self._unreachable:
            self._unreachable = False
            logger.warning("the bot queue (Redis) is reachable again")


async def _first_of(*waits: Awaitable[Any], timeout: float | None) -> None:
    """Return once any of the awaitables is done, or after ``timeout`` (None: no bound);
    the others are cancelled."""
    tasks = [asyncio.ensure_future(wait) for wait in waits]
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def run_node(
    redis_url: str,
    database: str,
    workers: int | None = None,
    prefix: str = "machiavel",
    metrics: tuple[str, int] | None = None,
) -> int:
    """Serve the queue until Ctrl-C or SIGTERM; 0 then, 2 if Redis cannot be reached.
    ``metrics``: the host and port where Prometheus scrapes this node (None: nowhere)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    node = BotNode(redis_url, database, workers=workers, prefix=prefix)
    if metrics is not None:
        start_http_server(metrics[1], addr=metrics[0], registry=REGISTRY)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await node.run(stop, lambda: print(node.describe(), flush=True))

    try:
        asyncio.run(main())
    except (RedisError, OSError) as error:
        print(f"machiavel bots: the bot queue cannot be reached: {error}", file=sys.stderr)
        return 2
    return 0
