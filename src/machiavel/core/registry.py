"""The registry of games: every package under ``machiavel.games`` that exposes ``GAME``."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from machiavel.core.contract import Game
from machiavel.core.errors import UnknownGame


@cache
def _registered() -> dict[str, Game]:
    import machiavel.games as package

    found: dict[str, Game] = {}
    for module_info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not module_info.ispkg:
            continue
        module = importlib.import_module(f"{package.__name__}.{module_info.name}")
        spec = getattr(module, "GAME", None)
        if isinstance(spec, Game):
            found[spec.id] = spec
    return found


def games() -> tuple[str, ...]:
    """The ids of every registered game, sorted."""
    return tuple(sorted(_registered()))


def game(game_id: str) -> Game:
    """The spec of a registered game; ``UnknownGame`` names the known ones otherwise."""
    found = _registered().get(game_id) if isinstance(game_id, str) else None
    if found is None:
        known = ", ".join(games())
        raise UnknownGame(f"unknown game {game_id!r} (known games: {known})")
    return found
