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
