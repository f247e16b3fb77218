"""No leak: every payload a seat receives is exactly what ``state.view(seat)`` allows.

For each registered game, random games are played through the API by people (random
legal actions) and bots. Every answer and every push is then checked against an oracle
that replays the stored actions independently: the view, the legal actions and the log
must be exactly those of that seat at that version, nothing more, the log in every
language. Tyrus adds a concrete check: a hidden tile of the opponent never appears anywhere
in a seat's payload.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import defaultdict
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import machiavel
from machiavel.core.contract import LANGUAGES, Setup, State
from machiavel.core.rng import Rng
from support.waiting import STUCK, Progress

Payload = dict[str, Any]
SEAT_KEYS = {"player", "kind", "level", "name", "claimed", "reserved", "stand_in", "bot_account"}
LOG_KEYS = {"log": "en", "log_fr": "fr"}  # the log in each language (docs/server.md)
# Keys of a payload about the table rather than the game's state: not the oracle's.
TABLE_KEYS = {
    *("seats", "log_start", "rated", "chat", "rematch", "pace", "turn_since", "seed_chosen"),
    *("clocks", "outcome", "stand_in_level"),
}


def cases() -> list[tuple[str, int, int]]:
    """(game, players, seed): several Tyrus games, every player count of the others.

    The seed picks the seats and the people's moves; the deal is the server's (a table of
    people never chooses it), read back from storage by the oracle, so every deal passes."""
    found: list[tuple[str, int, int]] = []
    for game_id in machiavel.games():
        try:
            spec = machiavel.game(game_id)
        except Exception:  # a game still being written is tested once it loads
            continue
        if game_id == "tyrus":
            found += [("tyrus", 2, seed) for seed in range(6)]
            continue
        counts = sorted({spec.min_players, spec.max_players})
        found += [(game_id, players, 100 + players) for players in counts]
    return found


def seats_for(players: int, seed: int) -> list[dict[str, Any]]:
    """People and bots mixed; the pattern shifts with the seed, and people are the majority."""
    pattern = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "human"}]
    return [pattern[(p + seed) % 3] for p in range(players)]


class Watcher:
    """Reads every push of one WebSocket in a thread of its own, as they come."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.messages: list[Payload] = []
        self.error: BaseException | None = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while True:
                self.messages.append(self.ws.receive_json())
        except BaseException as error:  # the socket closed: the test is done with it
            self.error = error

    def until_version(self, version: int, seconds: float = STUCK) -> list[Payload]:
        deadline = time.monotonic() + seconds
        while not any(m["version"] == version for m in self.messages):
            assert self.error is None, f"the socket closed early: {self.error!r}"
            assert time.monotonic() < deadline, f"no push of version {version} came"
            time.sleep(0.005)
        return list(self.messages)


class Collector:
    """Every payload received, with the viewer it was meant for."""

    def __init__(self) -> None:
        self.payloads: list[tuple[int | None, Payload, str]] = []

    def add(self, viewer: int | None, payload: Payload) -> Payload:
        payload = dict(payload)
        payload.pop("detail", None)  # a 409 is the current state plus its message
        self.payloads.append((viewer, payload, json.dumps(payload)))
        return payload


def play_through_api(
    client: TestClient, game: str, players: int, seed: int, collector: Collector
) -> str:
    answer = client.post("/api/games", json={"game": game, "seats": seats_for(players, seed)})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    game_id = created["id"]
    humans = {s["player"]: s["token"] for s in created["seats"] if s["token"] is not None}
    rng = Rng(seed)
    sockets = {
        viewer: client.websocket_connect(
            f"/api/games/{game_id}/ws" + (f"?token={humans[viewer]}" if viewer is not None else "")
        )
        for viewer in [*humans, None]
    }
    watchers = {viewer: Watcher(ws.__enter__()) for viewer, ws in sockets.items()}
    try:
        final = _drive(client, game_id, humans, rng, collector)
        for viewer, watcher in watchers.items():  # every push up to the end, checked later
            held = 0  # log lines this connection has: each push continues them
            for pushed in watcher.until_version(final):
                collector.add(viewer, pushed)
                assert pushed["log_start"] in (0, held)
                assert len(pushed["log_fr"]) == len(pushed["log"])
                held = pushed["log_start"] + len(pushed["log"])
                assert held == pushed["version"]
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    return str(game_id)


def _drive(
    client: TestClient, game_id: str, humans: dict[int, str], rng: Rng, collector: Collector
) -> int:
    """People play random legal actions whenever they are to move; bots play meanwhile."""
    known = collector.add(None, client.get(f"/api/games/{game_id}").json())
    progress = Progress()  # fail a game stuck, not a long one
    while not known["is_over"]:
        progress.saw(known["version"])
        movers = [p for p in known["to_move"] if p in humans]
        if not movers:
            time.sleep(0.002)  # bots are thinking
            known = collector.add(None, client.get(f"/api/games/{game_id}").json())
            continue
        player = movers[0]
        token = humans[player]
        if known["player"] != player:
            known = collector.add(
                player, client.get(f"/api/games/{game_id}", params={"token": token}).json()
            )
            if player not in known["to_move"]:
                continue
        action = rng.choice(known["legal_actions"])
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"token": token, "action": action, "version": known["version"]},
        )
        assert answer.status_code in (200, 409), answer.text
        known = collector.add(player, answer.json())
    return int(known["version"])


def expected_payloads(
    client: TestClient, game_id: str, wanted: dict[int, set[int | None]]
) -> tuple[dict[tuple[int, int | None], Payload], dict[int, State]]:
    """What each viewer may receive at each version, by an independent replay."""
    loaded = client.app.state.service.repo.load(game_id)  # type: ignore[attr-defined]
    assert loaded is not None
    record, actions = loaded
    spec = machiavel.game(record.game)
    state = spec.state_from_setup(Setup(record.game, record.players, record.seed, record.options))
    viewers: list[int | None] = [*range(record.players), None]
    logs: dict[tuple[int | None, str], list[str]] = {
        (viewer, language): [] for viewer in viewers for language in LANGUAGES
    }
    expected: dict[tuple[int, int | None], Payload] = {}
    marks: list[Payload] = []
    states: dict[int, State] = {}
    for version in range(len(actions) + 1):
        if version in wanted:
            states[version] = state.clone()
            for viewer in wanted[version]:
                expected[(version, viewer)] = {
                    "id": game_id,
                    "game": record.game,
                    "version": version,
                    "view": state.view(viewer),
                    "to_move": list(state.to_move),
                    "legal_actions": state.legal_actions(viewer) if viewer is not None else [],
                    "is_over": state.is_over,
                    "winners": list(state.winners),
                    "player": viewer,
                    # all lines, in every language: sliced at log_start below
                    **{key: list(logs[(viewer, lang)]) for key, lang in LOG_KEYS.items()},
                    "marks": list(marks),
                    "ending": (
                        {language: state.ending(language) for language in LANGUAGES}
                        if state.is_over
                        else None
                    ),
                }
        if version < len(actions):
            player, action = actions[version]
            before = state.clone()
            said = {key: state.describe(player, action, *key) for key in logs}
            state.apply(player, action)
            for (viewer, language), line in said.items():
                events = state.events(before, player, action, viewer, language)
                logs[(viewer, language)].append("\n".join([line, *events]))
            marks.append({"player": player, **state.marks(before, player, action)})
    return expected, states


@pytest.mark.parametrize(("game", "players", "seed"), cases())
def test_every_payload_is_exactly_what_its_seat_may_see(
    client: TestClient, game: str, players: int, seed: int
) -> None:
    collector = Collector()
    game_id = play_through_api(client, game, players, seed, collector)
    wanted: dict[int, set[int | None]] = defaultdict(set)
    for viewer, payload, _ in collector.payloads:
        wanted[payload["version"]].add(viewer)
    expected, states = expected_payloads(client, game_id, wanted)
    seats = seats_for(players, seed)
    for viewer, payload, text in collector.payloads:
        version = payload["version"]
        got = {key: value for key, value in payload.items() if key not in TABLE_KEYS}
        assert payload.get("chat", []) == [] and payload["rematch"] is None  # nobody chats
        assert payload["seed_chosen"] is False
        wanted_payload = dict(expected[(version, viewer)])
        assert 0 <= payload["log_start"] <= version
        for key in (*LOG_KEYS, "marks"):
            wanted_payload[key] = wanted_payload[key][payload["log_start"] :]
        assert got == wanted_payload, f"{game} v{version} viewer {viewer}"
        for seat, asked in zip(payload["seats"], seats, strict=True):
            assert set(seat) == SEAT_KEYS and seat["kind"] == asked["kind"]
        if game == "tyrus":
            assert_no_hidden_tyrus_tile(states[version], viewer, text)
    assert len({p["version"] for _, p, _ in collector.payloads}) > 10


def assert_no_hidden_tyrus_tile(state: Any, viewer: int | None, text: str) -> None:
    """Tiles the viewer cannot know are never named in its payload (T9)."""
    known: set[str] = set()
    hidden: set[str] = set()
    for player in (0, 1):
        placed = {
            tile for building in state.buildings for owner, tile in building if owner == player
        }
        mine = set(state.hands[player]) | placed
        if player == viewer:
            known |= mine
        else:
            hidden |= mine | set(state.reserves[player])
    for tally in state.tallies:
        known |= {entry["tile"] for entry in tally["tiles"]}
    if state.is_over:
        known |= {tile for hand in state.hands for tile in hand}
    for tile in sorted(hidden - known):
        # A tile stands alone ("S5"); random ids and tokens may contain the same letters.
        assert not re.search(rf"(?<![\w-]){tile}(?![\w-])", text), f"{tile} leaked to {viewer}"
