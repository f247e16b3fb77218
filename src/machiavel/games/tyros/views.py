"""What each player sees (hidden information as the issue and rulings describe it).

Private: a player's trade cards and terrain tiles (their counts are public), and the
cards chosen at the end of a round until every player has chosen. Public: the board, the
discard pile, the deck and pile sizes, offers and accepted trades, tiles shown by a player
who could not expand (and where they went), and what anyone can infer from public events
about another player's cards (``known_cards``: lower bounds per colour). A city fee is
seen only by the two players concerned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.core.contract import JsonDict
from machiavel.games.tyros.board import BOARD, CELL_COUNT, TYROS, cell_token, map_view
from machiavel.games.tyros.cards import CARD_NAMES, COLOURS, KINDS
from machiavel.games.tyros.scoring import ScoreSheet

if TYPE_CHECKING:
    from machiavel.games.tyros.rules import TyrosState


def cards_dict(counts: list[int] | tuple[int, ...]) -> JsonDict:
    return {CARD_NAMES[k]: counts[k] for k in range(KINDS)}


def ship_list(state: TyrosState) -> list[JsonDict]:
    ships: list[JsonDict] = []
    for owner, nodes in enumerate(state.ships):
        for node in nodes:
            cell = BOARD.node_cell[node]
            entry: JsonDict = {"owner": owner, "cell": cell_token(cell)}
            token = BOARD.node_token[node]
            if token != cell_token(cell):
                entry["coast"] = token[-1]  # Italy: "e" or "w" (Y2)
            ships.append(entry)
    return ships


def build_view(state: TyrosState, viewer: int | None) -> JsonDict:
    """A viewer's view: the public part, then the viewer's own (``private_view``)."""
    sheet = state.score_sheet()
    view = public_view(state, sheet)
    view.update(private_view(state, viewer, sheet))
    return view


def private_view(state: TyrosState, viewer: int | None, sheet: ScoreSheet) -> JsonDict:
    """What differs between viewers: the cards each knows of the others' hands, their own
    hand, tiles and kept cards."""
    from machiavel.games.tyros.rules import CITIES_EACH, SHIPS_EACH

    n = state.n
    players = []
    for holder in range(n):
        hand_size = sum(state.hands[holder])
        info: JsonDict = {
            "cards": hand_size,
            "tiles": len(state.tiles[holder]),
            "ships_in_supply": SHIPS_EACH - len(state.ships[holder]),
            "cities_in_supply": CITIES_EACH - state.cities.count(holder),
            "trades_this_round": state.trades_made[holder],
            "shown_tiles": sorted(t for t in state.tiles[holder] if t in state.public_tiles),
            "must_keep": state.phase == "keep" and hand_size > 3,
            "has_kept": state.keep_choice[holder] is not None,
            "score": {
                "cities": sheet.city[holder],
                "ships": sheet.ship[holder],
                "majorities": sheet.majority[holder],
                "all_empires_bonus": sheet.bonus[holder],
                "in_largest_empire": sheet.largest_empire[holder],
            },
        }
        if holder != viewer:
            row = n if viewer is None else viewer
            base = (row * n + holder) * KINDS
            info["known_cards"] = cards_dict(state.known[base : base + KINDS])
        players.append(info)
    kept = None if viewer is None else state.keep_choice[viewer]
    return {
        "player_info": players,
        "hand": None if viewer is None else cards_dict(state.hands[viewer]),
        "my_tiles": None if viewer is None else list(state.tiles[viewer]),
        "kept": None if kept is None else cards_dict(kept),
    }


def public_view(state: TyrosState, sheet: ScoreSheet) -> JsonDict:
    """What every viewer sees alike: the map, the board, the empires, the piles, offers."""
    rank = {colour: position + 1 for position, colour in enumerate(sheet.ranking)}
    pile_known = [
        [depth, tile]
        for depth, tile in enumerate(reversed(state.pile))
        if tile in state.public_tiles
    ]
    offer = None
    if state.offer is not None:
        target, give, ask = state.offer
        offer = {
            "from": state.current,
            "to": target,
            "give": cards_dict(give),
            "ask": cards_dict(ask),
        }
    view: JsonDict = {
        "map": map_view(),
        "round": state.round,
        "phase": state.phase,
        "first_player": state.first,
        "current_player": state.current if state.phase in ("expand", "actions", "offer") else None,
        "expansion_turns_left": state.expansion_left,
        "final_round": state.final_round,
        "markers": {
            cell_token(c): COLOURS[state.markers[c]]
            for c in range(CELL_COUNT)
            if state.markers[c] >= 0
        },
        "ships": ship_list(state),
        "cities": {
            cell_token(c): state.cities[c] for c in range(CELL_COUNT) if state.cities[c] >= 0
        },
        "tyros_open": state.cities[TYROS] < 0,
        "empires": [
            {"colour": COLOURS[c], "size": sheet.sizes[c], "rank": rank[c]}
            for c in range(len(COLOURS))
        ],
        "deck": len(state.deck),
        "discard": cards_dict(state.discard),
        "pile": len(state.pile),
        "pile_known": pile_known,
        "removed_tiles": sorted(state.removed_tiles),
        "offer": offer,
        "offers_this_turn": state.offers_made,
        "passes_in_a_row": state.passes,
        "all_empires_bonus": None if state.bonus_owner < 0 else state.bonus_owner,
    }
    return view
