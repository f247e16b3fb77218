"""The HTTP and WebSocket face of the server (contract in docs/server.md and at /docs)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from machiavel.server import jsontext
from machiavel.server.live import Connection, LiveGame
from machiavel.server.schemas import (
    ActionIn,
    CreatedOut,
    CreateGameIn,
    ErrorOut,
    JoinedOut,
    JoinIn,
    LobbyOut,
    ReadOnlyOut,
    StaleOut,
    StateOut,
)
from machiavel.server.service import WS_READ_ONLY, ApiError, GameService, SeatSpec, Unreadable
from machiavel.server.storage import Repository

logger = logging.getLogger("machiavel.server")

MAX_BODY = 64 * 1024
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 403, 404, 410, 413, 422)
}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]


def create_app(
    database_url: str | None = None,
    *,
    bot_executor: Any = None,
    bot_workers: int | None = None,
    bot_params: dict[str, dict[str, Any]] | None = None,
    max_body: int = MAX_BODY,
) -> FastAPI:
    """The server on a database (default: MACHIAVEL_DATABASE_URL, else ./machiavel.db).

    ``bot_executor`` replaces the pool of bot worker processes (it is then not shut down
    with the app); ``bot_params`` gives bot levels extra parameters, e.g.
    ``{"hard": {"seconds": 0.1}}``.
    """
    repository = Repository(database_url)
    service = GameService(
        repository, bot_executor=bot_executor, bot_workers=bot_workers, bot_params=bot_params
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            repository.close()

    app = FastAPI(
        title="machiavel",
        summary="Play Tyrus, Djambi, Guildes and Tyros with friends and bots.",
        lifespan=lifespan,
    )
    app.state.service = service
    _add_error_handlers(app)
    _add_routes(app, service)
    app.add_middleware(FastActions, service=service)
    app.add_middleware(BodyLimit, limit=max_body)
    if WEB_DIR.is_dir():
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app


# ---- errors -------------------------------------------------------------------------
def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, error: Exception) -> Response:
        assert isinstance(error, ApiError)
        body: dict[str, Any] = dict(error.state) if error.state is not None else {}
        body["detail"] = error.detail
        return JSONResponse(body, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        status, detail = explain_validation(list(error.errors()))
        return JSONResponse({"detail": detail}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: Exception) -> Response:
        assert isinstance(error, StarletteHTTPException)
        return JSONResponse(
            {"detail": str(error.detail)}, status_code=error.status_code, headers=error.headers
        )

    @app.exception_handler(Exception)
    async def unexpected(_: Request, error: Exception) -> Response:
        logger.exception("unexpected error", exc_info=error)
        return JSONResponse({"detail": "internal error (see the server log)"}, status_code=500)


def explain_validation(errors: list[Any]) -> tuple[int, str]:
    """One readable sentence for a refused body or query (never echoing its values)."""
    for error in errors:
        if error.get("type") == "json_invalid":
            reason = error.get("ctx", {}).get("error", "")
            return 400, f"the request body is not valid JSON ({reason})"
        if error.get("type") == "missing" and tuple(error.get("loc", ())) == ("body",):
            return 400, "the request needs a JSON body"
    parts = []
    for error in errors[:5]:
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        message = str(error.get("msg", "invalid"))
        parts.append(f"{where}: {message}" if where else message)
    return 422, "; ".join(parts)


class BodyLimit:
    """Refuse bodies over the limit with 413 before any route reads them."""

    def __init__(self, app: Asgi, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await _plain_error(send, 400, "Content-Length must be a whole number")
                return
            if int(declared) > self.limit:
                await _plain_error(send, 413, f"the body is over {self.limit} bytes")
                return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.limit:
                await _plain_error(send, 413, f"the body is over {self.limit} bytes")
                return
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay(bytes(body), receive), send)


class FastActions:
    """``POST /api/games/{id}/actions`` with a well-formed body, played without FastAPI's
    routing, dependency solving and validation (they cost more than the action itself).

    Only a body the route would accept is played here: a JSON object (content type JSON
    or none) with a string ``action`` of at most 2,000 characters, an integer
    ``version``, maybe a string ``token``, and nothing else. Any other request goes on to
    the route, which refuses it as documented; refusals of the game (400, 403, 404, 409,
    503) are the same ``ApiError`` answers as the route's.
    """

    def __init__(self, app: Asgi, service: GameService) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        game_id = _action_route(scope)
        if game_id is None:
            await self.app(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        request = _well_formed_action(bytes(body))
        if request is None:
            await self.app(scope, _replay(bytes(body), receive), send)
            return
        token, action, version = request
        try:
            text = await self.service.act(game_id, token, action, version)
            status = 200
        except ApiError as error:
            answer: dict[str, Any] = dict(error.state) if error.state is not None else {}
            answer["detail"] = error.detail
            text, status = jsontext.dumps(answer), error.status
        await _send_json(send, status, text.encode())


def _action_route(scope: Scope) -> str | None:
    """The game id of a POST to /api/games/{id}/actions with a JSON body, else None."""
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    parts = scope["path"].split("/")
    if len(parts) != 5 or parts[:3] != ["", "api", "games"] or parts[4] != "actions":
        return None
    if not parts[3]:
        return None
    for name, value in scope.get("headers") or []:
        if name == b"content-type" and value.split(b";")[0].strip().lower() != b"application/json":
            return None  # the route decides what other content types mean
    return str(parts[3])


def _well_formed_action(body: bytes) -> tuple[str | None, str, int] | None:
    """(token, action, version) of a body ``ActionIn`` accepts as it is, else None."""
    try:
        request = jsontext.loads(body)
    except ValueError:
        return None
    if not isinstance(request, dict) or not request.keys() <= {"token", "action", "version"}:
        return None
    token, action, version = request.get("token"), request.get("action"), request.get("version")
    if type(action) is not str or len(action) > 2000 or type(version) is not int:
        return None
    if token is not None and type(token) is not str:
        return None
    return token, action, version


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then what the client sends next."""
    delivered = False

    async def replay() -> Message:
        nonlocal delivered
        if delivered:
            return await receive()
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def _send_json(send: Send, status: int, content: bytes) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(content)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


async def _plain_error(send: Send, status: int, detail: str) -> None:
    await _send_json(send, status, json.dumps({"detail": detail}).encode())


def _json_text(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


# ---- routes -------------------------------------------------------------------------
def _add_routes(app: FastAPI, service: GameService) -> None:
    @app.post("/api/games", status_code=201, response_model=CreatedOut, responses=ERRORS)
    async def create_game(body: CreateGameIn) -> Any:
        """Open a table: the game, its players, options and seats (people or bots)."""
        seats = (
            [SeatSpec(s.kind, s.level, s.name) for s in body.seats]
            if body.seats is not None
            else None
        )
        created = await service.create(
            body.game, body.players, seats, body.options, body.seed, body.listed
        )
        return JSONResponse(created, status_code=201)

    @app.get("/api/games", response_model=LobbyOut, responses=ERRORS)
    async def lobby(status: str = "active", limit: int = 100) -> Any:
        """Games for the lobby: active (open and running, the default), open, running,
        finished or all; most recently changed first."""
        return JSONResponse(await service.lobby(status, limit))

    @app.get("/api/catalog")
    async def catalog() -> Any:
        """The games that can be created, their player counts and options; bot levels."""
        return JSONResponse(service.catalog())

    @app.get(
        "/api/games/{game_id}",
        response_model=StateOut | ReadOnlyOut,
        responses=ERRORS,
    )
    async def get_game(game_id: str, token: str | None = None, log_from: int = 0) -> Any:
        """The game as a seat sees it (with its token) or as a spectator (without); the
        log from line ``log_from`` on (a client holding the log up to version N asks N).
        A stored game that no longer replays is shown read-only (``status``, ``message``)."""
        return _json_text(await service.state_text(game_id, token, log_from))

    @app.post(
        "/api/games/{game_id}/actions",
        response_model=StateOut,
        responses={**ERRORS, 409: {"model": StaleOut}},
    )
    async def act(game_id: str, body: ActionIn) -> Any:
        """Play an action at the version it was chosen at."""
        return _json_text(await service.act(game_id, body.token, body.action, body.version))

    @app.post("/api/games/{game_id}/join", response_model=JoinedOut, responses=ERRORS)
    async def join(game_id: str, body: JoinIn) -> Any:
        """Take a free seat (or the seat of an invite token) under a name; returns the
        seat's new token, which replaces any earlier one."""
        return JSONResponse(await service.join(game_id, body.name, body.seat, body.token))

    @app.get("/api/games/{game_id}/replay", responses=ERRORS)
    async def replay(game_id: str, step: int | None = Query(None)) -> Any:
        """A finished game at a step, every seat's view revealed."""
        return JSONResponse(await service.replay(game_id, step))

    @app.websocket("/api/games/{game_id}/ws")
    async def watch(
        websocket: WebSocket, game_id: str, token: str | None = None, log_from: str = "0"
    ) -> None:
        await websocket.accept()
        try:
            start = int(log_from) if log_from.isdigit() else 0
            live, connection = await service.connect(game_id, token, start)
        except Unreadable as error:  # what can be shown, then closed for good
            if error.text is not None:
                await websocket.send_text(error.text)
            await websocket.close(code=WS_READ_ONLY, reason=close_reason(error.detail))
            return
        except ApiError as error:
            await websocket.close(code=4000 + error.status, reason=error.detail[:120])
            return
        sender = asyncio.get_running_loop().create_task(_send_pushes(websocket, connection))
        try:
            await _receive_actions(websocket, service, live, connection, token)
        finally:
            service.disconnect(live, connection)
            sender.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await sender


def close_reason(text: str) -> str:
    """``text`` cut to what a WebSocket close frame carries (123 bytes of UTF-8)."""
    data = text.encode("utf-8")
    if len(data) <= 123:
        return text
    return data[:120].decode("utf-8", "ignore") + "..."


async def _send_pushes(websocket: WebSocket, connection: Connection) -> None:
    try:
        while True:
            text = await connection.queue.get()
            if text is None:
                code, reason = connection.closing or (1000, "")
                await websocket.close(code=code, reason=reason)
                return
            await websocket.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the client is gone


async def _receive_actions(
    websocket: WebSocket,
    service: GameService,
    live: LiveGame,
    connection: Connection,
    token: str | None,
) -> None:
    """Actions may also come over the socket: {"action": ..., "version": ...}."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            text = (message.get("bytes") or b"").decode("utf-8", "replace")
        reply = await _act_from_socket(service, live, connection, token, text)
        if reply is not None:
            connection.push(reply)


async def _act_from_socket(
    service: GameService, live: LiveGame, connection: Connection, token: str | None, text: str
) -> str | None:
    """Play a socket message; the state then comes as a push, errors as {"error": ...}."""
    try:
        if len(text) > MAX_BODY:
            raise ApiError(413, f"a message is at most {MAX_BODY} bytes")
        try:
            request = jsontext.loads(text)
        except json.JSONDecodeError as error:
            raise ApiError(400, f"a message is a JSON object ({error.msg})") from error
        if not isinstance(request, dict):
            raise ApiError(400, 'a message is a JSON object: {"action": ..., "version": ...}')
        action, version = request.get("action"), request.get("version")
        if not isinstance(action, str) or type(version) is not int:
            raise ApiError(400, "a message needs 'action' (a string) and 'version' (a number)")
        await service.act_on_socket(live, connection, token, action, version)
        return None
    except ApiError as error:
        reply: dict[str, Any] = {"status": error.status, "detail": error.detail}
        if error.state is not None:
            reply["state"] = error.state
        return jsontext.dumps({"error": reply})
