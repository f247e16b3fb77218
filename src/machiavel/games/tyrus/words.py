"""Tyrus actions in words for the game log, in English and French (tyrus.fr.txt's words).

T9: the tile of a placement is seen only by its owner; the building by everyone. A line
depends only on the mover, the action, the viewer and the language, never on the rest of
the state, so lines are cached: they are written for every viewer on the server's hot path.
"""

from __future__ import annotations

from functools import lru_cache

# The building words of the rule book, with the article and possessive each one takes.
_BUILDING_FR = {  # kind: (name, "sa propre" form, article form)
    "citadel": ("citadelle", "sa propre citadelle", "la citadelle"),
    "market": ("marché", "son propre marché", "le marché"),
    "temple": ("temple", "son propre temple", "le temple"),
}
_PROFESSION_EN = {"S": "soldiers", "M": "merchants", "P": "priests"}
_PROFESSION_FR = {
    "S": ("soldat", "soldats"),
    "M": ("marchand", "marchands"),
    "P": ("prêtre", "prêtres"),
}


@lru_cache(maxsize=8192)
def describe(player: int, action: str, viewer: int | None, language: str) -> str:
    """A placement ``<tile> <building>`` by ``player``, as ``viewer`` may know it."""
    tile, building = action.split()
    kind = building.removeprefix("rival-")
    owner = player if kind == building else 1 - player
    if kind not in _BUILDING_FR:
        raise ValueError(f"{building!r} is not a building")
    if language == "fr":
        return _french(player, tile, owner, kind, viewer)
    where = "their own" if owner == player else f"player {owner}'s"
    if viewer is not None and owner == viewer and owner != player:
        where = "your"
    shown = f"{tile} ({_english_tile(tile)})" if viewer == player else "a tile"
    return f"player {player} placed {shown} in {where} {kind}"


def _english_tile(tile: str) -> str:
    """``8 merchants`` for M8: what a tile stands for, as the rule book counts."""
    value = int(tile[1:])
    word = _PROFESSION_EN[tile[0]]
    return f"{value} {word if value > 1 else word.removesuffix('s')}"


def _french(player: int, tile: str, owner: int, kind: str, viewer: int | None) -> str:
    name, own, article = _BUILDING_FR[kind]
    if owner == player:
        where = own
    elif owner == viewer:
        where = f"votre {name}"
    else:
        where = f"{article} du joueur {owner}"
    if viewer == player:  # "la tuile M8 (8 marchands)", as the rule book names tiles
        value = int(tile[1:])
        singular, plural = _PROFESSION_FR[tile[0]]
        shown = f"la tuile {tile} ({value} {singular if value == 1 else plural})"
    else:
        shown = "une tuile"
    return f"joueur {player} a posé {shown} dans {where}"
