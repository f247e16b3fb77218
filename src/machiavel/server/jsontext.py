"""JSON text for payloads: orjson when it is installed (several times faster), else the
standard library. Both give the same JSON values; orjson writes non-ASCII characters as
they are rather than as ``\\u`` escapes."""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; this keeps a bare install going
    orjson = None  # type: ignore[assignment]


def dumps(value: Any) -> str:
    """Compact JSON text of a JSON-safe value."""
    return dump_bytes(value).decode()


def dump_bytes(value: Any) -> bytes:
    """``dumps`` as UTF-8, as it goes out on a socket: what pushes are kept as, since a
    text with a French log line in it costs a slow decode and a slow encode again."""
    if orjson is not None:
        try:
            return orjson.dumps(value)
        except TypeError:  # a key that is not a string, an integer over 64 bits...
            pass
        try:  # (accepting other keys costs orjson a third more: only when needed)
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:
            pass  # the standard library writes what orjson cannot
    return json.dumps(value, separators=(",", ":")).encode()


def loads(text: str | bytes) -> Any:
    """The value of a JSON text (``ValueError`` if it is not one)."""
    if orjson is not None:
        return orjson.loads(text)
    return json.loads(text)
