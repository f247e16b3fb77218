"""Starting ``machiavel serve`` as a child process on a free port (tests, load benchmark)."""

from __future__ import annotations

import socket
import sys


def free_port() -> int:
    """A TCP port on the loopback that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
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
