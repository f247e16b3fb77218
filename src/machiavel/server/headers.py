"""Security headers, and the answering process's name, on every HTTP answer: pages,
static files, API answers and errors.

A pure ASGI middleware (not Starlette's ``BaseHTTPMiddleware``, which buffers bodies in a
task of its own and does not see WebSockets): it only adds headers to the
``http.response.start`` message, so streaming answers and WebSockets pass through as they
are. ``SecureFastAPI`` puts it outside everything else, Starlette's error middleware
included, so that even an unexpected 500 carries the headers.

``X-Machiavel-Node`` names the process that answered (docs/cluster.md): behind a proxy
in front of several processes, it says which one to look at. It is also on a WebSocket's
handshake (``websocket.accept``) and on a refused handshake's answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI
from fastapi.telemetry import TelemetryConfig

from machiavel.server.cluster import process_name
from machiavel.server.metrics import Observed
from machiavel.server.pushes import KeepEnds

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]

# The page is ES modules and a style sheet of its own: no inline script or style, no
# other origin. connect-src 'self' covers the page's WebSocket (ws: or wss: of this host).
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
# FastAPI's /docs and /redoc pages load Swagger UI and ReDoc from a CDN (ReDoc its fonts
# from Google Fonts) and start them with an inline script: they alone get a policy that
# allows that (they show no token).
DOCS_CDN = "https://cdn.jsdelivr.net"
DOCS_POLICY = (
    f"default-src 'self'; script-src 'self' 'unsafe-inline' {DOCS_CDN}; "
    f"style-src 'self' 'unsafe-inline' {DOCS_CDN} https://fonts.googleapis.com; "
    "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https:; "
    "connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
NODE_HEADER = b"x-machiavel-node"
# What a WebSocket's handler sends that a client reads headers from: the handshake's
# acceptance, or the HTTP answer that refuses it.
HANDSHAKE_ANSWERS = frozenset({"websocket.accept", "websocket.http.response.start"})
HTTP_ANSWERS = frozenset({"http.response.start"})

COMMON_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    # Seat tokens travel in page addresses (?token=...): no Referer may carry them away.
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers added to an answer for ``path``."""
    policy = DOCS_POLICY if path in DOCS_PATHS else PAGE_POLICY
    return [(b"content-security-policy", policy.encode()), *COMMON_HEADERS]


class SecurityHeaders:
    """Add ``security_headers`` to every HTTP answer (a header the app set is kept), and
    ``X-Machiavel-Node: node`` to every answer and WebSocket handshake."""

    def __init__(self, app: Asgi, node: str) -> None:
        self.app = app
        self.node = (NODE_HEADER, node.encode("latin-1", "replace"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            added = [*security_headers(str(scope.get("path", ""))), self.node]
            await self.app(scope, receive, _adding(send, added, HTTP_ANSWERS))
        elif scope["type"] == "websocket":
            await self.app(scope, receive, _adding(send, [self.node], HANDSHAKE_ANSWERS))
        else:
            await self.app(scope, receive, send)


def _adding(send: Send, added: list[tuple[bytes, bytes]], kinds: frozenset[str]) -> Send:
    """``send`` adding ``added`` to the headers of the messages of ``kinds`` (those the app
    set itself are kept)."""

    async def send_with_headers(message: Message) -> None:
        if message["type"] in kinds:
            headers = list(message.get("headers") or [])
            present = {name.lower() for name, _ in headers}
            headers += [(name, value) for name, value in added if name not in present]
            message = {**message, "headers": headers}
        await send(message)

    return send_with_headers


# FastAPI's own OpenTelemetry, off: the server's figures are Prometheus's (/metrics,
# metrics.py), and with it on FastAPI asked OpenTelemetry's global providers at every
# request and socket whether one was configured (a few µs each, issue 18).
NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}


class SecureFastAPI(FastAPI):
    """FastAPI whose whole middleware stack, error handling included, is wrapped in
    ``SecurityHeaders`` (``add_middleware`` would put it inside the error middleware),
    and within it ``metrics.Observed``; outside it all, ``pushes.KeepEnds`` keeps each
    WebSocket's own ends for its messages. ``node``: the name in ``X-Machiavel-Node``
    (default ``cluster.process_name()``, taken when the first request comes, so in the
    process that serves)."""

    def __init__(self, *, node: str | None = None, **options: Any) -> None:
        self.node = node
        options.setdefault("telemetry", NO_TELEMETRY)
        super().__init__(**options)

    def build_middleware_stack(self) -> Asgi:
        stack = Observed(super().build_middleware_stack())
        return KeepEnds(SecurityHeaders(stack, self.node or process_name()))
