"""A game held in memory: its record, its state, its log in words and its watchers.

Everything a seat receives is built here, from ``state.view(seat)``,
``state.legal_actions(seat)`` and log lines that ``state.describe`` wrote for that seat,
so that no payload carries what its seat may not see.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from mypy_extensions import mypyc_attr

from machiavel.core.contract import LANGUAGES, Game, JsonDict, Setup, State
from machiavel.core.errors import CorruptState, IllegalAction, InvalidSetup
from machiavel.core.narration import Told, describe_all, narrate
from machiavel.server.chat import ChatMessage, RecentChat, readable
from machiavel.server.clocks import ClockSpec, SeatClocks, iso_utc
from machiavel.server.jsontext import dump_bytes, loads
from machiavel.server.storage import GameRecord, SeatRecord

logger = logging.getLogger("machiavel.server")

Viewer = int | None  # a player number, or None for a spectator
MAX_QUEUED_PUSHES = 64
# The payload key of the log in each language: "log" (English), "log_fr"...
LOG_KEYS = tuple("log" if i == 0 else f"log_{lang}" for i, lang in enumerate(LANGUAGES))


def new_token() -> str:
    """256 random bits in URL-safe text (43 characters), never starting with "-": a
    command line reads such a text as an option (``--token -Xy...`` fails), and one
    token in 64 did. Game ids are the first 12 characters of one."""
    while (token := secrets.token_urlsafe(32)).startswith("-"):
        pass  # drawn again: the first character is one of 63 rather than 64
    return token


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_of_token(seats: Sequence[SeatRecord], token: str) -> int | None:
    """The seat a token opens, or None; compared with every seat (no early exit to time)."""
    digest = hash_token(token)
    found = None
    for seat in seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
            found = seat.player
    return found


LogLines = Told  # one action's log entry and marks (core/narration.py)


def describe_for_all(state: State, player: int, action: str) -> Told:
    """How the action about to be played reads for each viewer, in each language (a
    neutral line if the engine cannot say it), without playing it."""
    return Told.of(describe_all(state, player, action))


# The cluster's RemoteConnection (remote.py, interpreted) extends it.
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(eq=False)
class Connection:
    """One WebSocket watching a game, with the queue of texts its sender task writes out
    (JSON texts in UTF-8, as they go out: ``jsontext.dump_bytes``)."""

    viewer: Viewer
    queue: asyncio.Queue[bytes | None] = field(
        default_factory=lambda: asyncio.Queue(MAX_QUEUED_PUSHES)
    )
    log_sent: int = 0  # log lines this client holds once its queue is written out
    closing: tuple[int, str] | None = None  # code and reason once it must be closed
    account: int | None = None  # the account whose cookie opened its seat (else a token)
    # Writes a text on the socket at once when it can (pushes.py), else None; the sender
    # task marks the text it is writing with ``sending``, so nothing overtakes it.
    write_now: Callable[[bytes], bool] | None = None
    sending: bool = False

    def push(self, text: bytes | None) -> None:
        if text is not None and self._written_now(text):
            return
        if self.queue.full():  # never block the game on a client; replies may be dropped
            self.queue.get_nowait()
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        self.closing = (code, reason)
        self.push(None)

    def _written_now(self, text: bytes) -> bool:
        """Whether ``text`` went out at once: only after every text queued before it."""
        write_now = self.write_now
        return (
            write_now is not None
            and not self.sending
            and self.queue.empty()
            and self.closing is None
            and write_now(text)
        )


class LiveGame:
    """A loaded game. Mutated only with ``lock`` held."""

    def __init__(self, record: GameRecord, state: State, log: list[LogLines]) -> None:
        self.record = record
        self.state = state
        self.log = log
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.dead = False  # dropped from memory (failed write, eviction): load it again
        self.chat = RecentChat()  # the latest chat messages (set when loaded)
        # Since when the seats in to_move wait: the last action's time (stored games:
        # their updated_at, which the action's write set).
        self.turn_since = record.updated_at
        self.clocks = clocks_of(record)
        self.timer: asyncio.TimerHandle | None = None  # fires at the next deadline
        self._texts: dict[tuple[Viewer, int], bytes] = {}
        # What every viewer gets alike, written once a version: the payload's shared
        # part and the view's public part.
        self._alike: tuple[bytes, bytes] | None = None

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def turn_since(self) -> datetime:
        """Since when the seats in ``to_move`` wait."""
        return self._turn_since

    @turn_since.setter
    def turn_since(self, moment: datetime) -> None:
        self._turn_since = moment
        self.turn_since_text = iso_utc(moment)  # as payloads give it, written once

    # ---- seats ----------------------------------------------------------------------
    def player_of(self, token: str) -> int | None:
        """The seat a token opens, or None."""
        return seat_of_token(self.record.seats, token)

    def bot_level(self, player: int) -> str | None:
        """The level of the bot playing this seat: its own, or the stand-in's."""
        seat = self.record.seats[player]
        if seat.kind == "bot":
            return seat.level
        return self.record.stand_in_level if seat.stand_in else None

    def stand_ins(self) -> set[int]:
        return {seat.player for seat in self.record.seats if seat.stand_in}

    # ---- the end --------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Over by its rules, or otherwise (a resignation, an abandoned table)."""
        return self.state.is_over or self.record.outcome is not None

    @property
    def winners(self) -> list[int]:
        outcome = self.record.outcome
        if outcome is not None:
            return [int(p) for p in outcome.get("winners", [])]
        return list(self.state.winners)

    def to_move(self) -> list[int]:
        return [] if self.is_over else list(self.state.to_move)

    # ---- playing --------------------------------------------------------------------
    def play(self, player: int, action: str) -> str:
        """Apply an action and log it (``IllegalAction`` if refused); its canonical spelling."""
        state = self.state
        self.log.append(narrate(state, player, action))
        self.changed()
        return state.history[-1][1]

    def changed(self) -> None:
        self._texts.clear()
        self._alike = None

    # ---- what a viewer receives -----------------------------------------------------
    def payload(self, viewer: Viewer, log_from: int = 0) -> JsonDict:
        """The state as ``viewer`` sees it, with the log lines from number ``log_from`` on."""
        data: JsonDict = loads(self.payload_json(viewer, log_from))
        return data

    def payload_json(self, viewer: Viewer, log_from: int = 0) -> bytes:
        """``payload`` as JSON text in UTF-8, built once per viewer, log start and change.

        What every viewer gets alike is written once per change: the payload's shared
        part, and the view's public part (``State.public_view``, most of a Tyrus view).
        Each viewer's own part of the view, then of the payload with its log lines, are
        written after them, and the texts joined as one object each. Only texts are kept
        between calls: a text is one object to the garbage collector, a view is hundreds."""
        start = self._log_start(log_from)
        key = (viewer, start)
        text = self._texts.get(key)
        if text is None:
            own = viewer_payload(self, viewer)
            own["log_start"] = start
            for language, name in enumerate(LOG_KEYS):
                own[name] = self._log_lines(viewer, start, language)
            own["marks"] = [entry.marks for entry in self.log[start:]]
            if start == 0:  # a whole state carries the chat; later ones come as pushes
                own["chat"] = self.chat_json(viewer)
            if self._alike is None:  # written once for all the viewers of this version
                self._alike = (
                    dump_bytes(shared_payload(self)),
                    dump_bytes(self.state.public_view()),
                )
            shared, public_view = self._alike
            # Every part is a non-empty object: "{...}" joined as "{...,...}", uncopied.
            text = b"".join(
                (
                    memoryview(shared)[:-1],
                    b',"view":',
                    memoryview(public_view)[:-1],
                    b",",
                    memoryview(dump_bytes(self.state.private_view(viewer)))[1:],
                    b",",
                    memoryview(dump_bytes(own))[1:],
                )
            )
            self._texts[key] = text
        return text

    def _log_start(self, log_from: int) -> int:
        return log_from if 0 <= log_from <= len(self.log) else 0

    def _log_lines(self, viewer: Viewer, start: int, language: int = 0) -> list[str]:
        """Lines ``start`` on as ``viewer`` reads them in ``LANGUAGES[language]``."""
        players = self.state.players
        return [entry.for_viewer(viewer, players, language) for entry in self.log[start:]]

    # ---- chat -----------------------------------------------------------------------
    def chat_json(self, viewer: Viewer) -> list[JsonDict]:
        """The latest chat messages ``viewer`` may read, oldest first."""
        channels = readable(viewer, self.is_over)
        return [message.to_json() for message in self.chat.visible(channels)]

    def add_chat(self, message: ChatMessage) -> None:
        """Keep a stored message and push it to every connection that may read it (a
        lagging one gets one complete state instead, which holds it)."""
        self.chat.add(message)
        self._texts.clear()  # whole states carry the chat
        text = dump_bytes({"chat": message.to_json()})
        for connection in list(self.connections):
            if message.channel not in readable(connection.viewer, self.is_over):
                continue
            if connection.queue.full():
                self.send(connection)
            else:
                connection.push(text)

    def push_all(self, text: bytes) -> None:
        """Queue one text for every connection (a lagging one gets a complete state)."""
        for connection in list(self.connections):
            if connection.queue.full():
                self.send(connection)
            else:
                connection.push(text)

    # ---- pushes ---------------------------------------------------------------------
    def send(self, connection: Connection, log_from: int | None = None) -> None:
        """Queue the current state for one connection: the log lines it lacks, or all of
        them if its queue overflowed (a lagging client then gets one complete state)."""
        start = connection.log_sent if log_from is None else log_from
        if connection.queue.full():
            while not connection.queue.empty():
                connection.queue.get_nowait()
            start = 0
        connection.push(self.payload_json(connection.viewer, start))
        connection.log_sent = len(self.log)

    def publish(self) -> None:
        """Queue the current state for every connection, each its own viewer's."""
        for connection in list(self.connections):
            self.send(connection)


# A payload is the response shape of issue 7 plus ``id``, ``game``, ``player``, ``seats``:
# the part every viewer gets alike (``id`` first), then the viewer's own; ``payload_json``
# adds the log lines (``log_start``, then ``log`` in English and ``log_fr`` in French:
# one key per language of ``LOG_KEYS``).
def viewer_payload(live: LiveGame, viewer: Viewer) -> JsonDict:
    """What of the payload is the viewer's own, besides their view: their actions and seat
    (``payload_json`` joins the view's two parts to it)."""
    state = live.state
    over = live.is_over
    return {
        "legal_actions": state.legal_actions(viewer) if viewer is not None and not over else [],
        "player": viewer,
    }


def shared_payload(live: LiveGame) -> JsonDict:
    """What of the payload every viewer gets alike (written once per version)."""
    state = live.state
    over = live.is_over
    return {
        "id": live.id,
        "game": live.record.game,
        "version": state.version,
        "to_move": live.to_move(),
        "is_over": over,
        "winners": live.winners,
        "seats": live.record.public_seats,
        "rated": live.record.rated,
        "rematch": live.record.rematch,
        "pace": live.record.pace,
        "seed_chosen": live.record.seed_chosen,
        "turn_since": None if over else live.turn_since_text,
        "clocks": live.clocks.payload() if live.clocks else None,
        "outcome": live.record.outcome,
        "ending": _ending(state) if state.is_over else None,
        "stand_in_level": live.record.stand_in_level,
    }


def _ending(state: State) -> dict[str, str | None]:
    """Why the game ended, in each language (``State.ending``)."""
    return {language: state.ending(language) for language in LANGUAGES}


def clocks_of(record: GameRecord) -> SeatClocks | None:
    """The clocks of a stored table, as its last write left them (None: no clock)."""
    if record.clock is None:
        return None
    spec = ClockSpec.read(record.clock)
    return SeatClocks.from_json(spec, record.players, record.clock_state)


def rebuild(spec: Game, record: GameRecord, actions: Sequence[tuple[int, str]]) -> LiveGame:
    """Replay a stored game from its setup, writing the log as it goes."""
    setup = Setup(record.game, record.players, record.seed, record.options)
    try:
        state = spec.state_from_setup(setup)
    except InvalidSetup as error:
        raise CorruptState(f"game {record.id}: the stored setup is invalid: {error}") from error
    log: list[LogLines] = []
    for number, (player, action) in enumerate(actions, start=1):
        try:
            log.append(narrate(state, player, action))
        except IllegalAction as error:
            raise CorruptState(
                f"game {record.id}: stored action #{number} ({action!r} by player {player}) "
                f"is illegal: {error}"
            ) from error
    return LiveGame(record, state, log)
