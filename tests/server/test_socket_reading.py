"""Messages of a WebSocket client read by hand (``socketread.QuickReadProtocol``,
``pushes.client_texts``) reach the application as Uvicorn's own reading gives them, and
everything else still goes through websockets' parser: pings, closes, parts of frames,
bad UTF-8, messages over the limit, unmasked frames."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import Close, CloseCode, Frame, Opcode
from websockets.protocol import Protocol, Side, State
from websockets.server import ServerProtocol

from machiavel.server.pushes import client_texts
from machiavel.server.socketread import QuickReadProtocol, knows_protocol, size_limit

MAX_SIZE = 1000


def client_frame(data: bytes, opcode: Opcode = Opcode.TEXT, fin: bool = True) -> bytes:
    """A frame as a client sends it: masked (RFC 6455, 5.3)."""
    return Frame(opcode, data, fin=fin).serialize(mask=True, extensions=[])


# ---- the frames read by hand ---------------------------------------------------------------
@pytest.mark.parametrize("length", [0, 1, 125, 126, 65_535, 65_536])
def test_a_whole_masked_text_frame_is_read_at_every_length_field_size(length: int) -> None:
    text = b"a" * length
    assert client_texts(client_frame(text), None) == (True, [text])


def test_whole_text_frames_in_one_chunk_are_read_in_order() -> None:
    chunk = client_frame(b'{"action": "S9 temple"}') + client_frame("é".encode())
    assert client_texts(chunk, MAX_SIZE) == (True, [b'{"action": "S9 temple"}', "é".encode()])


@pytest.mark.parametrize(
    "chunk",
    [
        client_frame(b"", Opcode.PING) + client_frame(b"hello"),  # a control frame
        client_frame(b"part", fin=False) + client_frame(b"rest", Opcode.CONT),  # fragments
        client_frame(Close(CloseCode.NORMAL_CLOSURE, "bye").serialize(), Opcode.CLOSE),
        Frame(Opcode.TEXT, b"hello").serialize(mask=False, extensions=[]),  # unmasked
        client_frame(b"x" * (MAX_SIZE + 1)),  # over the limit
        bytes([0xC1]) + client_frame(b"hello")[1:],  # an extension bit (RSV1)
    ],
    ids=["ping", "fragments", "close", "unmasked", "too-long", "extension-bit"],  # (masks vary)
)
def test_whole_frames_that_are_not_plain_text_are_left_to_the_parser(chunk: bytes) -> None:
    assert client_texts(chunk, MAX_SIZE) == (True, [])


@pytest.mark.parametrize("cut", [1, 2, 5, 7])
def test_a_part_of_a_frame_is_left_to_the_parser(cut: int) -> None:
    chunk = client_frame(b"hello") + client_frame(b"world")
    assert client_texts(chunk[: len(chunk) - cut], MAX_SIZE) == (False, [])
    assert client_texts(chunk[:cut], MAX_SIZE) == (False, [])


# ---- the protocol --------------------------------------------------------------------------
class Transport:
    """What of an asyncio transport the protocol uses, keeping what it writes."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.paused = False
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written += data

    def writelines(self, parts: list[bytes]) -> None:
        for part in parts:
            self.write(part)

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default


async def _app(scope: Any, receive: Any, send: Any) -> None:  # never run: no handshake
    raise AssertionError("the application is not started in these tests")


@pytest.fixture
def opened() -> Iterator[tuple[QuickReadProtocol, Transport]]:
    """A protocol whose socket is open (as after the handshake), on a fake transport."""
    loop = asyncio.new_event_loop()
    try:
        config = Config(app=_app, ws=QuickReadProtocol, ws_max_size=MAX_SIZE)
        config.load()
        protocol = QuickReadProtocol(config, ServerState(), {}, _loop=loop)
        protocol.conn = ServerProtocol(state=State.OPEN, max_size=MAX_SIZE)
        transport = Transport()
        protocol.transport = transport  # type: ignore[assignment]
        protocol.handshake_complete = True
        yield protocol, transport
    finally:
        loop.close()


def received(protocol: QuickReadProtocol) -> list[dict[str, Any]]:
    messages = []
    while not protocol.queue.empty():
        messages.append(dict(protocol.queue.get_nowait()))
    return messages


def frames_written(transport: Transport) -> list[Frame]:
    client = Protocol(Side.CLIENT, state=State.OPEN, max_size=None)
    client.receive_data(bytes(transport.written))
    return [event for event in client.events_received() if isinstance(event, Frame)]


def test_the_protocol_is_the_one_it_was_written_for(
    opened: tuple[QuickReadProtocol, Transport],
) -> None:
    protocol, _ = opened
    assert knows_protocol(protocol)  # else every chunk would go to the parser
    assert not knows_protocol(object())  # type: ignore[arg-type]


def test_whole_text_messages_are_queued_and_reading_paused_as_uvicorn_does(
    opened: tuple[QuickReadProtocol, Transport],
) -> None:
    protocol, transport = opened
    protocol.data_received(client_frame(b'{"action": 1}') + client_frame("é".encode()))
    assert received(protocol) == [
        {"type": "websocket.receive", "text": '{"action": 1}'},
        {"type": "websocket.receive", "text": "é"},
    ]
    assert transport.paused and protocol.read_paused
    assert not protocol.parser_mid_frame
    assert not protocol.conn.reader.buffer  # the parser saw none of it


def test_a_frame_in_parts_goes_to_the_parser_which_then_reads_them_all(
    opened: tuple[QuickReadProtocol, Transport],
) -> None:
    protocol, _ = opened
    whole = client_frame(b"hello")
    protocol.data_received(whole[:3])
    assert received(protocol) == []
    assert protocol.parser_mid_frame
    protocol.data_received(whole[3:] + client_frame(b"next"))
    assert received(protocol) == [
        {"type": "websocket.receive", "text": "hello"},
        {"type": "websocket.receive", "text": "next"},
    ]


def test_a_ping_among_messages_is_answered_and_the_messages_read_in_order(
    opened: tuple[QuickReadProtocol, Transport],
) -> None:
    protocol, transport = opened
    protocol.data_received(
        client_frame(b"one") + client_frame(b"are you there", Opcode.PING) + client_frame(b"two")
    )
    assert [m["text"] for m in received(protocol)] == ["one", "two"]
    pong = frames_written(transport)
    assert [(f.opcode, f.data) for f in pong] == [(Opcode.PONG, b"are you there")]
    assert not protocol.parser_mid_frame  # whole frames: the parser is between two
    protocol.data_received(client_frame(b"three"))
    assert [m["text"] for m in received(protocol)] == ["three"]
    assert not protocol.conn.reader.buffer


@pytest.mark.parametrize(
    ("chunk", "code"),
    [
        (client_frame(b"\xff\xfe"), CloseCode.INVALID_DATA),  # not UTF-8
        (client_frame(b"x" * (MAX_SIZE + 1)), CloseCode.MESSAGE_TOO_BIG),
        (Frame(Opcode.TEXT, b"hi").serialize(mask=False, extensions=[]), CloseCode.PROTOCOL_ERROR),
    ],
    ids=["not-utf-8", "too-long", "unmasked"],  # (masks are random: the values vary)
)
def test_a_bad_message_closes_the_socket_as_the_parser_says(
    opened: tuple[QuickReadProtocol, Transport], chunk: bytes, code: CloseCode
) -> None:
    protocol, transport = opened
    protocol.data_received(chunk)
    assert not [m for m in received(protocol) if m["type"] == "websocket.receive"]
    closes = [f for f in frames_written(transport) if f.opcode is Opcode.CLOSE]
    assert closes and Close.parse(closes[0].data).code == code


def test_the_size_limit_is_the_parsers_message_or_fragment_limit() -> None:
    assert size_limit(ServerProtocol(max_size=MAX_SIZE)) == MAX_SIZE
    assert size_limit(ServerProtocol(max_size=(MAX_SIZE, 10))) == 10
    assert size_limit(ServerProtocol(max_size=(None, 10))) == 10
    assert size_limit(ServerProtocol(max_size=None)) is None
