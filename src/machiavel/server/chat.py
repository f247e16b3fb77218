"""The chat of a table: what a message may hold, who reads which channel, how often one
may write, and the recent messages a loaded game keeps in memory (docs/server.md, "Chat").

Two channels per game: ``players`` (written by the seated players, read by everyone) and
``spectators`` (written by spectators; read by spectators while the game goes on, by
everyone once it is over: as on Lichess, kibitzers cannot whisper hints to the players).
Text is text: it is stored and sent exactly as cleaned here, never interpreted or
escaped by the server; clients put it in text nodes.
"""

from __future__ import annotations

import math
import time
import unicodedata
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

PLAYERS = "players"
SPECTATORS = "spectators"
CHANNELS = (PLAYERS, SPECTATORS)  # those people write in
# What the server says at the table (a clock ran out, a person left or came back, the
# table was abandoned): read by everyone, written by nobody else.
TABLE = "table"
TABLE_NAME = "machiavel"
MAX_TEXT = 500  # characters (Unicode code points) of a message, after trimming
RECENT = 100  # messages a game's payload carries (those the viewer may read)
MAX_PAGE = 100  # messages a page of GET /api/games/{id}/chat holds at most
SPECTATOR_NAME = "spectator"  # the author of a spectator's message without an account
# Characters that reorder the text around them (bidirectional embeddings, overrides and
# isolates): refused, so a message cannot make itself or its neighbours read backwards.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class ChatRefused(Exception):  # noqa: N818 - it names a situation
    """A message that cannot be written: an HTTP status and a sentence."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def clean_text(text: object) -> str:
    """A message as it is stored: line ends made ``\\n``, tabs made spaces, trimmed; 1 to
    ``MAX_TEXT`` characters. Other control characters (and bidirectional overrides, lone
    surrogates) are refused rather than stripped: the writer is told, nothing is changed
    silently."""
    if not isinstance(text, str):
        raise ChatRefused(400, "a chat message is a string")
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ").strip()
    if not text:
        raise ChatRefused(400, "a chat message cannot be empty")
    if len(text) > MAX_TEXT:
        raise ChatRefused(
            400, f"a chat message has at most {MAX_TEXT} characters (this one has {len(text)})"
        )
    for char in text:
        if char == "\n":
            continue
        if char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs"):
            raise ChatRefused(
                400,
                f"a chat message cannot contain the control character U+{ord(char):04X} "
                "(line breaks are fine)",
            )
    return text


def readable(viewer: int | None, is_over: bool) -> tuple[str, ...]:
    """The channels a viewer (a seat, or None for a spectator) reads."""
    if viewer is None or is_over:
        return (*CHANNELS, TABLE)
    return (PLAYERS, TABLE)


def channel_to_write(viewer: int | None, requested: object) -> str:
    """The channel a viewer writes in: players in ``players``, spectators in
    ``spectators`` (each may name its own channel; another is refused, 403)."""
    if requested is not None and requested not in CHANNELS:
        raise ChatRefused(400, f"channel must be {PLAYERS!r} or {SPECTATORS!r}")
    own = SPECTATORS if viewer is None else PLAYERS
    if requested is not None and requested != own:
        if viewer is None:
            raise ChatRefused(403, "spectators write only in the spectators' channel")
        raise ChatRefused(403, "players write in the players' channel")
    return own


@dataclass(frozen=True)
class ChatMessage:
    """A stored message: ``number`` (1, 2, ... per game, both channels), the seat that
    wrote it (None: a spectator), the author's name, the game's version when written."""

    number: int
    channel: str
    player: int | None
    name: str
    text: str
    at: datetime
    version: int

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "channel": self.channel,
            "player": self.player,
            "name": self.name,
            "text": self.text,
            "at": self.at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
            "version": self.version,
        }


class RecentChat:
    """The latest ``RECENT`` messages of each channel of a loaded game, and the number the
    next message takes."""

    def __init__(self, messages: Iterable[ChatMessage] = (), last_number: int = 0) -> None:
        self.channels: dict[str, deque[ChatMessage]] = {
            c: deque(maxlen=RECENT) for c in (*CHANNELS, TABLE)
        }
        self.last_number = last_number
        for message in sorted(messages, key=lambda m: m.number):
            self.add(message)

    def add(self, message: ChatMessage) -> None:
        self.channels[message.channel].append(message)
        self.last_number = max(self.last_number, message.number)

    def visible(self, channels: Iterable[str]) -> list[ChatMessage]:
        """The latest ``RECENT`` messages of these channels, oldest first."""
        merged = sorted((m for c in channels for m in self.channels[c]), key=lambda m: m.number)
        return merged[-RECENT:]


class ChatLimits:
    """At most ``burst`` messages in any ``burst_seconds`` and ``sustained`` in any
    ``sustained_minutes`` per writer (a seat of a game, or a spectator: its account, else
    its connection or address). Moving windows in memory (``limits``), as sign-ins."""

    def __init__(
        self,
        burst: int = 5,
        burst_seconds: int = 10,
        sustained: int = 30,
        sustained_minutes: int = 10,
    ) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.items = (
            (RateLimitItemPerSecond(burst, burst_seconds, namespace="chat"), "seconds"),
            (RateLimitItemPerMinute(sustained, sustained_minutes, namespace="chat"), "minutes"),
        )

    def hit(self, writer: str) -> None:
        """Count a message of ``writer``, or refuse it (429) if a limit is reached."""
        for item, unit in self.items:
            if not self.limiter.test(item, writer):
                reset = self.limiter.get_window_stats(item, writer).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise ChatRefused(
                    429,
                    f"too many chat messages ({item.amount} in {item.multiples} {unit}): "
                    f"wait {wait} second{'s' if wait > 1 else ''}",
                )
        for item, _ in self.items:
            self.limiter.hit(item, writer)
