"""Limits that keep one client from taking the server for itself (docs/server.md, "Limits").

Per account and per client address: how many tables one may have open (a person's seat
still free), running with bots, and with strong bots (``hard``/``expert``, which think for
seconds on a process of their own) at once; how many requests that change something
(POST, PUT, PATCH, DELETE) one may send a second and a minute. Past a limit the answer is
429 with a sentence naming the limit and when to try again.

Table counts come from storage (they are the tables themselves, and a restart must not
forget them); request rates are moving windows in memory (``limits``), as sign-ins and chat.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from machiavel.server.storage import GameRecord

STRONG_LEVELS = ("hard", "expert")


class LimitReached(Exception):  # noqa: N818 - it names a situation
    """A limit is reached: the sentence says which, and when to try again."""


@dataclass(frozen=True)
class TableLimits:
    """The limits, per account and per client address (None: no limit)."""

    open_tables: int | None = 20
    bot_tables: int | None = 10
    strong_bot_tables: int | None = 3
    writes_per_second: int | None = 20
    writes_per_minute: int | None = 600

    @classmethod
    def off(cls) -> TableLimits:
        """No limit at all: for a private server under load tests."""
        return cls(None, None, None, None, None)


def address_key(secret: str, address: str) -> str:
    """What is stored of a client address: an HMAC under the server's secret (the address
    itself is not kept, and a hash without a key is reversed by trying every IPv4)."""
    return hmac.new(secret.encode(), address.encode(), hashlib.sha256).hexdigest()


def check_tables(
    limits: TableLimits, tables: Sequence[GameRecord], new: GameRecord, who: str
) -> None:
    """Refuse ``new`` if ``who`` (``your account`` or ``your address``), with its
    unfinished ``tables``, would go past a table limit."""
    counts = (
        (limits.open_tables, is_open_table, "open tables (with a person's seat free)"),
        (limits.bot_tables, has_bots, "tables with bots going on"),
        (limits.strong_bot_tables, has_strong_bots, "tables with hard or expert bots going on"),
    )
    for limit, counted, what in counts:
        if limit is None or not counted(new):
            continue
        held = sum(1 for table in tables if counted(table))
        if held >= limit:
            raise LimitReached(
                f"{who} has {held} {what}, the most one may have at once ({limit}): "
                "try again once one of them is full or over"
            )


def is_open_table(record: GameRecord) -> bool:
    return any(s.kind == "human" and not s.claimed for s in record.seats)


def has_bots(record: GameRecord) -> bool:
    return any(s.kind == "bot" for s in record.seats)


def has_strong_bots(record: GameRecord) -> bool:
    return any(s.kind == "bot" and s.level in STRONG_LEVELS for s in record.seats)


class WriteRate:
    """Requests that change something, per key (an account or an address), in moving
    windows of a second and a minute."""

    def __init__(self, limits: TableLimits) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.items = [
            (RateLimitItemPerSecond(amount, namespace="writes"), "a second")
            for amount in [limits.writes_per_second]
            if amount is not None
        ] + [
            (RateLimitItemPerMinute(amount, namespace="writes"), "a minute")
            for amount in [limits.writes_per_minute]
            if amount is not None
        ]

    def hit(self, key: str) -> None:
        """Count one request of ``key``, or raise ``LimitReached`` (it is not counted)."""
        for item, per in self.items:
            if not self.limiter.test(item, key):
                reset = self.limiter.get_window_stats(item, key).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise LimitReached(
                    f"too many requests that change something ({item.amount} {per}): "
                    f"wait {wait} second{'s' if wait > 1 else ''}"
                )
        for item, _ in self.items:
            self.limiter.hit(item, key)
