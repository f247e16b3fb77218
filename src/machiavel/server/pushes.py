"""Pushes written straight onto a game's WebSocket (issue 18).

Through the ASGI layers, each push cost a task switch (the socket's sender task woke up
for it) and a call through every layer wrapping ``send``: Starlette's socket, its error
handling, the metrics' and the security headers' wrappers, none of which does anything
to a message once the socket is accepted. Messages the client sends came up the same
layers.

So the outermost layer (``KeepEnds``) keeps the server's own ``receive`` and ``send`` of
each WebSocket in its scope, and a game socket, once accepted, reads and writes its
messages with them. On Uvicorn's websockets-sansio protocol (the one Uvicorn picks when
the websockets package is installed), ``direct_writer`` also writes a push at once, in
the caller, when the socket can take it: nothing queued before it, flow control not
holding the socket back, the socket neither closing nor closed. A push is kept as UTF-8
from its encoding on (``jsontext.dump_bytes``); when the client negotiated no extension
(no compression) its frame is the text with a head of 2 to 10 bytes, written in one
system call, rather than a copy framed by the protocol's own ``send_text``. Anything
else goes through the connection's queue and its sender task as before, so pushes reach
each socket in the order they were made, and a lagging client still gets one complete
state rather than an endless backlog.

The other way, ``client_texts`` reads the messages a client sends when they arrive as
whole, plain text frames (``QuickReadProtocol`` in ``socketread.py`` hands them to the
application as Uvicorn would): websockets' own parser, a chain of generators, took about
4 us a message (issue 18).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from websockets.exceptions import InvalidState
from websockets.protocol import State

try:  # websockets' own C unmasking, as its parser uses it
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - a websockets built without its C extension
    from websockets.utils import apply_mask

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - another ASGI server: pushes take the ASGI path
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]
WriteNow = Callable[[bytes], bool]  # writes a UTF-8 text at once and says so, or leaves it

ENDS_KEY = "machiavel.socket_ends"  # the scope's key for the server's receive and send


class KeepEnds:
    """Pure ASGI, outermost: a WebSocket's scope keeps the server's ``receive`` and
    ``send``, unwrapped by the layers within (``socket_ends``)."""

    def __init__(self, app: Asgi) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[ENDS_KEY] = (receive, send)
        await self.app(scope, receive, send)


def socket_ends(scope: Scope) -> tuple[Receive, Send] | None:
    """The server's own ``receive`` and ``send`` of a WebSocket (None without
    ``KeepEnds``)."""
    ends: tuple[Receive, Send] | None = scope.get(ENDS_KEY)
    return ends


def direct_writer(send: Send) -> WriteNow | None:
    """Writes a text message at once on the socket of ``send`` if it is Uvicorn's
    websockets-sansio protocol (None otherwise): False, writing nothing, whenever that
    protocol's ``send`` would wait or refuse (the caller then queues the text for it)."""
    protocol = getattr(send, "__self__", None)
    if WebSocketsSansIOProtocol is None or not isinstance(protocol, WebSocketsSansIOProtocol):
        return None
    if not all(hasattr(protocol, name) for name in _PROTOCOL_PARTS):
        return None  # another Uvicorn than the one this was written for: the ASGI path
    # Another websockets than this was written for frames every message itself.
    may_head_by_hand = knows_connection(protocol.conn)

    def write_now(text: bytes) -> bool:
        if not _open_for_writing(protocol):
            return False
        conn = protocol.conn
        if may_head_by_hand and _plain(conn):  # one plain text frame: its head, its text
            protocol.transport.writelines((_text_frame_head(len(text)), text))
            return True
        try:  # the protocol's framing: compression, when the client asked for it
            conn.send_text(text)
        except InvalidState:  # closing: its send would raise, the sender task says so
            return False
        protocol.transport.write(b"".join(conn.data_to_send()))
        return True

    return write_now


# What of Uvicorn's protocol ``direct_writer`` reads: internals, so checked before use.
_PROTOCOL_PARTS = (
    "conn",
    "transport",
    "handshake_complete",
    "initial_response",
    "close_sent",
    "disconnected",
    "writable",
)


# What of websockets' ``ServerProtocol`` ``_plain`` reads: internals, so checked first.
_CONNECTION_PARTS = ("state", "extensions", "expect_continuation_frame", "writes")


def knows_connection(conn: Any) -> bool:
    """Whether ``conn`` has every part ``_plain`` reads (once per socket, not per push)."""
    return all(hasattr(conn, name) for name in _CONNECTION_PARTS)


def _plain(conn: Any) -> bool:
    """Whether a text message goes out on ``conn`` (a websockets ``ServerProtocol`` that
    ``knows_connection``) as one frame of RFC 6455 with nothing done to its text, which
    ``_text_frame_head`` then heads: open, no extension negotiated (permessage-deflate),
    no fragmented message under way and nothing of its own waiting to be written."""
    return bool(
        conn.state is State.OPEN
        and not conn.extensions
        and not conn.expect_continuation_frame
        and not conn.writes
    )


def _text_frame_head(length: int) -> bytes:
    """The head of a final, unmasked text frame of ``length`` bytes (RFC 6455, 5.2)."""
    if length < 126:
        return bytes((0x81, length))
    if length < 1 << 16:
        return b"\x81\x7e" + length.to_bytes(2, "big")
    return b"\x81\x7f" + length.to_bytes(8, "big")


def _open_for_writing(protocol: Any) -> bool:
    """Whether the protocol's ``send`` would write a message now, without waiting."""
    return bool(
        protocol.handshake_complete
        and protocol.initial_response is None
        and not protocol.close_sent
        and not protocol.disconnected
        and protocol.writable.is_set()  # flow control: the client reads fast enough
        and not protocol.transport.is_closing()
    )


# ---- messages from the client ------------------------------------------------------------
FIN_TEXT = 0x81  # a final text frame, no extension bit (RFC 6455, 5.2)
MASKED = 0x80


def client_texts(data: bytes, max_size: int | None) -> tuple[bool, list[bytes]]:
    """Whether ``data`` is a run of whole frames of a client (each head, mask and payload
    complete), and then, when every one of them is a final, masked text frame with no
    extension bit and no longer than ``max_size``, their payloads unmasked (still UTF-8
    to check); else no payload. Anything else (a ping, a close, a fragment, a part of a
    frame, an unmasked frame...) is for websockets' parser, which knows every case."""
    texts: list[bytes] = []
    plain = True
    start, end = 0, len(data)
    while start < end:
        if end - start < 2:
            return False, []
        first, second = data[start], data[start + 1]
        length = second & 0x7F
        head = 2
        if length == 126:
            head = 4
            if end - start < head:
                return False, []
            length = int.from_bytes(data[start + 2 : start + 4], "big")
        elif length == 127:
            head = 10
            if end - start < head:
                return False, []
            length = int.from_bytes(data[start + 2 : start + 10], "big")
        masked = bool(second & MASKED)
        payload = start + head + (4 if masked else 0)
        if end - payload < length:
            return False, []
        if first != FIN_TEXT or not masked or (max_size is not None and length > max_size):
            plain = False
        elif plain:
            texts.append(apply_mask(data[payload : payload + length], data[payload - 4 : payload]))
        start = payload + length
    return True, texts if plain else []
