"""A client that plays every seat of a game as fast as it can, through whatever answers,
and remembers each action a server acknowledged (the cluster tests' burst).

An action is acknowledged when a server answered 200 to it. Anything else (a 409, a
503 while a game moves between processes, a connection cut by a dying process, a
timeout) is not: the client looks at the game again and goes on, sending an action
whose answer it did not hear again with the same version (the server recognises it if
it was played). So at the end the acknowledged actions must all be stored, each once,
at the version they were sent at."""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from support.waiting import STUCK

Answer = tuple[int, dict[str, Any], dict[str, str]]  # status, body, headers (lowercase)
# No answer heard: refused, timed out, or cut by a process killed while it answered (its
# headers came but not the whole body: http.client's IncompleteRead, not an OSError).
CUT = (OSError, http.client.HTTPException)


def call(base: str, method: str, path: str, body: object = None, timeout: float = 10.0) -> Answer:
    """One HTTP request; (0, {}, {}) when no answer came (refused, cut, timed out)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read()), _headers(answer.headers)
    except urllib.error.HTTPError as error:
        try:
            payload = json.loads(error.read())
        except (ValueError, *CUT):
            payload = {}
        return error.code, payload, _headers(error.headers)
    except (urllib.error.URLError, ValueError, *CUT):
        return 0, {}, {}


def _headers(headers: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


@dataclass
class Burst:
    """Plays game ``game_id`` (every seat's token in ``tokens``) through ``bases`` in turn."""

    game_id: str
    tokens: list[str]
    bases: list[str]
    acknowledged: dict[int, tuple[int, str]] = field(default_factory=dict)  # version -> action
    answered_by: set[str] = field(default_factory=set)  # X-Machiavel-Node values seen
    failures: list[str] = field(default_factory=list)  # requests without a 200, told
    _turn: int = 0
    _started: float = field(default_factory=time.monotonic)

    def base(self) -> str:
        self._turn += 1
        return self.bases[self._turn % len(self.bases)]

    def state(self, base: str) -> dict[str, Any] | None:
        status, body, headers = call(base, "GET", f"/api/games/{self.game_id}")
        if status != 200:
            self._failed("GET", base, status, body)
            return None
        self._note(headers)
        return body

    def step(self) -> bool:
        """Play one action (or fail to); False once the game is over. Both looks at the
        game go to one base, the next one at each step: a base that fails every request
        then fails only its own steps (with two bases taking the looks in turn, such a base
        could take every second look of every step, and nothing would be played)."""
        base = self.base()
        state = self.state(base)
        if state is None:
            return True
        if state["is_over"]:
            return False
        player = state["to_move"][0]
        version = state["version"]
        token = self.tokens[player]
        status, mine, _ = call(base, "GET", f"/api/games/{self.game_id}?token={token}")
        if status != 200 or mine["version"] != version:
            self._failed("GET seat", base, status, mine)
            return True
        action = mine["legal_actions"][version % len(mine["legal_actions"])]
        self._send(player, action, version)
        return True

    def _send(self, player: int, action: str, version: int) -> None:
        """Send until a server answers it: 200 (acknowledged) or a refusal that says the
        game is elsewhere than this version (another action of this seat came first)."""
        body = {"action": action, "version": version, "token": self.tokens[player]}
        deadline = time.monotonic() + STUCK
        while time.monotonic() < deadline:
            path = f"/api/games/{self.game_id}/actions"
            base = self.base()
            status, answer, headers = call(base, "POST", path, body)
            if status == 200:
                self.acknowledged[version] = (player, action)
                self._note(headers)
                return
            self._failed(f"POST {version}", base, status, answer)
            if status in (400, 403, 409):
                return  # refused: nothing was played by this request
        raise AssertionError(f"no server answered action {version} for {STUCK} s")

    def _failed(self, what: str, base: str, status: int, answer: dict[str, Any]) -> None:
        moment = time.monotonic() - self._started
        detail = answer.get("detail", answer.get("version", ""))
        self.failures.append(f"{moment:8.2f} s  {what} {base} -> {status} {detail}")

    def story(self, last: int = 40) -> str:
        """The last requests that failed, for a test's failure message."""
        return "\n".join(self.failures[-last:]) or "(no request failed)"

    def _note(self, headers: dict[str, str]) -> None:
        node = headers.get("x-machiavel-node")
        if node:
            self.answered_by.add(node)

    def play(self, actions: int) -> None:
        """Play ``actions`` more acknowledged actions (fewer if the game ends)."""
        target = len(self.acknowledged) + actions
        deadline = time.monotonic() + STUCK
        while len(self.acknowledged) < target and self.step():
            assert time.monotonic() < deadline, f"the burst was stuck for {STUCK} s"
