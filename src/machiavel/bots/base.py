"""What a bot is: something that, given only its seat, chooses one legal action."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from machiavel.core.contract import Seat


@runtime_checkable
class Bot(Protocol):
    name: str

    def choose(self, seat: Seat) -> str:
        """One of ``seat.legal_actions()``."""
        ...


@runtime_checkable
class RankingBot(Bot, Protocol):
    """A heuristic that can also order every legal action, best first.

    Search bots guided by it grow a node's children in that order, so progressive
    widening looks at the heuristic's best few actions before the hundreds of others.
    """

    def ranked(self, seat: Seat) -> list[str]:
        """Every one of ``seat.legal_actions()``, best first; starts with ``choose``'s."""
        ...
