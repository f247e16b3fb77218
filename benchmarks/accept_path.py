"""CPU per action of the accept path alone: the game service without HTTP or WebSockets.

``benchmarks/load.py`` measures the whole server over loopback, which is what counts,
but its figures move with whatever else the machine runs. This one plays ``--games``
Tyrus games in one process, as the server's WebSocket route would: each seat is a
registered ``Connection`` whose pushes are drained, and acts with ``act_on_socket`` as
soon as it is its turn (closed loop); actions are stored by the group writer on a fresh
SQLite file (or ``--database``). It prints the process's CPU time per action (all its
threads: the event loop's and the writer's), which is stable enough to compare two
versions of the code run one after the other:

    .venv/bin/python benchmarks/accept_path.py --games 200 --actions 20000
    PYTHONPATH=<other checkout>/src .venv/bin/python benchmarks/accept_path.py ...

The people's choices come from the game's own state (no JSON is parsed on their side),
so nearly all the CPU measured is the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from machiavel.core.rng import Rng
from machiavel.server.live import Connection, LiveGame
from machiavel.server.service import GameService
from machiavel.server.storage import Repository

GAME = "tyrus"
GC_THRESHOLDS = (20_000, 20, 20)  # as the server's (machiavel.server.run)


class Counter:
    """Actions played so far, and when to stop."""

    def __init__(self, limit: int) -> None:
        self.played = 0
        self.limit = limit
        self.done = asyncio.Event()

    def count(self) -> bool:
        """One more action; False once the limit is reached."""
        self.played += 1
        if self.played >= self.limit:
            self.done.set()
        return not self.done.is_set()


async def seat_loop(
    service: GameService, live: LiveGame, connection: Connection, counter: Counter, rng: Rng
) -> None:
    """One simulated person: drain the pushes, act when it is this seat's turn."""
    player = connection.viewer
    assert player is not None
    while not counter.done.is_set():
        text = await connection.queue.get()
        if text is None or live.is_over:
            return
        while not connection.queue.empty():  # only the newest state matters
            connection.queue.get_nowait()
        state = live.state
        if player not in state.to_move:
            continue
        legal = state.legal_actions(player)
        await service.act_on_socket(
            live, connection, None, legal[rng.below(len(legal))], state.version
        )
        if not counter.count():
            return


async def game_slot(service: GameService, counter: Counter, rng: Rng) -> None:
    """Keep one game going: a new one when it ends, until the counter says stop."""
    while not counter.done.is_set():
        created = await service.create(GAME, 2, None, None, None, listed=False)
        seats = []
        for seat in created["seats"]:
            live, connection = await service.connect(created["id"], seat["token"])
            seats.append(seat_loop(service, live, connection, counter, rng))
        await asyncio.gather(*seats)


async def play(database: str, games: int, actions: int, warmup: int, seed: int) -> None:
    repository = Repository(database)
    service = GameService(repository)  # no bot plays: its worker pool never starts
    try:
        rng = Rng(seed)
        warm = Counter(warmup)
        await asyncio.gather(*(game_slot(service, warm, rng) for _ in range(games)))
        counter = Counter(actions)
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.gather(*(game_slot(service, counter, rng) for _ in range(games)))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(
            f"{counter.played} actions, {games} games: {1e6 * cpu / counter.played:.0f} us of CPU "
            f"per action ({counter.played / wall:.0f} actions/s, {cpu / wall:.2f} cores); "
            f"{service.writer.commits} commits"
        )
    finally:
        await service.writer.close()
        repository.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument("--actions", type=int, default=20_000, help="actions measured (20000)")
    parser.add_argument("--warmup", type=int, default=2_000, help="actions not measured (2000)")
    parser.add_argument("--seed", type=int, default=1, help="the people's choices")
    parser.add_argument("--database", help="a SQLAlchemy URL; default a fresh SQLite file")
    args = parser.parse_args(argv)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    with tempfile.TemporaryDirectory(prefix="machiavel-accept-") as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'accept.db'}"
        asyncio.run(play(url, args.games, args.actions, args.warmup, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
