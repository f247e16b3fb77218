"""Typed errors: every refusal says, in words a player understands, what was wrong."""

from __future__ import annotations


class MachiavelError(Exception):
    """Base class of every error machiavel raises on purpose."""


class IllegalAction(MachiavelError, ValueError):  # noqa: N818 - public name fixed by the contract
    """An action that the rules refuse now; the state is left unchanged."""


class UnknownGame(MachiavelError, LookupError):  # noqa: N818 - reads better at call sites
    """A game id that is not registered."""


class InvalidSetup(MachiavelError, ValueError):  # noqa: N818
    """A player count, option or position that the game does not allow."""


class CorruptState(MachiavelError, ValueError):  # noqa: N818
    """Serialized data that cannot be a state of this game."""


class UnknownBot(MachiavelError, LookupError):  # noqa: N818
    """A bot name that no factory knows."""
