"""Uvicorn's side of the connection settings (``machiavel.serving``): its options, room
for the connections in the open-file limit, and a header timeout.

Uvicorn (0.54) bounds concurrent connections (``limit_concurrency``: 503 beyond it) and
idle keep-alive connections, but not the time to send a request's headers: a connection
that sends part of a request line and then nothing stays open for good, so enough of them
use up the server's files or its connection limit. ``HeaderTimeoutProtocol`` closes them.
"""

from __future__ import annotations

import asyncio
import resource
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from machiavel.server.socketread import QuickReadProtocol
from machiavel.serving import HEADER_TIMEOUT, ConnectionSettings, trusted_proxies

# Files the server needs besides its connections: the database, bot workers' pipes, logs.
SPARE_FILES = 200


def uvicorn_options(settings: ConnectionSettings) -> dict[str, Any]:
    """Keyword arguments of ``uvicorn.run`` / ``uvicorn.Config`` for these settings."""
    trusted = trusted_proxies(settings.forwarded_allow_ips)
    return {
        "limit_concurrency": settings.max_connections,
        "timeout_keep_alive": settings.keep_alive_timeout,
        "http": header_timeout_protocol(settings.header_timeout),
        "ws": QuickReadProtocol,  # Uvicorn's websockets-sansio, reading plain messages faster
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or None,
    }


def make_room_for(connections: int) -> int:
    """Raise this process's open-file limit so that ``connections`` fit (up to the hard
    limit, which only root can raise); the number of connections that fit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        soft = raised
    if soft == resource.RLIM_INFINITY:
        return connections
    return max(1, min(connections, soft - SPARE_FILES))


# Before a connection's first byte: longer than browsers keep an unused preconnected
# socket (Chromium: 10 s), so that the server never closes one as the browser starts to
# use it (a POST sent on it then fails instead of being retried).
FIRST_BYTE_TIMEOUT = 30.0


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """Uvicorn's HTTP/1.1 protocol, closing a connection whose request headers are not all
    there ``header_timeout`` seconds after the request's first byte, or that sent nothing
    ``FIRST_BYTE_TIMEOUT`` seconds after it opened (whichever is longer)."""

    header_timeout = HEADER_TIMEOUT
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_timer(max(FIRST_BYTE_TIMEOUT, self.header_timeout))

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._stop_header_timer()  # the request began: its headers have header_timeout
        self._start_header_timer(self.header_timeout)

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _start_header_timer(self, seconds: float) -> None:
        self._header_timer = self.loop.call_later(seconds, self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def header_timeout_protocol(seconds: float) -> type[HeaderTimeoutProtocol]:
    """The protocol class for ``uvicorn.run(http=...)`` with this header timeout."""
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": seconds})
