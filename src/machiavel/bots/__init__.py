"""Game-agnostic bots and the factory ``bot(name, seed)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from machiavel.bots.base import Bot
from machiavel.bots.heuristic import HeuristicBot
from machiavel.bots.random_bot import RandomBot
from machiavel.core.errors import UnknownBot

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}


def bot(name: str, seed: int | None = None, **params: Any) -> Bot:
    """A bot by name, deterministic given its seed."""
    factory = BOTS.get(name)
    if factory is None:
        raise UnknownBot(f"unknown bot {name!r} (known bots: {', '.join(sorted(BOTS))})")
    try:
        return factory(seed, **params)
    except TypeError as error:
        raise UnknownBot(f"bot {name!r} does not take these parameters: {error}") from error


__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "bot"]
