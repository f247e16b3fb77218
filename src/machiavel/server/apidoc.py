"""What the OpenAPI schema (/openapi.json, /docs) says of each route beyond its success:
every refusal it can answer, and the bounds and choices of its parameters.

The service checks bounds itself and answers 400 with a sentence saying what is wrong
(tests and clients rely on those sentences), so the bounds are declared to the schema only
(``json_schema_extra``), from the same constants the service checks with; FastAPI's own
validation (422) still refuses what is not of the right type.
"""

from __future__ import annotations

from typing import Any

from fastapi import Path, Query

from machiavel.bots import LEVELS
from machiavel.core.registry import games
from machiavel.server.chat import MAX_PAGE
from machiavel.server.schemas import ErrorOut, StaleOut
from machiavel.server.service import GAME_ID, LOBBY_STATUSES, MAX_LEADERBOARD, MAX_POSITION

Responses = dict[int | str, dict[str, Any]]

WHY: dict[int, str] = {
    400: "a request that breaks a rule (the detail says which), or a Content-Length that "
    "is not a number",
    401: "not signed in, a wrong name or password, or an 'Authorization: Bearer' token that "
    "opens no account",
    403: "a token or account that does not give this right, or a cross-site request with "
    "the session cookie",
    404: "no such game, table or player",
    409: "the game or seat changed meanwhile, or does not allow this now",
    410: "a stored game that no longer replays: it is only shown",
    413: "a body over 64 KiB",
    422: "a parameter or body field of the wrong type, or missing",
    429: "too many attempts or messages: wait, then try again",
    503: "the database cannot be reached, the server holds too many connections, or the "
    "change could not be stored: nothing changed, try again",
}
# The body limit (app.BodyLimit) sees every request first; any request may find the
# database out of reach (outage.py) or the server full (--max-connections).
EVERY_REQUEST = (400, 413, 503)
MAX_LOBBY = 500


def refusals(*statuses: int) -> Responses:
    """The ``responses=`` of a route that can also answer these statuses."""
    codes = sorted({*EVERY_REQUEST, *statuses})
    return {code: {"model": ErrorOut, "description": WHY[code]} for code in codes}


def write_refusals(*statuses: int) -> Responses:
    """Those of a route that changes something: past the write rate of a session or an
    address (app.WriteLimit, before anything is read), 429 too."""
    return refusals(429, *statuses)


# A table named in the path, a token, the cookie or a bearer token (401: one that opens
# no account).
GAME_ROUTE = (401, 403, 404, 410, 422)

CATALOG = refusals()
SESSION = refusals(401)  # only for a bearer token that opens no account
LOBBY = refusals(422)
LEADERBOARD = refusals(404, 422)
PLAYER = refusals(404)
STATE = refusals(401, 403, 404, 422)  # a read-only game is shown (200), never refused
REPLAY = refusals(404, 409, 410, 422)
READ_CHAT = refusals(*GAME_ROUTE)
ME = refusals(401)
PAGE = {"text/html": {"schema": {"type": "string"}}}
HTML_PAGE: Responses = {
    200: {"content": PAGE, "description": "a page saying it is done"},
    400: {
        "model": ErrorOut,
        "content": PAGE,
        "description": "a page saying the link is not valid (or the JSON detail of a body "
        "refused before the route)",
    },
}
# else a page saying what was done (400 for a token that is not valid)
UNSUBSCRIBE_LINK = {**refusals(422), **HTML_PAGE}
CREATE = write_refusals(401, 403, 422, 503)
ACT = {
    **write_refusals(*GAME_ROUTE, 409, 503),
    409: {
        "model": StaleOut | ErrorOut,
        "description": "the version is not the current one (the current state comes with "
        "the detail), or the game changed elsewhere",
    },
}
JOIN = write_refusals(*GAME_ROUTE, 409, 503)
WRITE_CHAT = write_refusals(*GAME_ROUTE, 409, 503)
REMATCH = write_refusals(*GAME_ROUTE, 409, 503)
SIGN_UP = write_refusals(403, 409, 422, 503)
SIGN_IN = write_refusals(401, 403, 422)
SIGN_OUT = write_refusals(403)
CHANGE_ME = write_refusals(401, 403, 422)
CLAIM = write_refusals(*GAME_ROUTE, 401, 409, 503)
REINVITE = write_refusals(*GAME_ROUTE, 409, 503)
LEAVE = write_refusals(*GAME_ROUTE, 409, 503)
TAKE_BACK = write_refusals(*GAME_ROUTE, 409, 503)
MAKE_BOT = write_refusals(401, 403, 409, 422, 503)
BOT_TOKEN = write_refusals(401, 403, 404, 503)
UNSUBSCRIBE_ONE_CLICK = {**write_refusals(422), **HTML_PAGE}


def bounded(default: int | None, low: int, high: int | None = None, description: str = "") -> Any:
    """A query parameter whose bounds are in the schema (the service checks them)."""
    bounds: dict[str, Any] = {"minimum": low}
    if high is not None:
        bounds["maximum"] = high
    return Query(default, description=description, json_schema_extra=bounds)


def game_id_path() -> Any:
    """A table's id: what ``service.GAME_ID`` accepts (anything else: 404)."""
    return Path(description="a table's id", json_schema_extra={"pattern": f"^{GAME_ID.pattern}$"})


def seat_path() -> Any:
    return Path(description="a seat's number, from 0", json_schema_extra={"minimum": 0})


def lobby_status() -> Any:
    return Query(
        "active",
        description="which games: active (open and running), open, running, finished, all",
        json_schema_extra={"enum": list(LOBBY_STATUSES)},
    )


def game_name_path() -> Any:
    return Path(
        description="a game: " + ", ".join(games()), json_schema_extra={"enum": list(games())}
    )


def lobby_limit() -> Any:
    return bounded(100, 1, MAX_LOBBY, "games at most")


def leaderboard_limit() -> Any:
    return bounded(50, 1, MAX_LEADERBOARD, "players at most")


def leaderboard_offset() -> Any:
    return bounded(0, 0, MAX_POSITION, "players skipped")


def chat_before() -> Any:
    return bounded(None, 1, MAX_POSITION, "older than this message (default: the latest)")


def chat_limit() -> Any:
    return bounded(50, 1, MAX_PAGE, "messages at most")


BOT_LEVELS = list(LEVELS)
