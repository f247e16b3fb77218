"""Developers' commands for the database's migrations (no alembic.ini needed).

python -m machiavel.server.migrations new "what the revision does"
python -m machiavel.server.migrations upgrade [URL]   # what the server does at start
python -m machiavel.server.migrations current [URL]
python -m machiavel.server.migrations history
"""

from __future__ import annotations

import argparse
import sys

from alembic import command

from machiavel.server.migrations import config, current, head, revisions, scripts, upgrade
from machiavel.server.storage import database_url, make_engine, safe_url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m machiavel.server.migrations",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser("new", help="write a new, empty revision after the newest one")
    new.add_argument("message", help="what the revision does (its file name comes from it)")
    for name, purpose in (
        ("upgrade", "apply the revisions a database lacks"),
        ("current", "show the revision of a database"),
    ):
        sub = commands.add_parser(name, help=purpose)
        sub.add_argument("url", nargs="?", help="database URL (default: as machiavel serve)")
    commands.add_parser("history", help="list the revisions, oldest first")
    args = parser.parse_args(argv)

    if args.command == "new":
        number = f"{int(head()) + 1:04d}"
        command.revision(config(), message=args.message, rev_id=number)
        return 0
    if args.command == "history":
        for revision in revisions():
            script = scripts().get_revision(revision)
            assert script is not None
            print(f"{revision}  {(script.doc or '').splitlines()[0]}")
        return 0
    url = database_url(args.url)
    engine = make_engine(url)
    try:
        if args.command == "upgrade":
            done = upgrade(engine)
            print(done.describe() if done.changed else f"already at revision {done.after}")
        else:
            with engine.connect() as connection:
                found = current(connection)
            print(f"{safe_url(url)}: revision {found or 'none'} (newest: {head()})")
    finally:
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
