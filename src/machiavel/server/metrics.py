"""What a server process counts for Prometheus (``GET /metrics``, docs/cluster.md).

One registry per process: each server of a cluster is scraped on its own address, as
Prometheus expects (its ``instance`` label tells them apart), and a bot worker node
counts in the same names. prometheus-client keeps the numbers and writes the text
format; the server and the bot queue only add to them.

Besides the metric objects: the few hooks the server calls (``arrived``,
``action_pushed``, ``WaitingBotMove``) and ``Observed``, the ASGI layer that times
requests' arrival and counts open WebSockets, so that the routes stay free of counting.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextvars import ContextVar
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

REGISTRY = CollectorRegistry(auto_describe=True)

# Latencies of a move from its arrival to the last push queued: milliseconds to seconds.
_LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
# A bot move waits in the queue from milliseconds (a free worker) to minutes (a flood).
_WAIT_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0)


class ActionCounts(Collector):
    """``machiavel_actions`` (per game) and ``machiavel_action_push_seconds``, counted in
    plain numbers and turned into metric families when scraped.

    prometheus-client's own ``Counter`` and ``Histogram`` take a lock at every count,
    for threads that might count at once: these are counted at every action, by the
    event loop's thread alone, where the locks and the calls around them cost about
    3 us an action (issue 18). A scrape from another thread reads numbers that only
    grow, copied first."""

    def __init__(self) -> None:
        self.actions: dict[str, int] = {}
        self.buckets = [0] * (len(_LATENCY_BUCKETS) + 1)  # the last one: above them all
        self.latency_sum = 0.0

    def count_action(self, game: str) -> None:
        self.actions[game] = self.actions.get(game, 0) + 1

    def time_push(self, seconds: float) -> None:
        self.buckets[bisect_left(_LATENCY_BUCKETS, seconds)] += 1
        self.latency_sum += seconds

    def collect(self) -> Iterator[Metric]:
        actions = CounterMetricFamily(
            "machiavel_actions",
            "Actions accepted and stored (rate() of it: actions per second)",
            labels=["game"],
        )
        for game, count in list(self.actions.items()):
            actions.add_metric([game], count)
        yield actions
        counts, total, cumulative = self.buckets[:], self.latency_sum, 0
        bounds = [*map(floatToGoString, _LATENCY_BUCKETS), "+Inf"]
        running = []
        for bound, count in zip(bounds, counts, strict=True):
            cumulative += count
            running.append((bound, cumulative))
        yield HistogramMetricFamily(
            "machiavel_action_push_seconds",
            "From an action's arrival to its state queued for every watcher of the game",
            buckets=running,
            sum_value=total,
        )


ACTION_COUNTS = ActionCounts()
REGISTRY.register(ACTION_COUNTS)
OPEN_SOCKETS = Gauge(
    "machiavel_open_sockets",
    "WebSockets open on this process",
    registry=REGISTRY,
)
GAMES_IN_MEMORY = Gauge(
    "machiavel_games_in_memory",
    "Games loaded in this process's memory (those it owns, in a cluster)",
    registry=REGISTRY,
)
BOT_QUEUE_LENGTH = Gauge(
    "machiavel_bot_queue_length",
    "Bot moves waiting for a worker (this process's pool, or the cluster's Redis queue)",
    registry=REGISTRY,
)
BOT_QUEUE_WAIT = Histogram(
    "machiavel_bot_queue_wait_seconds",
    "How long a bot move waited before a worker took it",
    buckets=_WAIT_BUCKETS,
    registry=REGISTRY,
)
LEASE_TAKEOVERS = Counter(
    "machiavel_lease_takeovers",
    "Games this process took over after their owner's lease ran out",
    registry=REGISTRY,
)


# ---- actions --------------------------------------------------------------------------
# When what may carry an action arrived (a request, a socket message, a bot's move): set
# by whoever receives it, read once the action's state is pushed. A context variable,
# so that the accept path needs no extra argument and each request or task sees its own.
_ARRIVAL: ContextVar[float | None] = ContextVar("machiavel_action_arrival", default=None)


def arrived() -> None:
    """Something that may carry an action arrived now: its push latency counts from here."""
    _ARRIVAL.set(time.perf_counter())


def action_pushed(game: str) -> None:
    """An action of ``game`` is stored and its state queued for every watcher (on the
    event loop's thread).

    The arrival is used once: a later action in the same context (none is expected) is
    counted but not timed, rather than timed from a stale arrival."""
    ACTION_COUNTS.count_action(game)
    arrival = _ARRIVAL.get()
    if arrival is not None:
        ACTION_COUNTS.time_push(time.perf_counter() - arrival)
        _ARRIVAL.set(None)


# ---- bot moves ------------------------------------------------------------------------
class WaitingBotMove:
    """A bot move counted in ``BOT_QUEUE_LENGTH`` from the moment it is counted until a
    worker takes it (``taken``: its wait since ``scheduled_at``, a ``time.monotonic``
    reading, goes to ``BOT_QUEUE_WAIT``) or it is dropped first (``left``)."""

    def __init__(self, scheduled_at: float) -> None:
        self.scheduled_at = scheduled_at
        self.waiting = True
        BOT_QUEUE_LENGTH.inc()

    def taken(self) -> None:
        if self.waiting:
            self.waiting = False
            BOT_QUEUE_LENGTH.dec()
            BOT_QUEUE_WAIT.observe(max(0.0, time.monotonic() - self.scheduled_at))

    def left(self) -> None:
        """Leave the queue without being taken (cancelled, or a failure): not timed."""
        if self.waiting:
            self.waiting = False
            BOT_QUEUE_LENGTH.dec()


# ---- the ASGI layer and the exposition -------------------------------------------------
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]


class Observed:
    """Pure ASGI: an HTTP request's arrival is noted (``arrived``) before anything reads
    it; a WebSocket counts in ``OPEN_SOCKETS`` from its accept to the end of its handler,
    however that ends (a close, a client gone, an error)."""

    def __init__(self, app: Asgi) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            arrived()
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._socket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        accepted = False

        async def counting_send(message: Message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept" and not accepted:
                accepted = True
                OPEN_SOCKETS.inc()
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            if accepted:
                OPEN_SOCKETS.dec()


def exposition() -> tuple[bytes, str]:
    """The registry in Prometheus's text format, and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
