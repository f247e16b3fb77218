"""`machiavel serve`: run the server with Uvicorn and say where to open it."""

from __future__ import annotations

import sys

from machiavel.server.app import MAX_BODY, create_app
from machiavel.server.storage import database_url


def browser_address(host: str, port: int) -> str:
    """The address a person on this machine opens (a wildcard host is not one)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def serve(host: str, port: int, database: str | None, bot_workers: int | None = None) -> int:
    import uvicorn

    url = database_url(database)
    app = create_app(url, bot_workers=bot_workers)
    print(f"machiavel: open {browser_address(host, port)}  (database: {_safe(url)})", flush=True)
    print("machiavel: API documentation at /docs; Ctrl+C stops the server.", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=MAX_BODY)
    return 0


def _safe(url: str) -> str:
    """The database URL without its password."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        credentials, _, place = rest.rpartition("@")
        user = credentials.split(":", 1)[0]
        rest = f"{user}:***@{place}" if ":" in credentials else f"{user}@{place}"
    return scheme + sep + rest


if __name__ == "__main__":
    sys.exit(serve("127.0.0.1", 8000, None))
