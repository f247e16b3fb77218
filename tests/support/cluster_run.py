"""`machiavel cluster` run by a test: started, ready, stopped with Ctrl+C, every process
of it checked gone (the cluster tests)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from machiavel.server.haproxy import HAPROXY
from machiavel.server.launch import free_port
from support.processes import descendants, running
from support.waiting import STUCK, wait_until

REDIS_URL = os.environ.get("MACHIAVEL_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@dataclass
class RunningCluster:
    base: str  # the proxy
    nodes: dict[str, tuple[int, str]]  # name -> (pid, address)
    output: Path

    def text(self) -> str:
        return self.output.read_text(errors="replace")


@contextmanager
def machiavel_cluster(
    folder: Path, database: str, prefix: str, nodes: int = 2, lease: float | None = None
) -> Iterator[RunningCluster]:
    """`machiavel cluster` started, ready, then stopped with Ctrl+C and every process of
    it checked gone."""
    if not Path(HAPROXY).exists():
        pytest.skip("HAProxy is not installed (scripts/ensure-haproxy.sh)")
    port = free_port()
    command = [
        *(sys.executable, "-m", "machiavel.cli", "cluster", "--nodes", str(nodes)),
        *("--port", str(port), "--database", database, "--redis-url", REDIS_URL),
        *("--redis-prefix", prefix, "--log-dir", str(folder / "logs"), "--no-limits"),
        *(("--lease-seconds", str(lease)) if lease is not None else ()),
    ]
    out = folder / "cluster.out"
    with out.open("wb") as output:
        cluster = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    family: dict[int, Any] = {}
    try:

        def ready() -> bool:
            assert cluster.poll() is None, f"the cluster stopped:\n{out.read_text()}"
            return "Ctrl+C stops them all" in out.read_text()

        wait_until(ready, "the cluster to say it is ready")
        family = descendants(cluster.pid)
        found = re.findall(r"(node-\d+)\s+server\s+pid (\d+)\s+(\S+)", out.read_text())
        running_cluster = RunningCluster(
            f"http://127.0.0.1:{port}",
            {name: (int(pid), address.rstrip("/")) for name, pid, address in found},
            out,
        )
        assert len(running_cluster.nodes) == nodes, out.read_text()
        yield running_cluster
        family.update(descendants(cluster.pid))
        cluster.send_signal(signal.SIGINT)
        assert cluster.wait(STUCK) == 0, out.read_text()
        wait_until(lambda: not running(family), "every process of the cluster to end")
    finally:
        if cluster.poll() is None:
            cluster.kill()
            cluster.wait()
        for pid in running(family):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
