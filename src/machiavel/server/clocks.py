"""Clocks of a table and the rules around absent players (docs/server.md, "Clocks").

Two kinds: ``live`` (a time bank per seat, ``initial`` seconds, plus ``increment`` seconds
each time the seat's turn ends) and ``turn-based`` (``per_move`` seconds for each move,
typically days). A seat's clock runs while it is in ``to_move`` and no stand-in bot plays
it; clocks start with the first action (as on Lichess: a table waits for its first move
without a clock, the abandon period covers a first player who never comes).

Pure: moments are given, nothing here reads the time or does I/O. The state is kept as
JSON with the game (``games.clock_state``), written with every action and seat change,
so a restart finds every deadline where it was.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from machiavel.core.contract import JsonDict

KINDS = ("live", "turn-based")
MAX_INITIAL = 24 * 3600.0  # a live bank of a day at most
MAX_INCREMENT = 3600.0
MAX_PER_MOVE = 60 * 24 * 3600.0  # sixty days a move at most
DEFAULT_ABANDON = 14 * 24 * 3600  # a table where no person acts for two weeks ends
MAX_ABANDON = 365 * 24 * 3600
TAKE_BACK_SHARE = 0.1  # a live bank taken back holds at least a tenth of the initial time


class ClockRefused(ValueError):  # noqa: N818 - it names a situation
    """A clock or period that cannot be set, with a sentence saying why."""


def _seconds(raw: object, what: str, low: float, high: float, zero: bool = False) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
        raise ClockRefused(f"the clock's {what} is a number of seconds")
    value = float(raw)
    if value < low or value > high or (value == 0 and not zero):
        bound = "from 0" if zero else "above 0"
        raise ClockRefused(f"the clock's {what} must be {bound} and at most {high:g} seconds")
    return value


@dataclass(frozen=True)
class ClockSpec:
    """What a table's clock is: its kind and its seconds."""

    kind: str
    initial: float = 0.0
    increment: float = 0.0
    per_move: float = 0.0

    @classmethod
    def read(cls, raw: object) -> ClockSpec:
        """The clock of a request body; ``ClockRefused`` with a sentence otherwise."""
        if not isinstance(raw, dict):
            raise ClockRefused('a clock is an object such as {"kind": "live", "initial": 600}')
        kind = raw.get("kind")
        if kind == "live":
            allowed = {"kind", "initial", "increment"}
            spec = cls(
                "live",
                initial=_seconds(raw.get("initial"), "initial time", 0, MAX_INITIAL),
                increment=_seconds(raw.get("increment", 0), "increment", 0, MAX_INCREMENT, True),
            )
        elif kind == "turn-based":
            allowed = {"kind", "per_move"}
            spec = cls(
                "turn-based", per_move=_seconds(raw.get("per_move"), "per_move", 0, MAX_PER_MOVE)
            )
        else:
            raise ClockRefused(f"a clock's kind is one of {', '.join(KINDS)}, not {kind!r}")
        extra = sorted(str(key) for key in raw if key not in allowed)
        if extra:
            raise ClockRefused(f"a {kind} clock has no {', '.join(extra)}")
        return spec

    def to_json(self) -> JsonDict:
        if self.kind == "live":
            return {"kind": "live", "initial": self.initial, "increment": self.increment}
        return {"kind": "turn-based", "per_move": self.per_move}


def read_abandon(raw: object) -> int:
    """The abandon period of a request body (seconds, default two weeks)."""
    if raw is None:
        return DEFAULT_ABANDON
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= MAX_ABANDON:
        raise ClockRefused(f"abandon_after is a whole number of seconds from 1 to {MAX_ABANDON}")
    return raw


class SeatClocks:
    """Each seat's time left (live) and since when it waits (None: not to move, or its
    clock does not run: before the first action, or while a stand-in plays it)."""

    def __init__(self, spec: ClockSpec, players: int) -> None:
        self.spec = spec
        self.left = [spec.initial] * players
        self.since: list[datetime | None] = [None] * players

    # ---- storage ----------------------------------------------------------------------
    def to_json(self) -> JsonDict:
        return {
            "left": list(self.left),
            "since": [moment.isoformat() if moment else None for moment in self.since],
        }

    @classmethod
    def from_json(cls, spec: ClockSpec, players: int, raw: Any) -> SeatClocks:
        clocks = cls(spec, players)
        if isinstance(raw, dict):
            left, since = raw.get("left"), raw.get("since")
            if isinstance(left, list) and len(left) == players:
                clocks.left = [float(value) for value in left]
            if isinstance(since, list) and len(since) == players:
                clocks.since = [_moment(value) for value in since]
        return clocks

    # ---- moving on ----------------------------------------------------------------------
    def moved(
        self, player: int, at: datetime, to_move: Collection[int], stand_ins: Collection[int]
    ) -> None:
        """``player`` acted at ``at``; ``to_move`` are the seats to move after it."""
        since = self.since[player]
        if since is not None and self.spec.kind == "live":
            self.left[player] -= max(0.0, (at - since).total_seconds())
            if player not in to_move:
                self.left[player] += self.spec.increment
        for seat in range(len(self.since)):
            if seat not in to_move or seat in stand_ins:
                self.since[seat] = None
            elif seat == player or self.since[seat] is None:
                self.since[seat] = at

    def stand_in(self, player: int, at: datetime) -> None:
        """A stand-in bot plays the seat from ``at``: its clock stops."""
        self._charge(player, at)
        self.since[player] = None

    def taken_back(self, player: int, at: datetime, to_move: Collection[int]) -> None:
        """The person plays again: a live bank holds at least a tenth of the initial time
        (a seat taken back after running out would lose it again at once)."""
        if self.spec.kind == "live":
            self.left[player] = max(self.left[player], self.spec.initial * TAKE_BACK_SHARE)
        self.since[player] = at if player in to_move else None

    def _charge(self, player: int, at: datetime) -> None:
        since = self.since[player]
        if since is not None and self.spec.kind == "live":
            self.left[player] = max(0.0, self.left[player] - (at - since).total_seconds())

    # ---- reading ------------------------------------------------------------------------
    def deadline(self, player: int) -> datetime | None:
        """When the seat runs out of time, if its clock runs."""
        since = self.since[player]
        if since is None:
            return None
        allowed = self.left[player] if self.spec.kind == "live" else self.spec.per_move
        return since + timedelta(seconds=max(0.0, allowed))

    def earliest(self) -> tuple[datetime, int] | None:
        """The next deadline and its seat, if a clock runs."""
        found = [(d, seat) for seat in range(len(self.since)) if (d := self.deadline(seat))]
        return min(found) if found else None

    def payload(self) -> JsonDict:
        """What every viewer sees: the clock; each seat's time (a live bank as of when its
        clock last started or stopped; a turn-based table's time a move); the deadline of
        each seat whose clock runs (a page counts down to it), and the earliest."""
        seats = range(len(self.since))
        deadlines = [self.deadline(seat) for seat in seats]
        running = [d for d in deadlines if d is not None]
        live = self.spec.kind == "live"
        return {
            **self.spec.to_json(),
            "left": [round(self.left[seat] if live else self.spec.per_move, 3) for seat in seats],
            "deadlines": [iso_utc(d) if d else None for d in deadlines],
            "deadline": iso_utc(min(running)) if running else None,
        }


def iso_utc(moment: datetime) -> str:
    """ISO 8601 in UTC with a Z (naive moments, as SQLite gives them back, are UTC)."""
    if moment.tzinfo is not UTC:  # (every action's moment is: it skips the conversion)
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return moment.isoformat().replace("+00:00", "Z")


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
