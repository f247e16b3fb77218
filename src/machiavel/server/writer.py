"""Group commit: one writer stores the writes of many games in one transaction.

Each accept path hands its action to the writer and waits; the writer stores all the
writes waiting at that moment in one transaction (in a thread, off the event loop), and
only once that transaction is committed does it let each of them go on to be acknowledged
and pushed. Writes that arrive while a transaction runs wait for the next one, so the
busier the server, the more writes share a commit, and a commit costs about as much for
one action as for a hundred. New games and seat changes go the same way: being the only
writer, it never waits on the database's write lock.

The transactions run in one thread of the writer's own, started with its first write and
stopped with it (``StoreThread``): handing each commit to a thread pool
(``asyncio.to_thread``) cost a context copy, a pool work item and two chained futures per
commit, a few percent of the server's CPU under load (issue 18).

A transaction that fails stores none of its writes and fails every one of them
(``WriteFailed``); a write refused on its own (a game not at the version its action
expects, a seat whose token changed: ``StaleWrite``; a new game's id taken:
``IntegrityError``) fails only itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Sequence

from sqlalchemy.exc import IntegrityError, StatementError

from machiavel.server.outage import Outage, describe, is_unreachable
from machiavel.server.storage import StaleWrite, Write

logger = logging.getLogger("machiavel.server")

MAX_GROUP = 1000  # writes in one transaction at most

Store = Callable[[Sequence[Write]], list[Exception | None]]
Outcomes = list[Exception | None]
# One transaction for the thread: how to store, what, and the future told how it went.
Job = tuple[Store, list[Write], asyncio.Future[Outcomes]]


class WriteFailed(Exception):  # noqa: N818 - it names what happened to the write
    """The transaction of this write failed: nothing of it is stored."""


class GroupWriter:
    """Stores writes in groups; ``write`` returns once its write is committed."""

    def __init__(
        self, store: Store, max_group: int = MAX_GROUP, outage: Outage | None = None
    ) -> None:
        self._store = store
        self._outage = outage or Outage()
        self._max_group = max_group
        self._waiting: list[tuple[Write, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.store_thread: StoreThread | None = None  # with the first write
        self._closed = False
        self.commits = 0  # transactions run, for tests and measures
        self.stored = 0  # writes stored

    async def write(self, write: Write) -> None:
        """Store one write with whatever else is waiting; raises ``StaleWrite`` or
        ``IntegrityError`` if it is refused, ``WriteFailed`` if its transaction failed."""
        if self._closed:
            raise WriteFailed("the server is stopping")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((write, future))
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        self._wake.set()
        await future

    async def close(self) -> None:
        """Store what is waiting, then stop (later writes fail)."""
        self._closed = True
        task, self._task = self._task, None
        if task is None:
            return
        self._wake.set()
        await task

    async def _run(self) -> None:
        self.store_thread = StoreThread(asyncio.get_running_loop())
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._waiting:
                    group = self._waiting[: self._max_group]
                    del self._waiting[: self._max_group]
                    await self._commit(group)
                if self._closed:
                    return
        finally:  # cancelled with the event loop: nobody may wait for ever
            self.store_thread.stop()  # once the transaction it runs, if any, is over
            waiting, self._waiting = self._waiting, []
            for _, future in waiting:
                _settle(future, WriteFailed("the writer was stopped"))

    async def _commit(self, group: list[tuple[Write, asyncio.Future[None]]]) -> None:
        try:
            # Shielded: the thread goes on anyway, and each action's fate must be told.
            assert self.store_thread is not None  # started by _run, which calls this
            outcomes = await asyncio.shield(
                self.store_thread.store(self._store, [write for write, _ in group])
            )
        except Exception as error:
            self._log_failure(error, len(group))
            for _, future in group:
                failed = WriteFailed(f"the transaction failed: {describe(error)}")
                failed.__cause__ = error  # what the accept paths answer depends on it
                _settle(future, failed)
            return
        except BaseException:
            for _, future in group:
                _settle(future, WriteFailed("the writer was stopped"))
            raise
        self.commits += 1
        for (_, future), outcome in zip(group, outcomes, strict=True):
            if outcome is None:
                self.stored += 1
            elif not isinstance(outcome, StaleWrite | IntegrityError):
                self._log_failure(outcome, 1)
                failed = WriteFailed(f"its transaction failed: {describe(outcome)}")
                failed.__cause__ = outcome
                outcome = failed
            _settle(future, outcome)

    def _log_failure(self, error: Exception, writes: int) -> None:
        """One line for a database that is out of reach (once per burst) or refuses (no
        statement, no values); a traceback only for a failure of our own code."""
        if is_unreachable(error):
            self._outage.report(error)
        elif isinstance(error, StatementError):
            logger.error("%d writes could not be stored: %s", writes, describe(error))
        else:
            logger.exception("%d writes could not be stored", writes, exc_info=error)


class StoreThread:
    """One thread that runs the writer's transactions, one after the other, and tells the
    event loop how each went."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="machiavel-writer", daemon=True)
        self.thread.start()

    def store(self, store: Store, writes: list[Write]) -> asyncio.Future[Outcomes]:
        """Run ``store(writes)`` in the thread; the future has its outcomes or exception."""
        future: asyncio.Future[Outcomes] = self._loop.create_future()
        self._jobs.put((store, writes, future))
        return future

    def stop(self) -> None:
        """End the thread once the jobs handed to it are done (without waiting for it)."""
        self._jobs.put(None)

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            store, writes, future = job
            try:
                outcomes = store(writes)
            except BaseException as error:  # told to the loop, whatever it is
                self._tell(future, None, error)
            else:
                self._tell(future, outcomes, None)

    def _tell(
        self,
        future: asyncio.Future[Outcomes],
        outcomes: Outcomes | None,
        error: BaseException | None,
    ) -> None:
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            self._loop.call_soon_threadsafe(_resolve, future, outcomes, error)


def _resolve(
    future: asyncio.Future[Outcomes], outcomes: Outcomes | None, error: BaseException | None
) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(outcomes or [])


def _settle(future: asyncio.Future[None], outcome: BaseException | None) -> None:
    if future.done():  # its waiter was cancelled: it drops its game anyway
        return
    if outcome is None:
        future.set_result(None)
    else:
        future.set_exception(outcome)
