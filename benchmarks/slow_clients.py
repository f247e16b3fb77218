"""Slow-client benchmark (issue 14): how many connections that never finish their request
headers a server holds before a normal request is refused, and whether it recovers.

It starts the real server on a free loopback port, on a fresh SQLite file, with the
open-file limit a server usually starts with (``--nofile``, 1024: systemd's and a login
shell's default soft limit), then opens slow connections ``--step`` at a time (each sends
part of a request line and headers, then nothing) and after each step sends one normal
request (GET /api/catalog, answered within ``--probe-timeout`` seconds or counted as
refused). Once one is refused it keeps the slow connections open and probes again every
half second for ``--recovery`` seconds: a server that cuts slow clients off recovers.

    .venv/bin/python benchmarks/slow_clients.py --setup before   # Uvicorn as on main
    .venv/bin/python benchmarks/slow_clients.py --setup after    # machiavel serve today
    .venv/bin/python benchmarks/slow_clients.py --setup nginx    # behind deploy/nginx.conf

``before`` runs ``uvicorn.run`` with the options ``machiavel serve`` gave it before
issue 14 (no connection limit, no header timeout); ``after`` runs ``machiavel serve`` with
its defaults; ``nginx`` puts Debian's nginx in front of it (scripts/ensure-nginx.sh).
Only loopback addresses are used; every process started is stopped at the end.
"""

from __future__ import annotations

import argparse
import resource
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from machiavel.server.launch import (
    free_port,
    serve_command,
    start_server_process,
    stop_server_process,
)
from machiavel.server.nginx import start_nginx, wait_listening

PARTIAL_REQUEST = b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
PROBE = b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
START_TIMEOUT = 60.0  # seconds for a server to listen
# What `machiavel serve` ran before issue 14 (src/machiavel/server/run.py on main).
BEFORE = (
    "import sys, uvicorn; from machiavel.server.app import MAX_BODY, create_app; "
    "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), "
    "log_level='warning', ws_max_size=MAX_BODY)"
)


@dataclass
class Outcome:
    held: int  # slow connections open when the last normal request was answered
    refused_at: int | None  # slow connections open when one was refused (None: never)
    how: str  # how it was refused
    recovered_after: float | None  # seconds until a normal request was answered again


def probe(port: int, timeout: float) -> str | None:
    """None if a normal request is answered 200 in time, else what happened instead."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout) as client:
            client.sendall(PROBE)
            answer = client.recv(64)
    except TimeoutError:
        return f"no answer within {timeout:g} s"
    except OSError as error:
        return f"connection failed ({error.strerror or error})"
    if answer.startswith(b"HTTP/1.1 200"):
        return None
    status_line = answer.split(b"\r\n")[0].decode(errors="replace")
    return f"answered {status_line or 'nothing'}"


def measure(port: int, step: int, most: int, probe_timeout: float, recovery: float) -> Outcome:
    with ExitStack() as stack:
        opened = 0
        while opened < most:
            for _ in range(step):
                try:
                    client = stack.enter_context(socket.create_connection(("127.0.0.1", port), 5))
                    client.sendall(PARTIAL_REQUEST)
                except OSError as error:
                    return Outcome(opened, opened, f"a connection failed ({error})", None)
                opened += 1
            refusal = probe(port, probe_timeout)
            if refusal is not None:
                return Outcome(opened - step, opened, refusal, recovered(port, recovery))
        return Outcome(opened, None, "", None)


def recovered(port: int, seconds: float) -> float | None:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if probe(port, 2.0) is None:
            return time.monotonic() - start
        time.sleep(0.5)
    return None


@contextmanager
def server(setup: str, folder: Path, nofile: int) -> Iterator[int]:
    """The port to send requests to, the server (and nginx) running behind it."""
    port = free_port()
    database = f"sqlite:///{folder / 'machiavel.db'}"
    if setup == "before":
        command = [sys.executable, "-c", BEFORE, database, str(port)]
    else:
        command = serve_command(database, port)
    limited = ["prlimit", f"--nofile={nofile}:", "--", *command]
    with (folder / "server.log").open("ab") as log:
        process = start_server_process(limited, log)
    nginx = None
    try:
        wait_listening(port, process, START_TIMEOUT)
        if setup != "nginx":
            yield port
            return
        proxy_port = free_port()
        nginx = start_nginx(folder / "nginx", proxy_port, port)
        wait_listening(proxy_port, nginx, START_TIMEOUT)
        yield proxy_port
    finally:
        if nginx is not None:
            stop_server_process(nginx)
        stop_server_process(process)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", choices=("before", "after", "nginx"), required=True)
    parser.add_argument("--step", type=int, default=50, help="slow connections per step")
    parser.add_argument("--max", type=int, default=4000, help="slow connections at most")
    parser.add_argument("--nofile", type=int, default=1024, help="the server's open files")
    parser.add_argument("--probe-timeout", type=float, default=5.0)
    parser.add_argument("--recovery", type=float, default=30.0)
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # room for our own sockets
    with (
        tempfile.TemporaryDirectory() as folder,
        server(args.setup, Path(folder), args.nofile) as port,
    ):
        outcome = measure(port, args.step, args.max, args.probe_timeout, args.recovery)
    print(f"setup {args.setup}, server open-file limit {args.nofile}:")
    if outcome.refused_at is None:
        print(f"  {outcome.held} slow connections held, every normal request answered")
        return 0
    print(f"  a normal request answered with {outcome.held} slow connections open")
    print(f"  refused with {outcome.refused_at} open: {outcome.how}")
    if outcome.recovered_after is None:
        print(f"  not answered again within {args.recovery:g} s (slow connections kept open)")
    else:
        print(
            f"  answered again after {outcome.recovered_after:.1f} s (slow connections kept open)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
