"""Bots on the server: worker processes, simultaneous choices, failures, every level.

Simultaneous choices are tested on a tiny game made here, "guess" (every player picks
a number at once, three rounds), registered for the test only; its bots run in threads
since worker processes cannot import a test module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from typing import Any

import pytest
from fastapi.testclient import TestClient

import machiavel
from machiavel.core import registry
from machiavel.core.contract import Game, JsonDict, Option, Setup, State
from machiavel.core.fields import DICT, ROWS, StateFields
from support.waiting import STUCK

Client = Callable[..., AbstractContextManager[TestClient]]


class GuessState(State):
    """Each round every player picks 1-3 at once; a pick is hidden until all have picked."""

    fields = StateFields(rounds=ROWS, picks=DICT)  # picks: player -> pick

    def __init__(self, game: Game, setup: Setup) -> None:
        super().__init__(game, setup)
        self.rounds: list[list[int]] = []
        self.picks: dict[int, int] = {}

    @property
    def to_move(self) -> tuple[int, ...]:
        if len(self.rounds) == self.setup.options["rounds"]:
            return ()
        return tuple(p for p in range(self.players) if p not in self.picks)

    def _legal(self, player: int) -> list[str]:
        return ["pick 1", "pick 2", "pick 3"]

    def _play(self, player: int, action: str) -> None:
        self.picks[player] = int(action.split()[1])
        if len(self.picks) == self.players:
            self.rounds.append([self.picks[p] for p in range(self.players)])
            self.picks = {}

    def _view(self, player: int | None) -> JsonDict:
        return {
            "rounds": [list(r) for r in self.rounds],
            "picked": sorted(self.picks),
            "my_pick": self.picks.get(player) if player is not None else None,
        }

    def _describe(self, player: int, action: str, viewer: int | None, language: str) -> str:
        if language == "fr":
            return (
                f"joueur {player} : {action}" if viewer == player else f"joueur {player} a choisi"
            )
        return f"player {player}: {action}" if viewer == player else f"player {player} picked"

    @property
    def scores(self) -> list[float]:
        return [float(sum(r[p] for r in self.rounds)) for p in range(self.players)]

    @property
    def winners(self) -> tuple[int, ...]:
        if self.to_move:
            return ()
        best = max(self.scores)
        return tuple(p for p, s in enumerate(self.scores) if s == best)


class Guess(Game):
    id = "guess"
    title = "Guess"
    min_players = 2
    max_players = 4
    option_specs = (Option("rounds", 3, "rounds to play", minimum=1, maximum=9),)

    def _initial_state(self, setup: Setup) -> State:
        return GuessState(self, setup)

    def render(self, view: JsonDict) -> str:
        return str(view)


@pytest.fixture
def with_guess(monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    """'guess' joins the registry for one test."""
    game = Guess()
    known, load = registry.games, registry._load
    monkeypatch.setattr(registry, "games", lambda: (*known(), "guess"))
    monkeypatch.setattr(registry, "_load", lambda gid: game if gid == "guess" else load(gid))
    yield game


@pytest.fixture
def threads() -> Iterator[ThreadPoolExecutor]:
    pool = ThreadPoolExecutor(4)
    yield pool
    pool.shutdown(wait=True)


def create(
    client: TestClient, game: str, seats: list[dict[str, Any]], **body: Any
) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": game, "seats": seats, "seed": 1, **body})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def wait_for(
    client: TestClient,
    game_id: str,
    done: Callable[[dict[str, Any]], bool],
    token: str | None = None,
    seconds: float = STUCK,
) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        params = {"token": token} if token else {}
        state: dict[str, Any] = client.get(f"/api/games/{game_id}", params=params).json()
        if done(state):
            return state
        assert time.monotonic() < deadline, f"timed out at version {state['version']}"
        time.sleep(0.005)


def service_of(client: TestClient) -> Any:
    return client.app.state.service  # type: ignore[attr-defined]


def test_simultaneous_bots_each_think_once_per_choice(
    client_on: Client, sqlite_url: str, with_guess: Game, threads: ThreadPoolExecutor
) -> None:
    with client_on(sqlite_url, bot_executor=threads) as client:
        bots = [{"kind": "bot", "level": "easy"}] * 4
        game_id = create(client, "guess", bots, options={"rounds": 5})["id"]
        end = wait_for(client, game_id, lambda s: s["is_over"])
        assert end["version"] == 20 and len(end["view"]["rounds"]) == 5
        # A bot whose choice did not change while the others chose was not asked again.
        assert service_of(client).bots.moves_computed == 20


def test_a_person_choosing_with_bots_is_told_when_they_chose_first(
    client_on: Client, sqlite_url: str, with_guess: Game, threads: ThreadPoolExecutor
) -> None:
    with client_on(sqlite_url, bot_executor=threads) as client:
        seats = [
            {"kind": "human"},
            {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "medium"},
        ]
        created = create(client, "guess", seats, options={"rounds": 2})
        game_id, token = created["id"], created["seats"][0]["token"]
        state = wait_for(client, game_id, lambda s: s["to_move"] == [0], token)
        assert state["version"] == 2 and state["view"]["picked"] == [1, 2]
        assert state["view"]["my_pick"] is None
        assert all(line.endswith(" picked") for line in state["log"])  # hidden picks
        assert all(line.endswith(" a choisi") for line in state["log_fr"])
        answer = client.post(
            f"/api/games/{game_id}/actions", json={"token": token, "action": "pick 2", "version": 0}
        )
        assert answer.status_code == 409 and answer.json()["version"] == 2
        answer = client.post(
            f"/api/games/{game_id}/actions", json={"token": token, "action": "pick 2", "version": 2}
        )
        assert answer.status_code == 200
        state = wait_for(client, game_id, lambda s: s["to_move"] == [0] or s["is_over"], token)
        assert state["view"]["rounds"][0][0] == 2
        assert state["log"][2] == "player 0: pick 2"


def test_a_failing_bot_plays_at_random_rather_than_block_the_game(
    client_on: Client, sqlite_url: str, threads: ThreadPoolExecutor
) -> None:
    broken = {"easy": {"no_such_parameter": 1}}
    with client_on(sqlite_url, bot_executor=threads, bot_params=broken) as client:
        game_id = create(client, "tyrus", [{"kind": "bot", "level": "easy"}] * 2)["id"]
        end = wait_for(client, game_id, lambda s: s["is_over"])
        assert end["winners"]


def test_every_level_plays_in_worker_processes(client_on: Client, sqlite_url: str) -> None:
    """Hard and expert are search bots; shortened here, expert still on two cores."""
    quick = {
        "hard": {"seconds": None, "iterations": 30},
        "expert": {"seconds": None, "iterations": 30, "jobs": 2},
    }
    with client_on(sqlite_url, bot_executor=None, bot_workers=2, bot_params=quick) as client:
        for level in machiavel.bots.LEVELS:
            seats = [{"kind": "human"}, {"kind": "bot", "level": level}]
            created = create(client, "tyrus", seats, seed=5)
            game_id, token = created["id"], created["seats"][0]["token"]
            for _ in range(2):
                state = wait_for(client, game_id, lambda s: 0 in s["to_move"], token)
                answer = client.post(
                    f"/api/games/{game_id}/actions",
                    json={
                        "token": token,
                        "action": state["legal_actions"][0],
                        "version": state["version"],
                    },
                )
                assert answer.status_code == 200, answer.text
            state = wait_for(client, game_id, lambda s: 0 in s["to_move"], token)
            assert state["version"] >= 3 and state["seats"][1]["level"] == level


def test_no_request_waits_on_a_bot(client_on: Client, sqlite_url: str, bot_gate: Any) -> None:
    """A bot's move is held for as long as the test likes: requests are answered meanwhile
    (a request waiting on it would wait until the gate opens, and fail here)."""
    gate = bot_gate()
    asking = ThreadPoolExecutor(1)
    with client_on(sqlite_url, bot_executor=gate) as client:
        try:
            seats = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
            game_id = create(client, "tyrus", seats)["id"]
            assert gate.holding.wait(STUCK)  # a bot is thinking now, until the gate opens

            def ask() -> int:
                for _ in range(5):
                    assert client.get(f"/api/games/{game_id}").status_code == 200
                    assert client.get("/api/games").status_code == 200
                version: int = client.get(f"/api/games/{game_id}").json()["version"]
                return version

            assert asking.submit(ask).result(timeout=STUCK) == 0  # answered, bot still held
            gate.release()
            wait_for(client, game_id, lambda s: s["version"] >= 1)  # then the bot moves
        finally:
            gate.release()  # a request stuck on the bot would end now
            asking.shutdown()
