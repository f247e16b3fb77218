"""Arenas on Ray (`arena --ray`): the file of a run in one process, resumed, stopped, refused.

One local Ray for the module (its startup is the slow part); the arenas join it, as a
process that has already called ``ray.init`` does.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import machiavel
from machiavel import cli
from machiavel.bots.arena import GameOutcome, GameTask, RayCluster, run_arena
from machiavel.bots.arena_ray import ClusterUnavailable, cancel_games, cpus_for, play_on_ray
from support.waiting import STUCK, wait_until

ray = pytest.importorskip("ray")

CPUS = 3  # logical: Ray runs that many games at once, whatever the cores
ARENA = ["arena", "--game", "tyrus", "--bots", "random,easy,medium", "--games", "2"]
ARENA += ["--seed", "70"]
NEVER_ENDS = "ismcts:seconds=100000"  # a bot that thinks for a day on its first move


STARTS = 3


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_AUTH_MODE", "disabled")  # a private cluster: no token in ~/.ray
        temp = _start_ray()
        started = _ray_processes(temp)
        assert any("raylet" in _command_line(pid) for pid in started)
        try:
            yield
        finally:
            started |= _ray_processes(temp)  # the workers started since, too
            ray.shutdown()
            wait_until(lambda: not _alive(started), "every process of the test's Ray to end")
            shutil.rmtree(temp, ignore_errors=True)


def _start_ray() -> Path:
    """A local Ray with ``CPUS`` CPUs, under a temp dir of its own (whose path names its
    processes). Ray gives its raylet a fixed 30 s to start, which a machine busy with
    other work can miss: such a start is cleared away and tried again."""
    for attempt in range(1, STARTS + 1):
        # A short path: Ray's sockets live under it, and socket paths have a length limit.
        temp = Path(tempfile.mkdtemp(prefix="mvray"))
        try:
            ray.init(
                num_cpus=CPUS,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
                _temp_dir=str(temp),
            )
            return temp
        except Exception as error:
            if "timed out during startup" not in str(error) or attempt == STARTS:
                raise
            _stop(_ray_processes(temp))
            shutil.rmtree(temp, ignore_errors=True)
    raise AssertionError("unreachable: the last start raises")


def _ray_processes(temp: Path) -> set[int]:
    """The raylet and the other processes of the Ray under ``temp``, with their children
    (the workers, which rename themselves)."""
    found = {int(pid) for pid in _pgrep("-f", str(temp))}
    for parent in list(found):
        found |= {int(pid) for pid in _pgrep("-P", str(parent))}
    return found


def _stop(pids: set[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not _alive(pids), "the processes of a failed Ray start to end")


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except FileNotFoundError:
        return ""


def _pgrep(*args: str) -> list[str]:
    return subprocess.run(["pgrep", *args], capture_output=True, text=True).stdout.split()


def _alive(pids: set[int]) -> bool:
    return any(_running(pid) for pid in pids)


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def _arena_json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_a_ray_arena_writes_the_file_of_an_arena_played_in_one_process(
    local_ray: None, tmp_path: Path
) -> None:
    assert cli.main([*ARENA, "--out", str(tmp_path / "here")]) == 0
    assert cli.main([*ARENA, "--out", str(tmp_path / "ray"), "--ray"]) == 0
    here, on_ray = _arena_json(tmp_path / "here.json"), _arena_json(tmp_path / "ray.json")
    assert len(on_ray["games"]) == 6 and len(on_ray["pairings"]) == 3
    assert on_ray == here
    assert ray.is_initialized()  # a Ray the process had joined is left to it


def test_a_resumed_ray_arena_plays_only_the_missing_games(local_ray: None, tmp_path: Path) -> None:
    assert cli.main([*ARENA, "--out", str(tmp_path / "whole")]) == 0
    complete = _arena_json(tmp_path / "whole.json")
    # As if stopped with games ended out of order, as Ray ends them.
    kept = [complete["games"][index] for index in (4, 1, 2)]
    (tmp_path / "cut.json").write_text(json.dumps({**complete, "games": kept}))
    assert cli.main([*ARENA, "--out", str(tmp_path / "cut"), "--ray", "--resume"]) == 0
    assert _arena_json(tmp_path / "cut.json") == complete

    played: list[GameOutcome] = []
    earlier = [GameOutcome(**game) for game in kept]
    names = ["random", "easy", "medium"]
    report = run_arena(
        "tyrus", names, 2, seed=70, on_progress=played.append, earlier=earlier, cluster=RayCluster()
    )
    missing = [game for index, game in enumerate(complete["games"]) if index not in (4, 1, 2)]
    assert sorted((o.focus, o.field, o.seed) for o in played) == sorted(
        (game["focus"], game["field"], game["seed"]) for game in missing
    )
    assert report.to_json()["games"] == complete["games"]


def test_ctrl_c_cancels_the_games_on_ray_and_keeps_those_played(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three games, all running at once whatever order Ray starts them in: the fast one
    ends; Ctrl-C then comes while the two never-ending ones hold their CPUs: they are
    cancelled (their CPUs come back), and the file keeps the game played."""
    out = tmp_path / "stopped"
    command = ["arena", "--game", "tyrus", "--bots", f"random,easy,{NEVER_ENDS}"]
    command += ["--games", "1", "--out", str(out), "--ray"]
    failures: list[AssertionError] = []

    def ctrl_c_after_the_fast_game() -> None:
        try:
            wait_until(lambda: _games_saved(out) == 1, "the fast game to be saved")
            wait_until(lambda: _free_cpus() == CPUS - 2, "the never-ending games to run")
        except AssertionError as failure:
            failures.append(failure)
        finally:  # pressed even on a failure, which would otherwise leave the arena running
            os.kill(os.getpid(), signal.SIGINT)

    # Ctrl-C raises KeyboardInterrupt whatever this process inherited: a test run started
    # in the background by a non-interactive shell (`make test &`) ignores SIGINT, and
    # the arena would then wait for the never-ending games for ever.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    presser = threading.Thread(target=ctrl_c_after_the_fast_game, daemon=True)
    presser.start()
    try:
        code = cli.main(command)
    except KeyboardInterrupt:  # pressed before any game ended: the arena passes it on
        code = None
    finally:
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert not failures and code == 0
    assert "Interrupted: 1 of 3 games played" in capsys.readouterr().out
    saved = _arena_json(out.with_suffix(".json"))
    assert [(g["focus"], g["field"]) for g in saved["games"]] == [("random", "easy")]
    wait_until(lambda: _free_cpus() == CPUS, "the cancelled games to give their CPUs back")


def test_a_game_deaf_to_the_interrupt_has_its_worker_killed(
    local_ray: None, tmp_path: Path
) -> None:
    """Ray's interrupt is best effort: a game still running after the grace has its worker
    killed, and Ray ends the processes that worker started (an `expert` bot's)."""
    started = tmp_path / "child"

    @ray.remote(num_cpus=1)  # type: ignore[untyped-decorator]
    def deaf_game(pid_file: str) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # as if the interrupt were lost
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        Path(pid_file).write_text(str(child.pid))
        while True:
            sum(range(1000))

    game = deaf_game.remote(str(started))
    child = wait_until(lambda: _pid_in(started), "the game to run")
    cancel_games(ray, [game], grace=0.5)
    with pytest.raises(ray.exceptions.TaskCancelledError):
        ray.get(game, timeout=STUCK)  # a game left running fails here, not for ever
    wait_until(lambda: not _running(child), "the game's own process to end")
    wait_until(lambda: _free_cpus() == CPUS, "the killed game to give its CPU back")


def _pid_in(file: Path) -> int | None:
    text = file.read_text() if file.exists() else ""
    return int(text) if text else None  # a single write: whole once there


def _free_cpus() -> float:
    free: float = ray.available_resources().get("CPU", 0.0)  # left out when none is free
    return free


def _games_saved(out: Path) -> int:
    try:
        return len(_arena_json(out.with_suffix(".json"))["games"])
    except (FileNotFoundError, json.JSONDecodeError):
        return 0


def test_an_arena_run_elsewhere_joins_the_cluster_by_its_address_and_leaves_it_up(
    local_ray: None, tmp_path: Path
) -> None:
    """`--ray HOST:PORT` from another process, as on a cluster's head node: the same file,
    and the cluster is still there for the next arena. (One game: each new process's
    games start workers of their own, and a worker's start is the slow part.)"""
    one_game = ["arena", "--game", "tyrus", "--bots", "random,medium", "--games", "1"]
    assert cli.main([*one_game, "--seed", "71", "--out", str(tmp_path / "here")]) == 0
    address = ray.get_runtime_context().gcs_address
    source = str(Path(machiavel.__file__).parents[1])  # the workers import this machiavel
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([source, *sys.path])}
    command = [*one_game, "--seed", "71", "--out", str(tmp_path / "cluster"), "--ray", address]
    run = subprocess.run(
        [sys.executable, "-m", "machiavel.cli", *command],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert _arena_json(tmp_path / "cluster.json") == _arena_json(tmp_path / "here.json")
    wait_until(lambda: _free_cpus() == CPUS, "the other process's games to give CPUs back")


def test_an_unreachable_address_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:  # a port nothing listens on: bound, never listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        code = cli.main([*ARENA, "--ray", f"127.0.0.1:{port}"])
    assert code == 2
    error = capsys.readouterr().err
    assert f"cannot reach the Ray cluster at 127.0.0.1:{port}" in error
    assert "ray start --head" in error
    assert cli.main([*ARENA, "--ray", "nowhere"]) == 2
    assert "a Ray address is HOST:PORT" in capsys.readouterr().err


def test_without_ray_installed_the_arena_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    assert cli.main([*ARENA, "--ray"]) == 2
    assert "pip install 'machiavel[ray]'" in capsys.readouterr().err
    with pytest.raises(ClusterUnavailable, match="not installed"):
        next(play_on_ray([], None))


def test_ray_and_jobs_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main([*ARENA, "--ray", "--jobs", "2"])
    assert stop.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("focus", "field", "cpus"),
    [
        ("random", "medium", 1),
        ("hard", "medium", 1),
        ("expert", "hard", 2),
        ("random", "ismcts:jobs=3", 3),
    ],
)
def test_a_game_asks_ray_for_the_cores_its_bots_search_on(
    focus: str, field: str, cpus: int
) -> None:
    assert cpus_for(GameTask("tyrus", 2, focus, field, 0, 1, {})) == cpus
