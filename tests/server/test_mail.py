"""Mail (server/mail.py) against a real SMTP server on the loopback (aiosmtpd).

Every wait is on a condition (a message received, the server holding a message, the
mailer idle) with a limit only a stuck test reaches; the server is slowed or stopped by
events the test controls, never by sleeps, and nothing is timed.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from collections.abc import Callable, Coroutine, Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from machiavel.server.launch import free_port
from machiavel.server.mail import (
    DEFAULT_SENDER,
    Mailer,
    MailSettings,
    compose,
    describe,
    is_temporary,
    notification,
    read_unsubscribe_token,
    unsubscribe_token,
)
from support.smtp import Collector, Servers, smtp_servers
from support.waiting import STUCK

SENDER = "Machiavel <notify@machiavel.test>"
TO = "ada@example.org"
LINK = "https://machiavel.test/games/Jf3k2Lq0aZ1x"
UNSUBSCRIBE = "https://machiavel.test/api/unsubscribe?token=12.abc"
SECRET = b"0123456789abcdef-server-secret"
LOGGER = "machiavel.server.mail"


@pytest.fixture
def servers() -> Iterator[Servers]:
    yield from smtp_servers()


@pytest.fixture
def server(servers: Servers) -> tuple[Collector, MailSettings]:
    """A running server and the settings that reach it."""
    collector = Collector()
    controller = servers.start(collector)
    return collector, MailSettings.from_url(f"smtp://127.0.0.1:{controller.port}", SENDER)


def mail(number: int = 0, to: str = TO) -> EmailMessage:
    return compose(to, f"mail {number}", f"text {number}", LINK, UNSUBSCRIBE, sender=SENDER)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


def warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER and r.levelno >= logging.WARNING]


# ---- delivery -----------------------------------------------------------------------
def test_a_mail_arrives_with_its_headers_and_links(server: tuple[Collector, MailSettings]) -> None:
    collector, settings = server
    subject, text = notification("turn", "Tyrus")
    message = compose(TO, subject, text, LINK, UNSUBSCRIBE, sender=settings.sender, language="en")

    async def scenario() -> None:
        mailer = Mailer(settings, timeout=STUCK)
        mailer.start()
        assert mailer.send(message) is True
        await mailer.wait_idle()
        await mailer.close(STUCK)
        assert (mailer.sent, mailer.failures, mailer.given_up) == (1, 0, 0)

    run(scenario)
    [received] = collector.wait_for(1)
    assert collector.envelopes == [("notify@machiavel.test", [TO])]
    assert received["From"] == SENDER
    assert received["To"] == TO
    assert received["Subject"] == "Your turn: Tyrus"
    assert received["List-Unsubscribe"] == f"<{UNSUBSCRIBE}>"
    assert received["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert received["Auto-Submitted"] == "auto-generated"
    assert str(received["Message-ID"]).endswith("@machiavel.test>")
    assert received["Date"] is not None
    plain = received.get_body(("plain",))
    assert plain is not None
    body = plain.get_content()
    assert "It is your turn to play in your game of Tyrus." in body
    assert f"Open the game: {LINK}" in body
    assert UNSUBSCRIBE in body
    rich = received.get_body(("html",))
    assert rich is not None
    assert f'href="{LINK}"' in rich.get_content()


def test_sends_return_at_once_while_the_server_is_slow(
    server: tuple[Collector, MailSettings],
) -> None:
    collector, settings = server
    collector.hold.clear()

    async def scenario() -> None:
        mailer = Mailer(settings, timeout=STUCK)
        mailer.start()
        assert mailer.send(mail(0))
        assert await asyncio.to_thread(collector.entered.wait, STUCK)
        # The server holds mail 0 and answers nothing: every send still returns.
        assert all(mailer.send(mail(number)) for number in range(1, 21))
        assert mailer.queued == 20
        assert collector.subjects() == []
        collector.hold.set()
        await mailer.wait_idle()
        await mailer.close(STUCK)

    run(scenario)
    assert collector.subjects() == [f"mail {number}" for number in range(21)]


def test_send_from_another_thread_and_before_start(
    server: tuple[Collector, MailSettings],
) -> None:
    collector, settings = server

    async def scenario() -> None:
        mailer = Mailer(settings, timeout=STUCK)
        assert mailer.send(mail(0))  # queued before the worker runs
        mailer.start()
        assert await asyncio.to_thread(mailer.send, mail(1))
        await asyncio.to_thread(collector.wait_for, 2)
        await mailer.close(STUCK)

    run(scenario)
    assert collector.subjects() == ["mail 0", "mail 1"]


def test_a_server_that_comes_back_gets_the_retried_mail(
    servers: Servers, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()  # nothing listens there yet
    settings = MailSettings.from_url(f"smtp://127.0.0.1:{port}", SENDER)
    collector = Collector()

    async def scenario() -> None:
        failed = asyncio.Event()
        retry = asyncio.Event()
        pauses: list[float] = []

        async def pause(delay: float) -> None:  # the retry waits for the test's word
            pauses.append(delay)
            failed.set()
            await retry.wait()

        mailer = Mailer(settings, timeout=STUCK, retry_delays=(0.5, 2.0), sleep=pause)
        mailer.start()
        assert mailer.send(mail(7)) is True  # no server: queued all the same
        await asyncio.wait_for(failed.wait(), STUCK)
        assert (mailer.sent, mailer.failures, mailer.given_up) == (0, 1, 0)
        servers.start(collector, port=port)
        retry.set()
        await asyncio.wait_for(mailer.wait_idle(), STUCK)
        assert (mailer.sent, mailer.failures, mailer.given_up) == (1, 1, 0)
        assert pauses == [0.5]
        await mailer.close(STUCK)

    with caplog.at_level(logging.INFO, logger=LOGGER):
        run(scenario)
    assert collector.subjects() == ["mail 7"]
    [line] = warnings(caplog)
    assert line.exc_info is None
    assert f"127.0.0.1:{port}" in line.getMessage()
    assert "ConnectionRefusedError" in line.getMessage()
    assert any("delivering again" in r.getMessage() for r in caplog.records)


def test_a_server_that_stays_down_loses_the_mail_after_the_retries(
    servers: Servers, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()
    settings = MailSettings.from_url(f"smtp://127.0.0.1:{port}", SENDER)
    collector = Collector()

    async def scenario() -> None:
        mailer = Mailer(settings, timeout=STUCK, retry_delays=(0.001, 0.001))
        mailer.start()
        assert all(mailer.send(mail(number)) for number in range(3))
        await asyncio.wait_for(mailer.wait_idle(), STUCK)
        # Three attempts each, all refused: each mail given up, one line for them all.
        assert (mailer.sent, mailer.failures, mailer.given_up) == (0, 9, 3)
        assert len(warnings(caplog)) == 1
        servers.start(collector, port=port)
        assert mailer.send(mail(3))
        await asyncio.wait_for(mailer.wait_idle(), STUCK)
        assert (mailer.sent, mailer.given_up) == (1, 3)
        await mailer.close(STUCK)

    with caplog.at_level(logging.INFO, logger=LOGGER):
        run(scenario)
    assert collector.subjects() == ["mail 3"]
    assert len(warnings(caplog)) == 1
    assert all(r.exc_info is None for r in caplog.records)
    assert any("3 messages given up" in r.getMessage() for r in caplog.records)


def test_a_temporary_answer_is_retried(server: tuple[Collector, MailSettings]) -> None:
    collector, settings = server
    collector.answers = ["451 4.3.0 try again later"]

    async def scenario() -> None:
        mailer = Mailer(settings, timeout=STUCK, retry_delays=(0.001,))
        mailer.start()
        mailer.send(mail(1))
        await asyncio.wait_for(mailer.wait_idle(), STUCK)
        assert (mailer.sent, mailer.failures, mailer.given_up) == (1, 1, 0)
        await mailer.close(STUCK)

    run(scenario)
    assert collector.data_commands == 2
    assert collector.subjects() == ["mail 1"]


def test_a_permanent_answer_is_not_retried(
    server: tuple[Collector, MailSettings], caplog: pytest.LogCaptureFixture
) -> None:
    collector, settings = server
    collector.answers = ["550 5.1.1 no such mailbox"]

    async def scenario() -> None:
        mailer = Mailer(settings, timeout=STUCK, retry_delays=(0.001, 0.001))
        mailer.start()
        mailer.send(mail(1))
        mailer.send(mail(2))
        await asyncio.wait_for(mailer.wait_idle(), STUCK)
        assert (mailer.sent, mailer.failures, mailer.given_up) == (1, 1, 1)
        await mailer.close(STUCK)

    run(scenario)
    assert collector.data_commands == 2  # mail 1 refused once, never again; mail 2 taken
    assert collector.subjects() == ["mail 2"]
    [line] = warnings(caplog)
    assert "550" in line.getMessage() and "not retried" in line.getMessage()
    assert TO not in line.getMessage()


def test_a_full_queue_drops_the_oldest(
    server: tuple[Collector, MailSettings], caplog: pytest.LogCaptureFixture
) -> None:
    collector, settings = server
    collector.hold.clear()

    async def scenario() -> None:
        mailer = Mailer(settings, timeout=STUCK, queue_size=3)
        mailer.start()
        assert mailer.send(mail(0))
        assert await asyncio.to_thread(collector.entered.wait, STUCK)  # 0 is being sent
        assert all(mailer.send(mail(number)) for number in range(1, 6))
        assert (mailer.queued, mailer.dropped) == (3, 2)
        collector.hold.set()
        await asyncio.wait_for(mailer.wait_idle(), STUCK)
        await mailer.close(STUCK)

    run(scenario)
    assert collector.subjects() == ["mail 0", "mail 3", "mail 4", "mail 5"]
    [line] = warnings(caplog)  # one line for the overflow, not one per dropped mail
    assert "queue is full" in line.getMessage()


def test_close_drains_the_queue_then_refuses(server: tuple[Collector, MailSettings]) -> None:
    collector, settings = server

    async def scenario() -> None:
        mailer = Mailer(settings, timeout=STUCK)
        mailer.start()
        assert all(mailer.send(mail(number)) for number in range(5))
        await mailer.close(STUCK)
        # close returned: every queued mail was delivered
        assert collector.subjects() == [f"mail {number}" for number in range(5)]
        assert (mailer.sent, mailer.unsent) == (5, 0)
        assert mailer.send(mail(5)) is False

    run(scenario)


def test_close_gives_up_after_its_timeout(
    server: tuple[Collector, MailSettings], caplog: pytest.LogCaptureFixture
) -> None:
    collector, settings = server
    collector.hold.clear()

    async def scenario() -> None:
        mailer = Mailer(settings, timeout=STUCK)
        mailer.start()
        assert all(mailer.send(mail(number)) for number in range(3))
        assert await asyncio.to_thread(collector.entered.wait, STUCK)
        await mailer.close(0.01)  # the server holds mail 0 until the test lets it go
        assert (mailer.sent, mailer.unsent) == (0, 3)
        collector.hold.set()  # the thread sending mail 0 ends (asyncio.run waits for it)

    run(scenario)
    assert any("3 messages not sent" in r.getMessage() for r in warnings(caplog))


def test_login_and_the_password_stays_out_of_logs(
    servers: Servers, caplog: pytest.LogCaptureFixture
) -> None:
    password = "p@ss:w0rd/x"

    def authenticator(
        server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        assert isinstance(data, LoginPassword)
        accepted = (data.login, data.password) == (b"ada", password.encode())
        return AuthResult(success=accepted, handled=False)  # the server answers 235 or 535

    collector = Collector()
    controller = servers.start(collector, authenticator=authenticator, auth_require_tls=False)
    quoted = "p%40ss%3Aw0rd%2Fx"
    good = MailSettings.from_url(f"smtp://ada:{quoted}@127.0.0.1:{controller.port}", SENDER)
    bad = MailSettings.from_url(f"smtp://ada:wrong{quoted}@127.0.0.1:{controller.port}", SENDER)
    assert good.password == password and good.user == "ada"

    async def scenario() -> None:
        for settings in (good, bad):
            mailer = Mailer(settings, timeout=STUCK, retry_delays=(0.001,))
            mailer.start()
            mailer.send(mail(1))
            await asyncio.wait_for(mailer.wait_idle(), STUCK)
            await mailer.close(STUCK)
            assert mailer.sent == (1 if settings is good else 0)

    with caplog.at_level(logging.DEBUG, logger=LOGGER):
        run(scenario)
    assert collector.subjects() == ["mail 1"]
    [line] = warnings(caplog)
    assert "535" in line.getMessage()
    for text in (caplog.text, describe(good), describe(bad), repr(good), good.url):
        assert password not in text and quoted not in text and "wrong" not in text


# ---- settings -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("url", "host", "port", "security", "user", "password"),
    [
        ("smtp://127.0.0.1:2525", "127.0.0.1", 2525, "plain", None, None),
        ("smtp://mail.example.org", "mail.example.org", 25, "plain", None, None),
        ("SMTPS://Mail.Example.org", "mail.example.org", 465, "tls", None, None),
        ("smtp+starttls://u%40x:p%3A%2F@h:2587/", "h", 2587, "starttls", "u@x", "p:/"),
        ("smtp://[::1]:2525", "::1", 2525, "plain", None, None),
        ("  smtp://ada:@h:25  ", "h", 25, "plain", "ada", ""),
    ],
)
def test_urls_are_read(
    url: str, host: str, port: int, security: str, user: str | None, password: str | None
) -> None:
    settings = MailSettings.from_url(url)
    assert (settings.host, settings.port, settings.security) == (host, port, security)
    assert (settings.user, settings.password) == (user, password)
    assert settings.sender == DEFAULT_SENDER


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("", "empty"),
        ("127.0.0.1:2525", "must start with"),
        ("http://127.0.0.1:2525", "scheme 'http'"),
        ("smtp://", "no host"),
        ("smtp://:2525", "no host"),
        ("smtp://user:secretpw@:2525", "no host"),
        ("smtp://h:port", "port"),
        ("smtp://h:0", "port"),
        ("smtp://h:65536", "port"),
        ("smtp://h:", "port is empty"),
        ("smtp://h:25/path", "without a path"),
        ("smtp://h:25?x=1", "without a path"),
        ("smtp://[::1:25", "malformed"),
        ("smtp://ada@h:25", "no password"),
        ("smtp://:secretpw@h:25", "empty user"),
        ("smtp://ada:secretpw%C3%A9@h:25", "ASCII"),
    ],
)
def test_malformed_urls_are_refused_with_a_sentence(url: str, says: str) -> None:
    with pytest.raises(ValueError, match="SMTP URL") as error:
        MailSettings.from_url(url)
    assert says in str(error.value)
    assert "secretpw" not in str(error.value)


@pytest.mark.parametrize("sender", ["", "nobody", "a@b\r\nBcc: x@y", "@example.org"])
def test_a_sender_that_is_no_address_is_refused(sender: str) -> None:
    with pytest.raises(ValueError, match="sender"):
        MailSettings.from_url("smtp://h", sender)


def test_settings_from_the_environment_and_their_description() -> None:
    assert MailSettings.from_environment({}) is None
    assert MailSettings.from_environment({"MACHIAVEL_SMTP_URL": "  "}) is None
    assert describe(None) == "mail: off (no --smtp-url)"
    settings = MailSettings.from_environment({"MACHIAVEL_SMTP_URL": "smtp://127.0.0.1:2525"})
    assert settings is not None
    assert settings.describe() == "mail: via smtp://127.0.0.1:2525 from machiavel@localhost"
    environ = {
        "MACHIAVEL_SMTP_URL": "smtp://127.0.0.1:2525",
        "MACHIAVEL_MAIL_FROM": "games@example.org",
    }
    chosen = MailSettings.from_environment(environ, url="smtp+starttls://bob:hunter22@mx:587")
    assert chosen is not None  # --smtp-url wins over the variable
    assert describe(chosen) == "mail: via smtp+starttls://bob@mx:587 from games@example.org"
    assert "hunter22" not in describe(chosen) + repr(chosen)


def test_mail_off() -> None:
    async def scenario() -> None:
        mailer = Mailer(None)
        mailer.start()
        assert not mailer.enabled
        assert mailer.send(mail(1)) is False
        await mailer.wait_idle()
        await mailer.close()

    run(scenario)


def test_failures_are_classified() -> None:
    assert is_temporary(ConnectionRefusedError(111, "Connection refused"))
    assert is_temporary(TimeoutError("timed out"))
    assert is_temporary(smtplib.SMTPServerDisconnected("gone"))
    assert is_temporary(smtplib.SMTPDataError(451, b"later"))
    assert is_temporary(smtplib.SMTPConnectError(421, b"busy"))
    assert is_temporary(smtplib.SMTPRecipientsRefused({TO: (450, b"greylisted")}))
    assert not is_temporary(smtplib.SMTPRecipientsRefused({TO: (550, b"unknown")}))
    assert not is_temporary(smtplib.SMTPDataError(554, b"spam"))
    assert not is_temporary(smtplib.SMTPAuthenticationError(535, b"bad credentials"))
    assert not is_temporary(smtplib.SMTPNotSupportedError("STARTTLS extension not supported"))
    assert not is_temporary(ssl.SSLCertVerificationError("certificate verify failed"))
    assert not is_temporary(ValueError("malformed message"))


# ---- messages -----------------------------------------------------------------------
def test_french_mail_and_escaped_html() -> None:
    subject, text = notification("invitation", "Djambi", language="fr", by="<b>Zoé</b>\nBcc: x")
    assert subject == "<b>Zoé</b> Bcc: x vous invite à une partie de Djambi"
    link = "https://machiavel.test/games/a?seat=1&token=x"
    message = compose(TO, subject, text, link, UNSUBSCRIBE, sender=SENDER, language="fr-FR")
    assert message["Content-Language"] == "fr"
    assert message["Subject"] == subject
    assert "Bcc" not in message
    plain = message.get_body(("plain",))
    rich = message.get_body(("html",))
    assert plain is not None and rich is not None
    assert f"Ouvrir la partie : {link}" in plain.get_content()
    assert "Ne plus recevoir ces courriels" in plain.get_content()
    page = rich.get_content()
    assert "<b>Zoé</b>" not in page and "&lt;b&gt;Zoé&lt;/b&gt;" in page
    assert 'href="https://machiavel.test/games/a?seat=1&amp;token=x"' in page
    assert '<html lang="fr">' in page
    assert compose(TO, "s", "t", LINK, UNSUBSCRIBE, html_part=False).get_body(("html",)) is None


def test_notifications_in_both_languages() -> None:
    assert notification("game_over", "Guildes", won=True) == (
        "Game over: Guildes",
        "Your game of Guildes has ended. You won.",
    )
    assert notification("game_over", "Guildes", language="fr", won=False) == (
        "Partie terminée : Guildes",
        "Votre partie de Guildes est terminée. Vous n'avez pas gagné cette fois.",
    )
    assert notification("turn", "Tyros", language="fr")[0] == "À vous de jouer : Tyros"
    assert notification("invitation", "Tyros")[0] == "An invitation to a game of Tyros"
    assert notification("turn", "Tyros", language="de")[0] == "Your turn: Tyros"


@pytest.mark.parametrize(
    ("to", "link", "unsubscribe"),
    [
        ("not an address", LINK, UNSUBSCRIBE),
        ("ada@example.org\r\nBcc: eve@example.org", LINK, UNSUBSCRIBE),
        (TO, "javascript:alert(1)", UNSUBSCRIBE),
        (TO, LINK, "https://machiavel.test/u?t=1> <mailto:eve@example.org"),
    ],
)
def test_compose_refuses_what_would_break_the_mail(to: str, link: str, unsubscribe: str) -> None:
    with pytest.raises(ValueError):
        compose(to, "s", "t", link, unsubscribe, sender=SENDER)


# ---- unsubscribe tokens -------------------------------------------------------------
def test_unsubscribe_tokens_round_trip_and_refuse_tampering() -> None:
    token = unsubscribe_token(SECRET, 42)
    assert read_unsubscribe_token(SECRET, token) == 42
    assert read_unsubscribe_token(SECRET.decode(), token) == 42  # str secrets too
    assert all(c.isalnum() or c in "-_." for c in token)  # URL-safe as it is
    number, _, mac = token.partition(".")
    flipped = mac[:-1] + ("A" if mac[-1] != "A" else "B")
    for forged in [
        f"43.{mac}",  # another account with this account's MAC
        f"042.{mac}",
        f"{number}.{flipped}",
        f"{number}.{mac[:-2]}",
        f"{number}.{mac}=",
        f"{number}{mac}",
        unsubscribe_token(b"another secret of 16+ bytes", 42),
        "",
        ".",
        "42.",
        "-1." + mac,
        "４２." + mac,  # fullwidth digits
        "42." + "é" * 43,
        "9" * 5000 + "." + mac,
    ]:
        assert read_unsubscribe_token(SECRET, forged) is None, forged
    with pytest.raises(ValueError, match="16 bytes"):
        unsubscribe_token(b"short", 1)
