"""``ActionSpace`` and ``Observer``: the fixed numbering and observation of every game."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Self

import numpy as np
import numpy.typing as npt

from machiavel.core.contract import JsonDict
from machiavel.core.registry import game
from machiavel.rl.encoding import GameEncoding, Vector, encoding_for


def _encoding(game_id: str, players: int, options: Mapping[str, Any] | None) -> GameEncoding:
    """The game's encoding for a setup checked like any other (players, options)."""
    setup = game(game_id).make_setup(players, 0, options)
    return encoding_for(game_id, players, setup.options)


class _OfASetup:
    """What ``ActionSpace`` and ``Observer`` share: a game's encoding for one setup, which
    never changes (so copies of a game, OpenSpiel's clones included, share it)."""

    def __init__(
        self, game_id: str, players: int, options: Mapping[str, Any] | None = None
    ) -> None:
        self.game = game_id
        self.players = players
        self._encoding = _encoding(game_id, players, options)
        self.version = self._encoding.version

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


class ActionSpace(_OfASetup):
    """Every action a game of ``game_id`` for ``players`` can allow, numbered ``0 .. n-1``.

    ``encode(decode(i)) == i`` for every number, and every legal action of every state of
    such a game encodes. Actions are read in canonical spelling (as ``legal_actions`` gives
    them).
    """

    def __init__(
        self, game_id: str, players: int, options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(game_id, players, options)
        self.n = self._encoding.size

    def encode(self, action: str) -> int:
        number = self._encoding.number(action) if isinstance(action, str) else None
        if number is None:
            raise ValueError(
                f"{action!r} is not an action of {self.game} for {self.players} players "
                "(actions are numbered in the canonical spelling that legal_actions gives)"
            )
        return number

    def decode(self, number: int | np.integer[Any]) -> str:
        if type(number) is not int and not isinstance(number, np.integer):
            raise ValueError(f"an action number is a whole number, not {number!r}")
        if not 0 <= number < self.n:
            raise ValueError(f"action numbers go from 0 to {self.n - 1}, not {number}")
        return self._encoding.action(int(number))

    def encode_all(self, actions: Iterable[str]) -> list[int]:
        """``[encode(a) for a in actions]``, faster: environments number every legal action
        at every step."""
        actions = actions if isinstance(actions, (list, tuple)) else list(actions)
        numbers = self._encoding.numbers(actions)
        if None in numbers:
            self.encode(next(a for a, n in zip(actions, numbers, strict=True) if n is None))
        return numbers  # type: ignore[return-value]  # no None left: checked just above

    def mask(self, legal: Iterable[str]) -> npt.NDArray[np.int8]:
        """1 for each of ``legal``, 0 elsewhere (PettingZoo's ``action_mask``)."""
        legal = legal if isinstance(legal, (list, tuple)) else list(legal)
        ones = bytearray(self.n)
        try:
            self._encoding.mark(legal, ones)
        except KeyError:
            self.encode_all(legal)  # raises the error that names the action
            raise
        return np.frombuffer(ones, dtype=np.int8)


class Observer(_OfASetup):
    """A player's view as a fixed-length float32 vector (``docs/rl.md``, field by field)."""

    def __init__(
        self, game_id: str, players: int, options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(game_id, players, options)
        self.shape = (self._encoding.observation_size,)

    def encode(self, view: JsonDict) -> Vector:
        """The observation of ``view``: what ``state.view(player)`` gave, nothing else."""
        if not isinstance(view, dict) or view.get("game") != self.game:
            raise ValueError(f"expected a view of {self.game}, not {str(view)[:80]!r}")
        if view.get("players") != self.players:
            raise ValueError(
                f"this observer is for {self.players} players, the view for {view.get('players')}"
            )
        return self._encoding.vector(view)
