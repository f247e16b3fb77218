"""Sockets of a game opened on a process that does not own it (docs/cluster.md).

The proxy sends most sockets of a game to its owner, but not all (a process that just
took a game over, a socket opened before a failover). Such a socket stays where it was
opened; the process holding it registers it with the owner over Redis (``watch``), and
passes on what the client sends (``text``). The owner keeps a ``RemoteConnection``
among the game's connections: everything it pushes (states built from ``state.view``
of that socket's seat, chat, errors, the close) is published to the holding process
(``push``, ``close``), which writes it out. So one per-viewer filter serves every
socket, wherever it is; the holder never has the game in memory.

Messages between members are JSON objects with ``t`` (their kind), ``c`` (the
socket's id, unique in the cluster) and what the kind needs.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from machiavel.server.cluster import Cluster
from machiavel.server.live import Connection, LiveGame

if TYPE_CHECKING:
    from machiavel.server.service import GameService

logger = logging.getLogger("machiavel.server")

WS_RELOAD_CODE = 1012  # as service.WS_RELOAD: the client reconnects and catches up
MAX_QUEUED = 64  # texts waiting for a slow client before it is made to reconnect

# A socket's text played on its owner: (service, live, connection, token, account,
# text) -> a reply for the socket or None (app.py's ``_act_from_socket``).
SocketText = Callable[
    ["GameService", LiveGame, Connection, str | None, int | None, str], Awaitable[bytes | None]
]


class RemoteConnection(Connection):
    """On the owner: a socket held by another member; its texts go there over Redis."""

    def __init__(
        self,
        viewer: int | None,
        account: int | None,
        cluster: Cluster,
        holder: str,
        socket_id: str,
    ) -> None:
        super().__init__(viewer, account=account)
        self.cluster = cluster
        self.holder = holder
        self.socket_id = socket_id
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None

    def push(self, text: bytes | None) -> None:
        if text is None:
            code, reason = self.closing or (1000, "")
            message: dict[str, Any] = {"t": "close", "c": self.socket_id, "code": code}
            message["reason"] = reason
        else:
            message = {"t": "push", "c": self.socket_id, "x": text.decode()}
        self.cluster.send(self.holder, message)


@dataclass(eq=False)
class HeldSocket:
    """On the holder: a client's socket whose game another member owns."""

    game_id: str
    owner: str
    queue: asyncio.Queue[tuple[int, str] | str] = field(
        default_factory=lambda: asyncio.Queue(MAX_QUEUED)
    )

    def put(self, item: tuple[int, str] | str) -> None:
        if self.queue.full():  # a client too slow to follow: it reconnects and catches up
            while not self.queue.empty():
                self.queue.get_nowait()
            item = (WS_RELOAD_CODE, "too far behind: reconnect")
        self.queue.put_nowait(item)


class RemoteSockets:
    """Both ends of the sockets that cross members, for one process."""

    def __init__(self, service: GameService, cluster: Cluster) -> None:
        self.service = service
        self.cluster = cluster
        self.socket_text: SocketText | None = None  # set by the app
        self.served: dict[str, tuple[LiveGame, RemoteConnection, str | None, int | None]] = {}
        self.held: dict[str, HeldSocket] = {}

    # ---- the holder's side ----------------------------------------------------------
    def hold(
        self,
        game_id: str,
        owner: str,
        token: str | None,
        account: int | None,
        log_from: int,
    ) -> tuple[str, HeldSocket]:
        """Register a client's socket with the game's owner; its id and its queue."""
        socket_id = f"{self.cluster.member}/{secrets.token_hex(8)}"
        held = HeldSocket(game_id, owner)
        self.held[socket_id] = held
        self.cluster.send(
            owner,
            {
                "t": "watch",
                "c": socket_id,
                "g": game_id,
                "m": self.cluster.member,
                "token": token,
                "account": account,
                "from": log_from,
            },
        )
        return socket_id, held

    def text(self, socket_id: str, text: str) -> None:
        held = self.held.get(socket_id)
        if held is not None:
            self.cluster.send(held.owner, {"t": "text", "c": socket_id, "x": text})

    def let_go(self, socket_id: str) -> None:
        """The client left: the owner forgets its connection."""
        held = self.held.pop(socket_id, None)
        if held is not None:
            self.cluster.send(held.owner, {"t": "unwatch", "c": socket_id})

    # ---- the owner's side -----------------------------------------------------------
    async def _watch(self, message: dict[str, Any]) -> None:
        socket_id, holder = str(message["c"]), str(message["m"])
        token = message.get("token")
        account = message.get("account")
        log_from = message.get("from")
        if not isinstance(log_from, int) or not isinstance(account, int | None):
            return
        if not isinstance(token, str | None):
            return

        def make(viewer: int | None, by_account: int | None) -> Connection:
            return RemoteConnection(viewer, by_account, self.cluster, holder, socket_id)

        from machiavel.server.service import ApiError, Unreadable

        try:
            live, connection = await self.service.connect(
                str(message["g"]), token, log_from, account, make=make
            )
        except Unreadable as error:
            if error.text is not None:
                self._reply(holder, {"t": "push", "c": socket_id, "x": error.text})
            self._close(holder, socket_id, 4410, error.detail)  # service.WS_READ_ONLY
            return
        except ApiError as error:
            self._close(holder, socket_id, 4000 + error.status, error.detail)
            return
        assert isinstance(connection, RemoteConnection)
        self.served[socket_id] = (live, connection, token, account)
        connection.reader = asyncio.get_running_loop().create_task(self._read(socket_id))

    async def _read(self, socket_id: str) -> None:
        """Play a held socket's texts one after the other, in the order they were sent."""
        live, connection, token, account = self.served[socket_id]
        while (text := await connection.inbox.get()) is not None:
            if self.socket_text is None:
                continue
            try:
                reply = await self.socket_text(self.service, live, connection, token, account, text)
            except Exception:
                logger.exception("a socket message of game %s failed", live.id)
                continue
            if reply is not None:
                connection.push(reply)

    def _unwatch(self, socket_id: str) -> None:
        served = self.served.pop(socket_id, None)
        if served is None:
            return
        live, connection, _, _ = served
        self.service.disconnect(live, connection)
        connection.inbox.put_nowait(None)

    def _reply(self, holder: str, message: dict[str, Any]) -> None:
        self.cluster.send(holder, message)

    def _close(self, holder: str, socket_id: str, code: int, reason: str) -> None:
        self.cluster.send(holder, {"t": "close", "c": socket_id, "code": code, "reason": reason})

    # ---- both -------------------------------------------------------------------------
    async def handle(self, message: dict[str, Any]) -> None:
        """A message from another member."""
        kind, socket_id = message.get("t"), message.get("c")
        if not isinstance(socket_id, str):
            logger.warning("cluster: a message without a socket id was dropped")
            return
        if kind == "watch":
            await self._watch(message)
        elif kind == "text":
            served = self.served.get(socket_id)
            if served is not None and isinstance(message.get("x"), str):
                served[1].inbox.put_nowait(message["x"])
        elif kind == "unwatch":
            self._unwatch(socket_id)
        elif kind == "push":
            held = self.held.get(socket_id)
            if held is not None and isinstance(message.get("x"), str):
                held.put(message["x"])
        elif kind == "close":
            held = self.held.get(socket_id)
            if held is not None:
                code = message.get("code")
                held.put((code if isinstance(code, int) else 1000, str(message.get("reason", ""))))
        else:
            logger.warning("cluster: a message of unknown kind %r was dropped", kind)

    def member_gone(self, member: str) -> None:
        """A member died: its sockets here are forgotten, and the sockets held here for
        its games reconnect (to the game's next owner)."""
        for socket_id, (_, connection, _, _) in list(self.served.items()):
            if connection.holder == member:
                self._unwatch(socket_id)
        for held in list(self.held.values()):
            if held.owner == member:
                held.put((WS_RELOAD_CODE, "the game's server stopped: reconnect"))

    def game_dropped(self, game_id: str) -> None:
        """The owner forgot a game: its remote connections were closed with it."""
        for socket_id, (live, _, _, _) in list(self.served.items()):
            if live.id == game_id:
                self._unwatch(socket_id)
