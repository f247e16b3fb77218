"""Bot moves through a queue in Redis, for a cluster (docs/cluster.md, "Bot worker nodes").

A server process puts a job on the queue; a bot worker node (``machiavel bots``,
``botnode.py``) takes it, loads the game from the database, computes the move and
answers on the asking process's own list. A job names the move, it does not carry the
game: any node may take it, and nothing hidden travels through Redis.

Keys, all under ``<prefix>:bots:``:

- ``jobs`` (hash): job id -> the job (JSON); ``lane`` (hash): job id -> its lane.
- ``quick`` (list of job ids): easy and medium moves, first come first served.
- ``slow:<owner>`` (list of job ids) per table owner, and ``owners`` (list): the owners
  with slow moves waiting, in turn (round robin: one move each, then the next owner).
- ``nodes`` (set), ``alive:<node>`` (expires unless renewed: the node's heartbeat) and
  ``taken:<node>`` (set of job ids): what each worker node holds. The jobs of a node whose
  heartbeat ran out go back to the head of their lanes.
- ``answers:<server>`` (list): the answers for a server process (expiring: the answers
  of a process that died go with it).
- ``new`` (channel): told of each job put on the queue, so idle nodes look at once.

Every step that moves a job is one Lua script (atomic in Redis), so a job is always in
exactly one place: waiting in a lane, taken by one node, or answered. Lua only moves ids
and opaque strings: the JSON is read in Python (Lua's cjson would round 64-bit seeds).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from dataclasses import asdict, dataclass
from typing import Any

from redis import asyncio as aioredis
from redis.exceptions import RedisError

from machiavel.server.bots import SLOW_LEVELS, MoveRequest
from machiavel.server.cluster import ClusterSettings
from machiavel.server.metrics import BOT_QUEUE_LENGTH, BOT_QUEUE_WAIT

logger = logging.getLogger("machiavel.server")

QUICK = "quick"
ANSWERS_KEEP_SECONDS = 600  # answers nobody reads (their server died) expire
CANCELLED_KEEP_SECONDS = 600
MAX_SKIPPED = 100  # ids without a job (cancelled, garbage) a take passes over at most


class BadMessage(ValueError):  # noqa: N818 - it names a situation
    """A job or an answer in Redis that is not one (garbage, or another version's)."""


@dataclass(frozen=True)
class QueueKeys:
    prefix: str

    def key(self, name: str) -> str:
        return f"{self.prefix}:bots:{name}"

    @property
    def base(self) -> str:
        """What the scripts add key names to (they build ``slow:<owner>``, ``taken:<node>``)."""
        return f"{self.prefix}:bots:"

    def answers(self, server: str) -> str:
        return self.key(f"answers:{server}")

    def taken(self, node: str) -> str:
        return self.key(f"taken:{node}")

    def alive(self, node: str) -> str:
        return self.key(f"alive:{node}")

    @property
    def channel(self) -> str:
        return self.key("new")


@dataclass(frozen=True)
class Job:
    """What to compute, not the game: the worker loads the game at ``version``."""

    id: str
    game_id: str
    version: int
    player: int
    level: str
    seed: int
    params: dict[str, Any]
    owner: str  # who opened the table: slow moves take turns across owners
    reply_to: str  # the server process that asked, whose answers list gets the answer
    queued_at: float  # time.time() when it was put on the queue (for the waiting time)

    @property
    def lane(self) -> str:
        return f"slow:{self.owner}" if self.level in SLOW_LEVELS else QUICK

    def to_text(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_request(cls, request: MoveRequest, reply_to: str) -> Job:
        return cls(
            uuid.uuid4().hex,
            request.game_id,
            request.version,
            request.player,
            request.level,
            request.seed,
            request.params,
            request.owner,
            reply_to,
            time.time(),
        )

    @classmethod
    def read(cls, raw: bytes, job_id: str | None = None) -> Job:
        """The job in ``raw`` (queued as ``job_id``); ``BadMessage`` if it is not one."""
        data = _json_object(raw, "a job")
        try:
            job = cls(**data)
        except TypeError as error:
            raise BadMessage(f"a job with the fields {sorted(data)}"[:200]) from error
        _check_types(
            job,
            id=str,
            game_id=str,
            version=int,
            player=int,
            level=str,
            seed=int,
            params=dict,
            owner=str,
            reply_to=str,
            queued_at=(int, float),
        )
        if job.version < 0 or job.player < 0:
            raise BadMessage(f"a job at version {job.version} for player {job.player}")
        if job_id is not None and job.id != job_id:
            raise BadMessage(f"job {job_id!r} holds the job of another id: {job.id!r}"[:200])
        return job


@dataclass(frozen=True)
class Answer:
    """A worker node's answer: the action, or None if the job was no longer wanted."""

    id: str
    action: str | None
    waited: float  # seconds the job waited in the queue before a node took it

    def to_text(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def read(cls, raw: bytes) -> Answer:
        data = _json_object(raw, "an answer")
        try:
            answer = cls(**data)
        except TypeError as error:
            raise BadMessage(f"an answer with the fields {sorted(data)}"[:200]) from error
        _check_types(answer, id=str, action=(str, type(None)), waited=(int, float))
        return answer


def _as_bytes(raw: bytes | str) -> bytes:
    return raw if isinstance(raw, bytes) else raw.encode("utf-8")


def _json_object(raw: bytes, what: str) -> dict[str, Any]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise BadMessage(f"{what} that is not JSON text: {bytes(raw[:60])!r}") from error
    if not isinstance(data, dict):
        raise BadMessage(f"{what} that is not a JSON object: {bytes(raw[:60])!r}")
    return data


def _check_types(message: object, **types: type | tuple[type, ...]) -> None:
    for name, kind in types.items():
        value = getattr(message, name)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise BadMessage(f"a field {name} of the wrong type: {value!r}"[:200])


# ---- the scripts ----------------------------------------------------------------------
# KEYS[1]: the key base ("<prefix>:bots:"); the scripts name their keys from it (one
# Redis, not Redis Cluster, which would want every key declared).

ENQUEUE = """
local base, id, job, lane = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
redis.call('HSET', base .. 'jobs', id, job)
redis.call('HSET', base .. 'lane', id, lane)
if lane == 'quick' then
  redis.call('RPUSH', base .. 'quick', id)
else
  local owner = string.sub(lane, 6)
  if redis.call('RPUSH', base .. lane, id) == 1 then
    redis.call('RPUSH', base .. 'owners', owner)
  end
end
redis.call('PUBLISH', base .. 'new', lane)
local waiting = redis.call('LLEN', base .. 'quick')
for _, owner in ipairs(redis.call('LRANGE', base .. 'owners', 0, -1)) do
  waiting = waiting + redis.call('LLEN', base .. 'slow:' .. owner)
end
return waiting
"""

# Takes the next job a node may run: a quick one, else (if it has a slow place free) the
# next owner's oldest slow one, that owner going to the end of the turn. Ids whose job
# is gone (cancelled, or garbage pushed there) are passed over.
TAKE = """
local base, node, allow_slow = KEYS[1], ARGV[1], ARGV[2] == '1'
if redis.call('EXISTS', base .. 'alive:' .. node) == 0 then
  return false
end
for _ = 1, tonumber(ARGV[3]) do
  local id = redis.call('LPOP', base .. 'quick')
  if not id and allow_slow then
    local owner = redis.call('LPOP', base .. 'owners')
    if not owner then return false end
    id = redis.call('LPOP', base .. 'slow:' .. owner)
    if redis.call('LLEN', base .. 'slow:' .. owner) > 0 then
      redis.call('RPUSH', base .. 'owners', owner)
    end
  elseif not id then
    return false
  end
  if id then
    local job = redis.call('HGET', base .. 'jobs', id)
    if job then
      redis.call('SADD', base .. 'taken:' .. node, id)
      return {id, job}
    end
    redis.call('HDEL', base .. 'lane', id)
  end
end
return false
"""

# A node is done with a job: the answer goes to its server only if the node still held
# the job (not if its heartbeat ran out meanwhile and another node took it again).
FINISH = """
local base, node, id, reply, answer = KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('SREM', base .. 'taken:' .. node, id) == 0 then
  return 0
end
redis.call('HDEL', base .. 'jobs', id)
redis.call('HDEL', base .. 'lane', id)
if reply ~= '' then
  redis.call('RPUSH', reply, answer)
  redis.call('EXPIRE', reply, tonumber(ARGV[5]))
end
return 1
"""


# Puts a node's jobs back at the head of their lanes (its owner first in the turn, as
# it was when the job was taken) and forgets the node.
_GIVE_BACK = """
local function give_back_one(base, node, id)
  redis.call('SREM', base .. 'taken:' .. node, id)
  local lane = redis.call('HGET', base .. 'lane', id)
  if not lane or redis.call('HEXISTS', base .. 'jobs', id) == 0 then
    redis.call('HDEL', base .. 'lane', id)  -- cancelled meanwhile
    return 0
  end
  if lane == 'quick' then
    redis.call('LPUSH', base .. 'quick', id)
  elseif redis.call('LPUSH', base .. lane, id) == 1 then
    redis.call('LPUSH', base .. 'owners', string.sub(lane, 6))
  end
  redis.call('PUBLISH', base .. 'new', 'given back')
  return 1
end
local function give_back(base, node)
  local count = 0
  for _, id in ipairs(redis.call('SMEMBERS', base .. 'taken:' .. node)) do
    count = count + give_back_one(base, node, id)
  end
  redis.call('DEL', base .. 'taken:' .. node)
  redis.call('SREM', base .. 'nodes', node)
  return count
end
"""

# A node that cannot compute a job now (its database is out of reach) gives it back.
GIVE_BACK_ONE = (
    _GIVE_BACK
    + """
if redis.call('SISMEMBER', KEYS[1] .. 'taken:' .. ARGV[1], ARGV[2]) == 0 then
  return 0
end
return give_back_one(KEYS[1], ARGV[1], ARGV[2])
"""
)

# Any node runs this now and then: the jobs of the nodes whose heartbeat ran out go back.
REAP = (
    _GIVE_BACK
    + """
local base, count = KEYS[1], 0
for _, node in ipairs(redis.call('SMEMBERS', base .. 'nodes')) do
  if redis.call('EXISTS', base .. 'alive:' .. node) == 0 then
    count = count + give_back(base, node)
  end
end
return count
"""
)

# A node stopping cleanly gives its jobs back at once.
LEAVE = (
    _GIVE_BACK
    + """
redis.call('DEL', KEYS[1] .. 'alive:' .. ARGV[1])
return give_back(KEYS[1], ARGV[1])
"""
)

# Counts the waiting jobs (the metric): the quick lane and each owner's slow lane.
WAITING = """
local base = KEYS[1]
local count = redis.call('LLEN', base .. 'quick')
for _, owner in ipairs(redis.call('LRANGE', base .. 'owners', 0, -1)) do
  count = count + redis.call('LLEN', base .. 'slow:' .. owner)
end
return count
"""


def connect(url: str) -> aioredis.Redis:
    """A client that hands bytes back (a message is decoded, and refused, by us)."""
    client: aioredis.Redis = aioredis.Redis.from_url(url, decode_responses=False)
    return client


# ---- the server's side ----------------------------------------------------------------
class RedisMoves:
    """Bot moves of a server process in a cluster: each is a job on the Redis queue,
    and its answer comes back on this process's own answers list."""

    RETRY_SECONDS = 1.0  # between two tries while Redis cannot be reached
    WATCH_SECONDS = 30.0  # between two looks for jobs Redis lost (tests shorten it)

    def __init__(self, cluster: ClusterSettings) -> None:
        self.cluster = cluster
        self.keys = QueueKeys(cluster.prefix)
        self.name = cluster.name
        self._redis: aioredis.Redis | None = None
        self._listener: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._waiting: dict[str, asyncio.Future[Answer]] = {}
        self._jobs: dict[str, Job] = {}  # the jobs waiting for an answer, by id
        self._tasks: set[asyncio.Task[None]] = set()
        self._unreachable = False  # logged once per outage

    def _client(self) -> aioredis.Redis:
        if self._redis is None:
            self._redis = connect(self.cluster.redis_url)
        if self._listener is None:
            self._listener = asyncio.get_running_loop().create_task(self._listen())
            self._watcher = asyncio.get_running_loop().create_task(self._watch())
        return self._redis

    async def compute(self, request: MoveRequest) -> str | None:
        job = Job.from_request(request, self.name)
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._waiting[job.id] = answer
        try:
            await self._enqueue(job)
            self._jobs[job.id] = job  # watched from now on (_watch)
            got = await answer
        except asyncio.CancelledError:
            self._cancel_later(job.id)
            raise
        finally:
            del self._waiting[job.id]
            self._jobs.pop(job.id, None)
        BOT_QUEUE_WAIT.observe(max(0.0, got.waited))
        return got.action

    async def _enqueue(self, job: Job) -> None:
        while True:
            try:
                queued = await self._client().eval(
                    ENQUEUE, 1, self.keys.base, job.id, job.to_text(), job.lane
                )
            except RedisError as error:
                self._report(error)
                await asyncio.sleep(self.RETRY_SECONDS)  # the move waits for Redis
                continue
            self._reachable()
            BOT_QUEUE_LENGTH.set(int(queued))
            return

    def _cancel_later(self, job_id: str) -> None:
        """A move no longer wanted: its job is taken out of the queue (skipped if still
        waiting; if a node has it, its answer is ignored)."""
        task = asyncio.get_running_loop().create_task(self._cancel(job_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _cancel(self, job_id: str) -> None:
        if self._redis is None:
            return
        try:
            await self._redis.hdel(self.keys.key("jobs"), job_id)
        except RedisError as error:
            self._report(error)  # a waiting job then runs for nothing: harmless

    async def _watch(self) -> None:
        """Queue again the jobs Redis lost (it restarted without saving them): missing
        from ``jobs`` at two looks in a row and still unanswered. At one look only, a job
        may just have been answered, its answer not yet read."""
        missing: set[str] = set()
        while True:
            await asyncio.sleep(self.WATCH_SECONDS)
            ids = list(self._jobs)
            if not ids or self._redis is None:
                missing = set()
                continue
            try:
                there = await self._redis.hmget(self.keys.key("jobs"), ids)
            except RedisError as error:
                self._report(error)
                continue
            now_missing = {job_id for job_id, raw in zip(ids, there, strict=True) if raw is None}
            for job_id in now_missing & missing:
                job = self._jobs.get(job_id)
                if job is not None:
                    logger.warning(
                        "bot job of game %s was lost by Redis: queued again", job.game_id
                    )
                    await self._enqueue(job)
            missing = now_missing - missing

    async def _listen(self) -> None:
        """Hand each answer on this process's list to the move waiting for it."""
        key = self.keys.answers(self.name)
        reader = connect(self.cluster.redis_url)  # blocking reads: a connection apart
        try:
            while True:
                try:
                    popped = await reader.blpop([key], timeout=1)
                except RedisError as error:
                    self._report(error)
                    await asyncio.sleep(self.RETRY_SECONDS)
                    continue
                self._reachable()
                if popped is not None:
                    self._hand_over(_as_bytes(popped[1]))
        finally:
            await reader.aclose()

    def _hand_over(self, raw: bytes) -> None:
        try:
            answer = Answer.read(raw)
        except BadMessage as error:
            logger.error("an answer on the bot queue was dropped: %s", error)
            return
        waiting = self._waiting.get(answer.id)
        if waiting is not None and not waiting.done():
            waiting.set_result(answer)  # otherwise no longer wanted (or a duplicate)

    def _report(self, error: RedisError) -> None:
        if not self._unreachable:
            self._unreachable = True
            logger.error("the bot queue (Redis) cannot be reached: %s; bots wait", error)

    def _reachable(self) -> None:
        if self._unreachable:
            self._unreachable = False
            logger.warning("the bot queue (Redis) is reachable again")

    async def close(self) -> None:
        if self._tasks:  # the last cancellations, so that no node works for nothing
            await asyncio.wait(set(self._tasks), timeout=self.RETRY_SECONDS)
        tasks = [task for task in (self._listener, self._watcher, *self._tasks) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._listener = self._watcher = None
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None
