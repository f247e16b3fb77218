"""``GET /api/health``: whether this process serves, and which one it is.

The proxy in front of a cluster (docs/cluster.md) asks every process for it every two
seconds and sends no request to a process that stops answering 200. A pure ASGI
middleware, outside the app's others: the answer reads nothing (no database, no
session), counts against no limit and costs the proxy's checks next to nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson
from fastapi import FastAPI

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]

HEALTH_PATH = "/api/health"


def health_body(node: str) -> bytes:
    return orjson.dumps({"status": "ok", "node": node})


class HealthAnswer:
    """Answers ``GET`` (and ``HEAD``) ``/api/health`` with 200 and the node's name;
    passes everything else on."""

    def __init__(self, app: Asgi, node: str) -> None:
        self.app = app
        self.body = health_body(node)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != HEALTH_PATH:
            await self.app(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD"):
            await self._answer(send, 405, b'{"detail":"Method Not Allowed"}', scope)
            return
        await self._answer(send, 200, self.body, scope)

    @staticmethod
    async def _answer(send: Send, status: int, body: bytes, scope: Scope) -> None:
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
        ]
        if status == 405:
            headers.append((b"allow", b"GET, HEAD"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body}
        )


def add_health(app: FastAPI, node: str) -> None:
    """Answer ``GET /api/health`` for ``node`` in front of every other middleware of
    ``app`` (call it before the app starts)."""
    app.add_middleware(HealthAnswer, node=node)
