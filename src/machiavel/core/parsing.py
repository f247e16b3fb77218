"""Numbers in the actions people type: written with the digits 0 to 9, and short.

Python's ``str.isdigit()`` is true for '²', '٣', '３' or '①'; ``int()`` reads some of
them and raises ``ValueError`` on others, and on any number longer than 4300 digits. A
parser that trusted them would crash (a server error) or accept numbers no player writes,
so every game reads the numbers of its actions here.
"""

from __future__ import annotations

# Far more digits than any player, tile or cell number has: longer is refused unread.
MAX_DIGITS = 6
SHOWN = 20  # characters of a refused word quoted in a message


def read_number(word: str) -> int | None:
    """The value of ``word`` if it is a whole number written in 0-9, else None."""
    if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:
        return int(word)
    return None


def number_problem(word: str, what: str) -> str:
    """Why ``word`` is not ``what`` (say "a player number"), for a refusal message."""
    shown = repr(word) if len(word) <= SHOWN else repr(word[:SHOWN]) + "..."
    if word.isascii() and word.isdigit():
        return f"{shown} is not {what}: it is far too large"
    if any(c.isdigit() for c in word):
        return f"{shown} is not {what}: write numbers with the digits 0 to 9"
    return f"{shown} is not {what}"
