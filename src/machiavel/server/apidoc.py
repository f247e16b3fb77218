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
    401: "not signed in, or a wrong name or password",
    403: "a token or account that does not give this right, or a cross-site request with "
    "the session cookie",
    404: "no such game, table or player",
    409: "the game or seat changed meanwhile, or does not allow this now",
    410: "a stored game that no longer replays: it is only shown",
    413: "a body over 64 KiB",
    422: "a parameter or body field of the wrong type, or missing",
    429: "too many attempts or messages: wait, then try again",
    503: "the change could not be stored: nothing changed, try again",
}
EVERY_REQUEST = (400, 413)  # the body limit (app.BodyLimit) sees every request first
MAX_LOBBY = 500


def refusals(*statuses: int) -> Responses:
    """The ``responses=`` of a route that can also answer these statuses."""
    codes = sorted({*EVERY_REQUEST, *statuses})
    return {code: {"model": ErrorOut, "description": WHY[code]} for code in codes}


GAME_ROUTE = (403, 404, 410, 422)  # a table named in the path, a token or the cookie

CATALOG = refusals()
SESSION = refusals()
LOBBY = refusals(422)
LEADERBOARD = refusals(404, 422)
PLAYER = refusals(404)
CREATE = refusals(403, 422, 503)
STATE = refusals(403, 404, 422)  # a read-only game is shown (200), never refused
ACT = {
    **refusals(*GAME_ROUTE, 409, 503),
    409: {
        "model": StaleOut | ErrorOut,
        "description": "the version is not the current one (the current state comes with "
        "the detail), or the game changed elsewhere",
    },
}
JOIN = refusals(*GAME_ROUTE, 409, 503)
REPLAY = refusals(404, 409, 410, 422)
WRITE_CHAT = refusals(*GAME_ROUTE, 409, 429, 503)
READ_CHAT = refusals(*GAME_ROUTE)
REMATCH = refusals(*GAME_ROUTE, 409, 503)
SIGN_UP = refusals(403, 409, 422, 503)
SIGN_IN = refusals(401, 403, 422, 429)
SIGN_OUT = refusals(403)
ME = refusals(401)
CHANGE_ME = refusals(401, 403, 422, 429)
CLAIM = refusals(*GAME_ROUTE, 401, 409, 503)
REINVITE = refusals(*GAME_ROUTE, 409, 503)


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
