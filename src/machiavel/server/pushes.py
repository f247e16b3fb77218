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
the caller, as that protocol's own ``send`` writes a text message, when the socket can
take it: nothing queued before it, flow control not holding the socket back, the socket
neither closing nor closed. Anything else goes through the connection's queue and its
sender task as before, so pushes reach each socket in the order they were made, and a
lagging client still gets one complete state rather than an endless backlog.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from websockets.exceptions import InvalidState

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - another ASGI server: pushes take the ASGI path
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]
WriteNow = Callable[[str], bool]  # writes a text at once and says so, or leaves it

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

    def write_now(text: str) -> bool:
        if not _open_for_writing(protocol):
            return False
        try:  # the protocol's framing: compression too, when the client asked for it
            protocol.conn.send_text(text.encode())
        except InvalidState:  # closing: its send would raise, the sender task says so
            return False
        protocol.transport.write(b"".join(protocol.conn.data_to_send()))
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
