"""SQLite's write-ahead log copied into the database beside the writer, not by its commits.

By default SQLite checkpoints a WAL database inside the commit that takes its log past
1,000 pages: that commit then copies the log into the database and waits for two
``fsync`` calls, 3-7 ms on the development machine (0.02 ms for a commit otherwise), and
every action waiting for the next group commit waits with it: at 500 actions a second,
about one action in a hundred. Leaving the log to the checkpoints below took the paced
load's p95 from 3.4-4.0 to 2.7-3.0 ms (issue 18; its p99 was the garbage collector's,
``run.tune_garbage_collector``).

So the server's connections do not checkpoint (``wal_autocheckpoint=0``, set by
``storage.make_engine`` when asked) and the server does it every second (``Checkpointer``),
in a thread of the default executor, with a PASSIVE checkpoint: it copies what it can
without waiting for the writer or readers, while commits go on. The log starts over at the
first commit after a checkpoint that copied all of it. Under a load that commits all the
time a checkpoint may never reach the end of the log, which would then grow without bound:
past ``RESTART_ABOVE`` frames (ten times SQLite's own bound) a RESTART checkpoint holds
commits back until the log is copied and starts over: a stall, but ten times rarer.
PostgreSQL checkpoints itself: nothing runs there.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from sqlalchemy import Engine

logger = logging.getLogger("machiavel.server")

CHECKPOINT_EVERY = 1.0  # seconds between two checkpoints
RESTART_ABOVE = 10_000  # frames (pages written, 4 KiB each) in the log before a RESTART


@dataclass(frozen=True)
class Checkpointed:
    """What a checkpoint found and did."""

    frames: int  # frames in the log
    copied: int  # of them in the database now
    restarted: bool  # a RESTART checkpoint ran: the next commit starts the log over


def needs_restart(frames: int, copied: int, restart_above: int = RESTART_ABOVE) -> bool:
    """Whether the log is too long and a PASSIVE checkpoint could not copy it all (commits
    or reads went on): then only a RESTART, holding commits back, makes it start over."""
    return frames > restart_above and copied < frames


def checkpoint(engine: Engine, restart_above: int = RESTART_ABOVE) -> Checkpointed:
    """Copy the log into the database (blocking: run it off the event loop)."""
    with engine.connect() as connection:
        _, frames, copied = connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        if not needs_restart(frames, copied, restart_above):
            return Checkpointed(frames, copied, restarted=False)
        _, frames, copied = connection.exec_driver_sql("PRAGMA wal_checkpoint(RESTART)").one()
        return Checkpointed(frames, copied, restarted=True)


class Checkpointer:
    """Checkpoints an engine's log every ``every`` seconds while ``run`` runs (until it is
    cancelled); ``done`` and ``last`` say how it goes (tests, operators)."""

    def __init__(self, engine: Engine, every: float = CHECKPOINT_EVERY) -> None:
        self.engine = engine
        self.every = every
        self.done = 0  # checkpoints run
        self.last: Checkpointed | None = None
        self._failing = False

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            await self.run_once()

    async def run_once(self) -> None:
        """One checkpoint, off the event loop. A failure is logged once until one succeeds
        again: SQLite also checkpoints when its last connection closes, so none is lost."""
        try:
            self.last = await asyncio.to_thread(checkpoint, self.engine)
        except Exception as error:  # the database's own errors: the next one tries again
            if not self._failing:
                logger.warning("checkpointing the database's log failed: %s", error)
            self._failing = True
        else:
            self._failing = False
            self.done += 1
