"""Security headers on every HTTP answer: pages, static files, API answers and errors.

A pure ASGI middleware (not Starlette's ``BaseHTTPMiddleware``, which buffers bodies in a
task of its own and does not see WebSockets): it only adds headers to the
``http.response.start`` message, so streaming answers and WebSockets pass through as they
are. ``SecureFastAPI`` puts it outside everything else, Starlette's error middleware
included, so that even an unexpected 500 carries the headers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI

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
    """Add ``security_headers`` to every HTTP answer (a header the app set is kept)."""

    def __init__(self, app: Asgi) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = security_headers(str(scope.get("path", "")))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in added if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class SecureFastAPI(FastAPI):
    """FastAPI whose whole middleware stack, error handling included, is wrapped in
    ``SecurityHeaders`` (``add_middleware`` would put it inside the error middleware)."""

    def build_middleware_stack(self) -> Asgi:
        return SecurityHeaders(super().build_middleware_stack())
