"""The game contract, registry, seeded randomness and serialization. No game knowledge."""

from machiavel.core.contract import (
    FORMAT,
    LANGUAGES,
    Game,
    JsonDict,
    Option,
    Seat,
    Setup,
    State,
)
from machiavel.core.errors import (
    CorruptState,
    IllegalAction,
    InvalidSetup,
    MachiavelError,
    UnknownBot,
    UnknownGame,
)
from machiavel.core.registry import game, games
from machiavel.core.rng import Rng

__all__ = [
    "FORMAT",
    "LANGUAGES",
    "CorruptState",
    "Game",
    "IllegalAction",
    "InvalidSetup",
    "JsonDict",
    "MachiavelError",
    "Option",
    "Rng",
    "Seat",
    "Setup",
    "State",
    "UnknownBot",
    "UnknownGame",
    "game",
    "games",
]
