"""What one player knows that the heuristic bot weighs, indexed by cell and colour.

The bot decides on a ``Knowledge``, read either from the player's JSON view (``choose``,
which sees only a seat) or straight from the state's fields (``choose_in``, for search's
own worlds, without building and parsing a view). Both readings hold the same values:
tests/games/tyros/test_tyros_knowledge.py checks it over many positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from machiavel.core.contract import JsonDict
from machiavel.games.tyros.board import CELL_COUNT, cell_token
from machiavel.games.tyros.cards import CARD_NAMES, COLOURS, JOKER, KINDS, Vec, kinds_in

if TYPE_CHECKING:
    from machiavel.games.tyros.rules import TyrosState

CELL_OF_TOKEN = {cell_token(c): c for c in range(CELL_COUNT)}
NO_CARDS = (0,) * KINDS


@dataclass(eq=False, slots=True)
class Knowledge:
    """One player's facts, read-only: lists may be the state's own."""

    me: int
    players: int
    phase: str
    colour: Sequence[int]  # empire colour of each cell, -1: no marker
    rank: Sequence[int]  # colour -> 0 (largest) .. 3
    city: Sequence[int]  # owner of each cell's city, -1: none
    ships: dict[int, list[int]]  # cell -> owners of its ships, in the view's order
    total_at: Sequence[int]  # ships per cell
    mine_at: Sequence[int]  # our ships per cell
    hand: Sequence[int]
    on_board: int  # our ships on the map
    offers_made: int  # offers made this turn
    offer: tuple[int, Vec, Vec] | None  # (from, give, ask) while an offer waits
    # Read or worked out only when a rule of the bot needs them (each at most once).
    known_source: Callable[[], list[Sequence[int]]]  # lower bounds on each one's cards
    score_source: Callable[[], Sequence[float]]  # points
    _known: list[Sequence[int]] | None = field(init=False, default=None)
    _scores: Sequence[float] | None = field(init=False, default=None)
    _leader: int = field(init=False, default=-1)
    _need: list[float] | None = field(init=False, default=None)
    _my_cities_in: list[int] | None = field(init=False, default=None)
    _values: dict[tuple[int, ...], float] = field(init=False, default_factory=dict)
    _my_cells: list[int] | None = field(init=False, default=None)

    @property
    def known(self) -> list[Sequence[int]]:
        """What we know each player holds at least (ours: zeros)."""
        if self._known is None:
            self._known = self.known_source()
        return self._known

    @property
    def scores(self) -> Sequence[float]:
        if self._scores is None:
            self._scores = self.score_source()
        return self._scores

    @property
    def need(self) -> list[float]:
        """How useful a card of each kind is to us."""
        if self._need is None:
            self._need = _needs(self)
        return self._need

    @property
    def my_cells(self) -> list[int]:
        """The cells with our ships, in the view's order (the rules that weigh our ships
        visit these, not every cell with ships)."""
        if self._my_cells is None:
            mine_at = self.mine_at
            self._my_cells = [cell for cell in self.ships if mine_at[cell]]
        return self._my_cells

    @property
    def my_cities_in(self) -> list[int]:
        """Our cities per colour."""
        if self._my_cities_in is None:
            mine = [0] * len(COLOURS)
            if self.me in self.city:  # none in the first rounds: no need to look at each cell
                for cell, owner in enumerate(self.city):
                    if owner == self.me:
                        mine[self.colour[cell]] += 1
            self._my_cities_in = mine
        return self._my_cities_in

    def facts(self) -> tuple[object, ...]:
        """Everything read (not derived), as plain values: the two readings compare equal."""
        return (
            self.me,
            self.players,
            self.phase,
            list(self.colour),
            list(self.rank),
            list(self.city),
            list(self.ships.items()),
            list(self.total_at),
            list(self.mine_at),
            list(self.hand),
            self.on_board,
            self.offers_made,
            self.offer,
            [list(row) for row in self.known],
            list(self.scores),
        )

    def held_alone(self, cell: int) -> bool:
        mine = self.mine_at[cell]
        return mine > 0 and self.total_at[cell] == mine and self.city[cell] < 0

    def leader(self) -> int:
        """The best-placed opponent."""
        if self._leader < 0:
            scores = self.scores
            best = -1
            for player in range(self.players):  # most points; ties: the lowest number
                if player != self.me and (best < 0 or scores[player] > scores[best]):
                    best = player
            self._leader = best
        return self._leader

    def cards_value(self, vec: tuple[int, ...]) -> float:
        """What these cards are worth to us: the sum over every kind, in kind order (the
        kinds absent add exactly nothing, so they are skipped); each hand of cards valued
        once per decision (bank trades share what they give)."""
        value = self._values.get(vec)
        if value is None:
            need = self.need
            value = self._values[vec] = sum([need[kind] * count for kind, count in kinds_in(vec)])
        return value


def _needs(known: Knowledge) -> list[float]:
    """How useful a card of each colour is: colours of cells where a city could rise."""
    need = [0.6] * KINDS
    colours, city, total_at, mine_at = known.colour, known.city, known.total_at, known.mine_at
    for cell in known.my_cells:  # the view's order: float sums must not change
        colour = colours[cell]
        if colour >= 0 and city[cell] < 0:
            need[colour] += 0.6 if total_at[cell] == mine_at[cell] else 0.2
    for colour in range(len(COLOURS)):
        need[colour] += 0.1 * (3 - known.rank[colour])
    need[JOKER] = max(need[: len(COLOURS)]) + 0.4
    return need


# ---- the two readings -------------------------------------------------------------------
def from_view(view: JsonDict, me: int) -> Knowledge:
    colour = [-1] * CELL_COUNT
    for token, name in view["markers"].items():
        colour[CELL_OF_TOKEN[token]] = COLOURS.index(name)
    rank = [0] * len(COLOURS)
    for empire in view["empires"]:
        rank[COLOURS.index(empire["colour"])] = empire["rank"] - 1
    city = [-1] * CELL_COUNT
    for token, owner in view["cities"].items():
        city[CELL_OF_TOKEN[token]] = owner
    ships: dict[int, list[int]] = {}
    for ship in view["ships"]:
        ships.setdefault(CELL_OF_TOKEN[ship["cell"]], []).append(ship["owner"])
    total_at = [0] * CELL_COUNT
    mine_at = [0] * CELL_COUNT
    for cell, owners in ships.items():
        total_at[cell] = len(owners)
        mine_at[cell] = owners.count(me)
    offer = None
    if view["offer"] is not None:
        sent = view["offer"]
        offer = (sent["from"], _vec(sent["give"]), _vec(sent["ask"]))
    known: list[Sequence[int]] = [
        NO_CARDS if p == me else _vec(info["known_cards"])
        for p, info in enumerate(view["player_info"])
    ]
    scores = view["scores"]
    return Knowledge(
        me=me,
        players=view["players"],
        phase=view["phase"],
        colour=colour,
        rank=rank,
        city=city,
        ships=ships,
        total_at=total_at,
        mine_at=mine_at,
        hand=_vec(view["hand"]),
        on_board=sum(1 for ship in view["ships"] if ship["owner"] == me),
        offers_made=view["offers_this_turn"],
        offer=offer,
        known_source=lambda: known,
        score_source=lambda: list(scores),
    )


def from_state(state: TyrosState, me: int) -> Knowledge:
    """The same facts as ``from_view(state.view(me), me)``, read from the fields ``me`` may
    see: the board, our own hand, public counts and what we know of the others' cards."""
    offer = None
    if state.offer is not None:
        _, give, ask = state.offer
        offer = (state.current, give, ask)
    n = state.n
    known = state.known
    total_at, mine_at = state.ship_counts(me)
    return Knowledge(
        me=me,
        players=n,
        phase=state.phase,
        colour=state.markers,
        rank=state.empire_ranks(),
        city=state.cities,
        ships=state.fleet(),
        total_at=total_at,
        mine_at=mine_at,
        hand=state.hands[me],
        on_board=len(state.ships[me]),
        offers_made=state.offers_made,
        offer=offer,
        known_source=lambda: [
            NO_CARDS if p == me else known[(me * n + p) * KINDS : (me * n + p + 1) * KINDS]
            for p in range(n)
        ],
        score_source=lambda: state.score_sheet().totals,
    )


def _vec(cards: JsonDict) -> Vec:
    counts = [int(cards[name]) for name in CARD_NAMES]
    return (counts[0], counts[1], counts[2], counts[3], counts[4])
