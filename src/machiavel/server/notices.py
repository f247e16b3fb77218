"""E-mail notifications: whose turn it is, invitations, games that ended.

The service tells the ``Notifier`` what happened (``turn``, ``invitation``,
``game_over``); the notifier picks who should hear of it by mail, then, off the event
loop, claims each notice in storage (``Repository.claim_notice``: at most one mail per
game, account, kind and version, across restarts and servers) and queues the mail with
the ``Mailer`` (which never blocks nor raises). So no request waits on mail, and a mail
server that fails loses no game action. See "Mail" in docs/server.md.

Who gets a mail: an account seated at the table (or invited to it) with an e-mail address
and ``notify`` on, for a turn or a game's end only at a turn-based table and only when
none of that seat's WebSockets is connected to the game (a player watching the page is
told by the page). Invitations are mailed whatever the pace: the invited person cannot be
watching a table they do not know of.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import quote

from machiavel.server import mail
from machiavel.server.live import LiveGame
from machiavel.server.storage import GameRecord, Repository

logger = logging.getLogger("machiavel.server.notices")

UNSUBSCRIBE_SECRET = "unsubscribe"  # the name of its key in server_secrets
TURN_BASED = "turn-based"


@dataclass(frozen=True)
class Notice:
    """One mail to send if its account wants it and it was not sent before."""

    game_id: str
    title: str
    account_id: int
    kind: mail.NoticeKind
    version: int
    by: str | None = None  # who invites
    won: bool | None = None  # for a game's end


class Notifier:
    """Decides who is mailed and sends in the background (``close`` waits for it)."""

    def __init__(self, repo: Repository, mailer: mail.Mailer, public_url: str) -> None:
        self.repo = repo
        self.mailer = mailer
        self.public_url = public_url.rstrip("/")
        self._secret: str | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def enabled(self) -> bool:
        return self.mailer.enabled

    # ---- what happened ----------------------------------------------------------------
    def turn(self, live: LiveGame, title: str) -> None:
        """The game moved on: mail the seats now to move (turn-based tables)."""
        if live.is_over or live.record.pace != TURN_BASED:
            return
        self._queue(
            Notice(live.id, title, account, "turn", live.state.version)
            for account in self._absent_accounts(live, live.to_move())
        )

    def game_over(self, live: LiveGame, title: str) -> None:
        """The game ended: mail its players (turn-based tables)."""
        state = live.state
        if not live.is_over or live.record.pace != TURN_BASED:
            return
        winners = set(live.winners)
        seats = {seat.account_id: seat.player for seat in live.record.seats}
        self._queue(
            Notice(
                live.id,
                title,
                account,
                "game_over",
                state.version,
                won=seats[account] in winners,
            )
            for account in self._absent_accounts(live, range(state.players))
        )

    def invitation(self, record: GameRecord, player: int, title: str, by: str | None) -> None:
        """Seat ``player`` was reserved for its account: mail the invitation."""
        account = record.seats[player].account_id
        if account is not None:
            self._queue([Notice(record.id, title, account, "invitation", record.version, by)])

    @staticmethod
    def _absent_accounts(live: LiveGame, players: Sequence[int] | range) -> list[int]:
        """The accounts of these seats that no WebSocket of theirs watches now."""
        watching = {connection.viewer for connection in live.connections}
        seats = live.record.seats
        return [
            account
            for player in players
            if (account := seats[player].account_id) is not None and player not in watching
        ]

    # ---- sending ----------------------------------------------------------------------
    def _queue(self, notices: Iterable[Notice]) -> None:
        if not self.enabled:
            return
        batch = list(notices)
        if not batch:
            return
        task = asyncio.get_running_loop().create_task(asyncio.to_thread(self._send, batch))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _send(self, notices: list[Notice]) -> None:
        """Claim and queue each notice (in a thread: it reads and writes storage)."""
        try:
            accounts = self.repo.accounts_by_ids(sorted({n.account_id for n in notices}))
            for notice in notices:
                account = accounts.get(notice.account_id)
                if account is None or not account.email or not account.notify:
                    continue
                if not self.repo.claim_notice(
                    notice.game_id, notice.account_id, notice.kind, notice.version
                ):
                    continue  # sent already (before a restart, or by another server)
                self.mailer.send(self._message(account.email, account.id, notice))
        except Exception as error:  # mail must never fail a game: one line, no traceback
            logger.warning("mail: notices not sent: %s", mail.one_line(error))

    def _message(self, to: str, account_id: int, notice: Notice) -> EmailMessage:
        subject, text = mail.notification(notice.kind, notice.title, by=notice.by, won=notice.won)
        return mail.compose(
            to,
            subject,
            text,
            self.game_link(notice.game_id),
            self.unsubscribe_link(account_id),
            sender=self.mailer.settings.sender if self.mailer.settings else mail.DEFAULT_SENDER,
        )

    def game_link(self, game_id: str) -> str:
        return f"{self.public_url}/#/game/{quote(game_id)}"

    def unsubscribe_link(self, account_id: int) -> str:
        token = mail.unsubscribe_token(self.secret(), account_id)
        return f"{self.public_url}/api/mail/unsubscribe?token={quote(token)}"

    def secret(self) -> str:
        """The key of unsubscribe links, kept in storage (blocking: call it in a thread)."""
        if self._secret is None:
            self._secret = self.repo.server_secret(UNSUBSCRIBE_SECRET)
        return self._secret

    async def close(self) -> None:
        """Let the notices being claimed reach the mailer (then the mailer is closed)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def wait_idle(self) -> None:
        """Wait until every notice so far is claimed and its mail delivered or given up."""
        await self.close()
        await self.mailer.wait_idle()
