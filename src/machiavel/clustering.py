"""The command line of clusters (docs/cluster.md): the cluster options of ``machiavel
serve``, made into ``server.cluster.ClusterSettings``, and the ``cluster`` and
``proxy-config`` commands.

Read by the command line, so nothing here loads the server until a command runs.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from machiavel.serving import SettingError, positive_seconds

if TYPE_CHECKING:
    from machiavel.server.cluster import ClusterSettings
    from machiavel.server.devcluster import ClusterPlan

REDIS_URL_VARIABLE = "MACHIAVEL_REDIS_URL"  # as server.cluster reads it
PREFIX_VARIABLE = "MACHIAVEL_REDIS_PREFIX"
WILDCARD_HOSTS = ("0.0.0.0", "", "::")
# Node names go into headers, Redis keys and the proxy's configuration.
NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")
SQLITE_IN_A_CLUSTER = (
    "a cluster needs a database the processes share over the network: {url} is a SQLite "
    "file; give --database a postgresql:// URL (or serve without --redis-url: one process)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The cluster options of ``serve``."""
    group = parser.add_argument_group("cluster: several processes (docs/cluster.md)")
    group.add_argument(
        "--redis-url",
        help=f"join the processes on this Redis, e.g. redis://127.0.0.1:6379/0 "
        f"(default: ${REDIS_URL_VARIABLE}; none: one process on its own)",
    )
    group.add_argument(
        "--node-name",
        help="this process's name in the cluster (letters, digits, . _ -; default HOST-PID)",
    )
    group.add_argument(
        "--cluster-address",
        help="where the other processes reach this one, e.g. http://10.0.0.5:8001 (default "
        "http://HOST:PORT, a wildcard host such as 0.0.0.0 becoming 127.0.0.1: give it "
        "when the processes run on several machines)",
    )
    group.add_argument(
        "--lease-seconds",
        help="how long a game stays with a process that stopped renewing its lease, so at "
        "most how long its games wait after it dies (default: 5)",
    )
    group.add_argument(
        "--redis-prefix",
        help=f"of every Redis key and channel: clusters sharing a Redis each need their own "
        f"(default: ${PREFIX_VARIABLE}, else machiavel)",
    )


def settings_from(arguments: argparse.Namespace, host: str, port: int) -> ClusterSettings | None:
    """The settings of a command line (None without a Redis URL: one process);
    ``SettingError`` with a sentence for a value that cannot be used."""
    from machiavel.server.cluster import (
        DEFAULT_LEASE_SECONDS,
        DEFAULT_PREFIX,
        ClusterSettings,
        redis_url_from,
    )

    redis_url = redis_url_from(arguments.redis_url)
    if redis_url is None:
        return None
    if urlsplit(redis_url).scheme not in ("redis", "rediss", "unix"):
        raise SettingError("redis-url must be a redis://, rediss:// or unix:// URL")
    node = arguments.node_name or ""
    if node and not NODE_NAME.fullmatch(node):
        raise SettingError(
            f"node-name {node!r} must be 1 to 63 letters, digits, '.', '_' or '-', "
            "starting with a letter or a digit"
        )
    lease = DEFAULT_LEASE_SECONDS
    if arguments.lease_seconds is not None:
        lease = positive_seconds("lease-seconds", arguments.lease_seconds)
    return ClusterSettings(
        redis_url=redis_url,
        address=cluster_address(arguments.cluster_address, host, port),
        node=node,
        lease_seconds=lease,
        prefix=arguments.redis_prefix or os.environ.get(PREFIX_VARIABLE) or DEFAULT_PREFIX,
    )


def cluster_address(given: str | None, host: str, port: int) -> str:
    """``given`` (checked), else http://HOST:PORT with a wildcard host as 127.0.0.1."""
    if not given:
        shown = "127.0.0.1" if host in WILDCARD_HOSTS else host
        return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"
    parts = urlsplit(given)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingError(f"cluster-address must be an http:// URL with a host, not {given!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise SettingError(f"cluster-address must have no path or query, not {given!r}")
    if parts.hostname in WILDCARD_HOSTS:
        raise SettingError(f"cluster-address {given!r} is no address the other processes can reach")
    return given.rstrip("/")


def refuse_sqlite(database_url: str, settings: ClusterSettings | None) -> str | None:
    """The sentence refusing a SQLite database in a cluster (None when it is fine)."""
    if settings is not None and database_url.startswith("sqlite"):
        return SQLITE_IN_A_CLUSTER.format(url=database_url)
    return None


# ---- machiavel cluster, machiavel proxy-config -----------------------------------------
def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``cluster`` and ``proxy-config`` commands."""
    cluster = commands.add_parser(
        "cluster",
        help="run a cluster on this machine: N servers, bot nodes and HAProxy (development)",
    )
    cluster.add_argument("--nodes", type=int, default=2, help="server processes (default 2)")
    cluster.add_argument("--port", type=int, default=8000, help="the proxy's port (default 8000)")
    cluster.add_argument(
        "--host", default="127.0.0.1", help="the proxy's address (default 127.0.0.1)"
    )
    cluster.add_argument(
        "--database", help="a postgresql:// URL (default: $MACHIAVEL_DATABASE_URL)"
    )
    cluster.add_argument("--redis-url", help=f"Redis (default: ${REDIS_URL_VARIABLE})")
    cluster.add_argument(
        "--redis-prefix",
        help=f"of the cluster's Redis keys (default: ${PREFIX_VARIABLE}, else machiavel)",
    )
    cluster.add_argument(
        "--bot-nodes", type=int, default=1, help="bot worker nodes, `machiavel bots` (default 1)"
    )
    cluster.add_argument(
        "--bot-workers",
        type=int,
        default=1,
        help="bot worker processes of each server and bot node (default 1)",
    )
    cluster.add_argument("--lease-seconds", help="passed on to every server (as serve's)")
    cluster.add_argument(
        "--no-limits", action="store_true", help="passed on to every server (as serve's)"
    )
    cluster.add_argument(
        "--log-dir", type=Path, help="the processes' logs (default: a new temporary folder)"
    )

    proxy = commands.add_parser(
        "proxy-config",
        help="print an HAProxy configuration for server processes (docs/cluster.md)",
    )
    proxy.add_argument(
        "--server",
        action="append",
        required=True,
        metavar="[NAME=]HOST:PORT",
        help="a server process (repeat for each); NAME defaults to node-1, node-2...",
    )
    proxy.add_argument("--bind", default=":80", help="where HAProxy listens (default :80)")
    proxy.add_argument(
        "--child",
        action="store_true",
        help="for HAProxy run by its user in the foreground, not by Debian's service",
    )


def run_command(args: argparse.Namespace) -> int:
    """``machiavel cluster`` or ``machiavel proxy-config``; the exit code."""
    if args.command == "proxy-config":
        return print_proxy_config(args)
    from machiavel.server.devcluster import ClusterError, run_cluster

    try:
        plan = cluster_plan(args)
        return run_cluster(plan, say)
    except KeyboardInterrupt:  # Ctrl+C before any process started
        return 130
    except (SettingError, ClusterError) as error:
        print(f"machiavel: {error}", file=sys.stderr, flush=True)
        return 2 if isinstance(error, SettingError) else 1


def say(line: str) -> None:
    print(f"machiavel: {line}", flush=True)


def cluster_plan(args: argparse.Namespace) -> ClusterPlan:
    from machiavel.server.cluster import redis_url_from
    from machiavel.server.devcluster import ClusterPlan
    from machiavel.server.storage import database_url

    if args.nodes < 1 or args.bot_nodes < 0 or args.bot_workers < 1:
        raise SettingError("--nodes and --bot-workers must be 1 or more, --bot-nodes 0 or more")
    if not 0 < args.port < 65536:
        raise SettingError(f"--port must be between 1 and 65535, not {args.port}")
    database = database_url(args.database)
    if database.startswith("sqlite"):
        raise SettingError(SQLITE_IN_A_CLUSTER.format(url=database))
    redis_url = redis_url_from(args.redis_url)
    if redis_url is None:
        raise SettingError(f"a cluster needs Redis: give --redis-url or ${REDIS_URL_VARIABLE}")
    if args.lease_seconds is not None:
        positive_seconds("lease-seconds", args.lease_seconds)
    return ClusterPlan(
        nodes=args.nodes,
        port=args.port,
        host=args.host,
        database=database,
        redis_url=redis_url,
        bot_nodes=args.bot_nodes,
        bot_workers=args.bot_workers,
        redis_prefix=args.redis_prefix or os.environ.get(PREFIX_VARIABLE),  # bots' too
        lease_seconds=args.lease_seconds,
        limits=not args.no_limits,
        folder=args.log_dir,
    )


def print_proxy_config(args: argparse.Namespace) -> int:
    from machiavel.server.haproxy import Upstream, proxy_config

    upstreams = []
    for number, text in enumerate(args.server, start=1):
        name, _, address = text.rpartition("=")
        name = name or f"node-{number}"
        if not NODE_NAME.fullmatch(name) or not re.fullmatch(r"[^\s:]+:\d{1,5}", address):
            print(
                f"machiavel: --server {text!r} must be [NAME=]HOST:PORT, NAME made of "
                "letters, digits, '.', '_' or '-'",
                file=sys.stderr,
            )
            return 2
        upstreams.append(Upstream(name, address))
    print(proxy_config(args.bind, upstreams, system=not args.child), end="")
    return 0
