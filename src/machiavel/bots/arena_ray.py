"""Arena games as Ray tasks: spread over the machines of a Ray cluster (``arena --ray``).

Ray is the field's standard for spreading Python work over machines: its scheduler places
each game where CPUs are free, and a game lost with its machine is played again elsewhere
(the same seed gives the same game). Ray is imported only here, and only when asked for:
machiavel without the ``ray`` extra works as before.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import Any

from machiavel.bots import bot_from_spec
from machiavel.bots.arena import GameOutcome, GameTask, play_one
from machiavel.core.errors import MachiavelError

INSTALL = "pip install 'machiavel[ray]'"
CONNECT_SECONDS = 10.0  # for the address's port to answer: a cluster that is up answers at once
CANCEL_GRACE = 10.0  # seconds for interrupted games to end before their workers are killed


class ClusterUnavailable(MachiavelError, RuntimeError):  # noqa: N818 - reads better at call sites
    """Ray is not installed, or the cluster's address cannot be reached."""


def play_on_ray(todo: Sequence[GameTask], address: str | None) -> Iterator[GameOutcome]:
    """Play ``todo`` as Ray tasks; yield each game as it ends (not in ``todo``'s order).

    ``address`` is the cluster's (``HOST:PORT``, ``ray://HOST:PORT`` or ``auto``); without
    one, a local Ray is started for these games and stopped after them. A process that has
    already joined Ray (``ray.init``) plays on that connection and keeps it. Closing the
    iterator early (Ctrl-C, an error) cancels the games not yet over.
    """
    ray = _import_ray()
    with _connected(ray, address):
        remote = ray.remote(play_one)
        pending: list[Any] = [remote.options(num_cpus=cpus_for(task)).remote(task) for task in todo]
        try:
            while pending:
                (ready,), _ = ray.wait(pending, num_returns=1)
                pending.remove(ready)
                yield ray.get(ready)
        finally:
            cancel_games(ray, pending)


def cancel_games(ray: ModuleType, refs: Sequence[Any], grace: float = CANCEL_GRACE) -> None:
    """Stop the games of ``refs``: each is interrupted in its worker (its bots closed);
    the workers of those still running ``grace`` seconds later are killed. Ray's
    interrupt is best effort (one that reaches a worker just before or after the game's
    own code is lost), and a game left running would hold its CPUs on the cluster for as
    long as it lasts. Ray also ends the processes a killed worker started (its bots')."""
    if not refs:
        return
    for ref in refs:
        ray.cancel(ref)
    try:
        _, running = ray.wait(list(refs), num_returns=len(refs), timeout=grace)
    except KeyboardInterrupt:  # Ctrl-C again: no more patience
        _kill(ray, refs)
        raise
    _kill(ray, running)


def _kill(ray: ModuleType, refs: Sequence[Any]) -> None:
    for ref in refs:
        ray.cancel(ref, force=True)


def cpus_for(task: GameTask) -> int:
    """The CPUs a game's bots use at once, as with ``--jobs``: a bot searching on two
    cores (``expert``) needs two. Bots take turns, so it is the most any of them needs."""
    return max(_cores_searched_on(task.focus), _cores_searched_on(task.field))


@cache
def _cores_searched_on(bot_spec: str) -> int:
    return int(getattr(bot_from_spec(bot_spec, seed=0), "jobs", 1))


def _import_ray() -> ModuleType:
    try:
        import ray
    except ImportError as error:
        raise ClusterUnavailable(
            f"playing an arena on Ray needs the ray package, which is not installed: {INSTALL}"
        ) from error
    return ray


@contextmanager
def _connected(ray: ModuleType, address: str | None) -> Iterator[None]:
    if address is not None and address != "auto":
        _check_reachable(address)
    if ray.is_initialized():
        yield
        return
    try:
        ray.init(
            # "local" starts a Ray of its own even when RAY_ADDRESS or a `ray start` on
            # this machine would have been joined.
            address=address or "local",
            include_dashboard=False if address is None else None,
            log_to_driver=False,  # the workers' logs would break the progress bar
            logging_level=logging.WARNING,
        )
    except Exception as error:  # Ray raises bare Exceptions too (a node's startup timing out)
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        raise ClusterUnavailable(
            f"cannot start the arena on {where}: {error}{_token_hint(address)}"
        ) from error
    try:
        yield
    finally:
        ray.shutdown()  # stops a local Ray; leaves a cluster running


def _token_hint(address: str | None) -> str:
    """Ray joins a cluster named by its address without its token unless told to."""
    if address is None or address == "auto" or os.environ.get("RAY_AUTH_MODE"):
        return ""
    return (
        " (if the cluster uses token authentication, set RAY_AUTH_MODE=token and its token "
        "here: docs/bots.md)"
    )


def _check_reachable(address: str) -> None:
    """Refuse at once an address where nothing listens: ``ray.init`` would wait on it
    for minutes."""
    host, port = _host_and_port(address)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            pass
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise ClusterUnavailable(
            f"cannot reach the Ray cluster at {address}: {reason} "
            "(is `ray start --head` running there, and the port open?)"
        ) from error


def _host_and_port(address: str) -> tuple[str, int]:
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ClusterUnavailable(
            f"a Ray address is HOST:PORT, ray://HOST:PORT or auto, not {address!r}"
        )
    return host.strip("[]"), int(port)
