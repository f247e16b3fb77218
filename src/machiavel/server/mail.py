"""Mail: settings, a non-blocking mailer, notification messages, one-click unsubscribe.

Self-contained (the standard library only): nothing here knows about games, accounts or
the web app. The server builds ``MailSettings`` from ``--smtp-url`` /
``MACHIAVEL_SMTP_URL`` and ``MACHIAVEL_MAIL_FROM`` (``MailSettings.from_environment``),
prints ``describe(settings)`` at start, runs one ``Mailer`` on its event loop, and sends
what ``compose`` builds. See "Mail" in docs/server.md.

- ``Mailer.send`` only puts a message in a bounded queue (thread-safe, never blocks,
  never raises); one worker task delivers the queue in order with ``smtplib`` in a thread
  (``asyncio.to_thread``), retrying temporary failures (a 4xx answer, a refused or lost
  connection, a timeout) after growing pauses, and logs one line per failure burst.
- ``unsubscribe_token`` / ``read_unsubscribe_token``: HMAC-SHA256 tokens naming an account,
  for the one-click link of every mail (RFC 8058).
"""

from __future__ import annotations

import asyncio
import base64
import collections
import hashlib
import hmac
import html
import logging
import os
import smtplib
import ssl
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid, parseaddr
from typing import Literal
from urllib.parse import unquote, urlsplit

logger = logging.getLogger("machiavel.server.mail")

DEFAULT_SENDER = "machiavel@localhost"
SMTP_URL_VARIABLE = "MACHIAVEL_SMTP_URL"
MAIL_FROM_VARIABLE = "MACHIAVEL_MAIL_FROM"

Security = Literal["plain", "tls", "starttls"]
Language = Literal["en", "fr"]
NoticeKind = Literal["turn", "invitation", "game_over"]

# scheme -> (security, default port)
SCHEMES: dict[str, tuple[Security, int]] = {
    "smtp": ("plain", 25),
    "smtps": ("tls", 465),
    "smtp+starttls": ("starttls", 587),
}


# ---- settings -----------------------------------------------------------------------
@dataclass(frozen=True)
class MailSettings:
    """Where mail goes and who sends it. ``password`` is never shown (not in ``repr``,
    ``url`` nor ``describe``)."""

    host: str
    port: int
    security: Security = "plain"
    sender: str = DEFAULT_SENDER
    user: str | None = None
    password: str | None = field(default=None, repr=False)

    @classmethod
    def from_url(cls, url: str, sender: str = DEFAULT_SENDER) -> MailSettings:
        """Settings from ``smtp://host[:port]`` (plain, port 25), ``smtps://`` (TLS from
        the first byte, 465) or ``smtp+starttls://`` (STARTTLS, 587), optionally with
        ``user:password@`` before the host (percent-encoded: ``%40`` for ``@``). A
        malformed URL or sender raises ValueError with a sentence saying what is wrong
        (never repeating the password)."""
        url = url.strip()
        if not url:
            raise ValueError("the SMTP URL is empty (expected smtp://host:port)")
        scheme, separator, rest = url.partition("://")
        if not separator:
            raise ValueError(
                "the SMTP URL must start with smtp://, smtps:// or smtp+starttls:// "
                "(for example smtp://127.0.0.1:2525)"
            )
        scheme = scheme.lower()
        if scheme not in SCHEMES:
            raise ValueError(
                f"the SMTP URL's scheme {scheme!r} is not one of smtp, smtps, smtp+starttls"
            )
        security, default_port = SCHEMES[scheme]
        try:
            parts = urlsplit(f"smtp://{rest}")
        except ValueError:
            raise ValueError(f"the SMTP URL's host is malformed: {safe_url_text(url)}") from None
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError(
                "the SMTP URL must be only scheme://[user:password@]host[:port], "
                "without a path, query or fragment"
            )
        host = parts.hostname
        if not host:
            raise ValueError(f"the SMTP URL names no host: {safe_url_text(url)}")
        try:
            port = parts.port
        except ValueError:
            raise ValueError(
                f"the SMTP URL's port is not a number from 1 to 65535: {safe_url_text(url)}"
            ) from None
        if port is None:
            if parts.netloc.endswith(":"):
                raise ValueError(f"the SMTP URL's port is empty: {safe_url_text(url)}")
            port = default_port
        if not 1 <= port <= 65535:
            raise ValueError(
                f"the SMTP URL's port is not a number from 1 to 65535: {safe_url_text(url)}"
            )
        user = unquote(parts.username) if parts.username is not None else None
        password = unquote(parts.password) if parts.password is not None else None
        if user is not None and not user:
            raise ValueError("the SMTP URL has an empty user name before '@'")
        if user is not None and password is None:
            raise ValueError(
                "the SMTP URL names a user but no password (smtp://user:password@host)"
            )
        if not (user or "").isascii() or not (password or "").isascii():
            raise ValueError(
                "the SMTP URL's user and password must be ASCII (smtplib sends them so)"
            )
        return cls(host, port, security, check_sender(sender), user, password)

    @classmethod
    def from_environment(
        cls, environ: Mapping[str, str] | None = None, *, url: str | None = None
    ) -> MailSettings | None:
        """The settings of ``url`` (``--smtp-url``) if given, else of
        ``$MACHIAVEL_SMTP_URL``, sent from ``$MACHIAVEL_MAIL_FROM`` (default
        ``machiavel@localhost``); None (mail is off) when neither names a URL."""
        environ = os.environ if environ is None else environ
        chosen = url if url is not None and url.strip() else environ.get(SMTP_URL_VARIABLE, "")
        if not chosen.strip():
            return None
        sender = environ.get(MAIL_FROM_VARIABLE, "").strip() or DEFAULT_SENDER
        return cls.from_url(chosen, sender)

    @property
    def url(self) -> str:
        """The server's URL, with the user but never the password."""
        scheme = next(name for name, (security, _) in SCHEMES.items() if security == self.security)
        host = f"[{self.host}]" if ":" in self.host else self.host
        user = f"{self.user}@" if self.user else ""
        return f"{scheme}://{user}{host}:{self.port}"

    def describe(self) -> str:
        return describe(self)


def describe(settings: MailSettings | None) -> str:
    """The line ``machiavel serve`` prints at start (no password, ever)."""
    if settings is None:
        return "mail: off (no --smtp-url)"
    return f"mail: via {settings.url} from {settings.sender}"


def safe_url_text(url: str) -> str:
    """``url`` with whatever may be a password (between ':' and the last '@' of the part
    after the scheme) replaced by ``***``, for error messages."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return url if "@" not in url else "(hidden)"
    authority, slash, tail = rest.partition("/")
    if "@" in authority:
        userinfo, _, host = authority.rpartition("@")
        if ":" in userinfo:
            userinfo = userinfo.split(":", 1)[0] + ":***"
        authority = f"{userinfo}@{host}"
    return f"{scheme}://{authority}{slash}{tail}"


def check_sender(sender: str) -> str:
    """``sender`` if it is an address (``a@b`` or ``Name <a@b>``), else ValueError."""
    if any(character in sender for character in "\r\n\0"):
        raise ValueError("the sender address (MACHIAVEL_MAIL_FROM) contains a line break")
    _, address = parseaddr(sender)
    if "@" not in address or address.startswith("@") or address.endswith("@"):
        raise ValueError(
            f"the sender {sender!r} (MACHIAVEL_MAIL_FROM) is not an e-mail address "
            "such as machiavel@example.org"
        )
    return sender.strip()


# ---- the mailer ---------------------------------------------------------------------
def deliver(settings: MailSettings, message: EmailMessage, timeout: float) -> None:
    """Send ``message`` now, on a connection of its own (blocking: run it in a thread).
    ``timeout`` bounds each network operation (connecting, each command). An exception
    means the server did not take the message; once it has, closing errors are ignored
    (raising then would send it twice)."""
    context = ssl.create_default_context()
    client: smtplib.SMTP
    if settings.security == "tls":
        client = smtplib.SMTP_SSL(settings.host, settings.port, timeout=timeout, context=context)
    else:
        client = smtplib.SMTP(settings.host, settings.port, timeout=timeout)
    try:
        if settings.security == "starttls":
            client.starttls(context=context)
        if settings.user is not None:
            client.login(settings.user, settings.password or "")
        client.send_message(message)
    except BaseException:
        client.close()
        raise
    try:
        client.quit()
    except (OSError, smtplib.SMTPException):  # taken already: do not send it again
        client.close()


def is_temporary(error: BaseException) -> bool:
    """Whether trying again later may succeed: a 4xx answer, a refused, reset or timed
    out connection, a server that hung up. A 5xx answer, a refused login, a server
    without STARTTLS, a certificate that does not verify, or a malformed message are not."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in error.recipients.values()]
        return bool(codes) and all(400 <= code < 500 for code in codes)
    if isinstance(error, smtplib.SMTPResponseException):
        return 400 <= error.smtp_code < 500
    if isinstance(error, smtplib.SMTPServerDisconnected):
        return True
    if isinstance(error, smtplib.SMTPException | ssl.SSLCertVerificationError):
        return False
    return isinstance(error, OSError)


class Mailer:
    """Delivers mail in the background of an event loop.

    ``send(message)`` only queues (from the loop's thread or any other, before or after
    ``start``): it never blocks and never raises, so a slow, failing or absent mail server
    cannot hold or fail a request. The queue holds ``queue_size`` messages; when it is
    full, the *oldest* waiting message is dropped for the new one (a notification that
    waited longest is the likeliest to be stale: its turn may be over) and one line is
    logged per overflow (until the queue is empty again).

    One worker task (``start()``, on the running loop) delivers the messages in order,
    each on a connection of its own with ``smtplib`` in a thread (``timeout`` seconds per
    network operation). A temporary failure (``is_temporary``) is retried after each of
    ``retry_delays`` in turn (waited with ``sleep``, ``asyncio.sleep`` unless a test gives
    its own), then the message is given up; a permanent failure is given up at once.
    Logging is per *failure burst*: the first failed attempt after a success (or since
    start) logs one warning, with the server's URL and the error in one line (no
    traceback, no password, no address); later failures are only counted (``failures``,
    ``given_up``) until a message gets through, which logs one info line saying how many
    were given up meanwhile (as ``close`` does if none got through). The worker itself never
    fails: an unexpected error on a message gives that message up.

    ``await close(timeout)`` stops accepting messages, lets the worker deliver what is
    queued for up to ``timeout`` seconds, then stops it; what was left is counted in
    ``unsent`` and logged in one line. With ``settings`` None mail is off: ``send``
    returns False and nothing runs.
    """

    def __init__(
        self,
        settings: MailSettings | None,
        *,
        queue_size: int = 1000,
        timeout: float = 30.0,
        retry_delays: Sequence[float] = (5.0, 30.0, 120.0),
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        transport: Callable[[MailSettings, EmailMessage, float], None] = deliver,
    ) -> None:
        if queue_size < 1:
            raise ValueError("the mail queue must hold at least one message")
        self.settings = settings
        self.queue_size = queue_size
        self.timeout = timeout
        self.retry_delays = tuple(retry_delays)
        self._sleep = sleep
        self._transport = transport
        self._lock = threading.Lock()
        self._queue: collections.deque[EmailMessage] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._task: asyncio.Task[None] | None = None
        self._wakeup: asyncio.Event | None = None
        self._idle: asyncio.Event | None = None
        self._busy = False
        self._closed = False
        self._overflowing = False
        self._burst_failures = 0  # failed attempts since the last success
        self._burst_given_up = 0
        self.sent = 0  # messages the server took
        self.failures = 0  # failed attempts
        self.given_up = 0  # messages given up after a permanent failure or every retry
        self.dropped = 0  # messages dropped from a full queue
        self.unsent = 0  # messages left when close() stopped the worker

    @property
    def enabled(self) -> bool:
        return self.settings is not None

    @property
    def queued(self) -> int:
        """Messages waiting (not counting one being delivered)."""
        with self._lock:
            return len(self._queue)

    def send(self, message: EmailMessage) -> bool:
        """Queue ``message``; True if it was queued, False if mail is off or the mailer is
        closed. Never blocks, never raises."""
        try:
            if self.settings is None:
                return False
            with self._lock:
                if self._closed:
                    return False
                if len(self._queue) >= self.queue_size:
                    self._queue.popleft()
                    self.dropped += 1
                    report = not self._overflowing
                    self._overflowing = True
                else:
                    report = False
                self._queue.append(message)
                loop, loop_thread = self._loop, self._loop_thread
            if report:
                logger.warning(
                    "mail: the queue is full (%d messages): the oldest are dropped for new "
                    "ones until it empties",
                    self.queue_size,
                )
            if loop is not None:
                if threading.get_ident() == loop_thread:
                    self._wake()
                else:
                    loop.call_soon_threadsafe(self._wake)
            return True
        except Exception:  # never into the caller (e.g. a loop closed under a thread)
            logger.warning("mail: a message could not be queued")
            return False

    def start(self) -> None:
        """Start the worker on the running event loop (once; nothing if mail is off)."""
        if self.settings is None or self._task is not None:
            return
        loop = asyncio.get_running_loop()
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        with self._lock:
            self._loop = loop
            self._loop_thread = threading.get_ident()
        self._task = loop.create_task(self._work(), name="machiavel mail worker")
        self._wake()

    async def wait_idle(self) -> None:
        """Wait until the queue is empty and no message is being delivered (or given up)."""
        if self.settings is None:
            return
        if self._idle is None:
            raise RuntimeError("the mailer was not started")
        while self.queued or self._busy:
            self._idle.clear()
            await self._idle.wait()

    async def close(self, timeout: float = 10.0) -> None:
        """Stop accepting messages; deliver what is queued for up to ``timeout`` seconds,
        then stop the worker (a message being sent then may or may not arrive; it is
        counted in ``unsent`` with the queued ones left)."""
        with self._lock:
            self._closed = True
        task = self._task
        if task is None:
            with self._lock:
                left = len(self._queue)
                self._queue.clear()
            if left and self.settings is not None:
                self._count_unsent(left)
            return
        self._wake()
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except TimeoutError:
            left = self.queued + (1 if self._busy else 0)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                if (current := asyncio.current_task()) is not None and current.cancelling():
                    raise  # close itself was cancelled
            with self._lock:
                self._queue.clear()
            self._count_unsent(left)
        if self._burst_given_up:
            logger.info(
                "mail: closed with %s given up since the last delivery",
                messages(self._burst_given_up),
            )
            self._burst_given_up = 0

    def _count_unsent(self, left: int) -> None:
        self.unsent += left
        logger.warning("mail: %s not sent before the server stopped", messages(left))

    def _wake(self) -> None:
        if self._wakeup is not None:
            self._wakeup.set()

    def _take(self) -> EmailMessage | None:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            self._overflowing = False
            return None

    async def _work(self) -> None:
        assert self._wakeup is not None and self._idle is not None
        while True:
            message = self._take()
            if message is None:
                self._idle.set()
                with self._lock:
                    if self._closed:
                        return
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            self._busy = True
            try:
                await self._deliver_with_retries(message)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a bug here must not end the worker
                logger.error("mail: the mail worker failed on a message: %s", one_line(error))
            finally:
                self._busy = False

    async def _deliver_with_retries(self, message: EmailMessage) -> None:
        settings = self.settings
        assert settings is not None
        attempt = 0
        while True:
            try:
                await asyncio.to_thread(self._transport, settings, message, self.timeout)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                temporary = is_temporary(error)
                retry = temporary and attempt < len(self.retry_delays)
                self._failed(settings, error, temporary)
                if not retry:
                    self.given_up += 1
                    self._burst_given_up += 1
                    return
                await self._sleep(self.retry_delays[attempt])
                attempt += 1
            else:
                self._delivered(settings)
                return

    def _failed(self, settings: MailSettings, error: Exception, temporary: bool) -> None:
        self.failures += 1
        self._burst_failures += 1
        if self._burst_failures > 1:
            return
        what = (
            f"retrying up to {len(self.retry_delays)} times"
            if temporary and self.retry_delays
            else "not retried"
        )
        reason = one_line(error)
        if settings.password:
            reason = reason.replace(settings.password, "***")
        logger.warning(
            "mail: delivery via %s failed (%s; %s); further failures are counted, not "
            "logged, until a message gets through",
            settings.url,
            reason,
            what,
        )

    def _delivered(self, settings: MailSettings) -> None:
        self.sent += 1
        if self._burst_failures:
            logger.info(
                "mail: delivering again via %s after %d failed attempts (%s given up)",
                settings.url,
                self._burst_failures,
                messages(self._burst_given_up),
            )
        self._burst_failures = 0
        self._burst_given_up = 0


def messages(count: int) -> str:
    return f"{count} message" if count == 1 else f"{count} messages"


def one_line(error: BaseException) -> str:
    """An exception as one short line: its class and message (an SMTP answer decoded)."""
    if isinstance(error, smtplib.SMTPResponseException):
        answer = error.smtp_error
        text = answer.decode("utf-8", "replace") if isinstance(answer, bytes) else str(answer)
        detail = f"{error.smtp_code} {text}"
    elif isinstance(error, smtplib.SMTPRecipientsRefused):
        detail = "; ".join(
            f"{code} {answer.decode('utf-8', 'replace')}"
            for code, answer in error.recipients.values()
        )
    else:
        detail = str(error)
    detail = " ".join(detail.split())
    if len(detail) > 200:
        detail = detail[:199] + "…"
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__


# ---- messages -----------------------------------------------------------------------
FOOTER: dict[Language, tuple[str, str, str]] = {
    # (open the game, why this mail, stop these mails)
    "en": (
        "Open the game",
        "You receive this because e-mail notifications are on for your Machiavel account.",
        "Stop these e-mails (one click)",
    ),
    "fr": (
        "Ouvrir la partie",
        "Vous recevez ce courriel parce que les notifications par courriel sont activées "
        "pour votre compte Machiavel.",
        "Ne plus recevoir ces courriels (un clic)",
    ),
}


def language_of(value: str | None) -> Language:
    """``fr`` for French (``fr``, ``fr-CA``...), ``en`` otherwise."""
    return "fr" if value and value.lower().split("-")[0].split("_")[0] == "fr" else "en"


def notification(
    kind: NoticeKind,
    game_title: str,
    *,
    language: str = "en",
    by: str | None = None,
    won: bool | None = None,
) -> tuple[str, str]:
    """The subject and text of a notification, in English or French: ``turn`` (it is your
    turn), ``invitation`` (``by``, if known, invites you), ``game_over`` (the game you
    played has ended; ``won`` says whether you won, if that is known)."""
    title = single_line(game_title)
    name = single_line(by) if by else None
    if language_of(language) == "fr":
        if kind == "turn":
            return (
                f"À vous de jouer : {title}",
                f"C'est à vous de jouer dans votre partie de {title}.",
            )
        if kind == "invitation":
            if name:
                return (
                    f"{name} vous invite à une partie de {title}",
                    f"{name} vous invite à une partie de {title}.",
                )
            return (
                f"Invitation à une partie de {title}",
                f"Vous avez une invitation à une partie de {title}.",
            )
        outcome = {True: " Vous avez gagné.", False: " Vous n'avez pas gagné cette fois.", None: ""}
        return (
            f"Partie terminée : {title}",
            f"Votre partie de {title} est terminée.{outcome[won]}",
        )
    if kind == "turn":
        return f"Your turn: {title}", f"It is your turn to play in your game of {title}."
    if kind == "invitation":
        if name:
            return (
                f"{name} invites you to a game of {title}",
                f"{name} invites you to a game of {title}.",
            )
        return f"An invitation to a game of {title}", f"You are invited to a game of {title}."
    outcome_en = {True: " You won.", False: " You did not win this time.", None: ""}
    return f"Game over: {title}", f"Your game of {title} has ended.{outcome_en[won]}"


def single_line(text: str) -> str:
    """``text`` with line breaks and other control characters turned into spaces."""
    return " ".join("".join(" " if ord(c) < 32 or c == "\x7f" else c for c in text).split())


def check_link(link: str, what: str) -> str:
    """``link`` if it is an http(s) URL that fits in a header between ``<`` and ``>``."""
    if not link.lower().startswith(("https://", "http://")):
        raise ValueError(f"the {what} must be an http:// or https:// URL")
    if any(c.isspace() or c in '<>"' or ord(c) < 32 for c in link):
        raise ValueError(f"the {what} must not contain spaces, quotes or angle brackets")
    return link


def compose(
    to: str,
    subject: str,
    text: str,
    link: str,
    unsubscribe_link: str,
    *,
    sender: str = DEFAULT_SENDER,
    language: str = "en",
    html_part: bool = True,
) -> EmailMessage:
    """A notification: ``text`` followed by ``link`` (to the game) and a footer with
    ``unsubscribe_link``, in plain text and (``html_part``) a minimal HTML alternative in
    which everything given is escaped. Headers: From, To, Subject (line breaks removed),
    Date, Message-ID (at the sender's domain), Content-Language, ``Auto-Submitted:
    auto-generated`` (no auto-replies), ``List-Unsubscribe: <unsubscribe_link>`` and
    ``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058: the link must
    unsubscribe on a POST without anything else). ValueError for an address that is not
    one, or a link that is not an http(s) URL."""
    if any(c in to for c in "\r\n\0") or "@" not in parseaddr(to)[1]:
        raise ValueError("the recipient is not an e-mail address")
    check_sender(sender)
    check_link(link, "link")
    check_link(unsubscribe_link, "unsubscribe link")
    lang = language_of(language)
    open_label, why, stop_label = FOOTER[lang]
    body = text.strip()

    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = single_line(subject)
    message["Date"] = format_datetime(datetime.now(UTC))
    domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid("machiavel", domain=domain)
    message["Auto-Submitted"] = "auto-generated"
    message["List-Unsubscribe"] = f"<{unsubscribe_link}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    separator = " : " if lang == "fr" else ": "
    message.set_content(
        f"{body}\n\n{open_label}{separator}{link}\n\n-- \n{why}\n"
        f"{stop_label}{separator}{unsubscribe_link}\n"
    )
    if html_part:
        paragraphs = "".join(
            "<p>" + html.escape(paragraph.strip()).replace("\n", "<br>") + "</p>"
            for paragraph in body.split("\n\n")
            if paragraph.strip()
        )
        message.add_alternative(
            f'<!doctype html><html lang="{lang}"><body>{paragraphs}'
            f'<p><a href="{html.escape(link)}">{html.escape(open_label)}</a></p>'
            f'<p style="color:#666;font-size:small">{html.escape(why)}<br>'
            f'<a href="{html.escape(unsubscribe_link)}">{html.escape(stop_label)}</a></p>'
            "</body></html>\n",
            subtype="html",
        )
    message["Content-Language"] = lang  # after the content: set_content clears Content-*
    return message


# ---- one-click unsubscribe ----------------------------------------------------------
TOKEN_PURPOSE = b"machiavel unsubscribe v1\0"


def _key(secret: bytes | str) -> bytes:
    key = secret.encode() if isinstance(secret, str) else bytes(secret)
    if len(key) < 16:
        raise ValueError("the unsubscribe secret must be at least 16 bytes")
    return key


def _mac(key: bytes, account_id: int) -> str:
    digest = hmac.new(key, TOKEN_PURPOSE + str(account_id).encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def unsubscribe_token(secret: bytes | str, account_id: int) -> str:
    """A URL-safe token naming ``account_id``: ``<id>.<HMAC-SHA256 of it>``, base64url.

    It does not expire: the link of a mail read months later must still work, and it can
    do nothing but turn that account's notifications off. Changing the secret revokes
    every token. The account id is readable in it (it is no secret); only the MAC is."""
    if isinstance(account_id, bool) or not isinstance(account_id, int) or account_id < 0:
        raise ValueError("an account id is a non-negative integer")
    return f"{account_id}.{_mac(_key(secret), account_id)}"


def read_unsubscribe_token(secret: bytes | str, token: str) -> int | None:
    """The account id ``token`` was made for with this secret, or None for anything else
    (tampered, truncated, made with another secret, malformed). Never raises for a bad
    token (ValueError only for a secret too short)."""
    key = _key(secret)
    if not isinstance(token, str) or len(token) > 100:
        return None
    number, dot, mac = token.partition(".")
    if not dot or not number.isascii() or not number.isdigit() or len(number) > 20:
        return None
    if number != str(int(number)):  # one spelling per id: no leading zeros
        return None
    account_id = int(number)
    if not hmac.compare_digest(mac.encode("utf-8", "replace"), _mac(key, account_id).encode()):
        return None
    return account_id
