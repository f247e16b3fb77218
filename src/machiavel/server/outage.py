"""The database out of reach: 503 with a sentence, one log line per burst, no values logged.

When the database stops answering (its server down or restarted, the database dropped,
the network cut, every pooled connection busy for too long), each request that needs it
is answered 503 with ``UNREACHABLE``, over HTTP and WebSocket alike, and nothing changes.
The log says so once per burst of failures, not once per request, and without a
traceback. What it says of an error is its class and the first line of the driver's
message: SQLAlchemy adds the statement (and, unless an engine hides them, its
parameters), and PostgreSQL a DETAIL line that may quote a stored value (a token hash
in a key, say); neither is logged.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, StatementError
from sqlalchemy.exc import TimeoutError as PoolTimeout

logger = logging.getLogger("machiavel.server")

UNREACHABLE = "the database cannot be reached; try again in a moment"
RETRY_AFTER = "5"  # seconds, the Retry-After header of a 503
# Failures closer together than this belong to one burst: logged once.
QUIET_SECONDS = 60.0


def is_unreachable(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached (rather than refusing a
    statement): worth a 503 and a retry."""
    if isinstance(error, OperationalError | InterfaceError | PoolTimeout):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated


def describe(error: BaseException) -> str:
    """``error`` in one line that carries neither a statement, nor its parameters, nor
    a stored value: its class and the first line of the driver's own message."""
    if isinstance(error, StatementError):
        cause = error.orig if error.orig is not None else error
        first = str(cause).strip().splitlines()[:1]
        return f"{type(error).__name__}: {first[0] if first else type(cause).__name__}"
    first = str(error).strip().splitlines()[:1]
    return f"{type(error).__name__}: {first[0]}" if first else type(error).__name__


class Outage:
    """Logs database failures, one line per burst (a failure after ``quiet`` seconds
    without any starts a new burst). Thread-safe."""

    def __init__(
        self, quiet: float = QUIET_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.quiet = quiet
        self._clock = clock
        self._lock = threading.Lock()
        self._last: float | None = None
        self._unlogged = 0  # failures since the last line
        self.failures = 0  # every failure so far, for tests and measures

    def report(self, error: BaseException) -> None:
        now = self._clock()
        with self._lock:
            self.failures += 1
            new_burst = self._last is None or now - self._last >= self.quiet
            self._last = now
            if not new_burst:
                self._unlogged += 1
                return
            before, self._unlogged = self._unlogged, 0
        logger.error(
            "the database cannot be reached (%s): requests needing it get 503%s",
            describe(error),
            f" ({before} more failures since the last such line)" if before else "",
        )
