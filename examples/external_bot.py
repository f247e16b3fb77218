#!/usr/bin/env python3
"""A bot from outside: plays random legal moves on a running machiavel server, as a
person's browser would, through the public HTTP and WebSocket API only.

Requirements: Python 3.11 or later and the ``websockets`` package (13 or later), which
``pip install machiavel`` brings along (Uvicorn's standard extra); otherwise
``pip install websockets``. HTTP goes through the standard library (``urllib``). Nothing of
machiavel is imported: the same steps work from any language (docs/server.md, "Bots from
outside").

What it does:
1. Gets a bot account's token: ``--token`` (or ``$MACHIAVEL_BOT_TOKEN``), else it signs in
   as the owner (``--owner``, ``--password``), makes the bot account ``--bot`` and prints
   its token (keep it: it is shown once).
2. Joins the table ``--table`` (a seat left free, or reserved for the bot), else creates a
   table of ``--game`` with the bot in seat 0 and server bots of level ``--opponents`` in
   the others.
3. Opens the table's WebSocket with the token: the server sends the state as the bot's
   seat sees it at once, then again after every change.
4. Whenever its seat is in ``to_move``, picks one of ``legal_actions`` at random and posts
   it with the state's ``version``; goes on until ``is_over``, then prints the winners.

Example, against a local server (``machiavel serve``) and its medium bots::

    python examples/external_bot.py --server http://127.0.0.1:8000 --game djambi \
        --owner ada --password 'correct horse' --bot randy
    python examples/external_bot.py --token TOKEN --game tyrus    # the next games

Exit status: 0 once the game is over, 1 when the server refuses something (its sentence
is printed) or cannot be reached, 2 for wrong arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

TOKEN_VARIABLE = "MACHIAVEL_BOT_TOKEN"
TIMEOUT = 60.0  # seconds for one HTTP answer before giving up
SERVER_RESTARTS = 1012  # the close code of a server that stops or reloads a game
# The socket waits for the next state without a limit (the others may think for long); the
# server pings it every 20 s, so a server gone away is noticed all the same.

State = dict[str, Any]


class Refused(Exception):  # noqa: N818 - it names the server's answer
    """The server refused a request: its status and its sentence (``detail``)."""

    def __init__(self, status: int, detail: str, body: Any = None) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail
        self.body = body


class Server:
    """The HTTP API of one server, with an optional credential: the bot's token
    (``Authorization: Bearer``) or a person's session cookie."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base.rstrip("/")
        self.token = token
        self.cookie: str | None = None

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """The JSON answer; ``Refused`` for a 4xx or 5xx answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, method=method)
        request.add_header("Content-Type", "application/json")
        for name, value in self.credential_headers().items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                self.keep_cookie(answer.headers.get_all("Set-Cookie") or [])
                return json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            text = error.read()
            answer_body = json.loads(text) if text.startswith(b"{") else {"detail": str(error)}
            raise Refused(error.code, answer_body.get("detail", ""), answer_body) from None

    def credential_headers(self) -> dict[str, str]:
        if self.token is not None:
            return {"Authorization": f"Bearer {self.token}"}
        if self.cookie is not None:
            # A request carrying the session cookie must say it comes from this site.
            return {"Cookie": self.cookie, "Origin": self.base}
        return {}

    def keep_cookie(self, cookies: list[str]) -> None:
        for cookie in cookies:
            name_value = cookie.split(";", 1)[0]
            if name_value.startswith("machiavel_session="):
                self.cookie = name_value

    def websocket_url(self, game_id: str) -> str:
        parts = urlsplit(self.base)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}{parts.path}/api/games/{game_id}/ws"


# ---- 1. the bot account ---------------------------------------------------------------
def make_bot_account(base: str, owner: str, password: str, bot_name: str) -> str:
    """Sign in as the owner, make the bot account, return its token."""
    person = Server(base)
    person.call("POST", "/api/session", {"name": owner, "password": password})
    made = person.call("POST", "/api/me/bots", {"name": bot_name})
    token: str = made["token"]
    return token


# ---- 2. a table -----------------------------------------------------------------------
def create_table(server: Server, game: str, players: int | None, opponents: str) -> str:
    """A new table: the bot's seat first (made by its account, it is the bot's), server
    bots in the others. Its id."""
    if players is None:
        catalog = server.call("GET", "/api/catalog")["games"]
        found = [g for g in catalog if g["id"] == game]
        if not found:
            known = ", ".join(g["id"] for g in catalog)
            raise Refused(400, f"this server has no game {game!r} (it has {known})")
        players = int(found[0]["min_players"])
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": opponents}] * (players - 1)
    created = server.call("POST", "/api/games", {"game": game, "seats": seats})
    game_id: str = created["id"]
    return game_id


def join_table(server: Server, game_id: str) -> None:
    """Take a free seat of the table, or the one reserved for the bot account."""
    server.call("POST", f"/api/games/{game_id}/join", {})


# ---- 3 and 4. playing -----------------------------------------------------------------
def is_state(message: Any) -> bool:
    """Pushes are states; a refusal sent on the socket is ``{"error": ...}``."""
    return isinstance(message, dict) and "legal_actions" in message and "version" in message


def our_turn(state: State) -> bool:
    return not state["is_over"] and state["player"] in state["to_move"]


def play_one(server: Server, state: State, choose: random.Random) -> None:
    """Post one random legal action chosen at the state's version. A 409 (the game moved
    on meanwhile: a clock, a stand-in) is not a failure: the push of the new state
    follows, and the bot chooses again then."""
    action = choose.choice(state["legal_actions"])
    body = {"action": action, "version": state["version"]}
    try:
        server.call("POST", f"/api/games/{state['id']}/actions", body)
    except Refused as refused:
        if refused.status != 409:
            raise


def next_state(socket: ClientConnection) -> State:
    """The next state pushed (other messages, such as chat, are skipped)."""
    while True:
        message = json.loads(socket.recv())
        if is_state(message):
            return dict(message)
        if isinstance(message, dict) and "error" in message:
            error = message["error"]
            raise Refused(int(error["status"]), str(error["detail"]), error)


def play_until_over(server: Server, game_id: str, seed: int | None) -> State:
    """Wait for each turn on the WebSocket and play it; the final state. A server that
    restarts closes its sockets with 1012: connect again, the first push catches up."""
    choose = random.Random(seed)
    while True:
        try:
            return play_on_one_socket(server, game_id, choose)
        except ConnectionClosed as closed:
            if closed.rcvd is None or closed.rcvd.code != SERVER_RESTARTS:
                raise closed_by_server(closed) from None


def play_on_one_socket(server: Server, game_id: str, choose: random.Random) -> State:
    played_at = -1  # the last version the bot acted at: one action per version
    headers = server.credential_headers()
    with connect(server.websocket_url(game_id), additional_headers=headers) as socket:
        while True:
            state = next_state(socket)
            if state["is_over"]:
                return state
            if our_turn(state) and state["version"] > played_at:
                played_at = state["version"]
                play_one(server, state, choose)


def closed_by_server(closed: ConnectionClosed) -> Refused:
    """The server closes a socket with 4000 + an HTTP status (4401 a wrong token, 4404 no
    such table...)."""
    code = closed.rcvd.code if closed.rcvd is not None else 1006
    reason = closed.rcvd.reason if closed.rcvd is not None else "the connection was lost"
    return Refused(code - 4000 if code >= 4000 else code, f"socket closed: {reason}")


# ---- the command line -----------------------------------------------------------------
def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the server's URL")
    parser.add_argument(
        "--token",
        default=os.environ.get(TOKEN_VARIABLE),
        help="the bot's token (--token=TOKEN for one made before 2026-11-29 that begins with -)",
    )
    parser.add_argument("--owner", help="without a token: the owner's account name ...")
    parser.add_argument("--password", help="... its password ...")
    parser.add_argument("--bot", help="... and the name of the bot account to make")
    parser.add_argument("--table", help="join this table instead of creating one")
    parser.add_argument("--game", default="tyrus", help="the game of a new table")
    parser.add_argument("--players", type=int, help="its player count (default: the least)")
    parser.add_argument("--opponents", default="medium", help="level of the server's bots")
    parser.add_argument("--seed", type=int, help="seed of the random choices (repeatable)")
    args = parser.parse_args(argv)
    if args.token is None and None in (args.owner, args.password, args.bot):
        parser.error(f"give --token (or ${TOKEN_VARIABLE}), or --owner, --password and --bot")
    return args


def run(args: argparse.Namespace) -> State:
    token = args.token
    if token is None:
        token = make_bot_account(args.server, args.owner, args.password, args.bot)
        print(f"bot account {args.bot} made; its token (shown once): {token}", flush=True)
    server = Server(args.server, token)
    if args.table is not None:
        join_table(server, args.table)
        game_id = args.table
    else:
        game_id = create_table(server, args.game, args.players, args.opponents)
    print(f"playing table {game_id}: {server.base}/#/game/{game_id}", flush=True)
    return play_until_over(server, game_id, args.seed)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    try:
        final = run(args)
    except Refused as refused:
        print(f"refused ({refused.status}): {refused.detail}", file=sys.stderr)
        return 1
    except OSError as error:  # refused connections, time-outs (urllib's errors are OSErrors)
        print(f"the server at {args.server} cannot be reached: {error}", file=sys.stderr)
        return 1
    seat = final["player"]
    outcome = "won" if seat in final["winners"] else "did not win"
    print(f"game over after {final['version']} actions: winners {final['winners']}; {outcome}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
