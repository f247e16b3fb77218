"""The action syntax: the canonical spelling, and parsing of what people type.

Canonical actions (docs/games/tyros.md lists them all with examples)::

    expand 12 orange            under 12
    move 16e>17 pay orange,joker [fee green]
    city 17 pay orange,orange,orange,orange [return 16e]
    ship 17 pay orange[,green]  ship tyros pay green,violet,violet
    bank orange,green           bank orange,orange,green take violet
    offer 2 give orange,orange ask green
    accept   refuse   pass      keep orange,green,joker

Card lists are written in the order orange, yellow, green, violet, joker; people may
type them in any order, with initials (o y g v j) or French names (jaune, vert, gris).
"""

from __future__ import annotations

from functools import lru_cache

from machiavel.games.tyros.cards import parse_cards, vec_str

CARD_LIST_AFTER = {"pay", "give", "ask", "keep", "fee", "take"}


def _card_list(token: str) -> str:
    vec = parse_cards(token)
    return token if vec is None or not sum(vec) else vec_str(vec)


def _place(token: str) -> str:
    return "tyros" if token in ("t", "tyr") else token


@lru_cache(maxsize=1 << 16)
def normalize(action: str) -> str:
    """The canonical spelling of an action, or a cleaned-up copy if it is not one."""
    parts = action.lower().replace(", ", ",").split()
    if not parts:
        return ""
    verb = parts[0]
    if verb == "bank" and len(parts) > 1:
        parts[1] = _card_list(parts[1])
    elif verb == "move" and len(parts) > 1:
        ends = parts[1].replace("-", ">").split(">")
        parts[1] = ">".join(_place(t) for t in ends)
    elif verb in ("city", "ship") and len(parts) > 1:
        parts[1] = _place(parts[1])
    elif verb == "expand" and len(parts) > 2:
        parts[2] = _card_list(parts[2])
    for index in range(1, len(parts)):
        if parts[index - 1] in CARD_LIST_AFTER:
            parts[index] = _card_list(parts[index])
    return " ".join(parts)
