"""Why an action is refused, in plain words (the rule it breaks, and what would do)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.core.parsing import number_problem, read_number
from machiavel.games.tyros.board import BOARD, CELL_COUNT, TYROS, cell_token
from machiavel.games.tyros.cards import (
    CARD_NAMES,
    COLOURS,
    KINDS,
    fits,
    parse_cards,
    vec_of,
    vec_str,
)
from machiavel.games.tyros.rules import MAX_OFFERS_PER_TURN, MAX_TRADES_PER_ROUND

if TYPE_CHECKING:
    from machiavel.games.tyros.rules import TyrosState

PHASE_VERBS = {
    "expand": ("expand", "under"),
    "actions": ("move", "city", "ship", "bank", "offer", "pass"),
    "offer": ("accept", "refuse"),
    "keep": ("keep",),
}
PHASE_WORDS = {
    "expand": "the expansion phase: play a tile with 'expand <tile> <colour>'",
    "actions": "the action phase: move, city, ship, bank, offer or pass",
    "offer": "an offer waits for an answer: 'accept' or 'refuse'",
    "keep": "the end of the round: choose 3 cards with 'keep <cards>'",
}
SYNTAX = {
    "expand": "expand <tile> <colour>, e.g. 'expand 12 orange'",
    "under": "under <tile>, e.g. 'under 12'",
    "move": "move <from>><to> pay <cards> [fee <card>], e.g. 'move tyros>31 pay orange'",
    "city": "city <cell> pay <cards>, e.g. 'city 17 pay green,green,green,green,green'",
    "ship": "ship <cell> pay <cards>, e.g. 'ship 17 pay green'",
    "bank": "bank <1-3 cards> or bank <3 cards> take <card>, e.g. 'bank orange,green'",
    "offer": "offer <player> give <1-2 cards> ask <1-2 cards>, e.g. 'offer 2 give orange ask green'",
    "keep": "keep <3 cards>, e.g. 'keep orange,green,joker'",
}
NODES = {token: node for node, token in enumerate(BOARD.node_token)}
CELLS = {cell_token(c): c for c in range(CELL_COUNT)}


def explain(state: TyrosState, player: int, action: str) -> str:
    legal = state.legal_actions(player)
    parts = action.split()
    if not parts:
        return "an empty action: " + _suggest(legal)
    verb = parts[0]
    allowed = PHASE_VERBS.get(state.phase, ())
    if verb not in {v for verbs in PHASE_VERBS.values() for v in verbs}:
        return f"{verb!r} is not an action of Tyros; now is {PHASE_WORDS[state.phase]}"
    if verb not in allowed:
        return f"no {verb!r} now: this is {PHASE_WORDS[state.phase]}"
    reason = _specific(state, player, parts)
    if reason:
        return reason
    close = [a for a in legal if a.startswith(" ".join(parts[:2]) + " ")]
    if close:
        return f"{action!r} is not allowed; did you mean: {', '.join(close[:6])}?"
    return f"{action!r} is not legal now. " + _suggest(legal)


def _suggest(legal: list[str]) -> str:
    shown = ", ".join(legal[:8]) + (", ..." if len(legal) > 8 else "")
    return f"Legal actions: {shown}"


def _cards(text: str) -> str | None:
    vec = parse_cards(text)
    return None if vec is None or not sum(vec) else vec_str(vec)


def _specific(state: TyrosState, player: int, parts: list[str]) -> str | None:
    verb = parts[0]
    check = {
        "expand": _expand,
        "under": _under,
        "move": _move,
        "city": _city,
        "ship": _ship,
        "bank": _bank,
        "offer": _offer,
        "accept": _accept,
        "keep": _keep,
    }.get(verb)
    if check is None:
        return None
    return check(state, player, parts)


def _hand_text(state: TyrosState, player: int) -> str:
    return vec_str(vec_of(state.hands[player])) or "no cards"


def _expand(state: TyrosState, player: int, parts: list[str]) -> str | None:
    if len(parts) != 3 or parts[2] not in COLOURS:
        return f"write {SYNTAX['expand']}"
    tile = read_number(parts[1])
    if tile is None:
        return f"{number_problem(parts[1], 'a tile number')}; write {SYNTAX['expand']}"
    tiles = state.tiles[player]
    if tile not in tiles:
        return f"you do not hold tile {tile} (your tiles: {', '.join(map(str, tiles))})"
    near = sorted({state.markers[nb] for nb in BOARD.neighbours[tile] if state.markers[nb] >= 0})
    if not near:
        return f"cell {tile} is not next to any empire: a tile must extend an empire (Y5)"
    colour = COLOURS.index(parts[2])
    if colour not in near:
        names = ", ".join(COLOURS[c] for c in near)
        return f"no {parts[2]} empire next to cell {tile} (next to it: {names})"
    return None


def _under(state: TyrosState, player: int, parts: list[str]) -> str | None:
    options = state._expansion_options(player)
    if options:
        return f"you can expand, so you must (Y5): e.g. {options[0]!r}"
    if len(parts) != 2:
        return f"write {SYNTAX['under']} with one of your tiles"
    tile = read_number(parts[1])
    if tile is None:
        return f"{number_problem(parts[1], 'a tile number')}; write {SYNTAX['under']}"
    if tile not in state.tiles[player]:
        return f"write {SYNTAX['under']} with one of your tiles"
    return None


def _move(state: TyrosState, player: int, parts: list[str]) -> str | None:
    if len(parts) < 2 or parts[1].count(">") != 1:
        return f"write {SYNTAX['move']}"
    source, dest = parts[1].split(">")
    if source not in NODES or dest not in NODES:
        bad = source if source not in NODES else dest
        hint = " (Italy is 16e or 16w: say which coast)" if bad == "16" else ""
        return f"{bad!r} is not a place on the map{hint}"
    source_node, dest_node = NODES[source], NODES[dest]
    if source_node not in state.ships[player]:
        return f"you have no ship in {source}"
    cell = BOARD.node_cell[dest_node]
    if state.markers[cell] < 0:
        return f"cell {dest} has no empire marker: a ship may only go to an empire (Y6, Y3)"
    cost = BOARD.distance[source_node][dest_node]
    if cost <= 0:
        return f"no sea route from {source} to {dest}"
    colour = state.markers[cell]
    hand = state.hands[player]
    if hand[colour] + hand[KINDS - 1] < cost:
        return (
            f"the cheapest route from {source} to {dest} crosses {cost} cells: it costs {cost} "
            f"{COLOURS[colour]} cards (jokers count); you hold {_hand_text(state, player)}"
        )
    total, mine = state.ship_counts(player)
    if cell != BOARD.node_cell[source_node]:
        if cell == TYROS and state.cities[TYROS] < 0:
            if mine[TYROS] >= 2:
                return "you already have 2 ships in Tyros (Y6)"
        elif total[cell] >= 2:
            return f"cell {cell_token(cell)} already holds 2 ships (Y6)"
    return None


def _city(state: TyrosState, player: int, parts: list[str]) -> str | None:
    if len(parts) < 2 or parts[1] not in CELLS:
        return f"write {SYNTAX['city']}"
    cell = CELLS[parts[1]]
    total, mine = state.ship_counts(player)
    if state.cities[cell] >= 0:
        return f"cell {parts[1]} already has a city (one city per cell, Y6)"
    if state.markers[cell] < 0:
        return f"cell {parts[1]} has no empire marker"
    if not mine[cell]:
        return f"you need a ship in {parts[1]} to build a city there (Y6)"
    if total[cell] != mine[cell]:
        return f"another player has a ship in {parts[1]}: you must be alone there (Y6)"
    if state.cities_in_supply(player) == 0:
        return "all your 10 cities are built"
    cost = 5 if mine[cell] == 1 else 4
    colour = state.markers[cell]
    hand = state.hands[player]
    if hand[colour] + hand[KINDS - 1] < cost:
        return (
            f"a city in {parts[1]} costs {cost} {COLOURS[colour]} cards (jokers count); "
            f"you hold {_hand_text(state, player)}"
        )
    return None


def _ship(state: TyrosState, player: int, parts: list[str]) -> str | None:
    if len(parts) < 2 or parts[1] not in CELLS:
        return f"write {SYNTAX['ship']}"
    cell = CELLS[parts[1]]
    if len(state.ships[player]) >= 10:
        return "all your 10 ships are on the board"
    if cell == TYROS and state.cities[TYROS] < 0:
        total, mine = state.ship_counts(player)
        if mine[TYROS] >= 2:
            return "you already have 2 ships in Tyros (Y6)"
        need = total[TYROS] + 1
        return (
            f"a ship in Tyros costs {need} cards of any colours now (one per ship there, "
            f"counting the new one, Y6); you hold {_hand_text(state, player)}"
        )
    if state.cities[cell] != player:
        return "you may build ships only where you have a city, or in Tyros before its city (Y6)"
    total, _ = state.ship_counts(player)
    if total[cell] >= 2:
        return f"cell {parts[1]} already holds 2 ships (Y6)"
    colour = COLOURS[state.markers[cell]]
    if total[cell]:
        return f"with a ship already there, a ship costs 2 cards, one of them {colour} (Y6)"
    return f"a ship in {parts[1]} costs one {colour} card (or a joker) (Y6)"


def _bank(state: TyrosState, player: int, parts: list[str]) -> str | None:
    if len(parts) not in (2, 4) or (len(parts) == 4 and parts[2] != "take"):
        return f"write {SYNTAX['bank']}"
    given = _cards(parts[1])
    if given is None:
        return f"{parts[1]!r} is not a list of cards (orange, yellow, green, violet, joker)"
    vec = parse_cards(given)
    assert vec is not None
    if not fits(vec, state.hands[player]):
        return f"you do not hold {given} (you hold {_hand_text(state, player)})"
    if len(parts) == 2:
        if not 1 <= sum(vec) <= 3:
            return "a bank trade discards 1 to 3 cards (Y6)"
        if len(state.deck) < sum(vec):
            return f"the deck has only {len(state.deck)} cards left (it is not reshuffled)"
        return None
    if sum(vec) != 3:
        return "to take a card from the discard pile, discard exactly 3 cards (Y6)"
    take = parse_cards(parts[3])
    if take is None or sum(take) != 1:
        return f"{parts[3]!r} is not one card"
    kind = take.index(1)
    if not state.discard[kind]:
        return f"the discard pile holds no {CARD_NAMES[kind]} card"
    if vec[kind]:
        return "taking back a colour you discard is pointless, so it is not offered"
    return None


def _offer(state: TyrosState, player: int, parts: list[str]) -> str | None:
    if len(parts) != 6 or parts[2] != "give" or parts[4] != "ask":
        return f"write {SYNTAX['offer']}"
    target = read_number(parts[1])
    if target is None:
        return f"{number_problem(parts[1], 'a player number')}; write {SYNTAX['offer']}"
    if target == player or not 0 <= target < state.n:
        return f"offer to another player (0 to {state.n - 1}, not yourself)"
    if state.offers_made >= MAX_OFFERS_PER_TURN:
        return f"you made {MAX_OFFERS_PER_TURN} offers this turn already (Y6)"
    if state.trades_made[player] >= MAX_TRADES_PER_ROUND:
        return (
            f"you made {MAX_TRADES_PER_ROUND} trades this round already (house limit, see the docs)"
        )
    give, ask = parse_cards(parts[3]), parse_cards(parts[5])
    if give is None or ask is None:
        return "cards are orange, yellow, green, violet or joker"
    if not 1 <= sum(give) <= 2 or not 1 <= sum(ask) <= 2:
        return "an offer gives 1 or 2 cards and asks 1 or 2 cards (house limit)"
    if not fits(give, state.hands[player]):
        return f"you do not hold {vec_str(give)} (you hold {_hand_text(state, player)})"
    if sum(ask) > sum(state.hands[target]):
        return f"player {target} holds only {sum(state.hands[target])} cards"
    if any(give[k] and ask[k] for k in range(KINDS)):
        return "the same colour on both sides of an offer is pointless, so it is not offered"
    return None


def _accept(state: TyrosState, player: int, parts: list[str]) -> str | None:
    assert state.offer is not None
    ask = state.offer[2]
    return f"you do not hold {vec_str(ask)}: you can only 'refuse'"


def _keep(state: TyrosState, player: int, parts: list[str]) -> str | None:
    if len(parts) != 2:
        return f"write {SYNTAX['keep']}"
    vec = parse_cards(parts[1])
    if vec is None:
        return f"{parts[1]!r} is not a list of cards"
    if sum(vec) != 3:
        return "keep exactly 3 cards (Y7)"
    if not fits(vec, state.hands[player]):
        return f"you do not hold {vec_str(vec)} (you hold {_hand_text(state, player)})"
    return None
