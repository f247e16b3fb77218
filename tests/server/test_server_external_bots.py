"""A bot from outside, for real: ``examples/external_bot.py`` run as its own program
against ``machiavel serve`` (a process of its own on a free port, a temporary SQLite
database, ``--no-limits``) plays a whole game of each registered game against the
server's medium bots; each game is then over and stored, and the bot account is rated
in it, shown as a bot. The server's whole process group is gone afterwards.

Waits are on conditions (the server answering, the program ending), bounded only to fail
a test that is truly stuck.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from sqlalchemy import select

import machiavel
from machiavel.core.contract import Setup
from machiavel.core.registry import games as registered_games
from machiavel.server.launch import (
    free_port,
    serve_command,
    start_server_process,
    stop_server_process,
)
from machiavel.server.storage import RatingChangeRow, Repository
from support.waiting import wait_until

STUCK = 300.0  # seconds after which a wait fails: only a stuck test gets there
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "external_bot.py"
OWNER, PASSWORD, BOT = "ada", "correct horse", "randy"
GAMES = ("tyrus", "djambi", "guildes", "tyros")


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    base: str
    database: str
    log: Path

    def get(self, path: str) -> Any:
        answer = httpx2.get(self.base + path, timeout=STUCK)
        assert answer.status_code == 200, answer.text
        return answer.json()


def answers(served: Served) -> bool:
    assert served.process.poll() is None, f"the server stopped:\n{served.log.read_text()}"
    try:
        return httpx2.get(served.base + "/api/catalog", timeout=STUCK).status_code == 200
    except httpx2.TransportError:
        return False


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("external-bots")
    database = f"sqlite:///{folder / 'machiavel.db'}"
    port = free_port()
    log = folder / "server.log"
    with log.open("wb") as output:
        # The games follow one another from one address: no limits on this server.
        command = [*serve_command(database, port, bot_workers=1), "--no-limits"]
        process = start_server_process(command, output)
    server = Served(process, f"http://127.0.0.1:{port}", database, log)
    try:
        wait_until(lambda: answers(server), "the server to answer")
        owner = httpx2.post(
            server.base + "/api/accounts",
            json={"name": OWNER, "password": PASSWORD},
            timeout=STUCK,
        )
        assert owner.status_code == 201, owner.text
        yield server
    finally:
        stop_server_process(process)
        wait_until(lambda: not still_running(process.pid), "the server's processes to end")


def still_running(group: int) -> list[int]:
    """The processes of a process group not yet ended. A zombie has ended: whoever adopted
    it may never reap it, so it does not count."""
    running = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # ended meanwhile
            continue
        state, _parent, process_group = text[text.rindex(")") + 2 :].split()[:3]
        if int(process_group) == group and state not in "ZX":
            running.append(int(stat.parent.name))
    return running


def run_example(served: Served, *arguments: str) -> str:
    """The example's output; it must end by itself, with status 0."""
    finished = subprocess.run(
        [sys.executable, str(EXAMPLE), "--server", served.base, "--seed", "7", *arguments],
        capture_output=True,
        text=True,
        timeout=STUCK,
        check=False,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    return finished.stdout


def token_in(output: str) -> str:
    found = re.search(r"its token \(shown once\): (\S+)", output)
    assert found is not None, output
    return found.group(1)


def table_of(output: str) -> str:
    found = re.search(r"playing table (\S+):", output)
    assert found is not None, output
    return found.group(1)


def stored_and_over(database: str, game_id: str) -> tuple[int, list[tuple[float, ...]]]:
    """The stored game's action count (replayed: over) and the bot account's rating
    change in it, (mu, sigma) before and after, from the database itself."""
    repository = Repository(database)
    try:
        loaded = repository.load(game_id)
        assert loaded is not None
        record, actions = loaded
        assert record.is_over and record.rated and record.version == len(actions)
        setup = Setup(record.game, record.players, record.seed, record.options)
        assert machiavel.game(record.game).replay(setup, actions).is_over
        with repository.engine.connect() as conn:
            changes = conn.execute(
                select(
                    RatingChangeRow.key,
                    RatingChangeRow.mu_before,
                    RatingChangeRow.sigma_before,
                    RatingChangeRow.mu_after,
                    RatingChangeRow.sigma_after,
                ).where(RatingChangeRow.game_id == game_id, RatingChangeRow.player == 0)
            ).all()
        return len(actions), [tuple(change[1:]) for change in changes]
    finally:
        repository.close()


def check_played(served: Served, game: str, output: str) -> None:
    """The game the example played is over, stored, rated, and the bot shown as one."""
    assert "game over after" in output, output
    game_id = table_of(output)
    state = served.get(f"/api/games/{game_id}")
    assert state["game"] == game and state["is_over"] and state["rated"]
    assert state["seats"][0]["name"] == BOT and state["seats"][0]["bot_account"] is True
    assert all(seat["level"] == "medium" for seat in state["seats"][1:])
    actions, changes = stored_and_over(served.database, game_id)
    assert actions == state["version"] > 0
    ((mu_before, sigma_before, mu_after, sigma_after),) = changes
    assert (mu_before, sigma_before) != (mu_after, sigma_after)
    profile = served.get(f"/api/players/{BOT}")
    assert profile["bot"] is True and profile["owner"] == OWNER
    assert profile["ratings"][game]["games"] == 1
    assert game_id in [recent["id"] for recent in profile["recent"]]
    board = served.get(f"/api/ratings/{game}")["players"]
    assert {(p["name"], p["bot"]) for p in board} == {(BOT, True), ("medium bot", True)}


def test_the_example_bot_plays_a_whole_game_of_each_game(served: Served) -> None:
    """The first run makes the bot account (its owner signs in) and prints its token;
    the next runs play with that token."""
    assert set(registered_games()) == set(GAMES)  # every registered game, none forgotten
    first, *others = GAMES
    output = run_example(
        served, "--owner", OWNER, "--password", PASSWORD, "--bot", BOT, "--game", first
    )
    token = token_in(output)
    check_played(served, first, output)
    for game in others:
        check_played(served, game, run_example(served, "--token", token, "--game", game))


def test_the_example_says_what_the_server_refused(served: Served) -> None:
    finished = subprocess.run(
        [sys.executable, str(EXAMPLE), "--server", served.base, "--token", "not-a-token"],
        capture_output=True,
        text=True,
        timeout=STUCK,
        check=False,
    )
    assert finished.returncode == 1
    assert finished.stderr.startswith(
        "refused (401): the token in 'Authorization: Bearer' opens no account"
    )
