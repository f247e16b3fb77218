"""Game-agnostic bots and the factory ``bot(name, seed)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from machiavel.bots.base import Bot
from machiavel.bots.heuristic import HeuristicBot
from machiavel.bots.ismcts import EasyBot, IsmctsBot
from machiavel.bots.random_bot import RandomBot
from machiavel.core.errors import UnknownBot


def _hard(seed: int | None = None, **params: Any) -> Bot:
    """ISMCTS with about one second a move."""
    return IsmctsBot(seed, **{"seconds": 1.0, **params})


def _expert(seed: int | None = None, **params: Any) -> Bot:
    """ISMCTS with about five seconds a move, on both cores."""
    return IsmctsBot(seed, **{"seconds": 5.0, "jobs": 2, **params})


BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "ismcts": IsmctsBot,
    # Difficulty levels shared by every game and by the server.
    "easy": EasyBot,
    "medium": HeuristicBot,
    "hard": _hard,
    "expert": _expert,
}
LEVELS = ("easy", "medium", "hard", "expert")


def bot(name: str, seed: int | None = None, **params: Any) -> Bot:
    """A bot by name, deterministic given its seed."""
    factory = BOTS.get(name)
    if factory is None:
        raise UnknownBot(f"unknown bot {name!r} (known bots: {', '.join(sorted(BOTS))})")
    try:
        return factory(seed, **params)
    except (TypeError, ValueError) as error:
        raise UnknownBot(f"bot {name!r} does not take these parameters: {error}") from error


def bot_from_spec(spec: str, seed: int | None = None) -> Bot:
    """A bot from a command-line spec: a name, then ``:param=value`` pairs.

    ``ismcts:iterations=500:rollout=heuristic`` is ``bot("ismcts", seed, iterations=500,
    rollout="heuristic")``; values are read as numbers when they look like numbers.
    """
    name, *pairs = spec.split(":")
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise UnknownBot(f"bot parameters are written name=value, not {pair!r} in {spec!r}")
        params[key] = _number_or_text(raw)
    return bot(name, seed=seed, **params)


def _number_or_text(raw: str) -> Any:
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "EasyBot",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "bot",
    "bot_from_spec",
]
