"""In a cluster, a game's HTTP requests reach the process that owns it (docs/cluster.md).

The proxy sends a game's requests to one process by a hash of its id, so they usually
land on its owner. When they do not (a process just joined or left, a game taken over),
``ClusterRouter`` passes the request on to the owner over HTTP, on its cluster address,
and hands its answer back as it came. The owner knows the request was passed on by a
member (``X-Machiavel-Cluster``, the members' shared secret) and never passes it on again:
if it lost the game meanwhile it answers 503 and the client tries again.

When the owner does not answer at all (it died), the request waits for its lease to run
out, then this process takes the game over and answers itself: an action is never lost
nor applied twice (a retried action with the same version is recognised as done).
"""

from __future__ import annotations

import hmac
import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

import httpx2
from redis.exceptions import RedisError

from machiavel.server import metrics
from machiavel.server.cluster import REDIS_AWAY, Owner, OwnerUnreachable

if TYPE_CHECKING:
    from machiavel.server.service import GameService

logger = logging.getLogger("machiavel.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]

CLUSTER_HEADER = b"x-machiavel-cluster"
# The game of a request: /api/games/ID and everything under it (not the lobby itself).
GAME_PATH = re.compile(r"^/api/games/([^/]+)(?:/.*)?$")
# Headers that belong to one connection, not to the request (RFC 9110, 7.6.1), and
# those the client library writes itself.
_HOP_BY_HOP = {
    b"connection",
    b"keep-alive",
    b"proxy-connection",
    b"te",
    b"trailer",
    b"transfer-encoding",
    b"upgrade",
    b"content-length",
    b"accept-encoding",  # answers come back as they are, never compressed twice
    CLUSTER_HEADER,
}
# Answer headers that this process's server writes itself.
_WRITTEN_HERE = {"content-encoding", "date", "server"}
FORWARD_TIMEOUT = 30.0  # seconds; a bot's move never holds a request, a store may


class ClusterRouter:
    """Pass a game's requests on to its owner (pure ASGI, around the app's routes)."""

    def __init__(self, app: Asgi, service: GameService, max_body: int) -> None:
        self.app = app
        self.service = service
        self.max_body = max_body
        self.client = httpx2.AsyncClient(timeout=FORWARD_TIMEOUT)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = GAME_PATH.match(str(scope.get("path", ""))) if scope["type"] == "http" else None
        cluster = self.service.cluster
        if match is None or cluster is None:
            await self.app(scope, receive, send)
            return
        game_id = match.group(1)
        if self._from_a_member(scope):
            await self._serve_here(scope, receive, send, game_id)
            return
        try:
            owner = await self.service.route(game_id)
        except OwnerUnreachable as error:
            await _answer(send, 503, str(error), retry=True)
            return
        except RedisError as error:
            logger.warning("game %s: Redis did not answer: %s", game_id, error)
            await _answer(send, 503, REDIS_AWAY, retry=True)
            return
        if owner is None:
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive, self.max_body)
        if body is None:
            await _answer(send, 413, f"the body is over {self.max_body} bytes")
            return
        await self._forward(scope, send, game_id, owner, body)

    def _from_a_member(self, scope: Scope) -> bool:
        given = dict(scope.get("headers") or []).get(CLUSTER_HEADER)
        secret = self.service.cluster.secret if self.service.cluster else ""
        return given is not None and bool(secret) and hmac.compare_digest(given, secret.encode())

    async def _serve_here(self, scope: Scope, receive: Receive, send: Send, game_id: str) -> None:
        """A request a member passed on: answered here, or 503 if the game moved again."""
        cluster = self.service.cluster
        assert cluster is not None
        if game_id not in self.service.owned_games() and not await cluster.claim(game_id):
            await _answer(send, 503, "the game is moving between server processes: try again", True)
            return
        await self.app(scope, receive, send)

    async def _forward(
        self, scope: Scope, send: Send, game_id: str, owner: Owner, body: bytes
    ) -> None:
        cluster = self.service.cluster
        assert cluster is not None and owner.address is not None
        try:
            answer = await self.client.request(
                scope["method"],
                owner.address.rstrip("/") + _target(scope),
                content=body,
                headers=_passed_headers(scope, cluster.secret),
            )
        except httpx2.ConnectError:  # the owner is gone: wait for its lease, take over
            await self._take_over(scope, send, game_id, owner, body)
            return
        except httpx2.HTTPError as error:
            logger.warning("game %s: the owner %s did not answer: %s", game_id, owner.member, error)
            await _answer(
                send,
                503,
                "the server process playing this game stopped while answering; reload the "
                "game to see whether your action was played",
                retry=True,
            )
            return
        headers = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in answer.headers.multi_items()
            if name.lower().encode("latin-1") not in _HOP_BY_HOP
            and name.lower() not in _WRITTEN_HERE
        ]
        headers.append((b"content-length", str(len(answer.content)).encode()))
        await send(
            {"type": "http.response.start", "status": answer.status_code, "headers": headers}
        )
        await send({"type": "http.response.body", "body": answer.content})

    async def _take_over(
        self, scope: Scope, send: Send, game_id: str, owner: Owner, body: bytes
    ) -> None:
        cluster = self.service.cluster
        assert cluster is not None
        try:
            await cluster.wait_for_lease_end(game_id, owner.member)
            new_owner = await self.service.route(game_id)
        except OwnerUnreachable as error:
            await _answer(send, 503, str(error), retry=True)
            return
        if new_owner is not None:  # another process was quicker: it answers
            await self._forward(scope, send, game_id, new_owner, body)
            return
        metrics.LEASE_TAKEOVERS.inc()
        await self.app(scope, _replay_body(body), send)


def _target(scope: Scope) -> str:
    query = scope.get("query_string") or b""
    path = scope.get("raw_path") or str(scope["path"]).encode()
    return (path + (b"?" + query if query else b"")).decode("latin-1")


def _passed_headers(scope: Scope, secret: str) -> list[tuple[bytes, bytes]]:
    """The request's headers (Host and Origin kept: the owner checks same-site requests
    as the first process would), the client's address for the owner's limits, and the
    members' secret."""
    headers = [
        (name, value)
        for name, value in scope.get("headers") or []
        if name.lower() not in _HOP_BY_HOP and name.lower() != b"x-forwarded-for"
    ]
    client = scope.get("client")
    if client:
        headers.append((b"x-forwarded-for", str(client[0]).encode("latin-1")))
    headers.append((CLUSTER_HEADER, secret.encode()))
    return headers


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None past ``limit`` bytes."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return bytes(body)
        body += message.get("body", b"")
        if len(body) > limit:
            return None
        if not message.get("more_body"):
            return bytes(body)


def _replay_body(body: bytes) -> Receive:
    """A receive that gives an already read body once."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


async def _answer(send: Send, status: int, detail: str, retry: bool = False) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
