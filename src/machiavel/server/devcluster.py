"""``machiavel cluster``: a whole cluster on this machine, for development and tests
(docs/cluster.md, "Running a cluster").

It brings the database's schema up to date once, then starts N ``machiavel serve``
processes on free loopback ports (``node-1``...), the bot worker nodes (``machiavel
bots``) and HAProxy in front of them on the port asked for; it waits until each answers,
says where everything is, and stops them all on Ctrl+C or SIGTERM. A server or bot node
that dies on its way is reported and the others go on (the proxy sends its share to
them); without the proxy, or without any server left, the cluster stops. Every child
runs in a process group of its own, ended whole, and is told by the kernel to stop if
this process dies without a word (``PR_SET_PDEATHSIG``): no process is left behind.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import FrameType

import httpx2

from machiavel.clustering import cluster_address
from machiavel.server.haproxy import (
    HAPROXY,
    PER_ADDRESS,
    Upstream,
    check_config,
    haproxy_command,
    proxy_config,
)
from machiavel.server.health import HEALTH_PATH
from machiavel.server.launch import free_port

START_SECONDS = 120.0  # a process that does not answer within this is stuck
STOP_SECONDS = 30.0  # graceful stop of each process before SIGKILL
POLL = 0.1  # seconds between two looks at the children while waiting
PR_SET_PDEATHSIG = 1  # prctl(2)
NO_CAP = 1_000_000  # connections per client address when limits are off


class ClusterError(RuntimeError):
    """The cluster cannot start; the message says why."""


@dataclass(frozen=True)
class ClusterPlan:
    """What ``machiavel cluster`` starts (its command line)."""

    nodes: int
    port: int
    database: str
    redis_url: str
    host: str = "127.0.0.1"
    bot_nodes: int = 1
    bot_workers: int = 1
    redis_prefix: str | None = None
    lease_seconds: str | None = None
    limits: bool = True
    folder: Path | None = None  # of the logs (None: a new temporary folder)


@dataclass
class Child:
    """A process of the cluster: its name, kind (server, bots, proxy), its address (the
    base URL where it answers, if it does) and its log file."""

    name: str
    kind: str
    process: subprocess.Popen[bytes]
    log: Path
    address: str = ""
    reported: bool = False  # its end was said already

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


def _die_with_parent() -> None:
    """In the child, before it runs: SIGTERM when the cluster process dies (Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the stop on signals still holds
        pass


def start_child(name: str, kind: str, command: list[str], folder: Path) -> Child:
    """``command`` in a process group of its own, its output in ``folder/NAME.log``."""
    log = folder / f"{name}.log"
    with log.open("ab") as output:
        process = subprocess.Popen(
            command,
            stdout=output,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
    return Child(name, kind, process, log)


def stop_children(children: Sequence[Child], grace: float = STOP_SECONDS) -> None:
    """SIGINT to every child at once (a graceful stop: Uvicorn's, HAProxy's at once),
    SIGKILL to those still there after ``grace`` seconds, then to whatever is left in
    their process groups (a server's bot workers)."""
    for child in children:
        if child.alive:
            child.process.send_signal(signal.SIGINT)
    deadline = time.monotonic() + grace
    for child in children:
        try:
            child.process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()
    for child in children:
        with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is empty
            os.killpg(child.process.pid, signal.SIGKILL)


def python_command(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "machiavel.cli", *arguments]


def server_command(plan: ClusterPlan, name: str, port: int) -> list[str]:
    command = python_command(
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database",
        plan.database,
        "--redis-url",
        plan.redis_url,
        "--node-name",
        name,
        "--cluster-address",
        f"http://127.0.0.1:{port}",
        "--bot-workers",
        str(plan.bot_workers),
    )
    if plan.redis_prefix:
        command += ["--redis-prefix", plan.redis_prefix]
    if plan.lease_seconds:
        command += ["--lease-seconds", plan.lease_seconds]
    if not plan.limits:
        command.append("--no-limits")
    return command


def bots_parser() -> argparse.ArgumentParser | None:
    """The parser of ``machiavel bots`` (None if this version has no such command)."""
    from machiavel.cli import build_parser

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser | None = action.choices.get("bots")
            return found
    return None


def bots_command(plan: ClusterPlan, parser: argparse.ArgumentParser) -> list[str]:
    """``machiavel bots`` on the cluster's Redis and database; its key prefix and worker
    count under whichever option names it knows."""
    known = parser._option_string_actions
    command = python_command("bots", "--redis-url", plan.redis_url, "--database", plan.database)
    if plan.redis_prefix:
        option = next((o for o in ("--redis-prefix", "--prefix") if o in known), None)
        if option is None:
            raise ClusterError("`machiavel bots` takes no Redis prefix: run it without one")
        command += [option, plan.redis_prefix]
    if "--workers" in known:
        command += ["--workers", str(plan.bot_workers)]
    return command


def answers(address: str, node: str | None = None) -> bool:
    """Whether ``address`` answers its health check (as ``node``, if given)."""
    try:
        # Straight to the process: no proxy of the environment on the way.
        answer = httpx2.get(address + HEALTH_PATH, timeout=2.0, trust_env=False)
    except httpx2.HTTPError:
        return False
    if answer.status_code != 200:
        return False
    return node is None or answer.json().get("node") == node


class Cluster:
    """The processes of a plan: ``start()``, ``supervise()`` until asked to stop,
    ``stop()`` (always: it ends whatever was started)."""

    def __init__(self, plan: ClusterPlan, say: Callable[[str], None]) -> None:
        self.plan = plan
        self.say = say
        self.folder = plan.folder or Path(tempfile.mkdtemp(prefix="machiavel-cluster-"))
        self.children: list[Child] = []
        self.stopping = threading.Event()

    @property
    def address(self) -> str:
        """The proxy's base URL (on this machine, for a wildcard ``--host``)."""
        return cluster_address(None, self.plan.host, self.plan.port)

    def start(self) -> None:
        folder = self.folder
        folder.mkdir(parents=True, exist_ok=True)
        for number in range(1, self.plan.nodes + 1):
            name, port = f"node-{number}", free_port()
            child = start_child(name, "server", server_command(self.plan, name, port), folder)
            child.address = f"http://127.0.0.1:{port}"
            self.children.append(child)
        self.start_bot_nodes()
        for child in self.servers():
            self.wait_for(child, partial(answers, child.address, child.name))
        self.start_proxy()

    def start_bot_nodes(self) -> None:
        if self.plan.bot_nodes < 1:
            return
        parser = bots_parser()
        if parser is None:
            self.say(
                "no bot worker node: this version has no `machiavel bots` command (each "
                "server plays its bots in its own worker processes)"
            )
            return
        for number in range(1, self.plan.bot_nodes + 1):
            command = bots_command(self.plan, parser)
            self.children.append(start_child(f"bots-{number}", "bots", command, self.folder))

    def start_proxy(self) -> None:
        upstreams = [Upstream(c.name, c.address.removeprefix("http://")) for c in self.servers()]
        bind = f"{self.plan.host}:{self.plan.port}"
        config = self.folder / "haproxy.cfg"
        # --no-limits (load tests from one address) lifts the proxy's cap per address too.
        per_address = PER_ADDRESS if self.plan.limits else NO_CAP
        config.write_text(proxy_config(bind, upstreams, system=False, per_address=per_address))
        if (problem := check_config(config)) is not None:
            raise ClusterError(f"HAProxy refuses {config}: {problem}")
        proxy = start_child("proxy", "proxy", haproxy_command(config), self.folder)
        proxy.address = self.address
        self.children.append(proxy)
        self.wait_for(proxy, lambda: answers(self.address))

    def servers(self) -> list[Child]:
        return [child for child in self.children if child.kind == "server"]

    def wait_for(self, child: Child, ready: Callable[[], bool]) -> None:
        """Return once ``ready()``; ClusterError if ``child`` or any other stops first,
        if the cluster is asked to stop, or after START_SECONDS."""
        deadline = time.monotonic() + START_SECONDS
        while not ready():
            if self.stopping.is_set():
                raise ClusterError("asked to stop while starting")
            if (gone := next((c for c in self.children if not c.alive), None)) is not None:
                raise ClusterError(f"{gone.name} stopped while starting: {self.ending(gone)}")
            if time.monotonic() > deadline:
                raise ClusterError(f"{child.name} does not answer after {START_SECONDS:g} s")
            self.stopping.wait(POLL)

    def ending(self, child: Child) -> str:
        """How ``child`` ended: its code and the last lines of its log."""
        lines = child.log.read_text(errors="replace").strip().splitlines()[-5:]
        tail = "\n    ".join(lines) if lines else "(nothing in its log)"
        return f"code {child.process.returncode}, log {child.log}:\n    {tail}"

    def describe(self) -> list[str]:
        lines = [f"cluster of {len(self.servers())} server processes, open {self.address}/"]
        for child in self.children:
            where = f"  {child.address}" if child.address else ""
            lines.append(f"  {child.name:<8} {child.kind:<7} pid {child.process.pid}{where}")
        lines.append(f"logs in {self.folder}; Ctrl+C stops them all")
        return lines

    def supervise(self) -> int:
        """Until asked to stop (0), or until the proxy or every server is gone (1)."""
        while not self.stopping.wait(POLL):
            for child in self.children:
                if not child.alive and not child.reported:
                    child.reported = True
                    self.say(f"{child.name} stopped ({self.ending(child)})")
            if not any(child.alive for child in self.servers()):
                self.say("no server process is left: the cluster stops")
                return 1
            if not all(child.alive for child in self.children if child.kind == "proxy"):
                self.say("the proxy is gone: the cluster stops")
                return 1
        return 0

    def stop(self) -> None:
        # The proxy first, so that no new request meets a stopping server.
        proxies = [child for child in self.children if child.kind == "proxy"]
        stop_children(proxies)
        stop_children([child for child in self.children if child.kind != "proxy"])


def migrate_once(database: str) -> str:
    """Bring the database's schema up to date before any server starts (so that N
    processes do not all try at once); what was done, in a sentence."""
    from sqlalchemy.exc import SQLAlchemyError

    from machiavel.server.migrations import SchemaTooNew, upgrade
    from machiavel.server.run import cannot_open
    from machiavel.server.storage import make_engine, safe_url

    try:
        engine = make_engine(database)
    except (SQLAlchemyError, ImportError, ValueError) as error:  # a wrong URL
        raise ClusterError(cannot_open(database, error)) from None
    try:
        done = upgrade(engine)
    except SchemaTooNew as error:
        raise ClusterError(str(error)) from None
    except SQLAlchemyError as error:  # no database there
        raise ClusterError(cannot_open(database, error)) from None
    finally:
        engine.dispose()
    if done.changed:
        return f"{safe_url(database)}: {done.describe()}"
    return f"{safe_url(database)}: schema at revision {done.after}"


def check_redis(url: str) -> None:
    """ClusterError with a sentence if Redis does not answer at ``url``."""
    import redis

    from machiavel.server.storage import safe_url

    client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
    try:
        client.ping()
    except redis.RedisError as error:
        raise ClusterError(f"Redis does not answer at {safe_url(url)}: {error}") from None
    finally:
        client.close()


def run_cluster(plan: ClusterPlan, say: Callable[[str], None]) -> int:
    """Start the cluster, supervise it until SIGINT or SIGTERM, stop it; the exit code."""
    if not Path(HAPROXY).exists():
        raise ClusterError(
            f"{HAPROXY} is missing: install Debian's haproxy "
            "(scripts/ensure-haproxy.sh) or set MACHIAVEL_HAPROXY"
        )
    check_redis(plan.redis_url)
    say(migrate_once(plan.database))
    cluster = Cluster(plan, say)

    def asked_to_stop(number: int, _: FrameType | None) -> None:
        cluster.stopping.set()

    previous = {sig: signal.signal(sig, asked_to_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            cluster.start()
        except ClusterError:
            if cluster.stopping.is_set():  # Ctrl+C while starting: no error
                return 0
            raise
        for line in cluster.describe():
            say(line)
        code = cluster.supervise()
        say("stopping every process of the cluster")
        return code
    finally:
        cluster.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        say("stopped")
