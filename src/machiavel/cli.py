"""The `machiavel` command: play in a terminal, read the rules, measure speed."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from machiavel.benchmark import BenchResult, bench_all
from machiavel.bots import BOTS, bot
from machiavel.bots.base import Bot
from machiavel.clustering import add_arguments as add_cluster_arguments
from machiavel.clustering import add_commands as add_cluster_commands
from machiavel.clustering import run_command as run_cluster_command
from machiavel.clustering import settings_from as cluster_settings_from
from machiavel.core.contract import State
from machiavel.core.errors import IllegalAction, MachiavelError
from machiavel.core.narration import narrate
from machiavel.core.registry import game, games
from machiavel.serving import SettingError, metrics_from, settings_from
from machiavel.serving import add_arguments as add_connection_arguments

if TYPE_CHECKING:
    from machiavel.bots.arena import ArenaReport, GameOutcome

QUIT_WORDS = {"quit", "exit", "q"}
HELP_WORDS = {"help", "?", "actions"}


def parse_option(text: str) -> tuple[str, Any]:
    """`name=value`; the value is read as JSON when it can be (true, 3), else as text."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"options are written name=value, not {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return name, value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="machiavel", description="Political and trading board games."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    play = commands.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("game", help=f"one of: {', '.join(games())}")
    play.add_argument("--bot", default="heuristic", help=f"the opponents' bot ({', '.join(BOTS)})")
    play.add_argument("--seat", type=int, default=0, help="your player number (default 0)")
    play.add_argument("--players", type=int, help="number of players (default: the minimum)")
    play.add_argument("--seed", type=int, help="seed of the game (default: random)")
    play.add_argument(
        "--option", type=parse_option, action="append", default=[], metavar="NAME=VALUE"
    )

    rules = commands.add_parser("rules", help="print a short summary of a game's rules")
    rules.add_argument("game", help=f"one of: {', '.join(games())}")

    bench = commands.add_parser("bench", help="measure each game's speed on one core")
    bench.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    bench.add_argument("--game", action="append", help="only this game (repeatable)")

    arena = commands.add_parser("arena", help="bots play matches; win rates and Elo ratings")
    arena.add_argument("--game", required=True, help=f"one of: {', '.join(games())}")
    arena.add_argument(
        "--bots", required=True, help="comma-separated bots, e.g. hard,medium,random"
    )
    arena.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    arena.add_argument("--players", type=int, help="number of players (default: the minimum)")
    spread = arena.add_mutually_exclusive_group()
    spread.add_argument("--jobs", type=int, default=1, help="processes to spread games over")
    spread.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play the games as Ray tasks on the cluster at ADDRESS (HOST:PORT, "
        "ray://HOST:PORT or auto), or on a local Ray started for the run when ADDRESS "
        "is left out; needs the ray extra: pip install 'machiavel[ray]' (docs/bots.md)",
    )
    arena.add_argument("--seed", type=int, default=0, help="seed of the first game")
    arena.add_argument(
        "--out",
        help="write PATH.json (after every game, so a stopped run loses nothing) and PATH.png",
    )
    arena.add_argument(
        "--resume",
        action="store_true",
        help="continue the arena saved in --out's PATH.json: play only its missing games",
    )
    arena.add_argument(
        "--option", type=parse_option, action="append", default=[], metavar="NAME=VALUE"
    )

    serve = commands.add_parser("serve", help="run the web server (tables, bots, storage)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--database",
        help="database URL (default: $MACHIAVEL_DATABASE_URL, else sqlite:///machiavel.db)",
    )
    serve.add_argument("--bot-workers", type=int, help="bot worker processes (default: cores)")
    serve.add_argument(
        "--smtp-url",
        help="mail notifications through this SMTP server, e.g. smtp://127.0.0.1:2525 "
        "(default: $MACHIAVEL_SMTP_URL; none: mail is off); sender $MACHIAVEL_MAIL_FROM",
    )
    serve.add_argument(
        "--no-limits",
        action="store_true",
        help="no limit on tables and write requests per account and address (a private "
        "server under load tests only)",
    )
    serve.add_argument(
        "--public-url",
        help="the address people open, for links in mails (default: $MACHIAVEL_PUBLIC_URL, "
        "else http://HOST:PORT)",
    )
    add_connection_arguments(serve)
    add_cluster_arguments(serve)
    add_cluster_commands(commands)

    bots = commands.add_parser(
        "bots", help="run a bot worker node: bot moves of a cluster's servers, from Redis"
    )
    bots.add_argument("--redis-url", help="the cluster's Redis (default: $MACHIAVEL_REDIS_URL)")
    bots.add_argument(
        "--database", help="the cluster's database URL (default: $MACHIAVEL_DATABASE_URL)"
    )
    bots.add_argument("--workers", type=int, help="bot worker processes (default: cores)")
    bots.add_argument(
        "--prefix",
        "--redis-prefix",
        dest="prefix",
        default="machiavel",
        help="of the cluster's Redis keys, as its servers' (default machiavel)",
    )
    bots.add_argument(
        "--metrics-port",
        type=int,
        help="serve Prometheus metrics (queue length, waiting time) on this port",
    )
    bots.add_argument(
        "--metrics-host", default="127.0.0.1", help="address of the metrics (default 127.0.0.1)"
    )

    commands.add_parser("games", help="list the games")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "play":
            return play(args, sys.stdin, sys.stdout)
        if args.command == "rules":
            print(game(args.game).summary)
            return 0
        if args.command == "bench":
            print_bench(bench_all(args.seconds, args.game), args.seconds, args.game)
            return 0
        if args.command == "arena":
            return arena(args)
        if args.command == "bots":
            return bot_node(args)
        if args.command == "serve":
            from machiavel.server.run import serve

            try:
                connections = settings_from(args)
                readers = metrics_from(args)
                cluster = cluster_settings_from(args, args.host, args.port)
            except SettingError as error:
                print(f"machiavel: {error}", file=sys.stderr)
                return 2
            return serve(
                args.host,
                args.port,
                args.database,
                args.bot_workers,
                connections,
                smtp_url=args.smtp_url,
                public_url=args.public_url,
                limits=not args.no_limits,
                metrics_from=readers,
                cluster=cluster,
            )
        if args.command in ("cluster", "proxy-config"):
            return run_cluster_command(args)
        for game_id in games():
            spec = game(game_id)
            print(f"{game_id:<8} {spec.title}, {spec.min_players}-{spec.max_players} players")
        return 0
    except MachiavelError as error:
        print(f"machiavel: {error}", file=sys.stderr)
        return 2


def bot_node(args: argparse.Namespace) -> int:
    """``machiavel bots``: serve a cluster's bot queue until Ctrl-C or SIGTERM."""
    from machiavel.server.botnode import run_node
    from machiavel.server.cluster import redis_url_from
    from machiavel.server.storage import DATABASE_ENV, database_url

    redis_url = redis_url_from(args.redis_url)
    database = args.database or os.environ.get(DATABASE_ENV)
    if redis_url is None or not database:
        print(
            "machiavel: a bot worker node needs the cluster's Redis and database: "
            "--redis-url (or $MACHIAVEL_REDIS_URL) and --database (or $MACHIAVEL_DATABASE_URL)",
            file=sys.stderr,
        )
        return 2
    if args.workers is not None and args.workers < 1:
        print("machiavel: --workers must be at least 1", file=sys.stderr)
        return 2
    metrics = (args.metrics_host, args.metrics_port) if args.metrics_port is not None else None
    return run_node(redis_url, database_url(database), args.workers, args.prefix, metrics)


# ---- play ---------------------------------------------------------------------------
def play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    spec = game(args.game)
    players = args.players if args.players is not None else spec.min_players
    state = spec.new(players, seed=args.seed, options=dict(args.option))
    if not 0 <= args.seat < players:
        raise IllegalAction(f"--seat must be a player number from 0 to {players - 1}")
    bots: dict[int, Bot] = {
        p: bot(args.bot, seed=state.setup.seed + p) for p in range(players) if p != args.seat
    }
    out = _printer(stdout)
    out(f"{spec.title}: you are player {args.seat}; seed {state.setup.seed}.")
    out("Type an action as listed, 'help' to list them again, 'quit' to leave.\n")
    try:
        finished = _game_loop(state, args.seat, bots, stdin, out)
    except KeyboardInterrupt:
        out("\nInterrupted: goodbye.")
        return 0
    if not finished:
        out("Goodbye.")
        return 0
    out(spec.render(state.view(args.seat)))
    return 0


def _printer(stdout: TextIO) -> Callable[[str], None]:
    def out(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    return out


def _game_loop(
    state: State, human: int, bots: dict[int, Bot], stdin: TextIO, out: Callable[[str], None]
) -> bool:
    """Run until the game ends (True) or the human leaves (False)."""
    shown_version = -1
    while not state.is_over:
        for player in state.to_move:
            if player in bots:
                action = bots[player].choose(state.seat(player))
                out(narrate(state, player, action).for_viewer(human, state.players))
                break
        else:
            if shown_version != state.version:
                out(state.game.render(state.view(human)))
                _list_actions(state, human, out)
                shown_version = state.version
            entered = _ask(stdin, out)
            if entered is None or entered.lower() in QUIT_WORDS:
                return False
            if entered.lower() in HELP_WORDS:
                _list_actions(state, human, out)
                continue
            try:
                told = narrate(state, human, entered)
            except IllegalAction as error:
                out(f"Not accepted: {error}")
                continue
            events = told.for_viewer(human, state.players).split("\n")[1:]
            for line in events:  # what followed the human's own move (an election...)
                out(line)
    out(state.ending() or "")
    return True


def _ask(stdin: TextIO, out: Callable[[str], None]) -> str | None:
    out("> ")
    line = stdin.readline()
    if not line:
        return None
    return line.strip() or _ask(stdin, out)


def _list_actions(state: State, player: int, out: Callable[[str], None]) -> None:
    actions = state.legal_actions(player)
    out(f"Your legal actions ({len(actions)}):")
    groups: dict[str, list[str]] = {}
    for action in actions:
        head, _, rest = action.partition(" ")
        groups.setdefault(head, []).append(rest)
    if len(groups) < len(actions) and all(groups.values()):
        for head, rests in groups.items():
            out(_wrap(f"{head}: " + ", ".join(rests)))
    else:
        out(_wrap("  ".join(actions)))


def _wrap(text: str) -> str:
    return textwrap.fill(
        text, width=100, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False
    )


# ---- arena --------------------------------------------------------------------------
def arena(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from machiavel.bots.arena import RayCluster, run_arena, save_chart, summarize, tasks

    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    if len(names) < 2:
        raise IllegalAction("--bots needs at least two bots, e.g. --bots hard,random")
    if args.games < 1:
        raise IllegalAction("--games must be at least 1")
    spec = game(args.game)
    players = args.players if args.players is not None else spec.min_players
    options = dict(args.option)
    base = args.out.removesuffix(".json") if args.out else None
    earlier = _earlier_games(args, base, players, names, options)
    total = sum(1 for _ in tasks(args.game, names, args.games, players, args.seed, options))
    played: list[GameOutcome] = list(earlier)

    def game_over(outcome: GameOutcome) -> None:
        played.append(outcome)
        progress.advance(bar)
        if base is not None:
            _save_arena(summarize(args.game, players, args.games, played, names, options), base)

    with Progress() as progress:
        bar = progress.add_task(f"{args.game}: {total} games", total=total, completed=len(earlier))
        try:
            report = run_arena(
                args.game,
                names,
                args.games,
                players,
                args.jobs,
                args.seed,
                options,
                game_over,
                earlier,
                None if args.ray is None else RayCluster(args.ray or None),
            )
        except KeyboardInterrupt:  # Ctrl-C: report the games played so far
            if not played:
                raise
            report = summarize(args.game, players, args.games, played, names, options)
            progress.console.print(f"Interrupted: {len(played)} of {total} games played.")
    table = Table(title=f"arena: {spec.title}, {players} players, {args.games} games per pairing")
    for column in ["pairing", "games", "win rate", "95% interval", "fair share"]:
        table.add_column(column)
    for p in report.pairings:
        seats = "one seat vs the others" if players > 2 else "head to head"
        table.add_row(
            f"{p.focus} vs {p.field} ({seats})",
            str(p.games),
            f"{p.win_rate:.1%}",
            f"{p.low:.1%} - {p.high:.1%}",
            f"{p.fair_share:.0%}",
        )
    console = Console()
    console.print(table)
    console.print(
        "Elo: "
        + ", ".join(f"{n} {r:.0f}" for n, r in sorted(report.elo.items(), key=lambda x: -x[1]))
    )
    if base is not None:
        _save_arena(report, base)
        save_chart(report, f"{base}.png")
        console.print(f"Wrote {base}.json and {base}.png")
    return 0


def _earlier_games(
    args: argparse.Namespace,
    base: str | None,
    players: int,
    names: list[str],
    options: dict[str, Any],
) -> list[GameOutcome]:
    """With ``--resume``, the games already in ``--out``'s JSON (none if it is not there)."""
    from machiavel.bots.arena import outcomes_from_json

    if not args.resume:
        return []
    if base is None:
        raise IllegalAction("--resume continues the arena saved by --out: give --out PATH")
    saved = Path(f"{base}.json")
    if not saved.exists():
        return []
    try:
        data = json.loads(saved.read_text(encoding="utf-8"))
        return outcomes_from_json(data, args.game, players, names, options)
    except ValueError as error:  # JSON errors included
        raise IllegalAction(f"cannot resume from {saved}: {error}") from error


def _save_arena(report: ArenaReport, base: str) -> None:
    """Write the JSON whole to a side file, then put it in place: a stop never halves it."""
    target = Path(f"{base}.json")
    partial = target.with_suffix(".json.partial")
    partial.write_text(json.dumps(report.to_json(), indent=1), encoding="utf-8")
    partial.replace(target)


# ---- bench --------------------------------------------------------------------------
def print_bench(results: list[BenchResult], seconds: float, only: list[str] | None) -> None:
    from rich.console import Console
    from rich.table import Table

    from machiavel.speedups import engines

    table = Table(title=f"machiavel bench: random play on one core, engines {engines()}")
    columns = ["game", "players", "games/s", "turns/s", "actions/s", "legal_actions mean"]
    for column in [*columns, "legal_actions at start", "ISMCTS it/s"]:
        table.add_column(column, justify="right" if column != "game" else "left")
    for r in results:
        table.add_row(
            r.game,
            str(r.players),
            f"{r.games_per_second:,.1f}",
            f"{r.turns_per_second:,.0f}",
            f"{r.actions_per_second:,.0f}",
            f"{r.mean_legal_microseconds:,.1f} µs",
            f"{r.opening_legal_microseconds:,.1f} µs",
            f"{r.ismcts_per_second:,.0f}",
        )
    console = Console(width=max(120, Console().width))
    console.print(table)
    flags = f" --seconds {seconds:g}" + "".join(f" --game {g}" for g in only or [])
    console.print(f"Reproduce with: machiavel bench{flags}")


if __name__ == "__main__":
    raise SystemExit(main())
