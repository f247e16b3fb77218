"""The OpenAPI schema matches the server (issue 14): Schemathesis sends every route a
bounded, seeded set of requests made from the schema (valid ones and ones that break it)
through the ASGI app on a temporary SQLite database, and checks that no answer is a 5xx
and that every answer (status, content type, body) is one the schema documents.

Hypothesis is derandomized and the number of examples per route fixed (EXAMPLES), so the
run is the same on every machine and takes well under a minute on two cores.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import shutdown_lifespans
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from machiavel.server import create_app
from machiavel.server.accounts import TEST_COST
from machiavel.server.quotas import TableLimits
from support.botpool import SharedBotPool
from support.waiting import STUCK

EXAMPLES = int(os.environ.get("MACHIAVEL_SCHEMA_EXAMPLES", "25"))  # per route and generation mode
# Routes without a parameter or body that a request could get wrong.
NOTHING_TO_BREAK = {
    "GET /api/catalog",
    "GET /api/session",
    "DELETE /api/session",
    "GET /api/me",
    "GET /api/me/games",
    "GET /api/me/bots",
    "POST /api/me/bots/{name}/token",
    "GET /api/players/{name}",
}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def api_schema(
    tmp_path_factory: pytest.TempPathFactory, shared_bot_pool: SharedBotPool
) -> Iterator[Any]:
    database = tmp_path_factory.mktemp("schema") / "machiavel.db"
    app = create_app(
        f"sqlite:///{database}",
        bot_executor=shared_bot_pool.current(),
        password_cost=TEST_COST,
        table_limits=TableLimits.off(),  # thousands of requests from one address
    )
    loaded = schemathesis.openapi.from_asgi("/openapi.json", app)  # starts its lifespan
    loaded.config.generation.update(max_examples=EXAMPLES, deterministic=True)
    yield loaded
    shutdown_lifespans()  # the app's service stops: its writer and bot scheduling


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_every_answer_is_one_the_schema_documents(api_schema: Any, mode: str) -> None:
    # One test per mode (xdist runs them side by side), every route in each: Schemathesis'
    # pytest plugin (schema.parametrize with a fixture) does not run under pytest 9.
    generation = schemathesis.GenerationMode(mode)
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 20
    unsatisfiable = set()
    for operation in operations:
        try:
            check_operation(operation, generation)
        except Unsatisfiable:  # nothing in its schema can be broken
            unsatisfiable.add(operation.label)
    assert unsatisfiable == (NOTHING_TO_BREAK if mode == "negative" else set())


def check_operation(operation: Any, mode: schemathesis.GenerationMode) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def answers_as_documented(case: Any) -> None:
        # Schemathesis gives up on an answer after 10 s, which a starved machine can take
        # (seen beside an arena): only a stuck request may fail the test.
        case.call_and_validate(checks=CHECKS, timeout=STUCK)

    answers_as_documented()


# ---- what the run found -------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "detail"),
    [
        (
            "/api/ratings/tyrus?offset=9223372036854775808",
            "offset must be from 0 to 2147483647",
        ),
        (
            "/api/games/{game}/chat?before=9223372036854775808",
            "before must be a message number from 1 to 2147483647",
        ),
    ],
)
def test_a_position_past_what_the_database_holds_is_refused(
    client: TestClient, path: str, detail: str
) -> None:
    # Both were a 500: the number went to the database, which cannot hold it.
    created = client.post("/api/games", json={"game": "tyrus", "players": 2})
    answer = client.get(path.format(game=created.json()["id"]))
    assert answer.status_code == 400
    assert answer.json() == {"detail": detail}
