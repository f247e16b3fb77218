"""A multiprocessing forkserver held at start for as long as a test likes: the environment
of a process whose forkserver waits (``held_forkserver/sitecustomize.py``) until the file
``release`` exists, having written ``<release>.held`` once it waits."""

from __future__ import annotations

import os
from pathlib import Path

HELD_FORKSERVER = Path(__file__).resolve().parent / "held_forkserver"
HOLD_VARIABLE = "MACHIAVEL_TEST_HOLD_FORKSERVER"


def held_forkserver_environment(release: Path, pythonpath: str | None) -> dict[str, str]:
    """The variables to add to a process's environment (its ``PYTHONPATH`` so far given)."""
    paths = [str(HELD_FORKSERVER), pythonpath]
    return {"PYTHONPATH": os.pathsep.join(filter(None, paths)), HOLD_VARIABLE: str(release)}


def held(release: Path) -> Path:
    """The file the held forkserver writes once it waits."""
    return Path(f"{release}.held")
