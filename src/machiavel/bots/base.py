"""What a bot is: something that, given only its seat, chooses one legal action."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from machiavel.core.contract import Seat, State


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


@runtime_checkable
class StatePolicy(Protocol):
    """A heuristic with a fast entry point for search: the choice it would make from
    ``state.seat(player)``, read straight from the state's fields instead of a JSON view.

    Search calls it only on the worlds it draws with ``Seat.resample`` (each already a
    guess made from its own seat's knowledge), for the player to move there. It must read
    only what ``player`` may see in ``state`` and choose exactly as ``choose`` would from
    that seat (the conformance suite checks both), so a bot that reads it learns nothing
    its seat did not tell it; a bot itself is still given only a ``Seat``.
    """

    def choose_in(self, state: State, player: int) -> str:
        """``choose(state.seat(player))``, faster."""
        ...


@runtime_checkable
class StateRanking(StatePolicy, Protocol):
    """A ``StatePolicy`` that also ranks, like ``RankingBot.ranked``."""

    def ranked_in(self, state: State, player: int) -> list[str]:
        """``ranked(state.seat(player))``, faster."""
        ...
