"""Starting ``machiavel serve`` as a child process on a free port (tests, load benchmark)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from typing import IO

_GIVEN: set[int] = set()  # the ports ``free_port`` gave this process


def free_port() -> int:
    """A TCP port on the loopback that nothing listens on right now, and that this
    process was not given before: ports are often drawn several at once before any is
    bound (a cluster's nodes and its proxy), and the system, choosing among some 14,000,
    may hand out the same one twice (about one pair in 14,000)."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port: int = probe.getsockname()[1]
        if port not in _GIVEN:
            _GIVEN.add(port)
            return port


def serve_command(database: str, port: int, bot_workers: int = 1) -> list[str]:
    """The command line of a server on ``port`` storing games in ``database``."""
    return [
        sys.executable,
        "-m",
        "machiavel.cli",
        "serve",
        "--port",
        str(port),
        "--database",
        database,
        "--bot-workers",
        str(bot_workers),
    ]


def start_server_process(command: list[str], output: IO[bytes] | int) -> subprocess.Popen[bytes]:
    """Start a server in a process group of its own (its bot workers join it), so that
    ``stop_server_process`` can end it whole; its output and errors go to ``output``."""
    return subprocess.Popen(
        command,
        stdout=output,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,
    )


def stop_server_process(process: subprocess.Popen[bytes], grace: float = 30.0) -> None:
    """Stop a server started by ``start_server_process``: SIGINT (Uvicorn's graceful stop),
    SIGKILL if it is still there after ``grace`` seconds; then kill whatever is left in
    its process group (bot workers end with their server anyway: this is for a server
    that could not end them, or a test that failed half-way)."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    with contextlib.suppress(ProcessLookupError):  # nothing left in the group
        os.killpg(process.pid, signal.SIGKILL)  # the group is named after the server
