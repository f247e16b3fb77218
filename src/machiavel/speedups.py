"""The engines' hot modules compiled with mypyc, and the pure-Python fallback (issue 16).

``scripts/compile-engines.py`` (run by ``make run`` and ``make test``) compiles the modules
below into C extensions beside their sources and writes ``compiled.json``: the hash of each
source it compiled. Python imports an extension before a source of the same name, so this
module decides, before anything else of machiavel is imported, whether the extensions may
be used, and otherwise makes those modules load from their sources:

- ``MACHIAVEL_PURE_PYTHON=1`` asks for pure Python (``make test`` runs the engine tests
  both ways);
- a source that changed since it was compiled makes every compiled module fall back, with
  a warning: a stale extension would run rules that are no longer in the source, and the
  modules of one build call into each other's native classes, so they go together.

Nothing else changes: the same modules, the same functions, the same results (a test plays
the same seeded games and searches both ways and compares them).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# The modules a search spends its time in (profiles of `benchmarks/search_speed.py`), the
# log's words, and the server's payloads and their writes on the socket (`server.live`,
# `server.pushes`, on every action's path: issue 18, `benchmarks/accept_instructions.py`).
# Every one is `mypy --strict` clean, which is what mypyc compiles from.
COMPILED_MODULES: tuple[str, ...] = (
    "machiavel.core.rng",
    "machiavel.games.djambi.board",
    "machiavel.games.djambi.bot",
    "machiavel.games.djambi.rules",
    "machiavel.games.guildes.count",
    "machiavel.games.guildes.hidden",
    "machiavel.games.guildes.rules",
    "machiavel.games.tyros.bot",
    "machiavel.games.tyros.cards",
    "machiavel.games.tyros.knowledge",
    "machiavel.games.tyros.rules",
    "machiavel.games.tyros.scoring",
    "machiavel.games.tyrus.bot",
    "machiavel.games.tyrus.rules",
    "machiavel.games.tyrus.tally_words",
    "machiavel.games.tyrus.words",
    "machiavel.core.narration",
    "machiavel.server.live",
    "machiavel.server.pushes",
)
PURE_VARIABLE = "MACHIAVEL_PURE_PYTHON"
PACKAGE_ROOT = Path(__file__).resolve().parent
MANIFEST = PACKAGE_ROOT / "compiled.json"


def source_of(module: str) -> Path:
    """The ``.py`` file of one of machiavel's modules."""
    return PACKAGE_ROOT.parent.joinpath(*module.split(".")).with_suffix(".py")


def source_hash(module: str) -> str:
    return hashlib.sha256(source_of(module).read_bytes()).hexdigest()


def extension_of(module: str) -> Path | None:
    """The compiled extension of ``module`` for this interpreter, if there is one."""
    source = source_of(module)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def stale_modules() -> list[str]:
    """Compiled modules whose source is not the one they were compiled from (or which are
    missing), per ``compiled.json``; every module when there is no build."""
    try:
        compiled = json.loads(MANIFEST.read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return list(COMPILED_MODULES)
    return [
        module
        for module in COMPILED_MODULES
        if extension_of(module) is None or compiled.get(module) != source_hash(module)
    ]


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the compiled modules from their ``.py`` sources, ignoring the extensions."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname))


_decision: dict[str, bool] = {}


def use_compiled() -> bool:
    """Whether this process runs the compiled engines (decided once, at first import)."""
    if "compiled" not in _decision:
        _decision["compiled"] = _decide()
    return _decision["compiled"]


def _decide() -> bool:
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return _fall_back()
    if not any(extension_of(module) for module in COMPILED_MODULES):
        return False  # never compiled: Python finds only the sources
    stale = stale_modules()
    if stale:
        warnings.warn(
            f"machiavel: changed since they were compiled: {', '.join(stale)}; running "
            "pure Python (`make compile` compiles them again)",
            RuntimeWarning,
            stacklevel=3,
        )
        return _fall_back()
    return True


def _fall_back() -> bool:
    already = [module for module in COMPILED_MODULES if module in sys.modules]
    if already:  # too late to choose: say so rather than mix the two
        raise RuntimeError(f"machiavel.speedups decided after {already[0]} was imported")
    sys.meta_path.insert(0, _SourcesFirst())
    return False


def engines() -> str:
    """Words for reports: which engines this process runs."""
    return "compiled with mypyc" if use_compiled() else "pure Python"


if __name__ == "machiavel.speedups":  # not when the compiling script reads the list
    use_compiled()  # at machiavel's first import, before any engine module is
