"""machiavel: political and trading board games for people, bots and researchers."""

import machiavel.speedups  # noqa: F401  first: compiled engines or pure Python (speedups.py)
from machiavel.bots import bot
from machiavel.core import (
    CorruptState,
    Game,
    IllegalAction,
    InvalidSetup,
    MachiavelError,
    Option,
    Rng,
    Seat,
    Setup,
    State,
    UnknownBot,
    UnknownGame,
    game,
    games,
)

__all__ = [
    "CorruptState",
    "Game",
    "IllegalAction",
    "InvalidSetup",
    "MachiavelError",
    "Option",
    "Rng",
    "Seat",
    "Setup",
    "State",
    "UnknownBot",
    "UnknownGame",
    "bot",
    "game",
    "games",
]
