"""Tyros actions in words for the game log, in English and French (tyros.fr.txt's words:
tuiles de terrain, marqueurs d'empire, bateaux, villes, cartes de commerce, la banque).

Hidden from the others: a city fee's card (seen by the two players concerned) and the
cards a player keeps at the end of a round. Everything else an action says is public.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from machiavel.games.tyros.board import BOARD
from machiavel.games.tyros.cards import CARD_NAMES, COLOURS, JOKER, KINDS, Vec, parse_cards

if TYPE_CHECKING:
    from machiavel.games.tyros.rules import TyrosState

NODE_INDEX = {token: node for node, token in enumerate(BOARD.node_token)}


def describe(state: TyrosState, player: int, action: str, viewer: int | None, language: str) -> str:
    if language == "fr":
        return _french(state, player, action, viewer)
    return _english(state, player, action, viewer)


def _fee_owner(state: TyrosState, move: str) -> int:
    """The owner of the city at the end of ``<from>><to>``, who is paid the fee."""
    return state.cities[BOARD.node_cell[NODE_INDEX[move.split(">")[1]]]]


def _english(state: TyrosState, player: int, action: str, viewer: int | None) -> str:
    parts = action.split()
    if parts[0] == "keep" and viewer != player:
        return f"player {player} chose which cards to keep"
    if parts[0] == "move" and len(parts) > 4:
        owner = _fee_owner(state, parts[1])
        if viewer not in (player, owner):
            return f"player {player}: {' '.join(parts[:4])}, and a card to player {owner}"
    if parts[0] == "under":
        shown = ", ".join(str(t) for t in state.tiles[player])
        return f"player {player} cannot expand, shows tiles {shown} and puts {parts[1]} under"
    return f"player {player}: {action}"


# ---- French ---------------------------------------------------------------------------------
_COLOUR_FR = (  # (singular, plural) of "carte <colour>"; orange does not agree
    ("orange", "orange"),
    ("jaune", "jaunes"),
    ("verte", "vertes"),
    ("violette", "violettes"),
)
_EMPIRE_FR = ("orange", "jaune", "vert", "violet")  # un marqueur d'empire <colour>
_COAST_FR = {"e": "côte est", "w": "côte ouest"}  # Italy's two coasts (Y2)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " et " + items[-1]


@cache
def cards_fr(text: str) -> str:
    """``orange,orange,joker`` -> ``2 cartes orange et 1 joker``."""
    vec: Vec | None = parse_cards(text)
    if vec is None or not sum(vec):
        return text
    items = []
    for kind in range(KINDS):
        count = vec[kind]
        if not count:
            continue
        if kind == JOKER:
            items.append(f"{count} joker" + ("s" if count > 1 else ""))
        else:
            singular, plural = _COLOUR_FR[kind]
            items.append(f"1 carte {singular}" if count == 1 else f"{count} cartes {plural}")
    return _and(items)


def card_fr(name: str) -> str:
    """One card named in English: ``green`` -> ``1 carte verte``."""
    return cards_fr(name) if name in CARD_NAMES else name


def place_fr(token: str) -> str:
    """A ship's place: ``tyros`` -> ``Tyros``, ``16e`` -> ``16 (côte est)``."""
    if token == "tyros":
        return "Tyros"
    coast = _COAST_FR.get(token[-1])
    return f"{token[:-1]} ({coast})" if coast else token


def _cell_fr(token: str) -> str:
    return "à Tyros" if token == "tyros" else f"sur la case {token}"


def _french(state: TyrosState, player: int, action: str, viewer: int | None) -> str:
    who = f"joueur {player}"
    parts = action.split()
    verb = parts[0]
    if verb == "expand":
        colour = _EMPIRE_FR[COLOURS.index(parts[2])]
        return f"{who} joue la tuile {parts[1]} et y pose un marqueur d'empire {colour}"
    if verb == "under":
        shown = _and([str(t) for t in state.tiles[player]])
        return (
            f"{who} ne peut étendre aucun empire, montre ses tuiles {shown} "
            f"et remet la tuile {parts[1]} sous la pioche"
        )
    if verb == "move":
        origin, target = parts[1].split(">")
        text = f"{who} déplace un bateau de {place_fr(origin)} à {place_fr(target)}"
        text += f" et paie {cards_fr(parts[3])}"
        if len(parts) > 4:
            owner = _fee_owner(state, parts[1])
            fee = card_fr(parts[5]) if viewer in (player, owner) else "une carte"
            text += f" ; péage : {fee} au joueur {owner}"
        return text
    if verb == "city":
        text = f"{who} construit une ville {_cell_fr(parts[1])} et paie {cards_fr(parts[3])}"
        if len(parts) > 4:
            text += f" ; son bateau de la {_COAST_FR[parts[5][-1]]} rentre dans sa réserve"
        return text
    if verb == "ship":
        return f"{who} construit un bateau {_cell_fr(parts[1])} et paie {cards_fr(parts[3])}"
    if verb == "bank":
        given = cards_fr(parts[1])
        if len(parts) > 2:
            took = card_fr(parts[3])
            return f"{who} défausse {given} à la banque et prend {took} dans la défausse"
        return f"{who} défausse {given} à la banque et en pioche autant"
    if verb == "offer":
        return (
            f"{who} propose un échange au joueur {parts[1]} : "
            f"{cards_fr(parts[3])} contre {cards_fr(parts[5])}"
        )
    if verb in ("accept", "refuse"):
        answer = "accepte" if verb == "accept" else "refuse"
        return f"{who} {answer} l'échange proposé par le joueur {state.current}"
    if verb == "pass":
        return f"{who} passe"
    if verb == "keep":
        if viewer != player:
            return f"{who} a choisi les cartes à garder"
        return f"{who} garde {cards_fr(parts[1])}"
    return f"{who} : {action}"
