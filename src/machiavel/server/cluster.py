"""Several server processes on one PostgreSQL and one Redis (docs/cluster.md).

``ClusterSettings`` says how a process joins: the Redis that joins the processes, its
own name (answered in ``X-Machiavel-Node``) and the address where the others reach it.
Without them (``machiavel serve`` with no Redis URL) the server is one process.

``Cluster`` is this process's membership, all through Redis:

- **Leases.** A game is played by one process at a time, its owner, named by the key
  ``PREFIX:lease:GAME`` that expires unless the owner renews it (every third of
  ``lease_seconds``). A process claims a game before loading it, and forgets a game
  whose lease it lost. Two processes can still both believe they own a game for a
  moment (a stalled owner); the database refuses the second action with the same
  number (``StaleWrite``) and the loser reloads, so nothing is applied twice.
- **Members.** Each process is known by an *incarnation* (its name and a random
  suffix: a restarted process is a new member), with a heartbeat key holding its
  address. The games each one owns are listed in ``PREFIX:games:INCARNATION``; when a
  member's heartbeat runs out, the others share its list out and load those games
  (their bots and clocks go on), each claim going to one of them.
- **Messages.** Every member listens on its channel ``PREFIX:to:INCARNATION``
  (Redis pub/sub): a socket opened on one process for a game owned by another is
  registered with the owner, which pushes that socket's texts, built from its own
  ``state.view``, to the process holding the socket.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from limits.storage import RedisStorage
from limits.strategies import MovingWindowRateLimiter
from redis.asyncio import Redis
from redis.exceptions import RedisError

from machiavel.server import metrics
from machiavel.server.jsontext import dumps, loads

logger = logging.getLogger("machiavel.server")

REDIS_URL_VARIABLE = "MACHIAVEL_REDIS_URL"
DEFAULT_LEASE_SECONDS = 5.0
DEFAULT_PREFIX = "machiavel"
REDIS_AWAY = "the cluster cannot tell which process plays this game (Redis does not answer)"
LOOKUP_PAUSE = 0.05  # seconds between two looks at a lease that a dead process still holds


def process_name() -> str:
    """This process's name in a cluster: host and process id, unique while it runs."""
    return f"{socket.gethostname()}-{os.getpid()}"


@dataclass(frozen=True)
class ClusterSettings:
    """How a server process joins a cluster.

    ``address``: the base URL where the other processes reach this one directly (not
    through the proxy), e.g. ``http://10.0.0.5:8001``. ``lease_seconds``: how long a game
    stays owned by a process that stopped renewing its lease (so, at most, how long its
    games wait after it dies). ``prefix``: of every Redis key and channel (tests give
    each cluster its own)."""

    redis_url: str
    address: str
    node: str = ""
    lease_seconds: float = DEFAULT_LEASE_SECONDS
    prefix: str = DEFAULT_PREFIX

    @property
    def name(self) -> str:
        return self.node or process_name()


def shared_limiter(settings: ClusterSettings) -> MovingWindowRateLimiter:
    """Moving windows kept in Redis, so that a limit (write requests, failed sign-ins,
    chat) holds for the whole cluster, not once per process. Each check is a round trip
    to Redis (a fraction of a millisecond on a local network)."""
    storage = RedisStorage(settings.redis_url, key_prefix=f"{settings.prefix}:limits")
    return MovingWindowRateLimiter(storage)


def redis_url_from(given: str | None) -> str | None:
    """``--redis-url`` if given, else $MACHIAVEL_REDIS_URL, else None (one process)."""
    chosen = (given or os.environ.get(REDIS_URL_VARIABLE, "")).strip()
    return chosen or None


# Claim a lease: KEYS lease, games-of-me; ARGV me, milliseconds, game. 1 if ours now.
_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('SADD', KEYS[2], ARGV[3])
  return 1
end
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""
# Renew leases: KEYS the leases; ARGV me, milliseconds. The positions of those lost.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""
# Give a lease up: KEYS lease, games-of-me; ARGV me, game[, "hand over": the game stays
# in this member's list, for the others to take over].
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
if ARGV[3] == nil then redis.call('SREM', KEYS[2], ARGV[2]) end
return 1
"""


@dataclass(frozen=True)
class Owner:
    """Another member owning a game: its incarnation and address (None: it is dead or
    leaving, and its lease runs out soon)."""

    member: str
    address: str | None


Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Cluster:
    """This process's membership in a cluster (see the module's docstring)."""

    def __init__(self, settings: ClusterSettings, redis: Redis | None = None) -> None:
        self.settings = settings
        self.name = settings.name
        self.member = f"{self.name}#{secrets.token_hex(4)}"
        self.redis: Redis = redis or Redis.from_url(settings.redis_url, decode_responses=True)
        self.lease_ms = max(1, int(settings.lease_seconds * 1000))
        self.secret = ""  # shared by the members: marks requests passed between them
        self._claim = self.redis.register_script(_CLAIM)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._handler: Handler | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.owned: Callable[[], Iterable[str]] = tuple  # the games in memory (set by the service)
        self.on_lost: Callable[[str], None] = lambda game_id: None
        self.on_orphans: Callable[[list[str]], Awaitable[None]] | None = None
        self.on_member_gone: Callable[[str], None] = lambda member: None
        self._known_gone: set[str] = set()

    # ---- keys -------------------------------------------------------------------------
    def _key(self, *parts: str) -> str:
        return ":".join((self.settings.prefix, *parts))

    def lease_key(self, game_id: str) -> str:
        return self._key("lease", game_id)

    def channel(self, member: str) -> str:
        return self._key("to", member)

    # ---- life -------------------------------------------------------------------------
    async def start(self, handler: Handler) -> None:
        """Join: share the secret, beat, listen to this member's channel, publish."""
        self._handler = handler
        await self.redis.set(self._key("secret"), secrets.token_urlsafe(32), nx=True)
        self.secret = _text(await self.redis.get(self._key("secret")))
        await self._beat()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.channel(self.member))
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(pubsub)),
            loop.create_task(self._publish_forever()),
            loop.create_task(self._keep_alive()),
        ]

    async def stop(self) -> None:
        """Leave: give every lease up at once and stop beating, so that the others take
        the games over at their next beat rather than when the leases run out (the list
        of this member's games stays for them to share out)."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        try:
            await self._publish_waiting()  # e.g. the closes of sockets held elsewhere
            for game_id in list(self.owned()):
                await self._release(
                    keys=[self.lease_key(game_id), self._key("games", self.member)],
                    args=[self.member, game_id, "hand over"],
                )
            await self.redis.delete(self._key("member", self.member))
        except RedisError as error:
            logger.warning("cluster: could not leave cleanly: %s", error)
        await self.redis.aclose()

    # ---- leases -----------------------------------------------------------------------
    async def claim(self, game_id: str) -> bool:
        """Make this process the game's owner, or renew; False if another one owns it."""
        keys = [self.lease_key(game_id), self._key("games", self.member)]
        return bool(await self._claim(keys=keys, args=[self.member, self.lease_ms, game_id]))

    async def release(self, game_id: str) -> None:
        keys = [self.lease_key(game_id), self._key("games", self.member)]
        await self._release(keys=keys, args=[self.member, game_id])

    async def owner(self, game_id: str) -> Owner | None:
        """The member owning a game, if another one does (None: nobody, or this one)."""
        member = await self.redis.get(self.lease_key(game_id))
        if member is None:
            return None
        name = _text(member)
        if name == self.member:
            return None
        address = await self.redis.get(self._key("member", name))
        return Owner(name, None if address is None else _text(address))

    async def owner_or_claim(self, game_id: str, patience: float | None = None) -> Owner | None:
        """None once this process owns the game, else the live member owning it. A game
        whose owner is gone (no heartbeat) is waited for until its lease runs out, then
        claimed: at most ``patience`` seconds (default: twice the lease), then
        ``OwnerUnreachable``."""
        wait = 2 * self.settings.lease_seconds if patience is None else patience
        deadline = time.monotonic() + wait
        waited = False  # for a dead owner's lease: claiming then is taking over
        while True:
            if await self.claim(game_id):
                if waited:
                    metrics.LEASE_TAKEOVERS.inc()
                return None
            owner = await self.owner(game_id)
            if owner is not None and owner.address is not None:
                return owner
            waited = owner is not None
            if time.monotonic() >= deadline:
                raise OwnerUnreachable(game_id)
            await asyncio.sleep(LOOKUP_PAUSE)  # its lease runs out within lease_seconds

    async def wait_for_lease_end(self, game_id: str, member: str) -> None:
        """Wait until ``member`` no longer holds the game's lease (it stopped answering)."""
        deadline = time.monotonic() + 2 * self.settings.lease_seconds
        while (await self.redis.get(self.lease_key(game_id))) == member:
            if time.monotonic() >= deadline:
                raise OwnerUnreachable(game_id)
            await asyncio.sleep(LOOKUP_PAUSE)

    # ---- heartbeat, renewals, takeovers ------------------------------------------------
    async def _keep_alive(self) -> None:
        period = self.settings.lease_seconds / 3
        while True:
            await asyncio.sleep(period)
            try:
                await self._beat()
                await self._renew_all()
                await self._take_over_the_dead()
            except RedisError as error:  # Redis away: leases run out, others take over
                logger.warning("cluster: Redis did not answer: %s", error)
            except Exception:
                logger.exception("cluster: keeping alive failed")

    async def _beat(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key("member", self.member), self.settings.address, px=self.lease_ms)
            pipe.sadd(self._key("members"), self.member)
            await pipe.execute()

    async def _renew_all(self) -> None:
        games = list(self.owned())
        if not games:
            return
        keys = [self.lease_key(game_id) for game_id in games]
        lost = await self._renew(keys=keys, args=[self.member, self.lease_ms])
        for position in lost:
            game_id = games[int(position) - 1]
            logger.warning("cluster: lost the lease of game %s; forgetting it", game_id)
            self.on_lost(game_id)

    async def _take_over_the_dead(self) -> None:
        """Share out the games of members whose heartbeat ran out: each live member pops
        a few at a time and claims them, so they spread over the survivors."""
        members = [_text(m) for m in await self.redis.smembers(self._key("members"))]
        for member in members:
            if member == self.member or await self.redis.exists(self._key("member", member)):
                self._known_gone.discard(member)  # back after a stall: it may die again
                continue
            if member not in self._known_gone:
                self._known_gone.add(member)
                self.on_member_gone(member)
            games_key = self._key("games", member)
            popped = await self.redis.spop(games_key, 20)
            if not popped:
                await self.redis.srem(self._key("members"), member)
                continue
            claimed = [g for g in map(_text, popped) if await self._adopt(g, member)]
            metrics.LEASE_TAKEOVERS.inc(len(claimed))
            if claimed and self.on_orphans is not None:
                logger.info("cluster: taking over %d games of %s", len(claimed), member)
                await self.on_orphans(claimed)

    async def _adopt(self, game_id: str, dead: str) -> bool:
        """Claim one game of a dead member; one whose lease has not run out yet goes back
        to its list for a later round."""
        if await self.claim(game_id):
            return True
        if await self.redis.get(self.lease_key(game_id)) == dead:
            await self.redis.sadd(self._key("games", dead), game_id)
        return False

    async def is_alive(self, member: str) -> bool:
        return bool(await self.redis.exists(self._key("member", member)))

    # ---- messages ---------------------------------------------------------------------
    def send(self, member: str, message: dict[str, Any]) -> None:
        """Queue a message for another member (sent in order, never blocking the game)."""
        self._outbox.put_nowait((self.channel(member), dumps(message)))

    async def _publish_forever(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            await self._publish(batch)

    async def _publish_waiting(self) -> None:
        batch = []
        while not self._outbox.empty():
            batch.append(self._outbox.get_nowait())
        if batch:
            await self._publish(batch)

    async def _publish(self, batch: list[tuple[str, str]]) -> None:
        """Send in one round trip, in order."""
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for target, body in batch:
                    pipe.publish(target, body)
                await pipe.execute()
        except RedisError as error:
            logger.warning("cluster: %d messages not sent: %s", len(batch), error)

    async def _listen(self, pubsub: Any) -> None:
        async for message in pubsub.listen():
            if message.get("type") != "message" or self._handler is None:
                continue
            try:
                body = loads(message["data"])
            except ValueError:
                logger.warning("cluster: a message that is not JSON was dropped")
                continue
            if not isinstance(body, dict):
                logger.warning("cluster: a message that is not an object was dropped")
                continue
            try:
                await self._handler(body)
            except Exception:
                logger.exception("cluster: a message could not be handled")


def _text(value: object) -> str:
    """A Redis answer as text (the client decodes answers; bytes only if told not to)."""
    return value.decode() if isinstance(value, bytes) else str(value)


class OwnerUnreachable(Exception):  # noqa: N818 - it names a situation
    """A game's owner stopped answering and its lease did not run out in time."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"the server owning game {game_id} does not answer; try again")
        self.game_id = game_id
