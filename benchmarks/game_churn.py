"""What a game costs the server besides its actions: made, its two sockets opened, closed.

``benchmarks/load.py`` keeps its games going: a Tyrus game ends after some fifty actions
and its two people start another (``POST /api/games``, two WebSocket handshakes, two
first states, two closes). boardgame.io's harness (``../shared/benchmarks/boardgameio``)
makes and joins its matches before its measured window, and its game never ends, so its
window holds none of that. This runs only that part against the real server (``machiavel
serve`` on a fresh SQLite file, as ``load.py`` starts it): ``--at-once`` people each make
a game, open both its seats' sockets, read the first states and close them, again and
again, and it prints the server's cost a game and, spread over the actions of an average
game of random play (as ``load.py``'s people play), a share of each action:

    .venv/bin/python benchmarks/game_churn.py --seconds 20            # CPU time
    .venv/bin/python benchmarks/game_churn.py --games 60 --callgrind /tmp/churn.cg

``--callgrind FILE`` runs the server under callgrind and counts its instructions while
the measured games are made only (``FILE.1``, for ``callgrind_annotate``): the same count
whatever else the machine runs. CPU time moves with it (a busy machine's caches).
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx2
from load import (  # same folder: run as a script
    CALLGRIND_SLOWER,
    READY_TIMEOUT,
    Bench,
    Counting,
    Settings,
    create_table,
    loop_factory,
    open_seat,
    process_cpu,
    start_server,
    stop_server,
    wait_ready,
)

from machiavel.core.registry import game
from machiavel.core.rng import Rng
from machiavel.server.launch import free_port

WARMUP_GAMES = 5  # made before counting: the first requests import and build caches
SAMPLE_GAMES = 200  # random games played in-process to find an average game's length
SETTLE_POLL = 0.5  # seconds between two readings of the server's CPU time (10 ms ticks)


async def one_game(bench: Bench, http: httpx2.AsyncClient) -> None:
    """Make a game, open both seats' sockets (each gets its first state), close them."""
    table = await create_table(bench, http)
    seats = await asyncio.gather(*(open_seat(bench, table, player) for player in (0, 1)))
    for seat in seats:
        seat.close()


@dataclass
class Games:
    """The games still to make (shared by the people making them), and those made."""

    left: int
    made: int = 0


async def person(bench: Bench, http: httpx2.AsyncClient, games: Games, until: float) -> None:
    """Make games one after another until ``until`` (monotonic) or none are left."""
    while time.monotonic() < until and games.left > 0:
        games.left -= 1
        await one_game(bench, http)
        games.made += 1


async def settled(pid: int) -> None:
    """Until the server's CPU time stops growing: the last sockets' closes are handled
    (their frames come after the last game is made; under callgrind, long after)."""
    last = -1.0
    while (now := sum(process_cpu(pid))) != last:
        last = now
        await asyncio.sleep(SETTLE_POLL)


async def churn(
    port: int, server: subprocess.Popen[bytes], args: argparse.Namespace
) -> tuple[int, float]:
    """Games made in the measured part, and the server's CPU seconds over it."""
    pid = server.pid
    settings = Settings(1, "closed", args.seconds, 0.0, 0, "ws", 1.0, 1)
    bench = Bench(settings, port)
    slower = CALLGRIND_SLOWER if args.callgrind else 1.0
    async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60.0) as http:
        await wait_ready(http, server, READY_TIMEOUT * slower)
        for _ in range(WARMUP_GAMES):
            await one_game(bench, http)
        counting = Counting(pid) if args.callgrind else None
        if counting is not None:
            counting.switch("on")
        before = sum(process_cpu(pid))
        games = Games(args.games or sys.maxsize)
        until = time.monotonic() + (args.seconds if not args.games else float("inf"))
        await asyncio.gather(*(person(bench, http, games, until) for _ in range(args.at_once)))
        await settled(pid)
        used = sum(process_cpu(pid)) - before
        if counting is not None:
            counting.dump()
        if bench.errors:
            raise SystemExit(f"errors: {dict(bench.errors)}")
    return games.made, used


def actions_per_game(samples: int = SAMPLE_GAMES) -> float:
    """The average length of a Tyrus game whose people pick among the legal actions at
    random, as ``load.py``'s do."""
    tyrus = game("tyrus")
    rng = Rng(1)
    total = 0
    for seed in range(samples):
        state = tyrus.new(2, seed, {})
        while not state.is_over:
            player = state.to_move[0]
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.below(len(legal))])
        total += state.version
    return total / samples


def counted_instructions(profile: Path) -> int:
    """The total of a callgrind profile (its ``totals:`` line)."""
    for line in profile.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"{profile} holds no totals: did callgrind write it?")


def report(games: int, used: float, args: argparse.Namespace) -> None:
    length = actions_per_game()
    print(f"games made     {games} ({args.at_once} at a time)")
    print(f"average game   {length:.1f} actions (random play, {SAMPLE_GAMES} games)")
    if args.callgrind:
        per_game = counted_instructions(Path(args.callgrind + ".1")) / games
        print(
            f"instructions   {per_game:,.0f} a game, {per_game / length:,.0f} an action's share "
            f"(profile: callgrind_annotate --inclusive=yes {args.callgrind}.1)"
        )
        return
    per_game = used / games
    print(
        f"server CPU     {used:.2f} s: {per_game * 1e6:,.0f} us a game, "
        f"{per_game / length * 1e6:,.1f} us an action's share"
    )


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to churn (20)")
    parser.add_argument("--games", type=int, default=0, help="this many games instead")
    parser.add_argument("--at-once", type=int, default=4, help="people making games (4)")
    parser.add_argument("--callgrind", help="count the server's instructions into FILE.1")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.games < 0 or args.at_once < 1:
        parser.error("--seconds must be over 0, --games 0 or more, --at-once at least 1")
    if args.callgrind and not args.games:
        parser.error("--callgrind needs --games (a run under callgrind is fifty times slower)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    with tempfile.TemporaryDirectory(prefix="machiavel-churn-") as folder:
        port = free_port()
        log = Path(folder) / "server.log"
        database = f"sqlite:///{Path(folder) / 'churn.db'}"
        server = start_server(database, port, log, args.at_once, args.callgrind)
        try:
            with asyncio.Runner(loop_factory=loop_factory()) as runner:
                games, used = runner.run(churn(port, server, args))
        finally:
            stop_server(server)
    report(games, used, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
