"""A real SMTP server on the loopback (aiosmtpd) that keeps what it receives.

Every wait is on a condition (a message received, the server holding a message) with a
limit only a stuck test reaches; nothing is timed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from machiavel.server.launch import free_port
from support.waiting import STUCK, wait_until


class Collector:
    """An aiosmtpd handler keeping what it receives. ``hold`` cleared makes it wait (in
    the server's thread) before answering DATA, after setting ``entered``; ``answers``
    are given to the next DATA commands instead of 250."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str | None, list[str]]] = []
        self.data_commands = 0
        self.answers: list[str] = []
        self.hold = threading.Event()
        self.hold.set()
        self.entered = threading.Event()
        self._changed = threading.Condition()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        self.entered.set()
        assert self.hold.wait(STUCK), "the test never let the server answer"
        with self._changed:
            self.data_commands += 1
            if self.answers:
                return self.answers.pop(0)
            content = envelope.content
            assert isinstance(content, bytes)
            parsed = message_from_bytes(content, policy=policy.default)
            assert isinstance(parsed, EmailMessage)
            self.messages.append(parsed)
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self._changed.notify_all()
        return "250 OK"

    def wait_for(self, count: int) -> list[EmailMessage]:
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.messages) >= count, STUCK)
            return list(self.messages)

    def subjects(self) -> list[str]:
        with self._changed:
            return [str(message["Subject"]) for message in self.messages]


class Servers:
    """SMTP servers started by a test, each in a thread of its own; all stopped after it."""

    def __init__(self) -> None:
        self.running: list[tuple[Controller, Collector]] = []

    def start(self, handler: Collector, port: int | None = None, **kwargs: Any) -> Controller:
        controller = Controller(handler, hostname="127.0.0.1", port=port or free_port(), **kwargs)
        controller.start()
        self.running.append((controller, handler))
        return controller

    def stop(self, controller: Controller) -> None:
        for entry in list(self.running):
            if entry[0] is controller:
                entry[1].hold.set()
                controller.stop()
                self.running.remove(entry)

    def stop_all(self) -> None:
        for controller, _ in list(self.running):
            self.stop(controller)


def smtp_servers() -> Iterator[Servers]:
    """Servers started by one test; all stopped after it, and no thread left behind."""
    before = set(threading.enumerate())
    started = Servers()
    try:
        yield started
    finally:
        started.stop_all()
    started_here = [thread for thread in threading.enumerate() if thread not in before]

    def left() -> bool:
        # Threads that end by themselves may still be ending (the limits library's
        # 10 ms expiry timer): only one that never ends is left behind.
        return not [thread for thread in started_here if thread.is_alive()]

    wait_until(left, f"the threads started by the test to end: {started_here}")
