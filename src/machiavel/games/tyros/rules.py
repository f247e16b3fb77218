"""Tyros rules as a pure state machine (rulings Y1-Y8 of shared/rules/RULINGS.md).

Representation (compact, cheap to clone): cells are indices 0-32 (0 is Tyros, Y3), ships
stand on nodes (Italy has two, Y2), hands of trade cards are five colour counts, the deck
is a list of colours (top at the end), terrain tiles are cell numbers (pile top at the end).

What each player knows about the others' cards is kept as lower bounds per colour (see
``known``): offers and accepted trades, cards taken from the discard pile and private city
fees raise them; public payments lower them. Views show them and ``resample`` respects
them, so a redrawn world agrees with everything the player has seen.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING

from machiavel.core.contract import JsonDict, Setup, State
from machiavel.core.errors import InvalidSetup
from machiavel.core.fields import CACHE, LIST, RNG, ROWS, SET, SETTING, SHARED, StateFields
from machiavel.core.rng import Rng
from machiavel.games.tyros.board import BOARD, CELL_COUNT, NODE_COUNT, TYROS, cell_token
from machiavel.games.tyros.cards import (
    CARD_NAMES,
    COLOURS,
    JOKER,
    KINDS,
    MULTISETS,
    Vec,
    fits,
    full_deck,
    kinds_in,
    parse_cards,
    pay_vec,
    sub_multisets,
    vec_str,
)
from machiavel.games.tyros.scoring import (
    CityPoints,
    ScoreSheet,
    city_points,
    empire_sizes,
    fleet_of,
    rank_empires,
    score_board,
    winners_of,
)
from machiavel.games.tyros.words import describe

if TYPE_CHECKING:
    from machiavel.core.contract import Game

# ---- figures from the rule book (Y1, Y5, Y6, Y7) -----------------------------------------
SHIPS_EACH = 10
CITIES_EACH = 10
START_SHIPS_IN_TYROS = 2
TILES_EACH = 4
MARKERS_PER_COLOUR = 20  # Y1: 80 empire markers, 20 per colour
TILE_COUNT = 32
CARDS_DEALT = {3: 12, 4: 10}  # Y5
KEEP_AT_MOST = 3  # Y7
MAX_SHIPS_PER_CELL = 2  # Y6
MAX_OWN_SHIPS_IN_OPEN_TYROS = 2  # Y6: per player while Tyros has no city
CITY_COST = (5, 4)  # Y6: with one / two of your ships in the cell
MAX_OFFERS_PER_TURN = 3  # Y6
# House limits (docs/games/tyros.md): keep legal_actions small and every phase finite.
OFFER_MAX_CARDS = 2  # at most 2 cards given and 2 asked in one offer
MAX_TRADES_PER_ROUND = 2  # accepted offers a player may make per round
FIRST_GAME = (7, 13, 23, 26)  # Y4: orange, yellow, green, violet
TYROS_TRIGGERS = (31, 32)  # Y3

EXPAND, ACTIONS, OFFER, KEEP, OVER = "expand", "actions", "offer", "keep", "over"

NODE_CELL = BOARD.node_cell
NODE_TOKEN = BOARD.node_token
NEIGHBOURS = BOARD.neighbours
# Reachable nodes from each node with their cost, cheapest first (Y6: one card per cell).
REACH = tuple(
    tuple(
        sorted(
            ((d, cost) for d, cost in enumerate(BOARD.distance[s]) if cost > 0),
            key=lambda pair: (pair[1], pair[0]),
        )
    )
    for s in range(NODE_COUNT)
)
Route = tuple[int, int, int, int, int]  # cost, node, its cell, its colour, text key
# Move texts by one number (source, destination, colour, cards of the colour paid): no
# key to build, and one string object per move.
MOVE_TEXTS: dict[int, str] = {}
CARDS_PER_MOVE = 64  # more than any route costs


# Per source node: (cost, node, its cell, ``MOVE_TEXTS``'s key without the colour) of every
# node by sea, by cost then node; the markers only choose among them (``sea_routes``).
SEA_FROM = tuple(
    tuple(
        (cost, dest, NODE_CELL[dest], (source * NODE_COUNT + dest) * KINDS * CARDS_PER_MOVE)
        for dest, cost in REACH[source]
    )
    for source in range(NODE_COUNT)
)
EXPAND_STR = [[f"expand {t} {c}" for c in COLOURS] for t in range(CELL_COUNT)]
UNDER_STR = [f"under {t}" for t in range(CELL_COUNT)]
GIVES: tuple[Vec, ...] = MULTISETS[1] + MULTISETS[2]
KEEP_STR = {vec: f"keep {vec_str(vec)}" for vec in MULTISETS[3]}


def _capped(hand: list[int], cap: int) -> Vec:
    a, b, c, d, e = hand
    return (
        a if a < cap else cap,
        b if b < cap else cap,
        c if c < cap else cap,
        d if d < cap else cap,
        e if e < cap else cap,
    )


# The lists below depend on a hand only through its counts capped at the number of cards
# an action can use, so they are built once per capped hand and reused (hot path).
@cache
def bank_draw_actions(capped: Vec, limit: int) -> tuple[str, ...]:
    """Y6: discard 1-``limit`` cards (limit <= 3) and draw as many from the deck."""
    return tuple(
        f"bank {vec_str(vec)}"
        for size in range(1, limit + 1)
        for vec in MULTISETS[size]
        if fits(vec, capped)
    )


@cache
def bank_take_actions(capped: Vec, in_discard: Vec) -> tuple[str, ...]:
    """Y6: discard 3 cards, take one of another colour from the discard pile."""
    return tuple(
        f"bank {vec_str(vec)} take {CARD_NAMES[take]}"
        for vec in MULTISETS[3]
        if fits(vec, capped)
        for take in range(KINDS)
        if in_discard[take] and not vec[take]
    )


@cache
def keep_actions(capped: Vec) -> tuple[str, ...]:
    return tuple(text for vec, text in KEEP_STR.items() if fits(vec, capped))


def _offer_table(target: int) -> list[tuple[Vec, tuple[str, ...], tuple[str, ...]]]:
    """For each gift of 1-2 cards: the offers to ``target`` asking 1 card, then 2 cards."""
    table = []
    for give in GIVES:
        asks: list[list[str]] = [[], []]
        for size in (1, 2):
            for ask in MULTISETS[size]:
                if not any(give[c] and ask[c] for c in range(KINDS)):  # both sides: pointless
                    asks[size - 1].append(f"offer {target} give {vec_str(give)} ask {vec_str(ask)}")
        table.append((give, tuple(asks[0]), tuple(asks[1])))
    return table


OFFER_TABLES = [_offer_table(target) for target in range(4)]


@cache
def offer_actions(target: int, capped: Vec, target_cards: int) -> tuple[str, ...]:
    """Y6 offers to ``target`` (house limit: 1-2 cards each way)."""
    out: list[str] = []
    for give, ask_one, ask_two in OFFER_TABLES[target]:
        if fits(give, capped):
            out.extend(ask_one)
            if target_cards >= OFFER_MAX_CARDS:
                out.extend(ask_two)
    return tuple(out)


@lru_cache(maxsize=4096)
def tyros_ship_actions(hand: Vec, need: int) -> tuple[str, ...]:
    """Y6: a ship in Tyros before its city, paid with ``need`` cards of any colours."""
    return tuple(f"ship tyros pay {vec_str(v)}" for v in sub_multisets(hand, need))


@cache
def pay_str(colour: int, cards: int, jokers: int) -> str:
    return vec_str(pay_vec(colour, cards, jokers))


@lru_cache(maxsize=256)
def routes_table(markers: tuple[int, ...]) -> dict[int, tuple[Route, ...]]:
    """The sea routes of ``TyrosState.sea_routes`` for one set of markers, filled lazily."""
    return {}


@cache
def move_text(source: int, dest: int, colour: int, cards: int, jokers: int) -> str:
    """One string per move (the same object each time: its hash is computed once)."""
    return f"move {NODE_TOKEN[source]}>{NODE_TOKEN[dest]} pay {pay_str(colour, cards, jokers)}"


class TyrosState(State):
    """A game of Tyros for 3 or 4 players."""

    fields = StateFields(
        n=SETTING,
        rng=RNG,
        first=SHARED,
        round=SHARED,
        phase=SHARED,
        current=SHARED,
        expansion_left=SHARED,
        final_round=SHARED,
        markers=LIST,
        cities=LIST,
        ships=ROWS,
        hands=ROWS,
        deck=LIST,
        discard=LIST,
        tiles=ROWS,
        pile=LIST,
        removed_tiles=LIST,
        public_tiles=SET,  # tiles whose place everyone knows
        known=LIST,  # known[(viewer*n+holder)*5+colour]
        passes=SHARED,
        offers_made=SHARED,
        trades_made=LIST,
        offer=SHARED,  # (target, give, ask) or None
        keep_choice=LIST,
        bonus_owner=SHARED,
        _to_move=CACHE,
        _routes=CACHE,  # sea_routes()
        _ranks=CACHE,  # empire_ranks()
        _sheet=CACHE,  # score_sheet()
        _city_points=CACHE,  # score_sheet()'s points from cities
        _fleet=CACHE,  # fleet()
        _counts=CACHE,  # ship_counts()
    )

    def __init__(self, game: Game, setup: Setup, blank: bool = False) -> None:
        super().__init__(game, setup)
        if blank:
            return  # for ``_blank``: ``clone`` sets every field
        if setup.position is not None:
            raise InvalidSetup("Tyros does not start from custom positions")
        n = setup.players
        self.n = n
        self.rng = Rng(setup.seed)
        self.first = self.rng.below(n)  # the book's "last to have seen the sea": drawn
        self.round = 1
        self.phase = EXPAND
        self.current = self.first
        self.expansion_left = 0
        self.final_round = False
        self.markers = [-1] * CELL_COUNT
        self.cities = [-1] * CELL_COUNT
        self.ships: list[list[int]] = [[TYROS] * START_SHIPS_IN_TYROS for _ in range(n)]  # Y1
        self.hands: list[list[int]] = [[0] * KINDS for _ in range(n)]
        self.deck: list[int] = full_deck()
        self.discard = [0] * KINDS
        self.tiles: list[list[int]] = [[] for _ in range(n)]
        self.pile: list[int] = []
        self.removed_tiles: list[int] = []
        self.public_tiles: set[int] = set()  # tiles whose place everyone knows
        self.known = [0] * ((n + 1) * n * KINDS)  # known[(viewer*n+holder)*5+colour]
        self.passes = 0
        self.offers_made = 0
        self.trades_made = [0] * n
        self.offer: tuple[int, Vec, Vec] | None = None  # (target, give, ask)
        self.keep_choice: list[Vec | None] = [None] * n
        self.bonus_owner = -1
        self._to_move: tuple[int, ...] = ()
        self._routes: dict[int, tuple[Route, ...]] | None = None
        self._ranks: tuple[int, ...] | None = None
        self._sheet: ScoreSheet | None = None
        self._city_points: CityPoints | None = None
        self._fleet: dict[int, list[int]] | None = None
        self._counts: dict[int, tuple[list[int], list[int]]] | None = None
        self._setup_board(str(setup.options.get("setup", "first-game")))
        self._start_round()

    def _blank(self) -> TyrosState:
        return TyrosState(self.game, self.setup, blank=True)  # compiled: only through __init__

    # ---- setup (Y4) ---------------------------------------------------------------------
    def _setup_board(self, kind: str) -> None:
        tiles = list(range(1, TILE_COUNT + 1))
        if kind == "first-game":
            for colour, cell in enumerate(FIRST_GAME):
                self._place_marker(cell, colour)
                self.removed_tiles.append(cell)
                tiles.remove(cell)
        else:
            self.rng.shuffle(tiles)
            for colour in range(len(COLOURS)):
                # Y4: redraw a tile next to an earlier kingdom; it goes under the pile.
                while any(self.markers[nb] >= 0 for nb in NEIGHBOURS[tiles[-1]]):
                    tiles.insert(0, tiles.pop())
                cell = tiles.pop()
                self._place_marker(cell, colour)
                self.removed_tiles.append(cell)
        tiles.sort()
        self.rng.shuffle(tiles)  # the book: the remaining tiles are shuffled, then dealt
        for player in range(self.n):
            self.tiles[player] = sorted(tiles.pop() for _ in range(TILES_EACH))
        self.pile = tiles

    def sea_routes(self, source: int) -> tuple[Route, ...]:
        """(cost, node, cell, colour, text key) of every node a ship at ``source`` may sail
        to (Y6/Y3: a cell with a marker), cheapest first, then by node (the legal list's
        order); the key plus the cards of the colour paid: ``MOVE_TEXTS``'s.

        Filled in source by source, in a table shared by every state with these markers
        (search's worlds, their clones); placing a marker looks up another one."""
        routes = self._routes
        if routes is None:
            routes = self._routes = routes_table(tuple(self.markers))
        found = routes.get(source)
        if found is None:
            markers = self.markers
            found = routes[source] = tuple(
                (cost, dest, cell, colour, key + colour * CARDS_PER_MOVE)  # = the key's sum
                for cost, dest, cell, key in SEA_FROM[source]
                if (colour := markers[cell]) >= 0
            )
        return found

    def empire_ranks(self) -> tuple[int, ...]:
        """Each colour's place by empire size, 0 for the largest (cached)."""
        if self._ranks is None:
            rank = [0] * len(COLOURS)
            for position, colour in enumerate(rank_empires(empire_sizes(self.markers))):
                rank[colour] = position
            self._ranks = tuple(rank)
        return self._ranks

    def fleet(self) -> dict[int, list[int]]:
        """Per cell with ships: the owner of each, player by player as the view lists them
        (cached: callers must not change it)."""
        if self._fleet is None:
            self._fleet = fleet_of(self.ships)
        return self._fleet

    def _forget_board(self) -> None:
        """Every cache derived from the board dropped (for positions set up by hand)."""
        self._routes = self._ranks = self._city_points = None
        self._board_changed()

    def _board_changed(self) -> None:
        """Ships or cities changed: the caches derived from them are stale (the new values
        replace, never change, the old ones: clones share them)."""
        self._sheet = None
        self._fleet = None
        self._counts = None

    def _place_marker(self, cell: int, colour: int) -> None:
        self.markers[cell] = colour
        self._routes = None
        self._ranks = None
        self._sheet = None
        self._city_points = None
        # Y3: 31 or 32 gives Tyros a marker of the same colour, unless it has one
        # (and while that colour has markers left, Y1).
        if cell in TYROS_TRIGGERS and self.markers[TYROS] < 0 and self._has_markers(colour):
            self.markers[TYROS] = colour

    def _has_markers(self, colour: int) -> bool:
        """Y1: 20 empire markers per colour; an exhausted colour cannot expand."""
        return self.markers.count(colour) < MARKERS_PER_COLOUR

    def _tile_can_be_played(self, tile: int) -> bool:
        return any(
            self.markers[nb] >= 0 and self._has_markers(self.markers[nb]) for nb in NEIGHBOURS[tile]
        )

    def _no_tile_can_ever_be_played(self) -> bool:
        """True once no tile left (hands and pile) neighbours a colour with markers left.

        Markers only accumulate, so this lasts for good: the game (which ends with a
        last tile played, Y7) would never end; the round in progress is made the last
        (docs/games/tyros.md).
        """
        remaining = [t for tiles in self.tiles for t in tiles] + self.pile
        return not any(self._tile_can_be_played(tile) for tile in remaining)

    # ---- rounds (Y5, Y7) ------------------------------------------------------------------
    def _start_round(self) -> None:
        self._deal_cards()
        self.trades_made = [0] * self.n
        self.phase = EXPAND
        self.current = self.first
        twice = self.n == 3 or self.round == 1  # Y5
        self.expansion_left = self.n * (2 if twice else 1)
        self._resolve_expansion()

    def _deal_cards(self) -> None:
        """Y5: every card not in a hand is shuffled, then 12 (3 players) or 10 are dealt."""
        for colour in range(KINDS):
            self.deck.extend([colour] * self.discard[colour])
            self.discard[colour] = 0
        self.deck.sort()
        self.rng.shuffle(self.deck)
        count = CARDS_DEALT[self.n]
        for player in range(self.n):
            hand = self.hands[player]
            for _ in range(min(count, len(self.deck))):
                hand[self.deck.pop()] += 1

    def _resolve_expansion(self) -> None:
        """Skip the expansion turns that need no decision; then start the actions."""
        while self.expansion_left > 0:
            player = self.current
            tiles = self.tiles[player]
            if tiles and (self._expansion_options(player) or self.pile):
                self._refresh_to_move()
                return
            if tiles:  # Y5: cannot expand, empty pile: shows the tiles, nothing else changes
                self.public_tiles.update(tiles)
            self._next_expansion_turn()
        if self._no_tile_can_ever_be_played():
            self.final_round = True
        self.phase = ACTIONS
        self.current = self.first
        self.passes = 0
        self.offers_made = 0
        self._refresh_to_move()

    def _next_expansion_turn(self) -> None:
        self.expansion_left -= 1
        self.current = (self.current + 1) % self.n

    def _expansion_options(self, player: int) -> list[str]:
        """Y5: tiles whose cell neighbours an empire, with each neighbouring colour."""
        options = []
        markers = self.markers
        open_colours = [
            c for c in range(len(COLOURS)) if markers.count(c) < MARKERS_PER_COLOUR
        ]  # _has_markers, for every colour at once
        for tile in self.tiles[player]:
            colours = {markers[nb] for nb in NEIGHBOURS[tile]}
            for colour in open_colours:
                if colour in colours:
                    options.append(EXPAND_STR[tile][colour])
        return options

    def _end_turn(self, acted: bool) -> None:
        """Y6: the phase ends when every player passed in one full go-round."""
        self.passes = 0 if acted else self.passes + 1
        self.offers_made = 0
        if self.passes >= self.n:
            self._end_actions()
        else:
            self.current = (self.current + 1) % self.n
        self._refresh_to_move()

    def _end_actions(self) -> None:
        if self.final_round:  # Y7: the round where a last tile was played ends the game
            self.phase = OVER
            return
        if any(sum(hand) > KEEP_AT_MOST for hand in self.hands):
            self.phase = KEEP
            self.keep_choice = [None] * self.n
            return
        self._next_round()

    def _next_round(self) -> None:
        self.round += 1
        self.first = (self.first + 1) % self.n  # Y7: the first-player tile moves left
        self._start_round()

    def _refresh_to_move(self) -> None:
        if self.phase == OVER:
            self._to_move = ()
        elif self.phase == OFFER:
            assert self.offer is not None
            self._to_move = (self.offer[0],)
        elif self.phase == KEEP:
            self._to_move = tuple(
                p
                for p in range(self.n)
                if self.keep_choice[p] is None and sum(self.hands[p]) > KEEP_AT_MOST
            )
        else:
            self._to_move = (self.current,)

    @property
    def to_move(self) -> tuple[int, ...]:
        return self._to_move

    # ---- legal actions ----------------------------------------------------------------
    def _legal(self, player: int) -> list[str]:
        phase = self.phase
        if phase == ACTIONS:
            return self._action_options(player)
        if phase == EXPAND:
            options = self._expansion_options(player)
            return options or [UNDER_STR[t] for t in self.tiles[player]]
        if phase == OFFER:
            assert self.offer is not None
            ask = self.offer[2]
            return ["accept", "refuse"] if fits(ask, self.hands[player]) else ["refuse"]
        return list(keep_actions(_capped(self.hands[player], 3)))  # KEEP (Y7)

    def ship_counts(self, player: int) -> tuple[list[int], list[int]]:
        """Ships per cell: all players', and ``player``'s (cached until ships change, in a
        table clones share: callers must not change the lists)."""
        counts = self._counts
        if counts is None:
            counts = self._counts = {}
        found = counts.get(player)
        if found is None:
            total = [0] * CELL_COUNT
            for cell, owners in self.fleet().items():
                total[cell] = len(owners)
            mine = [0] * CELL_COUNT
            for node in self.ships[player]:  # fewer than the cells with ships
                mine[NODE_CELL[node]] += 1
            found = counts[player] = (total, mine)
        return found

    def _action_options(self, player: int) -> list[str]:
        out = self.building_options(player)
        out.extend(self.trading_options(player))
        out.append("pass")
        return out

    def building_options(self, player: int) -> list[str]:
        """The legal moves, cities and ships (Y6), in the legal list's order; it lists
        them first, then ``trading_options``, then "pass"."""
        hand = self.hands[player]
        total, mine = self.ship_counts(player)
        out: list[str] = []
        cards = sum(hand)
        if cards:
            self._move_options(player, hand, cards, total, mine, out)
            self._city_options(player, hand, total, mine, out)
        self._ship_options(player, hand, cards, total, mine, out)
        return out

    def trading_options(self, player: int) -> list[str]:
        """The legal bank trades, then offers (Y6): a heuristic that looks at them only
        when nothing on the board is worth doing need not build them otherwise."""
        hand = self.hands[player]
        out: list[str] = []
        cards = sum(hand)
        if cards:
            self._bank_options(hand, cards, out)
            self._offer_options(player, hand, out)
        return out

    def _move_options(
        self,
        player: int,
        hand: list[int],
        cards: int,
        total: list[int],
        mine: list[int],
        out: list[str],
    ) -> None:
        """Y6: cheapest sea route, one card of the destination's colour per cell entered."""
        cities = self.cities
        jokers = hand[JOKER]
        # cells each colour pays for (written out: no comprehension to call in search)
        reach = [hand[0] + jokers, hand[1] + jokers, hand[2] + jokers, hand[3] + jokers]
        farthest = max(reach)
        if not farthest:
            return
        tyros_open = cities[TYROS] < 0
        tyros_room = not tyros_open or mine[TYROS] < MAX_OWN_SHIPS_IN_OPEN_TYROS
        for source in sorted(set(self.ships[player])):
            source_cell = NODE_CELL[source]
            for cost, dest, cell, colour, key in self.sea_routes(source):
                if cost > reach[colour]:
                    if cost > farthest:
                        break  # the routes are by cost: no colour pays for the rest
                    continue
                if cell != source_cell and not (  # Italy: changing coast keeps the count
                    tyros_room if cell == TYROS and tyros_open else total[cell] < MAX_SHIPS_PER_CELL
                ):
                    continue  # no room for one more ship
                have = hand[colour]
                use = have if have < cost else cost
                key += use
                text = MOVE_TEXTS.get(key)
                if text is None:
                    text = MOVE_TEXTS[key] = move_text(source, dest, colour, use, cost - use)
                owner = cities[cell]
                if owner < 0 or owner == player or cards == cost:
                    out.append(text)
                    continue
                # Y6: a card of the mover's choice to the city's owner
                left = list(hand)
                left[colour] -= use
                left[JOKER] -= cost - use
                for kind in range(KINDS):
                    if left[kind]:
                        out.append(f"{text} fee {CARD_NAMES[kind]}")

    def _city_options(
        self, player: int, hand: list[int], total: list[int], mine: list[int], out: list[str]
    ) -> None:
        """Y6: 5 cards of the cell's colour (4 with two ships), alone in the cell."""
        if max(hand[:JOKER]) + hand[JOKER] < min(CITY_COST):
            return  # no colour's cards pay for a city anywhere
        if self.cities_in_supply(player) == 0:
            return
        for cell in sorted({NODE_CELL[node] for node in self.ships[player]}):
            own = mine[cell]
            colour = self.markers[cell]
            if total[cell] != own or self.cities[cell] >= 0 or colour < 0:
                continue
            cost = CITY_COST[own - 1]
            have = hand[colour]
            if have + hand[JOKER] < cost:
                continue
            use = min(have, cost)
            text = f"city {cell_token(cell)} pay {pay_str(colour, use, cost - use)}"
            coasts = sorted({n for n in self.ships[player] if NODE_CELL[n] == cell})
            if len(coasts) == 2:  # Italy, a ship on each coast: say which goes home
                out.extend(f"{text} return {NODE_TOKEN[node]}" for node in coasts)
            else:
                out.append(text)

    def _ship_options(
        self,
        player: int,
        hand: list[int],
        cards: int,
        total: list[int],
        mine: list[int],
        out: list[str],
    ) -> None:
        """Y6: build in a cell with your city, or in Tyros while it has no city."""
        if len(self.ships[player]) >= SHIPS_EACH or not cards:
            return
        cities = self.cities
        if cities[TYROS] < 0:
            need = total[TYROS] + 1  # Y6: cards of any colour, one per ship counting the new
            if mine[TYROS] < MAX_OWN_SHIPS_IN_OPEN_TYROS and cards >= need:
                out.extend(tyros_ship_actions(_capped(hand, need), need))
        if player not in cities:
            return
        for cell in [cell for cell, owner in enumerate(cities) if owner == player]:
            if total[cell] >= MAX_SHIPS_PER_CELL:
                continue
            colour = self.markers[cell]
            head = f"ship {cell_token(cell)} pay "
            if hand[colour]:
                first = colour
            elif hand[JOKER]:
                first = JOKER
            else:
                continue
            if total[cell] == 0:
                out.append(head + CARD_NAMES[first])
                continue
            left = list(hand)  # Y6: a ship already there, two cards, one of the colour
            left[first] -= 1
            for kind in range(KINDS):
                if left[kind]:
                    pair = [0] * KINDS
                    pair[first] += 1
                    pair[kind] += 1
                    out.append(head + vec_str((pair[0], pair[1], pair[2], pair[3], pair[4])))

    def _bank_options(self, hand: list[int], cards: int, out: list[str]) -> None:
        """Y6: discard 1-3 and draw as many, or discard 3 and take one from the discard."""
        capped = _capped(hand, 3)
        if self.deck:
            out.extend(bank_draw_actions(capped, min(3, len(self.deck), cards)))
        if cards >= 3:
            out.extend(bank_take_actions(capped, _capped(self.discard, 1)))

    def _offer_options(self, player: int, hand: list[int], out: list[str]) -> None:
        """Y6: an exchange offered to one player (house limit: 1-2 cards each way)."""
        if (
            self.offers_made >= MAX_OFFERS_PER_TURN
            or self.trades_made[player] >= MAX_TRADES_PER_ROUND
        ):
            return
        capped = _capped(hand, OFFER_MAX_CARDS)
        for target in range(self.n):
            if target != player:
                held = sum(self.hands[target])
                if held:
                    out.extend(offer_actions(target, capped, min(held, OFFER_MAX_CARDS)))

    def cities_in_supply(self, player: int) -> int:
        return CITIES_EACH - self.cities.count(player)

    # ---- playing ------------------------------------------------------------------------
    def _play(self, player: int, action: str) -> None:
        if action[0] == "m":  # the commonest action, read once per distinct string
            self._play_move(player, *move_spec(action))
            return
        parts = action.split()
        verb = parts[0]
        if verb == "expand":
            self._play_expand(player, int(parts[1]), COLOURS.index(parts[2]))
        elif verb == "under":
            self._play_under(player, int(parts[1]))
        elif verb == "pass":
            self._end_turn(acted=False)
        elif verb == "city":
            self._play_city(player, parts)
        elif verb == "ship":
            self._play_ship(player, parts)
        elif verb == "bank":
            self._play_bank(player, parts)
        elif verb == "offer":
            self._play_offer(player, parts)
        elif verb == "accept":
            self._play_accept(player)
        elif verb == "refuse":
            self.offer = None
            self.phase = ACTIONS  # Y6: refusing costs nothing; the offering player acts again
            self._refresh_to_move()
        elif verb == "keep":
            self._play_keep(player, cards_of(parts[1]))
        else:  # pragma: no cover - only legal actions reach _play
            raise AssertionError(action)

    def _play_expand(self, player: int, tile: int, colour: int) -> None:
        self.tiles[player].remove(tile)
        self.public_tiles.discard(tile)
        self._place_marker(tile, colour)
        self._draw_tile(player)
        if not self.tiles[player]:
            self.final_round = True  # Y7: a last tile was played
        self._next_expansion_turn()
        self._resolve_expansion()

    def _play_under(self, player: int, tile: int) -> None:
        """Y5: show every tile, put one under the pile, draw one, play none."""
        tiles = self.tiles[player]
        self.public_tiles.update(tiles)
        tiles.remove(tile)
        self.pile.insert(0, tile)
        self._draw_tile(player)
        self._next_expansion_turn()
        self._resolve_expansion()

    def _draw_tile(self, player: int) -> None:
        if self.pile:
            tiles = self.tiles[player]
            tiles.append(self.pile.pop())
            tiles.sort()

    def _pay(self, player: int, vec: Vec) -> None:
        """Cards paid to the discard pile: everyone sees them."""
        hand = self.hands[player]
        discard = self.discard
        for kind, count in kinds_in(vec):
            hand[kind] -= count
            discard[kind] += count
        self._know_lost(player, vec)

    def _play_move(self, player: int, source: int, dest: int, paid: Vec, fee: int) -> None:
        ships = self.ships[player]
        ships.remove(source)
        ships.append(dest)
        ships.sort()
        self._board_changed()
        self._pay(player, paid)
        if fee >= 0:  # Y6: the fee card goes to the city's owner
            owner = self.cities[NODE_CELL[dest]]
            self.hands[player][fee] -= 1
            self.hands[owner][fee] += 1
            self._know_private_transfer(player, owner, fee)
        self._end_turn(acted=True)

    def _play_city(self, player: int, parts: list[str]) -> None:
        cell = cell_index(parts[1])
        self._pay(player, cards_of(parts[3]))
        self.cities[cell] = player
        self._city_points = None
        self._board_changed()
        ships = self.ships[player]
        if len(parts) > 4:
            ships.remove(NODE_INDEX[parts[5]])
        else:  # Y6: one of the player's ships there goes back to the supply
            ships.remove(next(n for n in ships if NODE_CELL[n] == cell))
        if self.bonus_owner < 0:  # Y8: the first with a city in every empire
            colours = {self.markers[c] for c in range(CELL_COUNT) if self.cities[c] == player}
            if len(colours) == len(COLOURS):
                self.bonus_owner = player
        self._end_turn(acted=True)

    def _play_ship(self, player: int, parts: list[str]) -> None:
        cell = cell_index(parts[1])
        self._pay(player, cards_of(parts[3]))
        ships = self.ships[player]
        ships.append(BOARD.built_node[cell])  # Y2: a ship built in Italy is on the west coast
        ships.sort()
        self._board_changed()
        self._end_turn(acted=True)

    def _play_bank(self, player: int, parts: list[str]) -> None:
        vec = cards_of(parts[1])
        self._pay(player, vec)
        hand = self.hands[player]
        if len(parts) > 2:  # Y6: three cards for one of your choice from the discard pile
            take = CARD_NAMES.index(parts[3])
            self.discard[take] -= 1
            hand[take] += 1
            self._know_gained(player, _unit(take))
        else:  # Y6: as many from the deck (no reshuffle)
            for _ in range(sum(vec)):
                hand[self.deck.pop()] += 1
        self._end_turn(acted=True)

    def _play_offer(self, player: int, parts: list[str]) -> None:
        target = int(parts[1])
        give = cards_of(parts[3])
        self.offer = (target, give, cards_of(parts[5]))
        self.offers_made += 1
        self.phase = OFFER
        self._know_holds(player, give)  # an offer shows the cards are in hand
        self._refresh_to_move()

    def _play_accept(self, target: int) -> None:
        assert self.offer is not None
        _, give, ask = self.offer
        offerer = self.current
        self._know_holds(target, ask)
        for kind in range(KINDS):
            self.hands[offerer][kind] += ask[kind] - give[kind]
            self.hands[target][kind] += give[kind] - ask[kind]
        self._know_lost(offerer, give)
        self._know_gained(offerer, ask)
        self._know_lost(target, ask)
        self._know_gained(target, give)
        self.trades_made[offerer] += 1
        self.offer = None
        self.phase = ACTIONS
        self._end_turn(acted=True)  # Y6: a trade is the turn's action

    def _play_keep(self, player: int, vec: Vec) -> None:
        """Y7: chosen in secret; applied once every player who must has chosen."""
        self.keep_choice[player] = vec
        self._refresh_to_move()
        if self._to_move:
            return
        for p in range(self.n):
            kept = self.keep_choice[p]
            if kept is not None:
                hand = self.hands[p]
                self._pay(p, (hand[0] - kept[0], hand[1] - kept[1], hand[2] - kept[2],
                              hand[3] - kept[3], hand[4] - kept[4]))  # fmt: skip
        self.keep_choice = [None] * self.n
        self._next_round()

    # ---- what players know of each other's cards -----------------------------------------
    def _known_base(self, viewer: int, holder: int) -> int:
        return (viewer * self.n + holder) * KINDS

    def _know_lost(self, holder: int, vec: Vec) -> None:
        """Public payment: every lower bound on these colours drops."""
        known = self.known
        paid = kinds_in(vec)
        for viewer in range(self.n + 1):
            if viewer != holder:
                base = (viewer * self.n + holder) * KINDS
                for kind, count in paid:
                    if known[base + kind]:
                        known[base + kind] = max(0, known[base + kind] - count)

    def _know_gained(self, holder: int, vec: Vec) -> None:
        known = self.known
        for viewer in range(self.n + 1):
            if viewer != holder:
                base = (viewer * self.n + holder) * KINDS
                for kind in range(KINDS):
                    known[base + kind] += vec[kind]

    def _know_holds(self, holder: int, vec: Vec) -> None:
        """Public proof that ``holder`` has these cards now."""
        known = self.known
        for viewer in range(self.n + 1):
            if viewer != holder:
                base = (viewer * self.n + holder) * KINDS
                for kind in range(KINDS):
                    if known[base + kind] < vec[kind]:
                        known[base + kind] = vec[kind]

    def _know_private_transfer(self, giver: int, receiver: int, kind: int) -> None:
        """A city fee: seen by the two players; the others only see a card change hands."""
        known = self.known
        for viewer in range(self.n + 1):
            if viewer == giver:
                known[self._known_base(viewer, receiver) + kind] += 1
            elif viewer == receiver:
                base = self._known_base(viewer, giver)
                known[base + kind] = max(0, known[base + kind] - 1)
            else:
                base = self._known_base(viewer, giver)
                for k in range(KINDS):
                    known[base + k] = max(0, known[base + k] - 1)

    # ---- results (Y8) -------------------------------------------------------------------
    def score_sheet(self) -> ScoreSheet:
        """Points by category (cached until the board changes: search reads it often)."""
        if self._sheet is None:
            if self._city_points is None:
                self._city_points = city_points(self.n, self.markers, self.cities)
            self._sheet = score_board(
                self.n,
                self.markers,
                self.cities,
                self.ships,
                self.bonus_owner,
                self.fleet(),
                self._city_points,
            )
        return self._sheet

    @property
    def scores(self) -> list[float]:
        """Current points (final once the game is over)."""
        return [float(t) for t in self.score_sheet().totals]

    @property
    def winners(self) -> tuple[int, ...]:
        if self.phase != OVER:
            return ()
        return winners_of(self.score_sheet())

    # ---- views ----------------------------------------------------------------------------
    def _view(self, player: int | None) -> JsonDict:
        from machiavel.games.tyros.views import build_view

        return build_view(self, player)

    def _public_view(self) -> JsonDict:
        from machiavel.games.tyros.views import public_view

        return public_view(self, self.score_sheet())

    def _private_view(self, player: int | None) -> JsonDict:
        from machiavel.games.tyros.views import private_view

        return private_view(self, player, self.score_sheet())

    def _describe(self, player: int, action: str, viewer: int | None, language: str) -> str:
        """Actions in words; a city fee's card and a keep stay hidden from the others."""
        return describe(self, player, action, viewer, language)

    def _events(
        self, before: State, player: int, action: str, viewer: int | None, language: str
    ) -> list[str]:
        """Round ends and scores, the last round, Tyros joining an empire, bonuses... all
        public: every viewer reads the same lines."""
        from machiavel.games.tyros.events import events

        assert isinstance(before, TyrosState)
        return events(self, before, player, action, language)

    def _marks(self, before: State, player: int, action: str) -> JsonDict:
        from machiavel.games.tyros.events import marks

        assert isinstance(before, TyrosState)
        return marks(self, before, player, action)

    def _ending(self, language: str) -> str:
        from machiavel.games.tyros.events import ending

        return ending(self, language)

    # ---- persistence --------------------------------------------------------------------
    # ---- hidden information -------------------------------------------------------------
    def _resample(self, player: int, rng: Rng) -> TyrosState:
        from machiavel.games.tyros.hidden import resample_state

        return resample_state(self, player, rng)

    def _is_legal(self, player: int, action: str) -> bool:
        # The legal list is short and usually holds this very string: a scan beats a set.
        return action in self._legal_list(player)

    def normalize_action(self, action: str) -> str:
        from machiavel.games.tyros.syntax import normalize

        return normalize(action)

    def explain_illegal(self, player: int, action: str) -> str:
        from machiavel.games.tyros.explain import explain

        return explain(self, player, action)


NODE_INDEX = {token: node for node, token in enumerate(NODE_TOKEN)}
CELL_INDEX = {cell_token(c): c for c in range(CELL_COUNT)}


def cell_index(token: str) -> int:
    return CELL_INDEX[token]


@cache
def move_spec(action: str) -> tuple[int, int, Vec, int]:
    """``move a>b pay ... [fee k]``: source node, destination node, cards paid, and the
    fee's kind (-1: none)."""
    parts = action.split()
    source, dest = parts[1].split(">")
    fee = CARD_NAMES.index(parts[5]) if len(parts) > 4 else -1
    return NODE_INDEX[source], NODE_INDEX[dest], cards_of(parts[3]), fee


def cards_of(text: str) -> Vec:
    vec = parse_cards(text)
    assert vec is not None, text
    return vec


def _unit(kind: int) -> Vec:
    counts = [0] * KINDS
    counts[kind] = 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])
