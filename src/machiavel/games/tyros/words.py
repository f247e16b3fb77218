"""Tyros actions in words for the game log, in English and French (tyros.fr.txt's words:
tuiles de terrain, marqueurs d'empire, bateaux, villes, cartes de commerce, la pioche, la
défausse).

Seats are written "player N" / "joueur N" (the page shows each as the seat's name),
places by their map name and number ("Sicilia (17)"), cards in words ("2 green cards and
1 joker"): never as the action syntax spells them.

Hidden from the others: a city fee's card (seen by the two players concerned) and the
cards a player keeps at the end of a round. Everything else an action says is public.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from machiavel.games.tyros.board import BOARD, CELL_COUNT, TYROS, cell_token
from machiavel.games.tyros.cards import CARD_NAMES, COLOURS, JOKER, KINDS, Vec, parse_cards

if TYPE_CHECKING:
    from machiavel.games.tyros.rules import TyrosState

NODE_INDEX = {token: node for node, token in enumerate(BOARD.node_token)}
CELL_INDEX = {cell_token(cell): cell for cell in range(CELL_COUNT)}

# ---- shared vocabulary ----------------------------------------------------------------------
_COLOUR_EN = COLOURS
_CARD_FR = (  # (singular, plural) of "carte <colour>"; orange does not agree
    ("orange", "orange"),
    ("jaune", "jaunes"),
    ("verte", "vertes"),
    ("violette", "violettes"),
)
_EMPIRE_FR = ("orange", "jaune", "vert", "violet")  # l'empire <colour>
_COAST = {"en": {"e": "east coast", "w": "west coast"}, "fr": {"e": "côte est", "w": "côte ouest"}}


def seat(player: int, language: str) -> str:
    """A seat as the page recognises it (and replaces by the seat's name)."""
    return f"joueur {player}" if language == "fr" else f"player {player}"


def seats(players: list[int], language: str) -> str:
    return and_list([seat(p, language) for p in players], language)


def and_list(items: list[str], language: str) -> str:
    if len(items) == 1:
        return items[0]
    word = " et " if language == "fr" else " and "
    return ", ".join(items[:-1]) + word + items[-1]


def empire(colour: int, language: str) -> str:
    """``the orange empire`` / ``l'empire orange``."""
    if language == "fr":
        return f"l'empire {_EMPIRE_FR[colour]}"
    return f"the {_COLOUR_EN[colour]} empire"


def colour_name(colour: int, language: str) -> str:
    return _EMPIRE_FR[colour] if language == "fr" else _COLOUR_EN[colour]


@cache
def cards_in_words(vec: Vec, language: str) -> str:
    """``(2, 0, 0, 0, 1)`` -> ``2 orange cards and 1 joker`` / ``2 cartes orange et 1 joker``."""
    items = []
    for kind in range(KINDS):
        count = vec[kind]
        if not count:
            continue
        if kind == JOKER:
            items.append(f"{count} joker" + ("s" if count > 1 else ""))
        elif language == "fr":
            singular, plural = _CARD_FR[kind]
            items.append(f"1 carte {singular}" if count == 1 else f"{count} cartes {plural}")
        else:
            items.append(f"{count} {_COLOUR_EN[kind]} card" + ("s" if count > 1 else ""))
    if not items:
        return "aucune carte" if language == "fr" else "no card"
    return and_list(items, language)


def card_list(text: str, language: str) -> str:
    """A card list as actions spell it, in words."""
    vec = parse_cards(text)
    assert vec is not None, text
    return cards_in_words(vec, language)


def one_card(name: str, language: str) -> str:
    """One card named as actions spell it: ``green`` -> ``1 green card``."""
    counts = [0] * KINDS
    counts[CARD_NAMES.index(name)] = 1
    return cards_in_words((counts[0], counts[1], counts[2], counts[3], counts[4]), language)


def cell_name(cell: int, language: str) -> str:
    """``Sicilia (17)``, ``Tyros``; ``cell 17`` / ``case 17`` where the map has no name."""
    if cell == TYROS:
        return "Tyros"
    name = BOARD.names[cell]
    if name:
        return f"{name} ({cell})"
    return f"case {cell}" if language == "fr" else f"cell {cell}"


def place(token: str, language: str) -> str:
    """A node or cell as actions spell it: ``16e`` -> ``Italia (16, east coast)``."""
    if token in CELL_INDEX:
        return cell_name(CELL_INDEX[token], language)
    cell = BOARD.node_cell[NODE_INDEX[token]]
    coast = _COAST[language][token[-1]]
    name = BOARD.names[cell] or ("case" if language == "fr" else "cell")
    return f"{name} ({cell}, {coast})"


def _from_fr(text: str) -> str:
    """French "de" before a place, elided before a vowel."""
    return f"d'{text}" if text[0].lower() in "aeiouy" else f"de {text}"


def tiles_in_words(tiles: list[int], language: str) -> str:
    return and_list([str(t) for t in sorted(tiles)], language)


def fee_owner(state: TyrosState, route: str) -> int:
    """The owner of the city at the end of ``<from>><to>``, who is paid the fee."""
    return state.cities[BOARD.node_cell[NODE_INDEX[route.split(">")[1]]]]


# ---- actions --------------------------------------------------------------------------------
def describe(state: TyrosState, player: int, action: str, viewer: int | None, language: str) -> str:
    """The log line of ``action`` (not yet applied to ``state``) as ``viewer`` may read it."""
    parts = action.split()
    tell = _ENGLISH if language != "fr" else _FRENCH
    return tell[parts[0]](state, player, parts, viewer)


def _en_expand(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    tile = int(parts[1])
    return (
        f"player {player} plays terrain tile {tile}: "
        f"{cell_name(tile, 'en')} joins {empire(COLOURS.index(parts[2]), 'en')}"
    )


def _fr_expand(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    tile = int(parts[1])
    return (
        f"joueur {player} joue la tuile de terrain {tile} : "
        f"{cell_name(tile, 'fr')} rejoint {empire(COLOURS.index(parts[2]), 'fr')}"
    )


def _en_under(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    return (
        f"player {player} cannot extend any empire, shows their terrain tiles "
        f"{tiles_in_words(state.tiles[player], 'en')}, puts tile {parts[1]} under the pile "
        "and draws another"
    )


def _fr_under(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    return (
        f"joueur {player} ne peut étendre aucun empire, montre ses tuiles de terrain "
        f"{tiles_in_words(state.tiles[player], 'fr')}, remet la tuile {parts[1]} sous la "
        "pioche et en pioche une autre"
    )


def _fee_seen(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> bool:
    return viewer in (player, fee_owner(state, parts[1]))


def _en_move(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    origin, target = parts[1].split(">")
    paid = parse_cards(parts[3])
    assert paid is not None
    cells = sum(paid)
    text = (
        f"player {player} sails a ship {cells} cell{'s' if cells > 1 else ''} from "
        f"{place(origin, 'en')} to {place(target, 'en')}, paying {cards_in_words(paid, 'en')}"
    )
    if len(parts) > 4:
        owner = fee_owner(state, parts[1])
        fee = one_card(parts[5], "en") if _fee_seen(state, player, parts, viewer) else "a card"
        text += f", and gives {fee} to player {owner}, whose city is there"
    return text


def _fr_move(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    origin, target = parts[1].split(">")
    paid = parse_cards(parts[3])
    assert paid is not None
    cells = sum(paid)
    text = (
        f"joueur {player} déplace un bateau de {cells} case{'s' if cells > 1 else ''} "
        f"{_from_fr(place(origin, 'fr'))} à {place(target, 'fr')} et paie "
        f"{cards_in_words(paid, 'fr')}"
    )
    if len(parts) > 4:
        owner = fee_owner(state, parts[1])
        fee = one_card(parts[5], "fr") if _fee_seen(state, player, parts, viewer) else "une carte"
        text += f" ; il donne {fee} au joueur {owner}, dont la ville est là"
    return text


def _en_city(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    text = (
        f"player {player} builds a city in {place(parts[1], 'en')}, paying "
        f"{card_list(parts[3], 'en')}; "
    )
    if len(parts) > 4:
        return text + f"their ship on the {_COAST['en'][parts[5][-1]]} returns to their supply"
    return text + "one of their ships there returns to their supply"


def _fr_city(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    text = (
        f"joueur {player} construit une ville à {place(parts[1], 'fr')} et paie "
        f"{card_list(parts[3], 'fr')} ; "
    )
    if len(parts) > 4:
        return text + f"son bateau de la {_COAST['fr'][parts[5][-1]]} rentre dans sa réserve"
    return text + "un de ses bateaux y rentre dans sa réserve"


def _en_ship(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    return (
        f"player {player} builds a ship in {place(parts[1], 'en')}, paying "
        f"{card_list(parts[3], 'en')}"
    )


def _fr_ship(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    return (
        f"joueur {player} construit un bateau à {place(parts[1], 'fr')} et paie "
        f"{card_list(parts[3], 'fr')}"
    )


def _en_bank(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    given = card_list(parts[1], "en")
    if len(parts) > 2:
        taken = one_card(parts[3], "en")
        return f"player {player} discards {given} and takes {taken} from the discard pile"
    count = len(parts[1].split(","))
    drawn = "1 card" if count == 1 else f"{count} cards"
    return f"player {player} discards {given} and draws {drawn} from the deck"


def _fr_bank(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    given = card_list(parts[1], "fr")
    if len(parts) > 2:
        taken = one_card(parts[3], "fr")
        return f"joueur {player} défausse {given} et prend {taken} dans la défausse"
    count = len(parts[1].split(","))
    drawn = "1 carte" if count == 1 else f"{count} cartes"
    return f"joueur {player} défausse {given} et pioche {drawn}"


def _en_offer(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    return (
        f"player {player} offers {card_list(parts[3], 'en')} to player {parts[1]} "
        f"in exchange for {card_list(parts[5], 'en')}"
    )


def _fr_offer(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    return (
        f"joueur {player} propose un échange au joueur {parts[1]} : "
        f"{card_list(parts[3], 'fr')} contre {card_list(parts[5], 'fr')}"
    )


def _offer_terms(state: TyrosState, language: str) -> tuple[str, str]:
    assert state.offer is not None
    _, give, ask = state.offer
    return cards_in_words(give, language), cards_in_words(ask, language)


def _en_answer(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    give, ask = _offer_terms(state, "en")
    if parts[0] == "accept":
        return (
            f"player {player} accepts the exchange with player {state.current}: "
            f"gets {give} for {ask}"
        )
    return f"player {player} refuses the exchange offered by player {state.current}"


def _fr_answer(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    give, ask = _offer_terms(state, "fr")
    if parts[0] == "accept":
        return (
            f"joueur {player} accepte l'échange proposé par le joueur {state.current} : "
            f"reçoit {give} contre {ask}"
        )
    return f"joueur {player} refuse l'échange proposé par le joueur {state.current}"


def _en_pass(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    return f"player {player} passes"


def _fr_pass(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    return f"joueur {player} passe"


def _en_keep(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    if viewer != player:  # Y7: chosen in secret
        return f"player {player} has chosen which 3 cards to keep"
    return f"player {player} keeps {card_list(parts[1], 'en')}"


def _fr_keep(state: TyrosState, player: int, parts: list[str], viewer: int | None) -> str:
    if viewer != player:
        return f"joueur {player} a choisi les cartes à garder"
    return f"joueur {player} garde {card_list(parts[1], 'fr')}"


_ENGLISH = {
    "expand": _en_expand,
    "under": _en_under,
    "move": _en_move,
    "city": _en_city,
    "ship": _en_ship,
    "bank": _en_bank,
    "offer": _en_offer,
    "accept": _en_answer,
    "refuse": _en_answer,
    "pass": _en_pass,
    "keep": _en_keep,
}
_FRENCH = {
    "expand": _fr_expand,
    "under": _fr_under,
    "move": _fr_move,
    "city": _fr_city,
    "ship": _fr_ship,
    "bank": _fr_bank,
    "offer": _fr_offer,
    "accept": _fr_answer,
    "refuse": _fr_answer,
    "pass": _fr_pass,
    "keep": _fr_keep,
}
