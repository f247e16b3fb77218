"""What a server process counts for Prometheus (``GET /metrics``, docs/cluster.md).

One registry per process: each server of a cluster is scraped on its own address, as
Prometheus expects (its ``instance`` label tells them apart), and a bot worker node
counts in the same names. prometheus-client keeps the numbers and writes the text
format; the server and the bot queue only add to them.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

# Latencies of a move from its arrival to the last push queued: milliseconds to seconds.
_LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
# A bot move waits in the queue from milliseconds (a free worker) to minutes (a flood).
_WAIT_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0)

ACTIONS = Counter(
    "machiavel_actions",
    "Actions accepted and stored (rate() of it: actions per second)",
    ["game"],
    registry=REGISTRY,
)
PUSH_LATENCY = Histogram(
    "machiavel_action_push_seconds",
    "From an action's arrival to its state queued for every watcher of the game",
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
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
