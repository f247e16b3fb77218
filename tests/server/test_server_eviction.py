"""Games held in memory: the least recently used idle ones go, busy ones stay, and an
eviction looks at the oldest games only, not at all of them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from machiavel.server import service as service_module
from machiavel.server.live import Connection
from machiavel.server.service import GameService
from machiavel.server.storage import Repository

Scenario = Callable[[GameService], Awaitable[Any]]


def run(sqlite_url: str, max_cached: int, scenario: Scenario) -> Any:
    async def main() -> Any:
        repository = Repository(sqlite_url)
        service = GameService(repository, max_cached=max_cached)
        try:
            return await scenario(service)
        finally:
            await service.writer.close()
            repository.close()

    return asyncio.run(main())


async def new_game(service: GameService) -> tuple[str, list[str]]:
    created = await service.create("tyrus", 2, None, None, None, listed=False)
    return created["id"], [seat["token"] for seat in created["seats"]]


async def watched_game(service: GameService) -> tuple[str, Connection]:
    game_id, _ = await new_game(service)
    _, connection = await service.connect(game_id, None)  # a spectator keeps it busy
    return game_id, connection


def test_the_least_recently_used_idle_games_go_and_watched_ones_stay(sqlite_url: str) -> None:
    async def scenario(service: GameService) -> None:
        watched, _ = await watched_game(service)
        await new_game(service)
        second, _ = await new_game(service)  # three held: the oldest idle one goes
        # The watched one was looked past: it counts as used now.
        assert list(service.owned_games()) == [second, watched]
        third, _ = await new_game(service)
        assert list(service.owned_games()) == [watched, third]

    run(sqlite_url, 2, scenario)


def test_an_evicted_game_is_marked_dead_and_loads_again(sqlite_url: str) -> None:
    async def scenario(service: GameService) -> None:
        first, _ = await new_game(service)
        held = await service.locked(first)
        held.lock.release()
        await new_game(service)
        assert held.dead and first not in service.owned_games()
        again = await service.locked(first)  # from storage, a new object
        again.lock.release()
        assert again is not held and not again.dead

    run(sqlite_url, 1, scenario)


def test_an_eviction_looks_past_a_bounded_number_of_busy_games(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Busy games at the old end are looked past (and moved to the new end) at most
    EVICTION_LOOK at a time; the next eviction goes on from there."""
    monkeypatch.setattr(service_module, "EVICTION_LOOK", 2)

    async def scenario(service: GameService) -> None:
        service.max_cached = 100
        busy = [(await watched_game(service))[0] for _ in range(3)]
        idle = [(await new_game(service))[0] for _ in range(2)]
        service.max_cached = 4
        newest, _ = await new_game(service)  # six held, two too many
        held = list(service.owned_games())
        # Two busy ones were looked past, then the limit on looking stopped the call.
        assert held == [busy[2], *idle, newest, busy[0], busy[1]]
        last, _ = await new_game(service)  # goes on from the third busy one
        assert list(service.owned_games()) == [busy[0], busy[1], last, busy[2]]

    run(sqlite_url, 100, scenario)


async def play_to_the_end(service: GameService, game_id: str, tokens: list[str]) -> None:
    """Every action of a game through the accept path, the first legal one each time."""
    while True:
        live = await service.locked(game_id)
        state = live.state
        live.lock.release()
        if state.is_over:
            return
        player = state.to_move[0]
        action = state.legal_actions(player)[0]
        await service.act(game_id, tokens[player], action, state.version)


def test_a_game_leaves_memory_when_its_last_socket_closes_after_its_end(sqlite_url: str) -> None:
    """Not before its end, not while a socket still watches it; loaded again as it was."""

    async def scenario(service: GameService) -> None:
        game_id, tokens = await new_game(service)
        live, first = await service.connect(game_id, tokens[0])
        _, second = await service.connect(game_id, None)
        service.disconnect(live, second)  # not over yet: it stays
        assert game_id in service.owned_games() and not live.dead
        _, second = await service.connect(game_id, None)
        await play_to_the_end(service, game_id, tokens)
        version = live.state.version
        service.disconnect(live, second)  # over, but watched by the first socket still
        assert game_id in service.owned_games() and not live.dead
        service.disconnect(live, first)
        assert game_id not in service.owned_games() and live.dead
        again = await service.locked(game_id)  # from storage, as it ended
        again.lock.release()
        assert again is not live and again.is_over and again.state.version == version

    run(sqlite_url, 100, scenario)
