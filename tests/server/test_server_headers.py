"""Security headers on every answer: the page, a static file, API answers, errors (issue 14)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from machiavel.server import create_app
from machiavel.server.headers import DOCS_POLICY, PAGE_POLICY

REQUIRED = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


def assert_secured(headers: Mapping[str, str], policy: str = PAGE_POLICY) -> None:
    for name, value in REQUIRED.items():
        assert headers.get(name) == value, name
    assert headers.get("content-security-policy") == policy


def test_the_page_policy_forbids_inline_script_and_framing() -> None:
    directives = dict(part.strip().split(" ", 1) for part in PAGE_POLICY.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in PAGE_POLICY


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/", 200),
        ("/app.js", 200),
        ("/style.css", 200),
        ("/api/catalog", 200),
        ("/api/games?status=active", 200),
        ("/api/games/nosuchgame", 404),
        ("/api/games?status=nonsense", 400),
        ("/api/games?limit=x", 422),
        ("/no-such-file.js", 404),
    ],
)
def test_every_kind_of_answer_has_the_headers(client: TestClient, path: str, status: int) -> None:
    answer = client.get(path)
    assert answer.status_code == status
    assert_secured(answer.headers)


def test_answers_made_by_the_middlewares_have_them_too(client: TestClient) -> None:
    too_big = client.post(
        "/api/games", content=b"x" * (65 * 1024), headers={"content-type": "application/json"}
    )
    assert too_big.status_code == 413
    assert_secured(too_big.headers)
    fast_path = client.post(
        "/api/games/nosuchgame/actions", json={"token": "t", "action": "a", "version": 0}
    )
    assert fast_path.status_code == 404
    assert_secured(fast_path.headers)


def test_an_unexpected_error_has_the_headers(sqlite_url: str, bot_pool: object) -> None:
    app = create_app(sqlite_url, bot_executor=bot_pool)

    @app.get("/api/test-crash")
    async def crash() -> None:
        raise RuntimeError("boom")

    app.router.routes.insert(0, app.router.routes.pop())  # before the static files at /
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/api/test-crash")
    assert answer.status_code == 500
    assert answer.json() == {"detail": "internal error (see the server log)"}
    assert_secured(answer.headers)


def test_the_api_documentation_pages_get_their_own_policy(client: TestClient) -> None:
    for path in ("/docs", "/redoc"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert_secured(answer.headers, DOCS_POLICY)
    assert_secured(client.get("/openapi.json").headers)


def test_websockets_pass_through_the_middleware(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "tyrus", "players": 2}).json()
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as socket:
        assert socket.receive_json()["id"] == created["id"]
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/api/games/nosuchgame/ws") as socket,
    ):
        socket.receive_text()
    assert closed.value.code == 4404
