"""The cluster's promise, end to end (docs/cluster.md): `machiavel cluster` with two
server processes and a bot node on PostgreSQL and Redis, behind HAProxy; clients play
through the proxy and on both processes directly; the process owning a game is killed
with SIGKILL in the middle of a burst of actions; play goes on through the other, and
every action a server acknowledged is stored exactly once, at the version it was sent at.

No assertion on time: the test waits on conditions (bounded by STUCK, which only a stuck
cluster reaches) and prints how long the takeover took, the figure docs/cluster.md
reports."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import redis
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect as websocket_connect

from machiavel.server.storage import Repository
from support.burst import Burst, call
from support.cluster_run import REDIS_URL, machiavel_cluster
from support.processes import needs_proc
from support.waiting import STUCK, wait_until

LEASE_SECONDS = 3  # short leases: a quicker takeover, the same code
RELOAD = 1012  # the close code of a socket whose game moved: reconnect


def owner_of(prefix: str, game_id: str) -> str:
    """The node name of the process holding a game's lease."""
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        member = wait_until(lambda: client.get(f"{prefix}:lease:{game_id}"), "an owner")
    finally:
        client.close()
    return str(member).split("#", 1)[0]


def new_table(base: str, seats: list[dict[str, Any]]) -> tuple[str, list[str]]:
    status, created, _ = call(base, "POST", "/api/games", {"game": "djambi", "seats": seats})
    assert status == 201, created
    return created["id"], [seat["token"] for seat in created["seats"]]


class Spectator:
    """A socket watching a game on one process, reconnecting when told to (as the page
    does) and keeping the latest version it was pushed."""

    def __init__(self, address: str, game_id: str) -> None:
        self.url = address.replace("http", "ws") + f"/api/games/{game_id}/ws"
        self.version = -1
        self.reloads = 0
        self.error: BaseException | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def saw(self, version: int) -> bool:
        """Whether it was pushed ``version`` (a watcher that stopped fails at once)."""
        assert self.thread.is_alive() or self.stop.is_set(), (
            f"the spectator stopped: {self.error!r}"
        )
        return self.version >= version

    def _watch(self) -> None:
        try:
            self._watch_until_stopped()
        except BaseException as error:  # told by ``saw``
            self.error = error

    def _watch_until_stopped(self) -> None:
        while not self.stop.is_set():
            try:
                with websocket_connect(self.url, open_timeout=STUCK) as socket:
                    while not self.stop.is_set():
                        with suppress(TimeoutError):
                            pushed = json.loads(socket.recv(0.2))
                            self.version = max(self.version, pushed.get("version", -1))
            except ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code == RELOAD:
                    self.reloads += 1
            except (OSError, WebSocketException):
                # Its process is gone, or refused it while the game moved: again, after a
                # pause that keeps it from spinning on the processor the servers need.
                self.stop.wait(0.05)


@needs_proc
def test_play_goes_on_when_the_owner_of_a_game_is_killed(
    tmp_path: Path, postgres_url: str, redis_prefix: str
) -> None:
    with machiavel_cluster(tmp_path, postgres_url, redis_prefix, lease=LEASE_SECONDS) as cluster:
        game_id, tokens = new_table(cluster.base, [{"kind": "human"}] * 4)
        # Waiting for people, it is owned by the process its first request reaches.
        assert call(cluster.base, "GET", f"/api/games/{game_id}")[0] == 200
        owner = owner_of(redis_prefix, game_id)
        other = next(name for name in cluster.nodes if name != owner)
        other_address = cluster.nodes[other][1]
        # Clients through the proxy and on both processes directly.
        addresses = [cluster.base, *(address for _, address in cluster.nodes.values())]
        burst = Burst(game_id, tokens, addresses)
        spectator = Spectator(other_address, game_id)  # held for the owner (remote.py)
        # A table of bots (their moves from the bot node) owned by the same process; hard
        # bots think a second a move: their game goes on for minutes.
        bots_id, _ = new_table(cluster.nodes[owner][1], [{"kind": "bot", "level": "hard"}] * 4)
        assert owner_of(redis_prefix, bots_id) == owner
        burst.play(20)
        wait_until(lambda: spectator.saw(max(burst.acknowledged)), "the pushes")

        stop = threading.Event()
        stopped_by: list[BaseException] = []
        playing = threading.Thread(target=lambda: play_until(burst, stop, stopped_by), daemon=True)
        playing.start()

        def played_past(count: int) -> bool:
            played = max(burst.acknowledged) > count
            # A burst that stopped fails the wait at once, not after STUCK seconds.
            assert played or playing.is_alive(), f"the burst stopped: {stopped_by!r}"
            return played

        wait_until(lambda: played_past(29), "the burst under way")
        burst.bases = [cluster.base, other_address]  # the owner's own address dies now
        os.kill(cluster.nodes[owner][0], signal.SIGKILL)
        killed_at = time.monotonic()
        acknowledged_then = max(burst.acknowledged)
        with told_on_failure(burst, stopped_by, tmp_path):
            wait_until(lambda: played_past(acknowledged_then + 10), "play going on")
        takeover = time.monotonic() - killed_at
        stop.set()
        playing.join(STUCK)
        assert not playing.is_alive() and not stopped_by, stopped_by
        wait_until(lambda: spectator.saw(max(burst.acknowledged)), "pushes after it")
        spectator.stop.set()
        spectator.thread.join(STUCK)
        print(f"\nplay went on {takeover:.2f} s after the owner was killed")

        assert spectator.reloads >= 1  # its socket was moved to the new owner
        # The bots' table was taken over too, without a request: its bots play on.
        moved_at = bots_version(cluster.base, bots_id)
        wait_until(lambda: bots_version(cluster.base, bots_id) > moved_at + 2, "bots moving")
        assert owner_of(redis_prefix, bots_id) == other
        status, state, _ = call(cluster.base, "GET", f"/api/games/{game_id}")
        assert status == 200
        check_stored_once(postgres_url, game_id, burst.acknowledged, state["version"])


def bots_version(base: str, game_id: str) -> int:
    status, state, _ = call(base, "GET", f"/api/games/{game_id}")
    assert status != 200 or not state["is_over"], "the bots' game ended: make it longer"
    return int(state["version"]) if status == 200 else -1


def play_until(burst: Burst, stop: threading.Event, stopped_by: list[BaseException]) -> None:
    try:
        while not stop.is_set() and burst.step():
            pass
    except BaseException as error:  # told by the test's failure message
        stopped_by.append(error)


@contextmanager
def told_on_failure(burst: Burst, stopped_by: list[BaseException], folder: Path) -> Iterator[None]:
    """A failed wait says what the burst met and what the processes logged."""
    try:
        yield
    except AssertionError as error:
        logs = "\n".join(
            f"--- {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-60:])
            for log in sorted((folder / "logs").glob("*.log"))
        )
        raise AssertionError(
            f"{error}\nthe burst's thread stopped by: {stopped_by!r}\n"
            f"its failed requests:\n{burst.story()}\n{logs}"
        ) from None


def check_stored_once(
    database: str, game_id: str, acknowledged: dict[int, tuple[int, str]], version: int
) -> None:
    """Every acknowledged action stored at its version (each number holds one action:
    none can be there twice), and nothing stored beyond what the game's state shows."""
    repository = Repository(database)
    try:
        loaded = repository.load(game_id)
    finally:
        repository.close()
    assert loaded is not None
    _, actions = loaded
    assert len(actions) == version
    for number, (player, action) in sorted(acknowledged.items()):
        assert actions[number][0] == player, number
        assert actions[number][1] == action, (number, actions[number], action)
