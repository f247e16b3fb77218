"""The Guildes card table, read once from ``cards.json`` (rulings G1, G2, G6, G7).

The JSON file marks every figure as printed in the book or reconstructed; this module only
checks it and turns it into the tuples the engine uses. Guilds are numbered in the order of
the count card (0 Pêcheurs ... 8 Milice); that number is a guild everywhere in the engine.
"""

from __future__ import annotations

import json
import unicodedata
from importlib import resources
from typing import Any

_RAW: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
)


def _value(figure: dict[str, Any]) -> Any:
    if figure.get("source") not in ("book", "reconstructed"):
        raise ValueError(f"cards.json: figure {figure!r} must say its source")
    return figure["value"]


GUILD_NAMES: tuple[str, ...] = tuple(g["name"] for g in _RAW["guilds"])
GUILD_COUNT = len(GUILD_NAMES)
GUILD_INDEX = {name: index for index, name in enumerate(GUILD_NAMES)}
MILICE = GUILD_INDEX["Milice"]
COPIES: tuple[int, ...] = tuple(_value(g["copies"]) for g in _RAW["guilds"])
TOTAL_CARDS: int = _value(_RAW["total_cards"])
MILICE_VOTES: int = _value(_RAW["guilds"][MILICE]["per_card"])
# PLACES[round][guild]: the votes of places 1..k at the count of that round (G2, G4).
PLACES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        () if g["name"] == "Milice" else tuple(_value(f) for f in g["places"][round_index])
        for g in _RAW["guilds"]
    )
    for round_index in range(3)
)
# C: "vos cartes >= 10" are Bourgeois, Chevaliers, Nobles, Prêtres and Alchimistes.
TEN_OR_MORE: tuple[int, ...] = tuple(i for i, g in enumerate(_RAW["guilds"]) if g["ten_or_more"])

# G1: per player count, the cards removed, dealt and played in each round.
REMOVED: dict[int, tuple[int, ...]] = {}
DEALT: dict[int, int] = {}
PLAYED: dict[int, int] = {}
for _row in _RAW["setup"]:
    _removed = [0] * GUILD_COUNT
    for _name, _count in _row["removed"].items():
        _removed[GUILD_INDEX[_name]] = _count
    REMOVED[_row["players"]] = tuple(_removed)
    DEALT[_row["players"]] = _row["dealt"]
    PLAYED[_row["players"]] = _row["played"]

# G6: the six event cards; each has a direction for the drafting (+1: to the left,
# that is to player + 1; -1: to the right, player - 1).
EVENT_IDS: tuple[str, ...] = tuple(e["id"] for e in _RAW["events"])
EVENT_TITLES: tuple[str, ...] = tuple(e["title"] for e in _RAW["events"])
EVENT_DIRECTIONS: tuple[int, ...] = tuple(
    1 if _value(e["direction"]) == "left" else -1 for e in _RAW["events"]
)
ONE_LESS, TIES_IGNORED, IN_TURN, REDISTRIBUTION, ONE_OR_TWO, FACE_DOWN = range(6)

# G7: the nine Coup Tordu cards A-I; F-I carry a guild.
TRICK_LETTERS: tuple[str, ...] = tuple(t["letter"] for t in _RAW["dirty_tricks"])
TRICK_TITLES: tuple[str, ...] = tuple(t["title"] for t in _RAW["dirty_tricks"])
TRICK_GUILD: tuple[int, ...] = tuple(
    GUILD_INDEX[t["guild"]] if "guild" in t else -1 for t in _RAW["dirty_tricks"]
)
TRICK_EXCLUDED_WITH: tuple[int, ...] = tuple(
    t.get("not_with_players", 0) for t in _RAW["dirty_tricks"]
)
PROTECTION, SWAP, SACRIFICE, DRAW, EXCHANGE = range(5)  # A, B, C, D, E; F-I modify


def _check() -> None:
    if sum(COPIES) != TOTAL_CARDS:
        raise ValueError(f"cards.json: the copies add up to {sum(COPIES)}, not {TOTAL_CARDS}")
    if len(EVENT_IDS) != 6 or len(TRICK_LETTERS) != 9:
        raise ValueError("cards.json: Guildes has 6 event cards and 9 Coup Tordu cards")
    for players in range(3, 7):
        left = sum(COPIES) - sum(REMOVED[players])
        if DEALT[players] * players * 3 > left or PLAYED[players] > DEALT[players]:
            raise ValueError(f"cards.json: the deck cannot serve {players} players")


_check()


def plain(text: str) -> str:
    """Lower case without accents: how names typed by players are compared."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _guild_aliases() -> dict[str, int]:
    aliases: dict[str, int] = {}
    for index, name in enumerate(GUILD_NAMES):
        key = plain(name)
        aliases[key] = index
        aliases[key.removesuffix("s")] = index  # the singular is understood too
    return aliases


GUILD_ALIASES = _guild_aliases()
