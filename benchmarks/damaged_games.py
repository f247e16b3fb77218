"""Damaged games at start: what finding out and skipping them costs (a benchmark, not a test).

    .venv/bin/python benchmarks/damaged_games.py                  # 1,000 games, 5 damaged
    .venv/bin/python benchmarks/damaged_games.py --games 1000 --runs 7 --database postgresql://...

``--games`` Tyrus tables are stored (on a fresh SQLite file in a temporary folder, or in the
empty database of ``--database``), each with three actions played and a bot to move next,
so that the server loads and replays every one of them at start to resume its bot. Then
``--damaged`` of them are damaged with raw SQL, one kind after the other: options that
are not a JSON object, a date that cannot be read, a seat row missing, a gap in the action
numbers, a version that disagrees with the actions. Measured (wall-clock, median over
``--runs``, each on a new ``Repository`` and ``GameService`` as a restarted server has):

- start: the resumption of every game's bots, as ``GameService.start`` does it (each game
  loaded and replayed, the bots' moves held, not computed), each game timed: the total,
  a sound game (median), and each damaged game (found out and skipped);
- one game loaded (``Repository.load``): a sound one, and each kind of damaged one (found
  out and refused);
- the lobby's query (``Repository.list_games("all", 500)``): the first one after start,
  which reads the rows again by chunks when one cannot be decoded, and the next ones, which
  leave out the damaged games found so far.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

from sqlalchemy import text

import machiavel
from machiavel.server.damage import DamagedGame
from machiavel.server.live import hash_token
from machiavel.server.service import ApiError, GameService
from machiavel.server.storage import GameRecord, NewAction, Repository, SeatRecord

TYRUS = machiavel.game("tyrus")
SEED = 5
PLAYED = 3  # actions stored per game: the bot (seat 1) moves next


class HeldMoves(Executor):
    """Bot moves are never computed: only loading is measured."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


def opening() -> list[tuple[int, str]]:
    """The first ``PLAYED`` actions of a Tyrus game of seed ``SEED`` (first legal each)."""
    state = TYRUS.new(2, SEED)
    actions = []
    for _ in range(PLAYED):
        player = state.to_move[0]
        action = state.legal_actions(player)[0]
        state.apply(player, action)
        actions.append((player, action))
    assert tuple(state.to_move) == (1,)
    return actions


def store_games(repository: Repository, count: int) -> list[str]:
    ids = [f"bench{n:05d}" for n in range(count)]
    seats = (
        SeatRecord(0, "human", None, "Ada", hash_token("a token"), True),
        SeatRecord(1, "bot", "easy", "easy bot", None, True),
    )
    records = [
        GameRecord(game_id, "tyrus", 2, SEED, dict(TYRUS.options), seats, to_move=(0,))
        for game_id in ids
    ]
    assert all(outcome is None for outcome in repository.write_group(records))
    for number, (player, action) in enumerate(opening(), start=1):
        moves = [
            NewAction(game_id, number, player, action, False, (1 - player,)) for game_id in ids
        ]
        assert all(outcome is None for outcome in repository.write_group(moves))
    return ids


def damages(dialect: str) -> dict[str, list[str]]:
    """SQL that damages one game each (``{id}`` its id), by kind."""
    bad_date = "'infinity'" if dialect == "postgresql" else "'yesterday'"
    return {
        "options not an object": ["UPDATE games SET options = '[1]' WHERE id = '{id}'"],
        "date unreadable": [f"UPDATE games SET updated_at = {bad_date} WHERE id = '{{id}}'"],
        "seat missing": ["DELETE FROM seats WHERE game_id = '{id}' AND player = 0"],
        "gap in actions": ["UPDATE actions SET number = 9 WHERE game_id = '{id}' AND number = 2"],
        "version off": ["UPDATE games SET version = 7 WHERE id = '{id}'"],
    }


def damage(url: str, ids: list[str], count: int) -> dict[str, str]:
    """Damage ``count`` games, spread over the list, a kind each in turn: {id: kind}."""
    repository = Repository(url)
    try:
        kinds = damages(repository.engine.dialect.name)
        step = max(1, len(ids) // max(1, count))
        chosen = {ids[n * step + step // 2]: list(kinds)[n % len(kinds)] for n in range(count)}
        with repository.engine.begin() as conn:
            for game_id, kind in chosen.items():
                for statement in kinds[kind]:
                    conn.execute(text(statement.replace("{id}", game_id)))
    finally:
        repository.close()
    return chosen


async def resume_each(service: GameService, repository: Repository) -> dict[str, float]:
    """What start does to resume the bots (``unfinished_to_resume``, then each game loaded
    as resuming), each game timed: {id: seconds}."""
    times: dict[str, float] = {}
    for game_id in await asyncio.to_thread(repository.unfinished_to_resume):
        began = time.perf_counter()
        with contextlib.suppress(ApiError):  # a damaged game: found out, skipped
            await service.live(game_id, resuming=True)
        times[game_id] = time.perf_counter() - began
    await service.stop()
    return times


def time_start(url: str) -> dict[str, float]:
    """Each game's share of a start (a new repository and service, as after a restart)."""
    repository = Repository(url)
    try:
        service = GameService(repository, bot_executor=HeldMoves())
        return asyncio.run(resume_each(service, repository))
    finally:
        repository.close()


def time_load(url: str, game_id: str, runs: int) -> float:
    repository = Repository(url)
    try:
        times = []
        for _ in range(runs):
            began = time.perf_counter()
            with contextlib.suppress(DamagedGame):  # found out and refused: what is timed
                repository.load(game_id)
            times.append(time.perf_counter() - began)
        return statistics.median(times)
    finally:
        repository.close()


def time_lobby(url: str) -> tuple[float, float]:
    """The lobby's query: the first one on a new repository, and a later one."""
    repository = Repository(url)
    try:
        began = time.perf_counter()
        repository.list_games("all", 500)
        first = time.perf_counter() - began
        began = time.perf_counter()
        repository.list_games("all", 500)
        return first, time.perf_counter() - began
    finally:
        repository.close()


def median_of(runs: int, measure: Callable[[], Any]) -> Any:
    results = [measure() for _ in range(runs)]
    if isinstance(results[0], tuple):
        return tuple(statistics.median(r[i] for r in results) for i in range(len(results[0])))
    return statistics.median(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--damaged", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database", help="an empty database (default: a temporary SQLite)")
    args = parser.parse_args()
    logging.getLogger("machiavel").setLevel(logging.ERROR)  # the damage lines, once a run
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'machiavel.db'}"
        repository = Repository(url)
        try:
            ids = store_games(repository, args.games)
        finally:
            repository.close()
        sound_lobby = median_of(args.runs, lambda: time_lobby(url))
        sound_load = time_load(url, ids[0], 200)
        chosen = damage(url, ids, args.damaged)
        starts = [time_start(url) for _ in range(args.runs)]
        damaged_lobby = median_of(args.runs, lambda: time_lobby(url))
        loads = {kind: time_load(url, game_id, 200) for game_id, kind in chosen.items()}
    total = statistics.median(sum(run.values()) for run in starts)
    sound = statistics.median(t for run in starts for i, t in run.items() if i not in chosen)
    skipped = {kind: statistics.median(run[i] for run in starts) for i, kind in chosen.items()}
    print(f"{args.games} games, {len(chosen)} damaged; {args.runs} runs; {url.split(':')[0]}")
    row("start: every game with bots loaded or skipped", total)
    row("start: a sound game loaded, replayed, resumed", sound)
    for kind, seconds in skipped.items():
        row(f"start: damaged ({kind}), skipped", seconds)
    row("Repository.load: a sound game", sound_load)
    for kind, seconds in loads.items():
        row(f"Repository.load: damaged ({kind})", seconds)
    row("lobby query, all sound: first, later", *sound_lobby)
    row("lobby query, damaged: first (re-read by chunks), later", *damaged_lobby)


def row(label: str, *seconds: float) -> None:
    print(f"{label:<58}" + " ".join(f"{s * 1000:9.2f} ms" for s in seconds))


if __name__ == "__main__":
    main()
