"""The text frames ``direct_writer`` heads by hand read as websockets' own (RFC 6455)."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode
from websockets.protocol import Protocol, Side, State

from machiavel.server.pushes import _plain, _text_frame_head, knows_connection


def read_as_a_client(data: bytes) -> list[Frame]:
    client = Protocol(Side.CLIENT, state=State.OPEN, max_size=None)
    client.receive_data(data)
    return [event for event in client.events_received() if isinstance(event, Frame)]


# Every size of the length field: 7 bits, 16 bits, 64 bits, at both ends of each.
@pytest.mark.parametrize("length", [0, 1, 125, 126, 65_535, 65_536, 200_000])
def test_a_hand_headed_frame_is_one_whole_text_message(length: int) -> None:
    # As French log lines are: two bytes of UTF-8 for an "é"
    text = ("é" * (length // 2)).encode() + b"a" * (length % 2)
    assert len(text) == length
    frames = read_as_a_client(_text_frame_head(len(text)) + text)
    assert len(frames) == 1
    assert frames[0].opcode is Opcode.TEXT and frames[0].fin
    assert frames[0].data == text
    head = _text_frame_head(length)
    assert head == Frame(Opcode.TEXT, text).serialize(mask=False, extensions=[])[: len(head)]


def test_only_an_open_socket_without_extensions_is_written_by_hand() -> None:
    server = Protocol(Side.SERVER, state=State.OPEN)
    assert knows_connection(server)
    assert _plain(server)
    server.send_text(b"hello")  # framed by websockets, not yet taken to the socket
    assert not _plain(server)  # its own writes go first
    server.data_to_send()
    assert _plain(server)
    server.send_text(b"part", fin=False)  # a fragmented message under way
    server.data_to_send()
    assert not _plain(server)
    closing = Protocol(Side.SERVER, state=State.OPEN)
    closing.send_close()
    closing.data_to_send()
    assert not _plain(closing)
    assert not knows_connection(object())  # another websockets: it frames its messages
