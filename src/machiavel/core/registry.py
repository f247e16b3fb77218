"""The registry of games: every package under ``machiavel.games`` that exposes ``GAME``.

A game's package is imported the first time it is asked for, so a command about one game
does not load the others.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from machiavel.core.contract import Game
from machiavel.core.errors import UnknownGame


@cache
def games() -> tuple[str, ...]:
    """The ids of every registered game, sorted (a game's id is its package name)."""
    import machiavel.games as package

    return tuple(sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg))


@cache
def _load(game_id: str) -> Game:
    module = importlib.import_module(f"machiavel.games.{game_id}")
    spec = getattr(module, "GAME", None)
    if not isinstance(spec, Game) or spec.id != game_id:
        raise UnknownGame(f"package machiavel.games.{game_id} does not define GAME for {game_id!r}")
    return spec


def game(game_id: str) -> Game:
    """The spec of a registered game; ``UnknownGame`` names the known ones otherwise."""
    if not isinstance(game_id, str) or game_id not in games():
        known = ", ".join(games())
        raise UnknownGame(f"unknown game {game_id!r} (known games: {known})")
    return _load(game_id)
