"""The machine's processes as /proc shows them (Linux): what a test started, and whether
any of it is still running after it should have ended."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


@dataclass(frozen=True)
class Process:
    pid: int
    parent: int
    group: int
    start: str  # in clock ticks since boot: tells a process from a later one of the same pid
    state: str


def processes() -> dict[int, Process]:
    """Every process of the machine, from /proc."""
    found: dict[int, Process] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (process := read_process(int(entry.name))) is not None:
            found[process.pid] = process
    return found


def read_process(pid: int) -> Process | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after the name, which may hold spaces
    return Process(pid, int(fields[1]), int(fields[2]), fields[19], fields[0])


def descendants(root: int) -> dict[int, Process]:
    every = processes()
    found: dict[int, Process] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        children = [p for p in every.values() if p.parent == parent]
        found.update((p.pid, p) for p in children)
        frontier += [p.pid for p in children]
    return found


def running(known: dict[int, Process]) -> list[int]:
    """Those of ``known`` still running: a zombie has ended (whoever adopted it may never
    reap it)."""
    now = {pid: read_process(pid) for pid in known}
    return [
        pid
        for pid, process in now.items()
        if process is not None and process.start == known[pid].start and process.state not in "ZX"
    ]
