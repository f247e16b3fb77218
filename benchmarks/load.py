"""Load benchmark of the server (issue 7): concurrent Tyrus games played over loopback.

It starts the real server (``machiavel serve`` in a process of its own, on a free port
of 127.0.0.1, on a fresh SQLite file unless ``--database`` names another database), then
keeps ``--games`` Tyrus games going, each played by two simulated people: two WebSocket
connections that receive every push and act as soon as it is their turn (``--model
closed``) or one second later (``--model paced``). A finished game is replaced by a new
one. Actions go over the WebSocket by default (``--via http`` posts them instead).

Latency is measured from the moment a client sends an action to the moment the OTHER seat
receives the resulting update on its WebSocket. Only what happens after ``--warmup``
seconds is measured; the run stops after ``--seconds`` more seconds or ``--actions``
actions sent, whichever comes first, then stops the server and checks that every action
the clients saw accepted is in the database.

    .venv/bin/python benchmarks/load.py --model closed --games 200 --seconds 20

Everything runs in one asyncio process (uvloop when installed) so that the load
generator leaves the server as much of the machine as it can; its own CPU use and the
machine's load are printed too. The figure to compare is the server's CPU per action
(user and system): it moves least with whatever else runs. ``--server-cpu 0 --client-cpu
1`` puts the server and the load generator on a core each (as boardgame.io's harness
does: ``benchmarks/versus_boardgameio.py`` runs both); ``--json FILE`` keeps the figures.
``--callgrind FILE`` runs the server under valgrind's callgrind and counts its instructions
over the measured window only (``FILE.1``, for ``callgrind_annotate``): a profile of the
whole server that does not move with what else the machine runs (its speed then means
nothing).
Figures and how they were taken: docs/server.md, "Load benchmark".
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx2

from machiavel.core.contract import JsonDict
from machiavel.core.rng import Rng
from machiavel.server.launch import (
    free_port,
    serve_command,
    start_server_process,
    stop_server_process,
)

GAME = "tyrus"
READY_TIMEOUT = 60.0  # seconds for the server to answer its first request
SETUP_TIMEOUT = 120.0  # seconds to create the games and open their sockets
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455's, for the opening handshake
STOP_TIMEOUT = 15.0  # seconds for the clients and then the server to stop
CREATE_AT_ONCE = 16  # games being created at the same time
GC_THRESHOLDS = (20_000, 20, 20)  # as the server's (machiavel.server.run)
# An idle HTTP connection is dropped before the server's keep-alive timeout (5 s) ends it:
# a request sent on one the server is closing fails (httpx ReadError, seen on a starved
# machine, where a game can last longer than that).
KEEP_ALIVE_EXPIRY = 2.0
CALLGRIND_SLOWER = 20.0  # how much longer the server may take to start under callgrind
QUIET: dict[str, Any] = {"check": True, "capture_output": True}
TICK = os.sysconf("SC_CLK_TCK")


def json_parser() -> Callable[[str | bytes], Any]:
    """orjson's parser when installed (a leaner client), else the standard one."""
    try:
        import orjson
    except ImportError:
        return json.loads
    return orjson.loads


parse_json = json_parser()


# ---- measures of processes and of the machine ------------------------------------
def process_cpu(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process, all its threads (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def processes_cpu(pids: list[int]) -> tuple[float, float]:
    """User and system CPU seconds of several processes together."""
    times = [process_cpu(pid) for pid in pids]
    return sum(user for user, _ in times), sum(system for _, system in times)


def descendants(root: int) -> list[int]:
    """A process and every process under it (from /proc), e.g. a cluster's."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(stat[1])
    found, frontier = [root], [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, of in parents.items() if of == parent]
        found += children
        frontier += children
    return found


def pin(pid: int, cpu: int) -> None:
    """Run every thread of a process on one CPU from now on (threads it starts later
    inherit it), as ``taskset -acp CPU PID`` does."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {cpu})


def process_rss(pid: int) -> int:
    """Resident memory of a process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) CPU time of the whole machine so far, all cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    total = sum(values[:8])  # guest time is already counted in user
    return total - idle, total


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def self_cpu() -> float:
    return time.process_time()


# ---- the server -------------------------------------------------------------------
def start_server(
    database: str, port: int, log: Path, games: int, callgrind: str | None = None
) -> subprocess.Popen[bytes]:
    # Room for every socket, a finished game's beside its replacement's, and the HTTP
    # connections: the server's default (1,000) answers 503 past it, at 500 games.
    room = max(1000, 4 * games + 2 * CREATE_AT_ONCE)
    command = [*serve_command(database, port), "--no-limits", "--max-connections", str(room)]
    if callgrind is not None:  # counting from the measured window's start only
        tool = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        command = [*tool, f"--callgrind-out-file={callgrind}", *command]
    with log.open("wb") as out:
        return start_server_process(command, out)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    stop_server_process(process, STOP_TIMEOUT)  # SIGINT, Uvicorn's graceful stop, first


async def wait_ready(
    http: httpx2.AsyncClient, process: subprocess.Popen[bytes], seconds: float = READY_TIMEOUT
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped at start (exit code {process.returncode})")
        try:
            if (await http.get("/api/catalog")).status_code == 200:
                return
        except httpx2.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("the server did not answer in time")


# ---- the clients ------------------------------------------------------------------
@dataclass
class Settings:
    games: int
    model: str
    seconds: float
    warmup: float
    actions: int
    via: str
    pace: float
    seed: int


@dataclass
class Table:
    """One game and what its two clients share: when each action was sent."""

    id: str
    tokens: list[str]
    sent: dict[int, tuple[int, float]] = field(default_factory=dict)  # version -> (by, when)
    version: int = 0  # the latest version a client of this table received


class Bench:
    """The state of a run: its clock, its counters and the measured latencies."""

    def __init__(self, settings: Settings, port: int) -> None:
        self.settings = settings
        self.port = port
        self.host = f"127.0.0.1:{port}"
        self.rng = Rng(settings.seed)
        self.stop = asyncio.Event()
        self.window_start = float("inf")
        self.window_end = float("inf")
        self.latencies: list[float] = []
        self.completed = 0  # actions received by the other seat inside the window
        self.sent = 0  # actions sent, warmup included (the --actions cap)
        self.errors: Counter[str] = Counter()
        self.tables: list[Table] = []
        self.games_finished = 0

    def received(self, table: Table, player: int, version: int, now: float) -> None:
        """A push of ``version`` reached ``player``: time the action that made it."""
        if version > table.version:
            table.version = version
        entry = table.sent.get(version - 1)
        if entry is None or entry[0] == player:
            return
        del table.sent[version - 1]
        sent_at = entry[1]
        if self.window_start <= sent_at and now <= self.window_end:
            self.latencies.append(now - sent_at)
            self.completed += 1

    def may_send(self) -> bool:
        if self.stop.is_set():
            return False
        if self.sent >= self.settings.actions:
            self.stop.set()
            return False
        return True


async def create_table(bench: Bench, http: httpx2.AsyncClient) -> Table:
    seats = [{"kind": "human"}, {"kind": "human"}]
    body = {"game": GAME, "players": 2, "seats": seats, "listed": False}
    answer = await http.post("/api/games", json=body)
    answer.raise_for_status()
    created = answer.json()
    table = Table(created["id"], [seat["token"] for seat in created["seats"]])
    bench.tables.append(table)
    return table


class SeatSocket(asyncio.Protocol):
    """One simulated person on a WebSocket of its own, written straight on asyncio.

    A general client library spends several times the CPU of the server's own socket
    code per message; this one reads frames and answers pushes in the transport's
    callback, with no task switch, so that the load generator leaves the server the
    machine. It speaks what the benchmark needs of RFC 6455: the opening handshake, text
    frames (masked, as a client's must be), fragments, ping and close.
    """

    def __init__(self, bench: Bench, table: Table, player: int) -> None:
        self.bench = bench
        self.table = table
        self.player = player
        self.poster: ActionPoster | None = None  # with --via http
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.finished: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.fragments: list[bytes] = []
        self.key = base64.b64encode(os.urandom(16)).decode()
        self.acted_at = -1  # the latest version this seat acted at

    # ---- the socket -----------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass of it
        table, bench = self.table, self.bench
        path = f"/api/games/{table.id}/ws?token={table.tokens[self.player]}"
        self.transport.write(
            f"GET {path} HTTP/1.1\r\nHost: {bench.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"socket closed at opening: {exc}"))
        if not self.finished.done():
            self.finished.set_result(None)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.buffer += data
        if not self.opened.done() and not self._handshake():
            return
        while self._frame(now):
            pass

    def _handshake(self) -> bool:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        head = bytes(self.buffer[:end]).decode("latin-1")
        del self.buffer[: end + 4]
        digest = hashlib.sha1((self.key + WS_GUID).encode()).digest()
        accept = base64.b64encode(digest).decode()
        if not head.startswith("HTTP/1.1 101") or accept not in head:
            self.opened.set_exception(ConnectionError(f"refused: {head.splitlines()[0]}"))
            self.close()
            return False
        self.opened.set_result(None)
        return True

    def _frame(self, now: float) -> bool:
        """Take one whole frame off the buffer, if there is one."""
        buffer = self.buffer
        if len(buffer) < 2:
            return False
        length = buffer[1] & 0x7F
        offset = 2
        if length == 126:
            if len(buffer) < 4:
                return False
            length, offset = int.from_bytes(buffer[2:4], "big"), 4
        elif length == 127:
            if len(buffer) < 10:
                return False
            length, offset = int.from_bytes(buffer[2:10], "big"), 10
        if len(buffer) < offset + length:  # (a server never masks its frames)
            return False
        first = buffer[0]
        payload = bytes(buffer[offset : offset + length])
        del buffer[: offset + length]
        opcode = first & 0x0F
        if opcode in (0, 1, 2):
            self.fragments.append(payload)
            if first & 0x80:  # the last fragment of a message
                message, self.fragments = b"".join(self.fragments), []
                self.on_message(message, now)
        elif opcode == 8:  # close: the server is done with this game or stopping
            self.close()
        elif opcode == 9:  # ping
            self._send_frame(0xA, payload)
        return True

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        if self.transport is None:
            return
        size = len(payload)
        if size < 126:
            head = bytes((0x80 | opcode, 0x80 | size))
        elif size < 1 << 16:
            head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
        mask = random.getrandbits(32).to_bytes(4, "big")  # a client masks what it sends
        repeated = (mask * (size // 4 + 1))[:size]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(
            size, "big"
        )
        self.transport.write(head + mask + masked)

    def close(self) -> None:
        if self.poster is not None:
            self.poster.close()
        if self.transport is not None:
            self._send_frame(8, (1000).to_bytes(2, "big"))
            self.transport.close()
            self.transport = None

    # ---- the person -----------------------------------------------------------------
    def on_message(self, message: bytes, now: float) -> None:
        bench = self.bench
        state = parse_json(message)
        if "error" in state:
            error = state["error"]
            bench.errors[f"{error['status']} {error['detail'][:60]}"] += 1
            state = error.get("state")
            if state is None:
                return
        version = state["version"]
        bench.received(self.table, self.player, version, now)
        if state["is_over"]:
            self.close()
            return
        if self.player not in state["to_move"] or version <= self.acted_at:
            return
        self.acted_at = version
        legal = state["legal_actions"]
        action = legal[bench.rng.below(len(legal))]
        if bench.settings.model == "paced":
            asyncio.get_running_loop().call_later(bench.settings.pace, self.act, action, version)
        else:
            self.act(action, version)

    def act(self, action: str, version: int) -> None:
        bench = self.bench
        if not bench.may_send() or self.transport is None:
            self.close()
            return
        bench.sent += 1
        self.table.sent[version] = (self.player, time.perf_counter())
        if self.poster is None:
            text = f'{{"action":{json.dumps(action)},"version":{version}}}'
            self._send_frame(1, text.encode())
        else:
            table = self.table
            token = json.dumps(table.tokens[self.player])
            body = f'{{"token":{token},"action":{json.dumps(action)},"version":{version}}}'
            self.poster.post(f"/api/games/{table.id}/actions", body.encode())


class ActionPoster(asyncio.Protocol):
    """A seat's keep-alive HTTP/1.1 connection for ``--via http``, as lean as the socket:
    it posts actions and reads the answers (one at a time), counting refusals."""

    def __init__(self, bench: Bench) -> None:
        self.bench = bench
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None

    def post(self, path: str, body: bytes) -> None:
        if self.transport is None:
            self.bench.errors["connection: the HTTP connection is closed"] += 1
            return
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.bench.host}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        self.transport.write(head.encode() + body)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:  # every whole answer in the buffer
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).decode("latin-1").lower()
            length = 0
            for line in head.split("\r\n"):
                if line.startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            if len(self.buffer) < end + 4 + length:
                return
            body = bytes(self.buffer[end + 4 : end + 4 + length])
            del self.buffer[: end + 4 + length]
            status = head.split(" ", 2)[1]
            if status != "200":
                self.bench.errors[f"{status} {body[:60].decode(errors='replace')}"] += 1

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
            self.transport = None


async def open_seat(bench: Bench, table: Table, player: int) -> SeatSocket:
    loop = asyncio.get_running_loop()
    _, seat = await loop.create_connection(
        lambda: SeatSocket(bench, table, player), "127.0.0.1", bench.port
    )
    await asyncio.wait_for(seat.opened, SETUP_TIMEOUT)
    if bench.settings.via == "http":
        _, seat.poster = await loop.create_connection(
            lambda: ActionPoster(bench), "127.0.0.1", bench.port
        )
    return seat


async def slot(bench: Bench, http: httpx2.AsyncClient, ready: asyncio.Event) -> None:
    """Keep one game going: play it with two clients, then start another, until the end."""
    seats: list[SeatSocket] = []
    try:
        while not bench.stop.is_set():
            table = await create_table(bench, http)
            seats = list(await asyncio.gather(*(open_seat(bench, table, p) for p in (0, 1))))
            ready.set()
            await asyncio.gather(*(seat.finished for seat in seats))
            if table.version > 0:
                bench.games_finished += 1
    except (OSError, httpx2.HTTPError) as error:
        bench.errors[f"connection: {type(error).__name__} {error}"[:80]] += 1
        ready.set()
    finally:
        for seat in seats:
            seat.close()


# ---- one run ----------------------------------------------------------------------
def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, round(fraction * (len(sorted_values) - 1)))
    return sorted_values[index]


async def drive(
    settings: Settings, port: int, server_pids: list[int], counting: Counting | None = None
) -> tuple[Bench, dict[str, Any]]:
    """Create the games, play them, measure the window; returns the figures."""
    bench = Bench(settings, port)
    setup_seconds = SETUP_TIMEOUT * (CALLGRIND_SLOWER if counting else 1.0)
    limits = httpx2.Limits(
        max_connections=CREATE_AT_ONCE,
        max_keepalive_connections=CREATE_AT_ONCE,
        keepalive_expiry=KEEP_ALIVE_EXPIRY,
    )
    base = f"http://127.0.0.1:{port}"
    async with httpx2.AsyncClient(base_url=base, limits=limits, timeout=60.0) as http:
        slots: list[asyncio.Task[None]] = []
        ready: list[asyncio.Event] = []
        setup_deadline = time.monotonic() + setup_seconds
        for _ in range(settings.games):
            event = asyncio.Event()
            ready.append(event)
            slots.append(asyncio.create_task(slot(bench, http, event)))
        for event in ready:  # every game and socket open (the games already play)
            left = setup_deadline - time.monotonic()
            try:
                await asyncio.wait_for(event.wait(), max(0.0, left))
            except TimeoutError:
                bench.stop.set()
                raise SystemExit("could not open every game in time") from None
        await asyncio.sleep(settings.warmup)
        if counting is not None:
            counting.switch("on")
        window = measure_start(server_pids)
        bench.window_start = window["at"]
        with_cap = asyncio.create_task(bench.stop.wait())
        await asyncio.wait([with_cap], timeout=settings.seconds)
        bench.window_end = time.perf_counter()
        figures = measure_end(window, server_pids)
        if counting is not None:
            counting.dump()
        bench.stop.set()
        for task in slots:
            task.cancel()
        await asyncio.wait(slots, timeout=STOP_TIMEOUT)
    return bench, figures


class Counting:
    """callgrind's counting in the server, switched with ``callgrind_control``: on at the
    measured window's start, its counts written (a file ending in ``.1``) at its end."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def switch(self, state: str) -> None:
        subprocess.run(["callgrind_control", "-i", state, str(self.pid)], **QUIET)

    def dump(self) -> None:
        subprocess.run(["callgrind_control", "-d", str(self.pid)], **QUIET)
        self.switch("off")


def measure_start(server_pids: list[int]) -> dict[str, float]:
    busy, total = machine_jiffies()
    user, system = processes_cpu(server_pids)
    return {
        "at": time.perf_counter(),
        "server_user": user,
        "server_system": system,
        "self_cpu": self_cpu(),
        "busy": busy,
        "total": total,
    }


def measure_end(start: dict[str, float], server_pids: list[int]) -> dict[str, Any]:
    busy, total = machine_jiffies()
    elapsed = time.perf_counter() - start["at"]
    cores = os.cpu_count() or 1
    machine_busy = (busy - start["busy"]) / max(1.0, total - start["total"]) * cores
    user, system = processes_cpu(server_pids)
    user, system = user - start["server_user"], system - start["server_system"]
    server_cpu = user + system
    own_cpu = self_cpu() - start["self_cpu"]
    return {
        "elapsed": elapsed,
        "server_cpu": server_cpu,
        "server_user": user,
        "server_system": system,
        "self_cpu": own_cpu,
        "machine_busy_cores": machine_busy,
        "other_cores": machine_busy - (server_cpu + own_cpu) / elapsed,
        "server_rss": sum(process_rss(pid) for pid in server_pids),
        "load_average": load_average(),
    }


def stored_actions(database: str, tables: Sequence[Table]) -> int:
    """How many actions of these games the database holds."""
    from sqlalchemy import func, select

    from machiavel.server.storage import ActionRow, Repository

    repository = Repository(database)
    try:
        ids = [table.id for table in tables]
        count = 0
        with repository.engine.connect() as conn:
            for start in range(0, len(ids), 500):
                query = select(func.count()).where(ActionRow.game_id.in_(ids[start : start + 500]))
                count += conn.execute(query).scalar_one()
        return count
    finally:
        repository.close()


def print_report(settings: Settings, database: str, bench: Bench, figures: dict[str, Any]) -> None:
    elapsed = figures["elapsed"]
    latencies = sorted(bench.latencies)
    ms = [1000 * percentile(latencies, q) for q in (0.5, 0.95, 0.99)]
    rss = figures["server_rss"]
    via = "WebSocket" if settings.via == "ws" else "HTTP POST"
    print(
        f"model {settings.model}, {settings.games} Tyrus games ({2 * settings.games} clients), "
        f"actions over {via}, database {database.split('://', 1)[0]}"
    )
    print(f"measured       {elapsed:.1f} s after {settings.warmup:.0f} s of warmup")
    print(f"actions/s      {bench.completed / elapsed:.0f}  ({bench.completed} actions)")
    print(
        f"latency ms     p50 {ms[0]:.1f}  p95 {ms[1]:.1f}  p99 {ms[2]:.1f}  "
        f"max {1000 * (latencies[-1] if latencies else float('nan')):.1f}"
    )
    per_action = 1e6 / max(1, bench.completed)
    print(
        f"server CPU     {figures['server_cpu']:.1f} s ({figures['server_cpu'] / elapsed:.2f} "
        f"cores), {per_action * figures['server_cpu']:.0f} us per action "
        f"(user {per_action * figures['server_user']:.0f}, "
        f"system {per_action * figures['server_system']:.0f})"
    )
    grown = rss - figures["idle_rss"]
    print(
        f"server memory  {rss / 2**20:.0f} MiB RSS ({figures['idle_rss'] / 2**20:.0f} MiB idle): "
        f"{rss / settings.games / 1024:.0f} KiB per concurrent game, "
        f"{grown / len(bench.tables) / 1024:.0f} KiB of growth per game created "
        f"({len(bench.tables)})"
    )
    print(
        f"load generator {figures['self_cpu']:.1f} s CPU ({figures['self_cpu'] / elapsed:.2f} cores)"
    )
    print(
        f"machine        {figures['machine_busy_cores']:.2f} of {os.cpu_count()} cores busy, "
        f"{max(0.0, figures['other_cores']):.2f} by other work; load average "
        f"{figures['load_average']}"
    )
    print(f"games finished {bench.games_finished}")
    if bench.errors:
        print("errors         " + "; ".join(f"{n} x {e}" for e, n in bench.errors.most_common()))


def verify(database: str, bench: Bench) -> bool:
    """Every action a client saw accepted must be stored (the server has stopped)."""
    acknowledged = sum(table.version for table in bench.tables)
    stored = stored_actions(database, bench.tables)
    ok = stored >= acknowledged
    print(
        f"storage        {stored} actions stored, {acknowledged} seen accepted by clients: "
        + ("ok" if ok else "MISSING ACTIONS")
    )
    return ok


@dataclass
class Where:
    """Where the run happens: its database, the CPUs of the server and of the load
    generator, and the files it writes."""

    database: str | None = None
    server_log: str | None = None
    server_cpu: int | None = None
    client_cpu: int | None = None
    json_out: str | None = None
    nodes: int = 0  # 0: one `machiavel serve`; else `machiavel cluster --nodes N`
    redis_url: str = "redis://127.0.0.1:6379/0"
    callgrind: str | None = None  # the server under callgrind, its counts written here


def summary(settings: Settings, database: str, bench: Bench, figures: dict[str, Any]) -> JsonDict:
    """The run's figures as JSON (``--json``), for scripts comparing runs."""
    latencies = sorted(bench.latencies)
    per_action = 1e6 / max(1, bench.completed)
    return {
        "server": "machiavel",
        "model": settings.model,
        "games": settings.games,
        "via": settings.via,
        "database": database.split("://", 1)[0],
        "seconds": figures["elapsed"],
        "actions": bench.completed,
        "actions_per_second": bench.completed / figures["elapsed"],
        "latency_ms": {
            name: 1000 * percentile(latencies, q)
            for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
        },
        "server_cores": figures["server_cpu"] / figures["elapsed"],
        "server_us_per_action": per_action * figures["server_cpu"],
        "server_user_us_per_action": per_action * figures["server_user"],
        "server_system_us_per_action": per_action * figures["server_system"],
        "server_rss_mib": figures["server_rss"] / 2**20,
        "load_generator_cores": figures["self_cpu"] / figures["elapsed"],
        "other_cores": max(0.0, figures["other_cores"]),
        "errors": dict(bench.errors),
    }


def run(settings: Settings, where: Where) -> int:
    if where.client_cpu is not None:
        os.sched_setaffinity(0, {where.client_cpu})
    with tempfile.TemporaryDirectory(prefix="machiavel-load-") as folder:
        url = where.database or f"sqlite:///{Path(folder) / 'load.db'}"
        port = free_port()
        log = Path(folder) / "server.log"
        if where.nodes:
            server = start_cluster(url, port, log, where.nodes, where.redis_url)
        else:
            server = start_server(url, port, log, settings.games, where.callgrind)
        try:
            base = f"http://127.0.0.1:{port}"
            with asyncio.Runner(loop_factory=loop_factory()) as runner:
                if where.nodes:
                    wait_for_cluster(server, log)
                else:
                    slower = CALLGRIND_SLOWER if where.callgrind else 1.0
                    runner.run(_ready(base, server, READY_TIMEOUT * slower))
                pids = descendants(server.pid) if where.nodes else [server.pid]
                if where.server_cpu is not None:
                    for pid in pids:
                        pin(pid, where.server_cpu)
                started = load_average()
                idle_rss = sum(process_rss(pid) for pid in pids)
                counting = Counting(server.pid) if where.callgrind else None
                bench, figures = runner.run(drive(settings, port, pids, counting))
        finally:
            stop_server(server)
            text = log.read_text(errors="replace")
            if where.server_log is not None:
                Path(where.server_log).write_text(text)
            if "Traceback" in text or "ERROR" in text:
                print("server log:\n" + text[-4000:], file=sys.stderr)
            if where.nodes:
                forget_prefix(where.redis_url, f"machiavel-load-{os.getpid()}")
        print(f"load average   {started} before the run")
        figures["idle_rss"] = idle_rss
        print_report(settings, url, bench, figures)
        ok = verify(url, bench)
        if where.json_out is not None:
            figures_json = {**summary(settings, url, bench, figures), "storage_ok": ok}
            Path(where.json_out).write_text(json.dumps(figures_json, indent=2) + "\n")
        return 0 if ok else 1


def start_cluster(
    database: str, port: int, log: Path, nodes: int, redis_url: str
) -> subprocess.Popen[bytes]:
    """`machiavel cluster` of ``nodes`` server processes and a bot node behind HAProxy
    (docs/cluster.md); its processes' CPU is counted together as the server's."""
    command = [
        *(sys.executable, "-m", "machiavel.cli", "cluster", "--nodes", str(nodes)),
        *("--port", str(port), "--database", database, "--redis-url", redis_url),
        *("--redis-prefix", f"machiavel-load-{os.getpid()}", "--no-limits"),
    ]
    with log.open("wb") as out:
        return start_server_process(command, out)


def wait_for_cluster(cluster: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 10 * READY_TIMEOUT  # N processes start one by one
    while "Ctrl+C stops them all" not in log.read_text(errors="replace"):
        if cluster.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the cluster did not start:\n" + log.read_text(errors="replace"))
        time.sleep(0.1)


def forget_prefix(redis_url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        for key in client.scan_iter(match=f"{prefix}:*"):
            client.delete(key)
    finally:
        client.close()


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop when installed (Uvicorn's standard extras bring it): a leaner client."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def _ready(base: str, server: subprocess.Popen[bytes], seconds: float) -> None:
    async with httpx2.AsyncClient(base_url=base, timeout=5.0) as http:
        await wait_ready(http, server, seconds)


def parse(argv: Sequence[str] | None) -> tuple[Settings, Where]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    parser.add_argument(
        "--model",
        choices=("closed", "paced"),
        default="closed",
        help="closed: act at once; paced: wait --pace seconds before acting",
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time (20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured start (3)")
    parser.add_argument(
        "--actions", type=int, default=200_000, help="stop after this many actions (200000)"
    )
    parser.add_argument("--via", choices=("ws", "http"), default="ws", help="how actions go")
    parser.add_argument("--pace", type=float, default=1.0, help="paced model's wait (1 s)")
    parser.add_argument("--seed", type=int, default=1, help="the clients' choices")
    parser.add_argument(
        "--database", help="a SQLAlchemy URL (e.g. PostgreSQL); default a fresh SQLite file"
    )
    parser.add_argument("--server-log", help="keep the server's output in this file")
    parser.add_argument(
        "--server-cpu", type=int, help="run the server on this CPU only (e.g. 0; default: any)"
    )
    parser.add_argument(
        "--client-cpu", type=int, help="run the load generator on this CPU only (default: any)"
    )
    parser.add_argument("--json", help="also write the figures to this file, as JSON")
    parser.add_argument(
        "--nodes",
        type=int,
        default=0,
        help="play against `machiavel cluster` of N server processes behind HAProxy "
        "(needs --database on PostgreSQL and Redis; default 0: one `machiavel serve`)",
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0", help="with --nodes")
    parser.add_argument(
        "--callgrind",
        metavar="FILE",
        help="run the server under valgrind's callgrind, counting instructions over the "
        "measured window only (FILE.1; about 50 times slower: a profile, not a speed)",
    )
    args = parser.parse_args(argv)
    if args.nodes and not (args.database or "").startswith("postgresql"):
        parser.error("--nodes needs --database on PostgreSQL (a cluster cannot share SQLite)")
    settings = Settings(
        games=args.games,
        model=args.model,
        seconds=args.seconds,
        warmup=args.warmup,
        actions=args.actions,
        via=args.via,
        pace=args.pace,
        seed=args.seed,
    )
    where = Where(
        args.database,
        args.server_log,
        args.server_cpu,
        args.client_cpu,
        args.json,
        args.nodes,
        args.redis_url,
        args.callgrind,
    )
    if args.callgrind and args.nodes:
        parser.error("--callgrind profiles one `machiavel serve`, not a cluster")
    if args.callgrind and not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        parser.error("--callgrind needs valgrind (Debian: apt-get install valgrind)")
    return settings, where


def main(argv: Sequence[str] | None = None) -> int:
    settings, where = parse(argv)
    # As the server does (machiavel.server.run): fewer, cheaper garbage collections, else
    # the client spends more time collecting than talking.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return run(settings, where)


if __name__ == "__main__":
    sys.exit(main())
