"""Several server processes on one PostgreSQL and one Redis (docs/cluster.md).

``ClusterSettings`` says how a process joins: the Redis that joins the processes, its
own name (answered in ``X-Machiavel-Node``) and the address where the others reach it.
Without them (``machiavel serve`` with no Redis URL) the server is one process.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

REDIS_URL_VARIABLE = "MACHIAVEL_REDIS_URL"
DEFAULT_LEASE_SECONDS = 5.0
DEFAULT_PREFIX = "machiavel"


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


def redis_url_from(given: str | None) -> str | None:
    """``--redis-url`` if given, else $MACHIAVEL_REDIS_URL, else None (one process)."""
    chosen = (given or os.environ.get(REDIS_URL_VARIABLE, "")).strip()
    return chosen or None
