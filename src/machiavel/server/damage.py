"""Stored games whose rows are damaged: found out, reported once, kept away from the rest.

A row edited by hand, half restored from a backup or written by a faulty tool may hold
options that are not a JSON object, a date that cannot be read, a seat missing or beyond
the game's players, a seat of an unknown kind, action numbers with a gap, a ``version``
that disagrees with the actions... Such a game cannot be loaded, but it must not break
anything else: the lobby, "my games", profiles and the other games' bots go on. The
repository checks every game row it decodes here; a damaged one raises ``DamagedGame``
when it is loaded and is left out of lists, and the server's log gets one line per game
(docs/server.md, "Faults that stay local").
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DataError

from machiavel.bots import LEVELS
from machiavel.server.outage import describe

if TYPE_CHECKING:  # storage imports this module
    from machiavel.server.storage import GameRecord

logger = logging.getLogger("machiavel.server")

# What decoding a damaged row raises: the JSON or date reader of SQLAlchemy (SQLite keeps
# any text in any column), the driver's loader (psycopg: a date PostgreSQL holds but
# Python cannot, such as 'infinity'), or our own conversions.
ROW_DAMAGE = (ValueError, TypeError, OverflowError, LookupError, DataError)
MAX_PLAYERS = 16
SEAT_KINDS = ("human", "bot")


class DamagedGame(Exception):  # noqa: N818 - it names a situation
    """A stored game that cannot be loaded. ``reason`` is public (it names what is
    damaged, never a stored value); ``detail`` adds, for the log, what the decoder said.
    ``record`` and ``actions``: the game as stored when only its actions are damaged (it
    can then be shown read-only), else None."""

    def __init__(
        self,
        game_id: str,
        reason: str,
        detail: str = "",
        record: GameRecord | None = None,
        actions: Sequence[tuple[int, str]] = (),
    ) -> None:
        super().__init__(f"game {game_id}: {reason}")
        self.game_id = game_id
        self.reason = reason
        self.detail = detail or reason
        self.record = record
        self.actions = list(actions)

    @property
    def message(self) -> str:
        """What a client is told."""
        return f"this game cannot be loaded: its stored data is damaged ({self.reason})"


def unreadable_row(game_id: str, error: BaseException) -> DamagedGame:
    """The damage of a row the database or its driver could not decode."""
    return DamagedGame(
        game_id, "its row cannot be read", f"its row cannot be read: {describe(error)}"
    )


def check_game_row(game_id: str, row: Any, seats: Sequence[Any]) -> None:
    """Raise ``DamagedGame`` if a games row or its seat rows cannot make a game."""
    players = row.players
    if type(players) is not int or not 1 <= players <= MAX_PLAYERS:
        raise DamagedGame(game_id, f"its player count is not a number from 1 to {MAX_PLAYERS}")
    if type(row.seed) is not int or type(row.version) is not int or row.version < 0:
        raise DamagedGame(game_id, "its seed or version is not a whole number")
    options = row.options
    if not isinstance(options, dict):
        raise DamagedGame(game_id, "its options are not a JSON object")
    _check_seats(game_id, players, seats)


def _check_seats(game_id: str, players: int, seats: Sequence[Any]) -> None:
    numbers = [seat.player for seat in seats]
    for seat in seats:
        if type(seat.player) is not int or not 0 <= seat.player < players:
            raise DamagedGame(game_id, f"it has a seat row beyond its {players} players")
        if seat.kind not in SEAT_KINDS:
            raise DamagedGame(game_id, f"seat {seat.player} is of an unknown kind")
        if seat.kind == "bot" and seat.level not in LEVELS:
            raise DamagedGame(game_id, f"seat {seat.player} is a bot of an unknown level")
    missing = sorted(set(range(players)) - set(numbers))
    if missing:
        raise DamagedGame(game_id, f"seat {missing[0]} is missing")


def check_actions(
    record: GameRecord, numbers: Sequence[Any], actions: Sequence[tuple[Any, Any]]
) -> None:
    """Raise ``DamagedGame`` (with the record: it can be shown) if the action rows of a
    sound game row do not number 1, 2, ... up to its version, or name no seat of it."""
    for expected, number in enumerate(numbers, start=1):
        if number != expected:
            reason = f"its action numbers skip from {expected - 1} to {number}"
            raise DamagedGame(record.id, reason, record=record, actions=actions)
    if record.version != len(numbers):
        reason = f"its version ({record.version}) disagrees with its {len(numbers)} actions"
        raise DamagedGame(record.id, reason, record=record, actions=actions)
    for number, (player, action) in enumerate(actions, start=1):
        if type(player) is not int or not 0 <= player < record.players or type(action) is not str:
            reason = f"its action #{number} names no seat of the game"
            raise DamagedGame(record.id, reason, record=record, actions=actions)


class DamageReport:
    """The damaged games found so far: each logged once, those whose row is unusable left
    out of the lobby and "my games" (until the server restarts). Thread-safe: the
    repository reads in threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reported: set[str] = set()
        self._excluded: set[str] = set()

    def add(self, damaged: DamagedGame) -> None:
        with self._lock:
            if damaged.record is None:
                self._excluded.add(damaged.game_id)
            if damaged.game_id in self._reported:
                return
            self._reported.add(damaged.game_id)
        logger.warning(
            "game %s cannot be loaded, its stored data is damaged: %s",
            damaged.game_id,
            damaged.detail,
        )

    def excluded(self) -> list[str]:
        """The games to leave out of lists (sorted: the same query text each time)."""
        with self._lock:
            return sorted(self._excluded)
