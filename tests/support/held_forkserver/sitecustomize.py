"""On the ``PYTHONPATH`` of a process a test starts: its multiprocessing forkserver, if
``MACHIAVEL_TEST_HOLD_FORKSERVER`` names a file, writes ``<file>.held`` and waits, before
importing anything, until the file exists: a forkserver as slow to come up as one
importing the engines at ``nice 19`` on a full machine, for as long as the test wants.
Every other process (the one started, its other helpers) runs as usual."""

import os
import sys
import time
from pathlib import Path

POLL_SECONDS = 0.05  # how often the held forkserver looks for its release
BOUND_SECONDS = 600.0  # held at most this long, should its test never release it


def _hold(release: Path) -> None:
    Path(f"{release}.held").touch()
    deadline = time.monotonic() + BOUND_SECONDS
    while not release.exists() and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)


_RELEASE = os.environ.get("MACHIAVEL_TEST_HOLD_FORKSERVER")  # support/forkserver.py
if _RELEASE and "multiprocessing.forkserver" in sys.orig_argv[-1]:
    _hold(Path(_RELEASE))
