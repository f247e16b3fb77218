"""The cluster tests' client (support/burst.py) hears a cut answer as no answer: a process
killed between an answer's headers and its body must not stop a burst (it once did, as
http.client's IncompleteRead, and the failover test then waited for a burst that had
ended)."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from support.burst import call


@contextmanager
def cut_answer(head: bytes) -> Iterator[str]:
    """A server that answers one request with ``head`` (a status line, headers promising
    a body of 100 bytes, and 10 of them), then closes: as a process killed mid-answer."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def answer_once() -> None:
        connection, _ = listener.accept()
        with connection:
            read_request(connection)  # all of it: unread bytes would make the close a reset
            connection.sendall(head + b"content-length: 100\r\n\r\n" + b'{"version"')

    serving = threading.Thread(target=answer_once, daemon=True)
    serving.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        serving.join(10)
        listener.close()
    assert not serving.is_alive()


def read_request(connection: socket.socket) -> None:
    received = b""
    while b"\r\n\r\n" not in received:
        received += receive(connection)
    head, body = received.split(b"\r\n\r\n", 1)
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    while length is not None and len(body) < int(length.group(1)):
        body += receive(connection)


def receive(connection: socket.socket) -> bytes:
    chunk = connection.recv(65536)
    assert chunk, "the client closed before its request was whole"
    return chunk


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_an_answer_cut_after_its_headers_is_no_answer(method: str) -> None:
    head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
    with cut_answer(head) as base:
        assert call(base, method, "/api/games/x", {} if method == "POST" else None) == (0, {}, {})


def test_a_refusal_whose_body_is_cut_keeps_its_status() -> None:
    head = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
    with cut_answer(head) as base:
        status, body, headers = call(base, "GET", "/api/games/x")
    assert (status, body, headers["content-type"]) == (503, {}, "application/json")
