"""What each game gives the research adapters: a fixed action space and an observation layout.

A game's encoding (``src/machiavel/rl/<game>.py``) is built for one player count and set of
options. It numbers every action that any state of such a game can allow, in canonical
spelling, and lays a player's view out as a flat vector of numbers. It reads only the
contract (action strings, ``view(player)``), never a state: an observation cannot leak
what the view hides.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from machiavel.core.contract import JsonDict

Vector = npt.NDArray[np.float32]


class GameEncoding(ABC):
    """One game's numbering of actions and layout of observations, for a player count."""

    # Raised whenever the numbering or the layout changes: environments carry it in their
    # name (``machiavel_tyrus_v1``), as PettingZoo's ``_vN``, so results stay comparable.
    version: ClassVar[int]

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.options = dict(options)

    @property
    @abstractmethod
    def size(self) -> int:
        """How many actions are numbered: ``0 .. size-1``."""

    @abstractmethod
    def number(self, action: str) -> int | None:
        """The number of a canonical action; None if it is none of this game's actions."""

    @abstractmethod
    def action(self, number: int) -> str:
        """The canonical action numbered ``number`` (known to be in range)."""

    def numbers(self, actions: Iterable[str]) -> list[int | None]:
        """``[number(a) for a in actions]`` (encodings may do it faster)."""
        return [self.number(action) for action in actions]

    def mark(self, actions: Iterable[str], ones: bytearray) -> None:
        """Set ``ones[number(a)] = 1`` for each of ``actions``; KeyError for an action that
        has no number (encodings may do it faster)."""
        for action in actions:
            number = self.number(action)
            if number is None:
                raise KeyError(action)
            ones[number] = 1

    @property
    @abstractmethod
    def observation_size(self) -> int:
        """Length of the observation vector."""

    @abstractmethod
    def observe(self, view: JsonDict, out: Vector) -> None:
        """Write ``view`` (one player's view) into ``out``, a vector of zeros."""

    def vector(self, view: JsonDict) -> Vector:
        """The observation of ``view``, a new vector (encodings may build it faster)."""
        out = np.zeros(self.observation_size, dtype=np.float32)
        self.observe(view, out)
        return out


class ListedEncoding(GameEncoding, ABC):
    """An encoding whose actions fit in a list: numbered in the list's order."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.actions: tuple[str, ...] = tuple(self.every_action())
        self._numbers = {action: number for number, action in enumerate(self.actions)}
        if len(self._numbers) != len(self.actions):
            raise AssertionError(f"{type(self).__name__} lists an action twice")

    @abstractmethod
    def every_action(self) -> Sequence[str]:
        """Every action any state may allow, canonical, each once, in a fixed order."""

    @property
    def size(self) -> int:
        return len(self.actions)

    def number(self, action: str) -> int | None:
        return self._numbers.get(action)

    def numbers(self, actions: Iterable[str]) -> list[int | None]:
        return list(map(self._numbers.get, actions))

    def mark(self, actions: Iterable[str], ones: bytearray) -> None:
        numbers = self._numbers
        for action in actions:
            ones[numbers[action]] = 1

    def action(self, number: int) -> str:
        return self.actions[number]


def encoding_for(game_id: str, players: int, options: Mapping[str, Any]) -> GameEncoding:
    """The encoding of ``game_id`` (module ``machiavel.rl.<game_id>``, class ``Encoding``)."""
    module = importlib.import_module(f"machiavel.rl.{game_id}")
    made: GameEncoding = module.Encoding(players, options)
    return made
