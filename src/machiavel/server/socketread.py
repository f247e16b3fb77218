"""Messages a WebSocket client sends, read without websockets' parser when they can be
(issue 18; ``pushes.py`` writes the other way by hand).

Uvicorn's websockets-sansio protocol feeds every chunk read from a socket to websockets'
``ServerProtocol``, whose parser (generators reading the frame's head, its mask, its
payload) took about 4 us a message. ``QuickReadProtocol`` reads a chunk itself when it is
one or more whole, final, masked text frames (``pushes.client_texts``), as small messages
of a client that did not ask for compression arrive, and hands each message to the
application as Uvicorn does: a ``websocket.receive`` message in the queue, reading paused
until the application takes it. Any other chunk goes to websockets' parser: a ping, a
pong, a close, a fragment, bad UTF-8, a message over the size limit, and every message of
a socket with permessage-deflate (browsers ask for it: their messages keep the parser). The parser must then be between two frames, so a
chunk is only ever read by hand when every chunk given to the parser since the handshake
was itself whole frames; after a part of a frame went to it, the socket's chunks all go
to it.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from machiavel.server.pushes import client_texts

# What of websockets' ServerProtocol the hand reading checks: internals, so checked once.
_CONNECTION_PARTS = (
    "state",
    "current_size",
    "extensions",
    "reader",
    "max_message_size",
    "max_fragment_size",
)
# What of Uvicorn's protocol it sets, as its own handling of a text message does.
_PROTOCOL_PARTS = ("queue", "close_sent", "read_paused", "transport")


class QuickReadProtocol(WebSocketsSansIOProtocol):
    """Uvicorn's websockets-sansio protocol, reading whole plain text frames by hand."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Whether the parser may hold part of a frame: then it reads every later chunk.
        self.parser_mid_frame = not knows_protocol(self)

    def data_received(self, data: bytes) -> None:
        conn = self.conn
        if conn.state is not State.OPEN:  # the handshake, or closing: the parser's
            super().data_received(data)
            return
        # A fragment under way, compression, or bytes the handshake's chunk left the
        # parser: not a place to start reading frames by hand.
        if (
            self.parser_mid_frame
            or conn.current_size is not None
            or conn.extensions
            or conn.reader.buffer
        ):
            self._parse(data, whole=False)
            return
        whole, texts = client_texts(data, size_limit(conn))
        try:
            messages = [text.decode() for text in texts]
        except UnicodeDecodeError:  # the parser closes the socket with 1007
            messages = []
        if not messages:
            self._parse(data, whole)
            return
        for message in messages:
            if self.close_sent:  # as Uvicorn: past the application's close, dropped
                return
            self.queue.put_nowait({"type": "websocket.receive", "text": message})
        if not self.read_paused:  # as Uvicorn: until the application takes it
            self.read_paused = True
            self.transport.pause_reading()

    def _parse(self, data: bytes, whole: bool) -> None:
        if not whole:
            self.parser_mid_frame = True
        super().data_received(data)


def size_limit(conn: Any) -> int | None:
    """The largest text frame the parser would take as a whole message (its message and
    fragment limits: None, no limit)."""
    limits = [conn.max_message_size, conn.max_fragment_size]
    given = [limit for limit in limits if limit is not None]
    return min(given) if given else None


def knows_protocol(protocol: WebSocketsSansIOProtocol) -> bool:
    """Whether ``protocol`` and its connection have every part the hand reading uses (else
    every chunk goes to websockets' parser: another Uvicorn or websockets than these)."""
    conn = getattr(protocol, "conn", None)
    return (
        all(hasattr(protocol, name) for name in _PROTOCOL_PARTS)
        and all(hasattr(conn, name) for name in _CONNECTION_PARTS)
        and hasattr(getattr(conn, "reader", None), "buffer")
    )
