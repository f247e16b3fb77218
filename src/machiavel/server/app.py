"""The HTTP and WebSocket face of the server (contract in docs/server.md and at /docs)."""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from redis.exceptions import RedisError
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from machiavel.core.contract import JsonDict
from machiavel.core.parsing import number_problem, read_number
from machiavel.server import apidoc, jsontext, metrics
from machiavel.server.accounts import (
    COOKIE,
    DEFAULT_COST,
    SESSION_DAYS,
    Accounts,
    PasswordCost,
    SignInLimits,
    me,
    same_origin,
)
from machiavel.server.chat import ChatLimits
from machiavel.server.cluster import REDIS_AWAY, ClusterSettings, OwnerUnreachable, shared_limiter
from machiavel.server.forwarding import ClusterRouter
from machiavel.server.headers import SecureFastAPI
from machiavel.server.live import Connection, LiveGame
from machiavel.server.mail import Mailer, MailSettings, read_unsubscribe_token
from machiavel.server.notices import Notifier
from machiavel.server.outage import RETRY_AFTER, UNREACHABLE, describe, is_unreachable
from machiavel.server.pushes import direct_writer, socket_ends
from machiavel.server.quotas import LimitReached, TableLimits, WriteRate
from machiavel.server.schemas import (
    AccountOut,
    ActionIn,
    BotIn,
    BotsOut,
    BotTokenOut,
    ChatIn,
    ChatMessageOut,
    ChatPageOut,
    ClaimIn,
    CreatedOut,
    CreateGameIn,
    InviteIn,
    InviteOut,
    JoinedOut,
    JoinIn,
    LeaderboardOut,
    LobbyOut,
    MeIn,
    MeOut,
    MyGamesOut,
    PlayerOut,
    ReadOnlyOut,
    RematchIn,
    RematchOut,
    SessionOut,
    SignInIn,
    SignUpIn,
    StateOut,
    YourSeatIn,
)
from machiavel.server.service import WS_READ_ONLY, ApiError, GameService, SeatSpec, Unreadable
from machiavel.server.storage import AccountRecord, Repository
from machiavel.serving import METRICS_FROM, MetricsReaders

logger = logging.getLogger("machiavel.server")

MAX_BODY = 64 * 1024
DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
WS_POLICY = 1008  # close code: a query value the server refuses (the reason says which)
CROSS_SITE = "cross-site request refused: the Origin (or Referer) is not this site"
BEARER_REFUSED = (
    "the token in 'Authorization: Bearer' opens no account: it is wrong, expired, or was "
    "replaced by a newer one (a bot's owner gets a new one with POST /api/me/bots/NAME/token)"
)
REDIS_DOWN = "the cluster's Redis does not answer, so this cannot be done now: try again"
WS_UNAUTHORIZED = 4401  # close code: a bearer token that opens no account

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]
SocketHandler = Callable[[WebSocket], Awaitable[None]]


def create_app(
    database_url: str | None = None,
    *,
    bot_executor: Any = None,
    bot_workers: int | None = None,
    bot_params: dict[str, dict[str, Any]] | None = None,
    max_body: int = MAX_BODY,
    password_cost: PasswordCost = DEFAULT_COST,
    sign_in_limits: SignInLimits | None = None,
    chat_limits: ChatLimits | None = None,
    mail_settings: MailSettings | None = None,
    public_url: str = DEFAULT_PUBLIC_URL,
    mail_retry_delays: Sequence[float] = (5.0, 30.0, 120.0),
    table_limits: TableLimits | None = None,
    sweep_every: float = 600.0,
    cluster: ClusterSettings | None = None,
    metrics_from: str = METRICS_FROM,
) -> FastAPI:
    """The server on a database (default: MACHIAVEL_DATABASE_URL, else ./machiavel.db).

    ``bot_executor`` replaces the pool of bot worker processes (it is then not shut down
    with the app); ``bot_params`` gives bot levels extra parameters, e.g.
    ``{"hard": {"seconds": 0.1}}``. ``password_cost`` is Argon2id's (tests lower it:
    ``accounts.TEST_COST``); ``sign_in_limits`` counts failed sign-ins; ``chat_limits``
    chat messages (``chat.ChatLimits``: 5 in 10 s and 30 in 10 minutes by default).
    ``mail_settings``: where notifications are mailed (None: mail is off);
    ``public_url``: the address people open, for the links in mails. ``table_limits``:
    tables and write requests per account and address (``quotas.TableLimits.off()`` for
    none); ``sweep_every``: seconds between two sweeps of abandoned tables.
    ``cluster``: how this process joins a cluster (docs/cluster.md); ``metrics_from``:
    the clients that may read ``/metrics`` (``serving.MetricsReaders``, loopback by
    default); bot moves
    then go to the bot worker nodes through the Redis queue.
    """
    repository = Repository(database_url, checkpoints_by_hand=True)
    mailer = Mailer(mail_settings, retry_delays=mail_retry_delays)
    notifier = Notifier(repository, mailer, public_url)
    accounts = Accounts(repository, password_cost, sign_in_limits)
    service = GameService(
        repository,
        bot_executor=bot_executor,
        bot_workers=bot_workers,
        bot_params=bot_params,
        chat_limits=chat_limits,
        notifier=notifier,
        table_limits=table_limits,
        sweep_every=sweep_every,
        cluster=cluster,
    )
    if service.remote is not None:
        service.remote.socket_text = _act_from_socket

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        mailer.start()
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            await notifier.close()
            await mailer.close()
            repository.close()

    app = SecureFastAPI(  # security headers and X-Machiavel-Node on every answer: headers.py
        node=cluster.name if cluster is not None else None,
        title="machiavel",
        summary="Play Tyrus, Djambi, Guildes and Tyros with friends and bots.",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.accounts = accounts
    app.state.mailer = mailer
    _add_error_handlers(app, repository)
    _add_routes(app, service, accounts)
    watch = game_socket(service, accounts)
    app.websocket("/api/games/{game_id}/ws")(watch)  # for a scope FastSockets did not take
    _add_account_routes(app, service, accounts)
    _add_bot_account_routes(app, accounts)
    _add_mail_routes(app, notifier)
    _add_metrics_route(app, MetricsReaders.parse(metrics_from))
    app.add_middleware(FastActions, service=service)
    app.add_middleware(FastCreate, service=service)
    app.add_middleware(FastSockets, serve=watch)
    app.add_middleware(BodyLimit, limit=max_body)
    write_rate = WriteRate(table_limits or TableLimits())
    if cluster is not None:  # limits hold for the whole cluster
        write_rate.limiter = accounts.limits.limiter = shared_limiter(cluster)
        service.chat_limits.limiter = write_rate.limiter
    app.add_middleware(WriteLimit, rate=write_rate)
    if service.cluster is not None:  # outermost: a request is counted where it is served
        app.add_middleware(ClusterRouter, service=service, max_body=max_body)
    if WEB_DIR.is_dir():
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app


# ---- metrics ------------------------------------------------------------------------
METRICS_REFUSED = (
    "/metrics is only served to the clients of --metrics-from ($MACHIAVEL_METRICS_FROM, "
    "loopback by default): see docs/cluster.md"
)


def _add_metrics_route(app: FastAPI, readers: MetricsReaders) -> None:
    @app.get("/metrics", include_in_schema=False)
    async def prometheus_metrics(request: Request) -> Response:
        """This process's metrics in Prometheus's text format (docs/cluster.md)."""
        if not readers.allows(request.client.host if request.client else None):
            raise ApiError(403, METRICS_REFUSED)
        body, content_type = metrics.exposition()
        return Response(body, headers={"content-type": content_type})


# ---- errors -------------------------------------------------------------------------
def _add_error_handlers(app: FastAPI, repository: Repository) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, error: Exception) -> Response:
        assert isinstance(error, ApiError)
        return _json_answer(_refusal(error), error.status)

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

    @app.exception_handler(DBAPIError)
    @app.exception_handler(PoolTimeout)
    async def database_error(_: Request, error: Exception) -> Response:
        return database_answer(repository, error)

    @app.exception_handler(RedisError)
    async def redis_error(_: Request, error: Exception) -> Response:
        logger.warning("Redis did not answer: %s", error)  # a cluster's limits, leases
        return JSONResponse({"detail": REDIS_DOWN}, status_code=503, headers={"retry-after": "1"})

    @app.exception_handler(Exception)
    async def unexpected(_: Request, error: Exception) -> Response:
        logger.exception("unexpected error", exc_info=error)
        return JSONResponse({"detail": "internal error (see the server log)"}, status_code=500)


def database_answer(repository: Repository, error: Exception) -> Response:
    """503 with a sentence when the database cannot be reached (logged once per burst);
    any other database error is a 500, logged in one line without statement or values
    (never a traceback, which would quote them)."""
    if is_unreachable(error):
        repository.outage.report(error)
        return JSONResponse(
            {"detail": UNREACHABLE}, status_code=503, headers={"Retry-After": RETRY_AFTER}
        )
    logger.error("database error: %s", describe(error))
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


class WriteLimit:
    """Refuse requests that change something (POST, PUT, PATCH, DELETE under /api/) past
    the rate of their session (by its cookie) or, without one, of their address: 429 with
    a sentence and ``Retry-After``, before anything is read or changed."""

    def __init__(self, app: Asgi, rate: WriteRate) -> None:
        self.app = app
        self.rate = rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in ("POST", "PUT", "PATCH", "DELETE")
            and str(scope["path"]).startswith("/api/")
        ):
            try:
                self.rate.hit(_writer_key(scope))
            except RedisError as error:  # a cluster's shared limits out of reach
                logger.warning("Redis did not answer: %s", error)
                body = json.dumps({"detail": REDIS_DOWN}).encode()
                await _send_json(send, 503, body, [(b"retry-after", b"1")])
                return
            except LimitReached as reached:
                wait = str(reached).rsplit("wait ", 1)[-1].split()[0]
                body = json.dumps({"detail": str(reached)}).encode()
                await _send_json(send, 429, body, [(b"retry-after", wait.encode())])
                return
        await self.app(scope, receive, send)


def _writer_key(scope: Scope) -> str:
    """A session's token, bearer or cookie (hashed: the key is kept in memory), else the
    client address."""
    session = _session_token(HTTPConnection(scope))
    if session:
        return "session:" + hashlib.sha256(session.encode()).hexdigest()
    client = scope.get("client")
    return f"address:{client[0] if client else 'unknown'}"


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
    ``version``, a string ``token``, and nothing else (without a token the route reads the
    session cookie and checks the Origin: accounts). Any other request goes on to
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
        body = await _read_body(receive)
        if body is None:
            return  # the client went away
        request = _well_formed_action(body)
        if request is None or request[0] is None:  # no token: the route reads the cookie
            await self.app(scope, _replay(body, receive), send)
            return
        token, action, version = request
        acting = self.service.act(game_id, token, action, version)
        await _answer(scope, receive, send, self.service.repo, 200, acting)


class FastCreate:
    """``POST /api/games`` from a visitor, made without FastAPI's routing, dependency
    solving and response encoding, which cost about as much as making the game (issue 18:
    `benchmarks/game_churn.py`).

    Only a request the route would take as a visitor's is made here: no session (no
    ``Authorization`` or ``Cookie`` header: the route reads them, and checks the Origin),
    a JSON body (content type JSON or none) that ``CreateGameIn`` validates, the model the
    route validates it with. Anything else goes on to the route, which answers as
    documented (a refused body: 422 with a sentence); refusals of the game are the same
    ``ApiError`` answers as the route's, and the table is made by the same call.
    """

    def __init__(self, app: Asgi, service: GameService) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _visitor_creates(scope):
            await self.app(scope, receive, send)
            return
        raw = await _read_body(receive)
        if raw is None:
            return  # the client went away
        try:
            body = CreateGameIn.model_validate_json(raw)
        except ValidationError:  # the route says what is wrong with it
            await self.app(scope, _replay(raw, receive), send)
            return
        creating = _created(self.service, body, _client_address(HTTPConnection(scope)))
        await _answer(scope, receive, send, self.service.repo, 201, creating)


async def _created(service: GameService, body: CreateGameIn, address: str) -> bytes:
    """A visitor's table made, as the JSON text the route answers."""
    return jsontext.dump_bytes(await _create(service, body, None, address))


async def _answer(
    scope: Scope,
    receive: Receive,
    send: Send,
    repository: Repository,
    status: int,
    call: Awaitable[bytes],
) -> None:
    """Answer with what ``call`` gives, or as the routes' handlers answer its failure: an
    ``ApiError`` with its refusal, a database fault as ``database_answer`` says."""
    try:
        text = await call
    except ApiError as error:
        text, status = _refusal(error), error.status
    except (DBAPIError, PoolTimeout) as error:
        await database_answer(repository, error)(scope, receive, send)
        return
    await _send_json(send, status, text)


def _visitor_creates(scope: Scope) -> bool:
    """Whether this is a POST to /api/games with a JSON body (or no content type) and
    no session: no ``Authorization`` or ``Cookie`` header."""
    if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != "/api/games":
        return False
    for name, value in scope.get("headers") or []:
        if name in (b"authorization", b"cookie"):
            return False
        if name == b"content-type" and not _json_type(value):
            return False
    return True


def _json_type(value: bytes) -> bool:
    return value.split(b";")[0].strip().lower() == b"application/json"


async def _read_body(receive: Receive) -> bytes | None:
    """A request's whole body (BodyLimit, outside, bounds it); None if the client left."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        body += message.get("body", b"")
        if not message.get("more_body", False):
            return bytes(body)


def _refusal(error: ApiError) -> bytes:
    """An ``ApiError`` as the route's handler answers it: the state, if any, and why."""
    answer: dict[str, Any] = dict(error.state) if error.state is not None else {}
    answer["detail"] = error.detail
    return jsontext.dump_bytes(answer)


class FastSockets:
    """A game's WebSocket (``/api/games/{id}/ws``) handed to its handler without
    FastAPI's exception layer, routing and dependency solving, which cost more than the
    rest of opening a socket (issue 18). The handler reads everything itself (the game id,
    the query) and closes a refused socket with why, so nothing those layers did is
    missing; the layers outside this one (errors, security headers, counts) still see
    the socket. Any other scope goes on."""

    def __init__(self, app: Asgi, serve: SocketHandler) -> None:
        self.app = app
        self.serve = serve

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        game_id = _socket_route(scope)
        if game_id is None:
            await self.app(scope, receive, send)
            return
        scope["path_params"] = {"game_id": game_id}  # as the route would set it
        await self.serve(WebSocket(scope, receive, send))


def _socket_route(scope: Scope) -> str | None:
    """The game id of a WebSocket to /api/games/{id}/ws, else None."""
    return _game_id_in(scope["path"], "ws") if scope["type"] == "websocket" else None


def _game_id_in(path: str, last: str) -> str | None:
    """The id of /api/games/{id}/``last`` (a non-empty segment), else None."""
    parts = path.split("/")
    if len(parts) != 5 or parts[:3] != ["", "api", "games"] or parts[4] != last:
        return None
    return parts[3] or None


def _action_route(scope: Scope) -> str | None:
    """The game id of a POST to /api/games/{id}/actions with a JSON body, else None."""
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    game_id = _game_id_in(scope["path"], "actions")
    if game_id is None:
        return None
    for name, value in scope.get("headers") or []:
        if name == b"content-type" and not _json_type(value):
            return None  # the route decides what other content types mean
    return game_id


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


async def _send_json(
    send: Send, status: int, content: bytes, extra: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(content)).encode()),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


async def _plain_error(send: Send, status: int, detail: str) -> None:
    await _send_json(send, status, json.dumps({"detail": detail}).encode())


def _json_answer(text: bytes, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


# ---- routes -------------------------------------------------------------------------
# ---- sessions -----------------------------------------------------------------------
def _bearer_token(connection: HTTPConnection) -> str | None:
    """The session token a program sends as ``Authorization: Bearer TOKEN`` (an external
    bot's), or None. A browser never adds this header by itself, so unlike the cookie it
    needs no cross-site check."""
    scheme, _, token = connection.headers.get("authorization", "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _session_token(connection: HTTPConnection) -> str | None:
    """The session of a request: its bearer token, else its cookie."""
    return _bearer_token(connection) or connection.cookies.get(COOKIE) or None


def _from_this_site(connection: HTTPConnection) -> bool:
    headers = connection.headers
    return same_origin(
        headers.get("origin"), headers.get("referer"), connection.url.scheme, headers.get("host")
    )


def _check_write(request: Request) -> None:
    """A state-changing request that carries the session cookie must come from this site
    (its Origin, else its Referer): a page of another site cannot use the cookie."""
    if (
        request.method in ("POST", "PUT", "PATCH", "DELETE")
        and _bearer_token(request) is None
        and _session_token(request) is not None
        and not _from_this_site(request)
    ):
        raise ApiError(403, CROSS_SITE)


def _refuse_unknown_bearer(connection: HTTPConnection, found: object | None) -> None:
    """A wrong cookie is a browser signed out (it goes on as a visitor); a wrong bearer
    token is a program's mistake, refused with why rather than silently ignored."""
    if found is None and _bearer_token(connection) is not None:
        raise ApiError(401, BEARER_REFUSED)


async def _account_id(request: Request, accounts: Accounts) -> int | None:
    """The signed-in account of a request (None: none), cross-site writes refused."""
    token = _session_token(request)
    if token is None:
        return None
    _check_write(request)
    found = await accounts.account_id(token)
    _refuse_unknown_bearer(request, found)
    return found


async def _account(request: Request, accounts: Accounts) -> AccountRecord | None:
    token = _session_token(request)
    if token is None:
        return None
    _check_write(request)
    found = await accounts.account(token)
    _refuse_unknown_bearer(request, found)
    return found


async def _signed_in(request: Request, accounts: Accounts) -> AccountRecord:
    account = await _account(request, accounts)
    if account is None:
        raise ApiError(401, "you are not signed in")
    return account


def _client_address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client is not None else "unknown"


async def _create(
    service: GameService, body: CreateGameIn, account: AccountRecord | None, address: str
) -> JsonDict:
    """Open the table a ``CreateGameIn`` asks for (the route's and ``FastCreate``'s)."""
    seats = (
        [SeatSpec(s.kind, s.level, s.name, s.account) for s in body.seats]
        if body.seats is not None
        else None
    )
    return await service.create(
        body.game,
        body.players,
        seats,
        body.options,
        body.seed,
        body.listed,
        account,
        body.rated,
        body.pace,
        body.clock,
        body.stand_in,
        body.abandon_after,
        address,
    )


def _with_session(body: Any, status: int, token: str, request: Request) -> Response:
    answer = JSONResponse(body, status_code=status)
    answer.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return answer


def _add_account_routes(app: FastAPI, service: GameService, accounts: Accounts) -> None:
    def refuse_foreign_origin(request: Request) -> None:
        # Signing up or in from another site's page (login CSRF) is refused; scripts that
        # send no Origin may.
        if request.headers.get("origin") is not None and not _from_this_site(request):
            raise ApiError(403, CROSS_SITE)

    @app.post("/api/accounts", status_code=201, response_model=AccountOut, responses=apidoc.SIGN_UP)
    async def sign_up(body: SignUpIn, request: Request) -> Any:
        """Make an account and sign in (the session cookie). 400: a name, password or
        e-mail address that breaks the rules (the answer says which); 409: the name is
        taken (ignoring case)."""
        refuse_foreign_origin(request)
        account, token = await accounts.sign_up(body.name, body.password, body.email)
        await accounts.sign_out(request.cookies.get(COOKIE))  # the browser's former session
        return _with_session({"name": account.name, "email": account.email}, 201, token, request)

    @app.post("/api/session", response_model=AccountOut, responses=apidoc.SIGN_IN)
    async def sign_in(body: SignInIn, request: Request) -> Any:
        """Sign in (the session cookie). 401: a wrong name or password (not saying which);
        429: too many failed sign-ins for this name or from this address."""
        refuse_foreign_origin(request)
        account, token = await accounts.sign_in(body.name, body.password, _client_address(request))
        await accounts.sign_out(request.cookies.get(COOKIE))  # the browser's former session
        return _with_session({"name": account.name, "email": account.email}, 200, token, request)

    @app.delete("/api/session", status_code=204, responses=apidoc.SIGN_OUT)
    async def sign_out(request: Request) -> Response:
        """Sign out: the session ends on the server and the cookie is removed."""
        _check_write(request)
        await accounts.sign_out(_session_token(request))
        answer = Response(status_code=204)
        answer.delete_cookie(
            COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
        )
        return answer

    @app.get("/api/session", response_model=SessionOut, responses=apidoc.SESSION)
    async def session(request: Request) -> Any:
        """Who this browser is signed in as, ``{"account": null}`` if nobody (always 200:
        what a page asks first, where a 401 would be noise)."""
        account = await _account(request, accounts)
        return JSONResponse({"account": me(account) if account is not None else None})

    @app.get("/api/me", response_model=MeOut, responses=apidoc.ME)
    async def who_am_i(request: Request) -> Any:
        """The signed-in account (401 when not signed in)."""
        return JSONResponse(me(await _signed_in(request, accounts)))

    @app.patch("/api/me", response_model=MeOut, responses=apidoc.CHANGE_ME)
    async def change_me(body: MeIn, request: Request) -> Any:
        """Change the e-mail address, ``notify``, or the password (with ``old_password``;
        403 if it is wrong; the account's other sessions then end)."""
        account = await _signed_in(request, accounts)
        changes = {name: getattr(body, name) for name in body.model_fields_set}
        token = _session_token(request) or ""
        fresh = await accounts.update(account, token, changes, _client_address(request))
        return JSONResponse(me(fresh))

    @app.get("/api/me/games", response_model=MyGamesOut, responses=apidoc.ME)
    async def my_games(request: Request) -> Any:
        """The signed-in account's games: your turn first (longest waiting first), then
        the others going on, then the 20 most recently finished."""
        account = await _account_id(request, accounts)
        if account is None:
            raise ApiError(401, "you are not signed in")
        return JSONResponse(await service.games_of(account))

    @app.post("/api/games/{game_id}/claim", response_model=StateOut, responses=apidoc.CLAIM)
    async def claim(body: ClaimIn, request: Request, game_id: str = apidoc.game_id_path()) -> Any:
        """Keep the seat of a token in the signed-in account (the token keeps working)."""
        account = await _signed_in(request, accounts)
        return JSONResponse(await service.claim(game_id, body.token, account))

    @app.post(
        "/api/games/{game_id}/seats/{player}/invite",
        response_model=InviteOut,
        responses=apidoc.REINVITE,
    )
    async def reinvite(
        body: InviteIn,
        request: Request,
        game_id: str = apidoc.game_id_path(),
        player: int = apidoc.seat_path(),
    ) -> Any:
        """A new invite token for a seat never taken (the old invite link stops working);
        for the host: the holder of the creator's token (the one the first human seat was
        given at creation, even once that seat's token changed) or the creator's account.
        With ``account``, the seat is reserved for that account, which is invited (``""``:
        no longer reserved)."""
        account = await _account_id(request, accounts)
        return JSONResponse(
            await service.reinvite(game_id, player, body.token, account, body.account)
        )


def _add_bot_account_routes(app: FastAPI, accounts: Accounts) -> None:
    """Bot accounts: a signed-in person makes them and gets each one's token."""

    def made(bot: AccountRecord, owner: AccountRecord, token: str | None = None) -> JsonDict:
        answer: JsonDict = {"name": bot.name, "bot": True, "owner": owner.name}
        if token is not None:
            answer["token"] = token
        return answer

    @app.post(
        "/api/me/bots", status_code=201, response_model=BotTokenOut, responses=apidoc.MAKE_BOT
    )
    async def make_bot(body: BotIn, request: Request) -> Any:
        """Make a bot account of yours and get its token (shown once). 403 signed in as a
        bot; 409 the name is taken; 429 you have the most bot accounts allowed."""
        owner = await _signed_in(request, accounts)
        bot, token = await accounts.create_bot(owner, body.name)
        return JSONResponse(made(bot, owner, token), status_code=201)

    @app.get("/api/me/bots", response_model=BotsOut, responses=apidoc.ME)
    async def my_bots(request: Request) -> Any:
        """Your bot accounts, oldest first (their tokens are never shown again)."""
        owner = await _signed_in(request, accounts)
        return JSONResponse({"bots": [made(bot, owner) for bot in await accounts.bots_of(owner)]})

    @app.post("/api/me/bots/{name}/token", response_model=BotTokenOut, responses=apidoc.BOT_TOKEN)
    async def new_bot_token(name: str, request: Request) -> Any:
        """A new token for one of your bots; its former token stops working at once (404
        you have no bot of that name)."""
        owner = await _signed_in(request, accounts)
        bot, token = await accounts.new_bot_token(owner, name)
        return JSONResponse(made(bot, owner, token))


def _add_mail_routes(app: FastAPI, notifier: Notifier) -> None:
    async def unsubscribe(token: str) -> Response:
        account = None
        if len(token) <= 100:
            secret = await asyncio.to_thread(notifier.secret)
            account = read_unsubscribe_token(secret, token)
        if account is None:
            return HTMLResponse(
                unsubscribe_page("This link is not valid (it may be cut short): nothing changed."),
                status_code=400,
            )
        await asyncio.to_thread(notifier.repo.update_account, account, notify=False)
        return HTMLResponse(
            unsubscribe_page(
                "Done: you will get no more e-mails from machiavel. Turn them back on in "
                "your account's settings whenever you like."
            )
        )

    @app.get("/api/mail/unsubscribe", responses=apidoc.UNSUBSCRIBE_LINK)
    async def unsubscribe_by_link(token: str = Query("", max_length=200)) -> Response:
        """The link at the foot of every mail: one click turns the account's e-mail
        notifications off (``notify`` false) and says so."""
        return await unsubscribe(token)

    @app.post("/api/mail/unsubscribe", responses=apidoc.UNSUBSCRIBE_ONE_CLICK)
    async def unsubscribe_one_click(token: str = Query("", max_length=200)) -> Response:
        """RFC 8058 one-click unsubscribe (``List-Unsubscribe-Post``), as mail programs
        send it: the same as the link."""
        return await unsubscribe(token)


def unsubscribe_page(sentence: str) -> str:
    """A small page of one sentence (nothing of the request in it)."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>machiavel: e-mails</title></head><body><main><h1>machiavel</h1>"
        f'<p id="unsubscribe-result">{html.escape(sentence)}</p>'
        '<p><a href="/">Back to the lobby</a></p></main></body></html>'
    )


def _add_routes(app: FastAPI, service: GameService, accounts: Accounts) -> None:
    @app.post("/api/games", status_code=201, response_model=CreatedOut, responses=apidoc.CREATE)
    async def create_game(body: CreateGameIn, request: Request) -> Any:
        """Open a table: the game, its players, options and seats (people or bots; a
        person's seat may be reserved for an account, which is invited), its pace (live or
        turn-based). Signed in, your seat (the one reserved for you, else the first human
        seat) belongs to your account."""
        account = await _account(request, accounts)
        created = await _create(service, body, account, _client_address(request))
        return JSONResponse(created, status_code=201)

    @app.get("/api/ratings/{game}", response_model=LeaderboardOut, responses=apidoc.LEADERBOARD)
    async def leaderboard(
        game: str = apidoc.game_name_path(),
        limit: int = apidoc.leaderboard_limit(),
        offset: int = apidoc.leaderboard_offset(),
    ) -> Any:
        """A game's leaderboard, best first: accounts and bot levels ("hard bot"), each
        with its rating as shown (conservative: 1500 for a new player) and rated games
        played. ``limit`` 1 to 200."""
        return JSONResponse(await service.leaderboard(game, limit, offset))

    @app.get("/api/players/{name:path}", response_model=PlayerOut, responses=apidoc.PLAYER)
    async def player(name: str) -> Any:
        """A player's profile (an account's name, ignoring case, or a bot level's: "hard
        bot"): its rating in each game and its 20 most recent rated games."""
        return JSONResponse(await service.player(name))

    @app.get("/api/games", response_model=LobbyOut, responses=apidoc.LOBBY)
    async def lobby(status: str = apidoc.lobby_status(), limit: int = apidoc.lobby_limit()) -> Any:
        """Games for the lobby: active (open and running, the default), open, running,
        finished or all; most recently changed first."""
        return JSONResponse(await service.lobby(status, limit))

    @app.get("/api/catalog", responses=apidoc.CATALOG)
    async def catalog() -> Any:
        """The games that can be created, their player counts and options; bot levels."""
        return JSONResponse(service.catalog())

    @app.get(
        "/api/games/{game_id}",
        response_model=StateOut | ReadOnlyOut,
        responses=apidoc.STATE,
    )
    async def get_game(
        request: Request,
        game_id: str = apidoc.game_id_path(),
        token: str | None = None,
        log_from: int = apidoc.bounded(0, 0, description="the first log line wanted"),
    ) -> Any:
        """The game as a seat sees it (with its token, or signed in to the account holding
        a seat) or as a spectator; the log from line ``log_from`` on (a client holding the
        log up to version N asks N). A stored game that no longer replays is shown
        read-only (``status``, ``message``)."""
        account = None if token else await _account_id(request, accounts)
        return _json_answer(await service.state_json(game_id, token, log_from, account))

    @app.post(
        "/api/games/{game_id}/actions",
        response_model=StateOut,
        responses=apidoc.ACT,
    )
    async def act(body: ActionIn, request: Request, game_id: str = apidoc.game_id_path()) -> Any:
        """Play an action at the version it was chosen at, with the seat's token or, with
        no token, as the signed-in account's seat."""
        account = None if body.token else await _account_id(request, accounts)
        return _json_answer(
            await service.act(game_id, body.token, body.action, body.version, account)
        )

    @app.post("/api/games/{game_id}/join", response_model=JoinedOut, responses=apidoc.JOIN)
    async def join(body: JoinIn, request: Request, game_id: str = apidoc.game_id_path()) -> Any:
        """Take a free seat (or the seat of an invite token) under a name; returns the
        seat's new token, which replaces any earlier one. Signed in, the seat belongs to
        your account (the name defaults to the account's); a seat that belongs to an
        account cannot be taken by anyone else (409)."""
        account = await _account(request, accounts)
        return JSONResponse(await service.join(game_id, body.name, body.seat, body.token, account))

    @app.get("/api/games/{game_id}/replay", responses=apidoc.REPLAY)
    async def replay(
        game_id: str = apidoc.game_id_path(),
        step: int | None = apidoc.bounded(None, 0, description="the step (default: the end)"),
    ) -> Any:
        """A finished game at a step, every seat's view revealed."""
        return JSONResponse(await service.replay(game_id, step))

    @app.post(
        "/api/games/{game_id}/chat", response_model=ChatMessageOut, responses=apidoc.WRITE_CHAT
    )
    async def write_chat(
        body: ChatIn, request: Request, game_id: str = apidoc.game_id_path()
    ) -> Any:
        """Write in the game's chat: a seat (its token, or signed in) in the players'
        channel, a spectator in the spectators' channel. 1 to 500 characters; 429 beyond
        5 messages in 10 s or 30 in 10 minutes; 410 for a read-only game."""
        account = None if body.token else await _account_id(request, accounts)
        writer = f"address:{_client_address(request)}"
        return JSONResponse(
            await service.chat(game_id, body.token, body.text, body.channel, account, writer)
        )

    @app.get("/api/games/{game_id}/chat", response_model=ChatPageOut, responses=apidoc.READ_CHAT)
    async def read_chat(
        request: Request,
        game_id: str = apidoc.game_id_path(),
        token: str | None = None,
        before: int | None = apidoc.chat_before(),
        limit: int = apidoc.chat_limit(),
    ) -> Any:
        """A page of the chat this viewer may read, oldest first: the ``limit`` (1 to
        100) latest messages numbered below ``before`` (the latest if left out)."""
        account = None if token else await _account_id(request, accounts)
        return JSONResponse(await service.chat_history(game_id, token, before, limit, account))

    @app.post("/api/games/{game_id}/rematch", response_model=RematchOut, responses=apidoc.REMATCH)
    async def rematch(
        body: RematchIn, request: Request, game_id: str = apidoc.game_id_path()
    ) -> Any:
        """Play again: a new table with the same players, options and bot levels, seats
        rotated by one, made once (asked again: the same table, the caller's seat in it).
        Only a seated player of a finished game (403, 409 otherwise)."""
        account = None if body.token else await _account(request, accounts)
        return JSONResponse(await service.rematch(game_id, body.token, account))

    @app.post("/api/games/{game_id}/leave", response_model=StateOut, responses=apidoc.LEAVE)
    async def leave(game_id: str, body: YourSeatIn, request: Request) -> Any:
        """Leave the table: a stand-in bot (the table's level) plays your seat so the others
        can finish; you may take it back (``/return``). In a game of two, leaving is
        resigning: the other player wins."""
        account = None if body.token else await _account_id(request, accounts)
        return JSONResponse(await service.leave(game_id, body.token, account))

    @app.post("/api/games/{game_id}/return", response_model=StateOut, responses=apidoc.TAKE_BACK)
    async def take_back(game_id: str, body: YourSeatIn, request: Request) -> Any:
        """Take your seat back from its stand-in bot (after running out of time or
        leaving): you play it again."""
        account = None if body.token else await _account_id(request, accounts)
        return JSONResponse(await service.take_back(game_id, body.token, account))


def game_socket(service: GameService, accounts: Accounts) -> SocketHandler:
    """The handler of a game's WebSocket (``/api/games/{game_id}/ws``), which
    ``FastSockets`` serves, and the route too for a scope that did not pass through it."""

    async def watch(websocket: WebSocket) -> None:
        # The path's game id and the query's token and log_from (as FastAPI would pass
        # them: strings, the last of a repeated name) are read here rather than declared:
        # FastAPI's validation of them cost more than the rest of opening a socket.
        game_id: str = websocket.path_params["game_id"]
        token = websocket.query_params.get("token")
        log_from = websocket.query_params.get("log_from", "0")
        await websocket.accept()
        start = read_number(log_from)
        if start is None:  # as HTTP refuses it: a sentence, nothing else happens
            reason = query_number_problem(log_from, "log_from", "a log line number")
            await websocket.close(code=WS_POLICY, reason=close_reason(reason))
            return
        try:
            owner = await service.route(game_id)
        except OwnerUnreachable as error:
            await websocket.close(code=4503, reason=close_reason(str(error)))
            return
        except RedisError:
            await websocket.close(code=4503, reason=close_reason(REDIS_AWAY))
            return
        if owner is not None:  # played by another process of the cluster
            await _hold_socket(websocket, service, accounts, game_id, owner.member, token, start)
            return
        try:
            opened = await _open_watch(websocket, service, accounts, game_id, token, start)
        except (DBAPIError, PoolTimeout) as error:
            if not is_unreachable(error):
                raise
            service.repo.outage.report(error)
            await websocket.close(code=4503, reason=close_reason(UNREACHABLE))
            return
        if opened is None:
            return
        live, connection, account = opened
        receive, send = socket_ends(websocket.scope) or (websocket.receive, websocket.send)
        connection.write_now = direct_writer(send)
        loop = asyncio.get_running_loop()
        sender = loop.create_task(_send_pushes(websocket, connection, send))
        # A task of its own: waking it (a message, a commit) resumes its own few frames,
        # not those of every layer of middleware this handler runs within.
        receiver = loop.create_task(
            _receive_actions(receive, service, live, connection, token, account)
        )
        try:
            await receiver  # cancelling this handler cancels it
        finally:
            receiver.cancel()
            service.disconnect(live, connection)
            sender.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await sender

    return watch


async def _open_watch(
    websocket: WebSocket,
    service: GameService,
    accounts: Accounts,
    game_id: str,
    token: str | None,
    log_from: int,
) -> tuple[LiveGame, Connection, int | None] | None:
    """Register an accepted socket with its game; None once it is closed with why."""
    signed_in = await _socket_account(websocket, accounts, token)
    if signed_in is None:
        return None
    account = signed_in[0]
    try:
        live, connection = await service.connect(game_id, token, log_from, account)
    except Unreadable as error:  # what can be shown, then closed for good
        if error.text is not None:
            await websocket.send_text(error.text)
        await websocket.close(code=WS_READ_ONLY, reason=close_reason(error.detail))
        return None
    except ApiError as error:
        await websocket.close(code=4000 + error.status, reason=close_reason(error.detail))
        return None
    return live, connection, account


async def _socket_account(
    websocket: WebSocket, accounts: Accounts, token: str | None
) -> tuple[int | None] | None:
    """The account a socket without a seat token speaks for (in a 1-tuple: None if
    none); None once the socket is closed with why (another site's page, a wrong bearer)."""
    session = _session_token(websocket)
    if token or session is None:
        return (None,)
    # A page of another site must not open a socket with this site's cookie
    # (cross-site WebSocket hijacking): browsers always send Origin.
    cookie_only = _bearer_token(websocket) is None
    foreign = websocket.headers.get("origin") is not None and not _from_this_site(websocket)
    if cookie_only and foreign:
        await websocket.close(code=4403, reason=CROSS_SITE[:120])
        return None
    account = await accounts.account_id(session)
    if account is None and not cookie_only:
        await websocket.close(code=WS_UNAUTHORIZED, reason=close_reason(BEARER_REFUSED))
        return None
    return (account,)


async def _hold_socket(
    websocket: WebSocket,
    service: GameService,
    accounts: Accounts,
    game_id: str,
    owner: str,
    token: str | None,
    log_from: int,
) -> None:
    """A socket for a game another process owns: registered there, its texts passed on
    and its pushes written out from here (remote.py)."""
    remote = service.remote
    assert remote is not None
    signed_in = await _socket_account(websocket, accounts, token)
    if signed_in is None:
        return
    socket_id, held = remote.hold(game_id, owner, token, signed_in[0], log_from)
    sender = asyncio.get_running_loop().create_task(_send_held(websocket, held.queue))
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            remote.text(socket_id, text[: MAX_BODY + 1])  # the owner refuses what is over
    finally:
        remote.let_go(socket_id)
        sender.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await sender


async def _send_held(websocket: WebSocket, queue: asyncio.Queue[tuple[int, str] | str]) -> None:
    """Write out what the owner pushes to a held socket, until it says to close."""
    try:
        while True:
            item = await queue.get()
            if isinstance(item, tuple):
                code, reason = item
                await websocket.close(code=code, reason=close_reason(reason))
                return
            await websocket.send_text(item)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the client is gone


def query_number_problem(value: str, name: str, what: str) -> str:
    """Why a query value is not a number 0 or more written in 0-9 (``what``)."""
    if value.startswith("-") and read_number(value[1:]) is not None:
        return f"{name} must be 0 or more, not {value}"
    return number_problem(value, f"{what} ({name})")


def close_reason(text: str) -> str:
    """``text`` cut to what a WebSocket close frame carries (123 bytes of UTF-8)."""
    data = text.encode("utf-8")
    if len(data) <= 123:
        return text
    return data[:120].decode("utf-8", "ignore") + "..."


async def _send_pushes(websocket: WebSocket, connection: Connection, send: Send) -> None:
    """Write out what ``connection.push`` queued, with the server's own ``send`` (pushes.py),
    until it is told to close the socket."""
    try:
        while True:
            text = await connection.queue.get()
            if text is None:
                code, reason = connection.closing or (1000, "")
                await websocket.close(code=code, reason=reason)
                return
            connection.sending = True  # later pushes wait in the queue behind it
            await send({"type": "websocket.send", "text": text.decode()})
            connection.sending = False
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the client is gone


async def _receive_actions(
    receive: Receive,
    service: GameService,
    live: LiveGame,
    connection: Connection,
    token: str | None,
    account: int | None,
) -> None:
    """Actions may also come over the socket: {"action": ..., "version": ...}, and chat
    messages: {"chat": ..., "channel"?: ...}."""
    while True:
        message = await receive()
        metrics.arrived()  # an action in it is timed from here to its push
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            text = (message.get("bytes") or b"").decode("utf-8", "replace")
        reply = await _act_from_socket(service, live, connection, token, account, text)
        if reply is not None:
            connection.push(reply)


async def _act_from_socket(
    service: GameService,
    live: LiveGame,
    connection: Connection,
    token: str | None,
    account: int | None,
    text: str,
) -> bytes | None:
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
        if "chat" in request:
            await service.chat_on_socket(
                live, connection, token, request["chat"], request.get("channel"), account
            )
            return None
        action, version = request.get("action"), request.get("version")
        if not isinstance(action, str) or type(version) is not int:
            raise ApiError(400, "a message needs 'action' (a string) and 'version' (a number)")
        await service.act_on_socket(live, connection, token, action, version, account)
        return None
    except (DBAPIError, PoolTimeout) as error:  # the game was dropped, and cannot load now
        if not is_unreachable(error):
            raise
        service.repo.outage.report(error)
        return jsontext.dump_bytes({"error": {"status": 503, "detail": UNREACHABLE}})
    except ApiError as error:
        reply: dict[str, Any] = {"status": error.status, "detail": error.detail}
        if error.state is not None:
            reply["state"] = error.state
        return jsontext.dump_bytes({"error": reply})
