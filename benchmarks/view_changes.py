"""Would pushes that carry only what changed cost the server less than whole states?

Every push carries the viewer's whole view (docs/server.md, "Load benchmark"). A client
that keeps the last state could be sent only the view's top-level entries that differ
from the last push's instead: fewer bytes. But the server would have to find them, by
comparing the new view with the one it last sent, and that comparison is Python work
where the whole view's JSON is one call into orjson. This measures both on the views a
game's seats see after each action of seeded random games (the engine in this process,
no server): bytes a push, and CPU time a push of encoding the whole view against
comparing and encoding the changes. The two are timed in turns, several rounds, and the
median of each is printed, so that the machine's other work moves both alike:

    .venv/bin/python benchmarks/view_changes.py --game tyrus --games 40
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import orjson

from machiavel.core.contract import JsonDict
from machiavel.core.registry import game, games
from machiavel.core.rng import Rng

# (the view now, the one the same viewer had before: None for its first)
Pair = tuple[JsonDict, JsonDict | None]


def seat_views(game_id: str, players: int, count: int) -> list[Pair]:
    """Each seat's view after every action of ``count`` seeded random games."""
    spec = game(game_id)
    rng = Rng(1)
    pairs: list[Pair] = []
    for seed in range(count):
        state = spec.new(players, seed, {})
        last: list[JsonDict | None] = [None] * players
        while not state.is_over:
            for seat in range(players):
                view = state.view(seat)
                pairs.append((view, last[seat]))
                last[seat] = view
            player = state.to_move[0]
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.below(len(legal))])
    return pairs


def whole(pairs: Sequence[Pair]) -> int:
    """Bytes of every view sent whole."""
    return sum(len(orjson.dumps(view)) for view, _ in pairs)


def changes(pairs: Sequence[Pair]) -> int:
    """Bytes of every view sent as the top-level entries that changed (whole the first
    time), found by comparing with the viewer's previous view."""
    size = 0
    for view, before in pairs:
        if before is None:
            size += len(orjson.dumps(view))
            continue
        changed = {key: value for key, value in view.items() if before.get(key) != value}
        size += len(orjson.dumps(changed))
    return size


def timed(way: Callable[[Sequence[Pair]], int], pairs: Sequence[Pair]) -> tuple[float, int]:
    """CPU seconds of one pass of ``way`` over ``pairs``, and the bytes it wrote."""
    started = time.process_time()
    size = way(pairs)
    return time.process_time() - started, size


def measure(pairs: Sequence[Pair], rounds: int) -> dict[str, tuple[float, float]]:
    """Per way: (bytes a push, median CPU microseconds a push)."""
    ways = {"whole views": whole, "changes only": changes}
    seconds: dict[str, list[float]] = {name: [] for name in ways}
    sizes: dict[str, int] = {}
    for _ in range(rounds):
        for name, way in ways.items():
            spent, sizes[name] = timed(way, pairs)
            seconds[name].append(spent)
    return {
        name: (sizes[name] / len(pairs), statistics.median(seconds[name]) / len(pairs) * 1e6)
        for name in ways
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--game", choices=games(), default="tyrus")
    parser.add_argument("--players", type=int, help="default: the game's fewest")
    parser.add_argument("--games", type=int, default=40, help="random games (40)")
    parser.add_argument("--rounds", type=int, default=7, help="timed turns of each way (7)")
    args = parser.parse_args(argv)
    spec = game(args.game)
    players = args.players or spec.min_players
    if not spec.min_players <= players <= spec.max_players:
        allowed = sorted({spec.min_players, spec.max_players})
        parser.error(f"{args.game} is for {' to '.join(map(str, allowed))} players")
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    pairs = seat_views(args.game, players, args.games)
    print(f"{args.game}, {players} players: {len(pairs):,} pushes of {args.games} random games")
    for name, (size, micros) in measure(pairs, args.rounds).items():
        print(f"{name:13}  {size:8,.0f} bytes a push  {micros:6.2f} us of CPU a push")
    return 0


if __name__ == "__main__":
    sys.exit(main())
