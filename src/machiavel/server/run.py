"""`machiavel serve`: run the server with Uvicorn and say where to open it."""

from __future__ import annotations

import gc
import os
import sys

from sqlalchemy.exc import SQLAlchemyError

from machiavel.clustering import refuse_sqlite
from machiavel.server.app import MAX_BODY, create_app
from machiavel.server.cluster import ClusterSettings, process_name
from machiavel.server.connections import make_room_for, uvicorn_options
from machiavel.server.health import add_health
from machiavel.server.mail import MailSettings, check_link, describe
from machiavel.server.migrations import SchemaTooNew
from machiavel.server.outage import describe as describe_fault
from machiavel.server.quotas import TableLimits
from machiavel.server.storage import database_url, safe_url
from machiavel.serving import METRICS_FROM, ConnectionSettings


def cannot_open(url: str, error: BaseException) -> str:
    """One sentence on why the database of ``url`` cannot be opened (no password, no
    statement: ``describe``)."""
    return f"cannot open the database {safe_url(url)}: {describe_fault(error)}"


def browser_address(host: str, port: int) -> str:
    """The address a person on this machine opens (a wildcard host is not one)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def serve(
    host: str,
    port: int,
    database: str | None,
    bot_workers: int | None = None,
    connections: ConnectionSettings | None = None,
    *,
    smtp_url: str | None = None,
    public_url: str | None = None,
    limits: bool = True,
    metrics_from: str = METRICS_FROM,
    cluster: ClusterSettings | None = None,
) -> int:
    import uvicorn

    connection_settings = fitted(connections or ConnectionSettings())

    url = database_url(database)
    if (refusal := refuse_sqlite(url, cluster)) is not None:
        print(f"machiavel: {refusal}", file=sys.stderr, flush=True)
        return 2
    try:
        mail_settings = MailSettings.from_environment(url=smtp_url)
        public = public_address(public_url, host, port)
    except ValueError as error:
        print(f"machiavel: {error}", file=sys.stderr, flush=True)
        return 2
    try:  # migrates the database if needed
        app = create_app(
            url,
            bot_workers=bot_workers,
            mail_settings=mail_settings,
            public_url=public,
            table_limits=TableLimits() if limits else TableLimits.off(),
            metrics_from=metrics_from,
            cluster=cluster,
        )
    except SchemaTooNew as error:
        print(f"machiavel: {error}", file=sys.stderr, flush=True)
        return 1
    except (SQLAlchemyError, ImportError, ValueError) as error:  # a wrong URL, no database
        print(f"machiavel: {cannot_open(url, error)}", file=sys.stderr, flush=True)
        return 1
    node = cluster.name if cluster is not None else process_name()
    add_health(app, node)
    tune_garbage_collector()
    print(f"machiavel: open {browser_address(host, port)}  (database: {safe_url(url)})", flush=True)
    print(f"machiavel: {describe_node(node, cluster)}", flush=True)
    print(f"machiavel: {describe(mail_settings)}", flush=True)
    print("machiavel: API documentation at /docs; Ctrl+C stops the server.", flush=True)
    schema = app.state.service.repo.schema
    if schema.changed:
        print(f"machiavel: {schema.describe()}", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_BODY,
        **uvicorn_options(connection_settings),
    )
    return 0


def describe_node(node: str, cluster: ClusterSettings | None) -> str:
    """Which process this is and, in a cluster, how it joins the others (no password)."""
    if cluster is None:
        return f"node {node}, on its own (no Redis: --redis-url joins a cluster)"
    return (
        f"node {node} of a cluster through Redis {safe_url(cluster.redis_url)} "
        f"(prefix {cluster.prefix}), reached at {cluster.address}"
    )


PUBLIC_URL_VARIABLE = "MACHIAVEL_PUBLIC_URL"


def public_address(given: str | None, host: str, port: int) -> str:
    """The address for links in mails: ``given`` (--public-url), else
    $MACHIAVEL_PUBLIC_URL, else the browser address of host and port. ValueError with a
    sentence for one that is not an http(s) URL."""
    chosen = (given or os.environ.get(PUBLIC_URL_VARIABLE, "")).strip()
    if not chosen:
        return browser_address(host, port).rstrip("/")
    return check_link(chosen, "public URL").rstrip("/")


def fitted(settings: ConnectionSettings) -> ConnectionSettings:
    """The settings with as many connections as this process may open files for (saying
    so when that is fewer than asked)."""
    room = make_room_for(settings.max_connections)
    if room >= settings.max_connections:
        return settings
    print(
        f"machiavel: the open-file limit allows {room} connections, not "
        f"{settings.max_connections} (raise it with ulimit -n)",
        file=sys.stderr,
        flush=True,
    )
    return ConnectionSettings(
        room, settings.header_timeout, settings.keep_alive_timeout, settings.forwarded_allow_ips
    )


# Young collections every 10,000 allocations (net of frees) rather than 700; the middle
# generation every second young one rather than every 20th (docstring below).
GC_THRESHOLDS = (10_000, 2, 20)


def tune_garbage_collector() -> None:
    """Fewer, cheaper collections for a long-running server.

    With Python's defaults a busy server spent a third of its time collecting: every 700
    allocations the objects of requests in flight were promoted to older generations, and
    the full collections they caused then walked every object of every loaded module.
    Everything loaded so far (modules, the app) is moved out of the collector's sight for
    good (``gc.freeze``: such objects are never garbage); young collections come less
    often, so that fewer short-lived objects live long enough to be promoted. Nothing is
    kept that would otherwise be freed: garbage is found as before, only less often.

    The middle generation is collected often, though (issue 18): with (20,000, 20, 20)
    it held up to 400,000 objects, and each of its collections stopped the event loop for
    120-140 ms in the paced load (500 games, 500 actions a second), delaying some 70
    actions: most of the p99. At (10,000, 2, 20) a young collection takes 3-10 ms and a
    middle one 10-15 ms; the paced p99 fell from 6-20 ms to 5.4-5.5 ms and its maximum
    from 130-170 ms to 16-25 ms, with no loss of actions per second the closed loop could
    tell from its noise (docs/server.md, "Garbage collection, checkpoints and the paced
    p99").
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


if __name__ == "__main__":
    sys.exit(serve("127.0.0.1", 8000, None))
