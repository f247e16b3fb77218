"""The engines compiled with mypyc and their pure-Python sources play the same games
(machiavel/speedups.py, issue 16)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from machiavel import speedups

# Seeded random games of the compiled engines, with every player's resampled worlds and a
# search of a fixed number of iterations along the way: a digest of all they produced.
PLAY = """
import hashlib, json
from machiavel import speedups
from machiavel.bots.ismcts import IsmctsBot
from machiavel.core.registry import game
from machiavel.core.rng import Rng

digest = hashlib.sha256()
for game_id in ("djambi", "guildes", "tyros", "tyrus"):
    for seed in range(2):
        spec = game(game_id)
        players = min(spec.max_players, 4)
        state, rng = spec.new(players, seed=seed), Rng(seed)
        while not state.is_over:
            mover = state.to_move[0]
            if len(state.history) % 7 == 0:
                worlds = [state.resample(p, Rng(seed + p)) for p in range(players)]
                digest.update(json.dumps([w.to_json() for w in worlds]).encode())
            if len(state.history) % 25 == 0:
                action = IsmctsBot(seed, iterations=30).choose(state.seat(mover))
            else:
                action = rng.choice(state.legal_actions(mover))
            state.apply(mover, action)
        digest.update(json.dumps(state.to_json()).encode())
files = {m: __import__(m, fromlist=["_"]).__file__ for m in speedups.COMPILED_MODULES}
print(json.dumps({"engines": speedups.engines(), "digest": digest.hexdigest(), "files": files}))
"""


def _play(pure: bool) -> dict[str, object]:
    environment = {k: v for k, v in os.environ.items() if k != speedups.PURE_VARIABLE}
    if pure:
        environment[speedups.PURE_VARIABLE] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PLAY], env=environment, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


needs_a_build = pytest.mark.skipif(
    speedups.stale_modules() == list(speedups.COMPILED_MODULES),
    reason="the engines are not compiled here (scripts/compile_engines.py)",
)


@needs_a_build
def test_compiled_and_pure_python_engines_play_the_same_games() -> None:
    compiled, pure = _play(pure=False), _play(pure=True)
    assert compiled["engines"] == "compiled with mypyc"
    assert pure["engines"] == "pure Python"
    assert compiled["digest"] == pure["digest"]
    files = {"compiled": compiled["files"], "pure": pure["files"]}
    assert isinstance(files["compiled"], dict) and isinstance(files["pure"], dict)
    assert all(not name.endswith(".py") for name in files["compiled"].values())
    assert all(name.endswith(".py") for name in files["pure"].values())


def test_a_source_changed_since_it_was_compiled_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = tmp_path / "compiled.json"
    hashes = {module: speedups.source_hash(module) for module in speedups.COMPILED_MODULES}
    changed = speedups.COMPILED_MODULES[0]
    hashes[changed] = "0" * 64
    manifest.write_text(json.dumps({"modules": hashes}))
    monkeypatch.setattr(speedups, "MANIFEST", manifest)
    monkeypatch.setattr(speedups, "extension_of", lambda module: Path(module))
    assert speedups.stale_modules() == [changed]


def test_without_a_build_record_every_module_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = tmp_path / "compiled.json"
    manifest.write_text("{not json")
    monkeypatch.setattr(speedups, "MANIFEST", manifest)
    assert speedups.stale_modules() == list(speedups.COMPILED_MODULES)


def test_every_compiled_module_has_its_source() -> None:
    for module in speedups.COMPILED_MODULES:
        assert speedups.source_of(module).is_file(), module


def test_a_stale_build_falls_back_to_pure_python_and_names_what_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    changed = speedups.COMPILED_MODULES[-1]
    fell_back: list[bool] = []

    def fall_back() -> bool:
        fell_back.append(True)
        return False

    monkeypatch.delenv(speedups.PURE_VARIABLE, raising=False)
    monkeypatch.setattr(speedups, "extension_of", lambda module: Path(module))
    monkeypatch.setattr(speedups, "stale_modules", lambda: [changed])
    monkeypatch.setattr(speedups, "_fall_back", fall_back)
    with pytest.warns(RuntimeWarning, match=changed.replace(".", r"\.")):
        assert speedups._decide() is False
    assert fell_back == [True]
