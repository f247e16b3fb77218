"""The seed the server drew for a table, read back from its database.

A table of two or more people may not choose its seed (it would tell its chooser every
hidden card), so a test that needs the deal to build a reference state reads the seed
the server stored, as any program with the database could, never from the API.
"""

from __future__ import annotations

import machiavel
from machiavel.core.contract import Setup, State
from machiavel.server.storage import GameRecord, Repository


def stored_record(url: str, game_id: str) -> GameRecord:
    """The stored record of a game (its seed among the rest), from the database at ``url``."""
    repository = Repository(url)
    try:
        loaded = repository.load(game_id)
    finally:
        repository.close()
    assert loaded is not None, f"the database has no game {game_id}"
    return loaded[0]


def stored_seed(url: str, game_id: str) -> int:
    return stored_record(url, game_id).seed


def stored_setup(url: str, game_id: str) -> Setup:
    record = stored_record(url, game_id)
    return Setup(record.game, record.players, record.seed, record.options)


def dealt(url: str, game_id: str) -> State:
    """The game as it was dealt, before any action: the reference of what seats see."""
    setup = stored_setup(url, game_id)
    return machiavel.game(setup.game).state_from_setup(setup)
