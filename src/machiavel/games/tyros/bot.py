"""The Tyros heuristic bot: greedy, one-ply, using only what its seat may see.

It expands the empires where it is strong, moves ships toward cells it can hold alone,
builds cities in the largest empires, trades with the bank when stuck, offers trades that
bring the cards a city needs, and answers offers by what they do for it (refusing the
leader). It is a rollout policy too, so it never simulates: it reads each legal action
string once (each string parsed once per process) and looks facts up in a ``Knowledge``
read from the seat's view (``choose``) or, for search, from the state (``choose_in``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import cache
from itertools import takewhile

from machiavel.core.contract import Seat, State
from machiavel.core.rng import Rng, random_seed
from machiavel.games.tyros.board import BOARD, CELL_COUNT, NODE_BY_TOKEN
from machiavel.games.tyros.cards import (
    CARD_NAMES,
    COLOURS,
    JOKER,
    KINDS,
    parse_cards,
    vec_of,
    vec_str,
)
from machiavel.games.tyros.knowledge import CELL_OF_TOKEN, Knowledge, from_state, from_view
from machiavel.games.tyros.rules import ACTIONS, TyrosState
from machiavel.games.tyros.scoring import CITY_POINTS, SHIP_POINTS

CARD_INDEX = {name: index for index, name in enumerate(CARD_NAMES)}
CARD_COST = 0.7  # what a card is worth when spent, in points
NO_ROUTE = 99
COIN = (0, 1)


def _cell_sea_distance(a: int, b: int) -> int:
    """Cheapest sea route between any node of cell ``a`` and any node of cell ``b``."""
    costs = [BOARD.distance[x][y] for x in BOARD.cell_nodes[a] for y in BOARD.cell_nodes[b]]
    return min((c for c in costs if c >= 0), default=NO_ROUTE)


CELL_SEA_DISTANCE = tuple(
    tuple(_cell_sea_distance(a, b) for b in range(CELL_COUNT)) for a in range(CELL_COUNT)
)


class TyrosHeuristicBot:
    name = "tyros-heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(random_seed() if seed is None else seed)

    # ---- entry points: from a seat's view, or straight from a search world ----------------
    def choose(self, seat: Seat) -> str:
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self._decide(from_view(seat.view(), seat.player), legal)

    def choose_in(self, state: State, player: int) -> str:
        """``choose(state.seat(player))``, read from the fields ``player`` may see."""
        assert isinstance(state, TyrosState)
        if state.phase == ACTIONS:  # the trades are built only if nothing else is worth it
            trades = state.trading_options
            known = from_state(state, player)
            return self._act(known, state.building_options(player), lambda: trades(player))
        legal = state.legal_list(player)
        if len(legal) == 1:
            return legal[0]
        return self._decide(from_state(state, player), legal)

    def ranked(self, seat: Seat) -> list[str]:
        """Every legal action, best first (for search bots that widen in this order)."""
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal
        return self._rank(from_view(seat.view(), seat.player), legal)

    def ranked_in(self, state: State, player: int) -> list[str]:
        """``ranked(state.seat(player))``, read from the fields ``player`` may see."""
        assert isinstance(state, TyrosState)
        legal = state.legal_list(player)
        if len(legal) == 1:
            return list(legal)
        return self._rank(from_state(state, player), legal)

    # ---- decisions ----------------------------------------------------------------------
    def _decide(self, known: Knowledge, legal: Sequence[str]) -> str:
        phase = known.phase
        if phase == "expand":
            return self._best(legal, _expansion_valuer(known))
        if phase == "offer":
            return _answer(known, legal)
        if phase == "keep":
            return self._best(legal, lambda a: known.cards_value(_keep_vec(a)))
        building, trades = _split_actions(legal)
        return self._act(known, building, lambda: trades)

    def _rank(self, known: Knowledge, legal: Sequence[str]) -> list[str]:
        first = self._decide(known, legal)
        value = _value_function(known)
        offers: list[str] = []
        if known.phase == ACTIONS:  # offers, valued -inf, end the order as the legal list has
            offers = [action for action in legal if action[0] == "o"]  # them: no need to sort
            legal = [action for action in legal if action[0] != "o"]
        order = sorted(legal, key=lambda action: -value(action))  # stable: legal order on ties
        order.extend(offers)
        order.remove(first)
        return [first, *order]

    def _coin(self) -> int:
        """``rng.below(2)``: the same draw (and the same state after it), one call less."""
        return self.rng.choice(COIN)

    def _best(self, actions: Sequence[str], value: Callable[[str], float]) -> str:
        """The highest-valued action, ties broken at random (deterministic in the seed)."""
        best: list[str] = []
        top = float("-inf")
        for action in actions:
            score = value(action)
            if score > top + 1e-9:
                top, best = score, [action]
            elif score > top - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _act(
        self, known: Knowledge, building: Sequence[str], trades: Callable[[], Sequence[str]]
    ) -> str:
        """The best move, city or ship; if none is worth it, an offer, a bank trade or
        "pass" (``trades``: the legal bank trades, then offers; asked for only then)."""
        move_value, ship_value = _move_valuer(known), _ship_valuer(known)
        best_action, best_value = "pass", 0.0
        above, below = best_value + 1e-9, best_value - 1e-9
        for action in building:
            initial = action[0]  # "move", "city" or "ship"
            if initial == "m":
                value = move_value(action)
            elif initial == "c":
                value = _city_value(known, action)
            else:
                value = ship_value(action)
            if value <= below:  # most actions: worse than the best, no tie to draw for
                continue
            if value > above or (
                best_action != "pass" and abs(value - best_value) < 1e-9 and self._coin()
            ):
                best_action, best_value = action, value
                above, below = best_value + 1e-9, best_value - 1e-9
        if best_action != "pass":
            return best_action
        trading = trades()
        offer = _offer(known, trading)
        if offer is not None:
            return offer
        bank = list(takewhile(lambda action: action.startswith("bank"), trading))
        if bank:  # stuck: swap the cards it needs least, if that is worth it
            choice = self._best(bank, lambda a: _bank_value(known, a))
            if _bank_value(known, choice) > 0:
                return choice
        return "pass"


def _split_actions(legal: Sequence[str]) -> tuple[Sequence[str], Sequence[str]]:
    """The legal list of the actions phase as the rules build it: moves, cities and ships,
    then the trades (bank trades, offers) and "pass"."""
    for index, action in enumerate(legal):
        verb = action[:4]
        if verb == "bank" or verb == "offe" or verb == "pass":
            return legal[:index], legal[index:]
    return legal, ()


def _value_function(known: Knowledge) -> Callable[[str], float]:
    """How the bot values one action of the current phase (offers it makes: last)."""
    phase = known.phase
    if phase == "expand":
        return _expansion_valuer(known)
    if phase == "keep":
        return lambda a: known.cards_value(_keep_vec(a))
    if phase == "offer":
        return lambda a: 0.0

    move_value, ship_value = _move_valuer(known), _ship_valuer(known)

    def act_value(action: str) -> float:
        verb = action[:4]
        if verb == "city":
            return _city_value(known, action)
        if verb == "move":
            return move_value(action)
        if verb == "ship":
            return ship_value(action)
        if verb == "bank":
            return min(_bank_value(known, action), 0.0) - 0.5
        if verb == "pass":
            return -0.4
        return float("-inf")  # offers: only the one ``choose`` picks comes early

    return act_value


# ---- expansion ----------------------------------------------------------------------
def _expansion_valuer(known: Knowledge) -> Callable[[str], float]:
    """Values of expansion actions; what depends only on a colour or a cell is worked out
    once per decision."""
    me = known.me
    stakes = _stakes(known)
    pull: dict[int, float] = {}
    nearness: dict[int, float] = {}

    def value(action: str) -> float:
        cell, colour = _expansion(action)
        if colour < 0:  # under: keep the tiles closest to the empires where we are strong
            return -float(known.colour[cell] >= 0)
        if colour not in pull:
            stake = stakes[colour]
            rivals = max((s for p, s in enumerate(stake) if p != me), default=0.0)
            pull[colour] = stake[me] - 0.7 * rivals
        if cell not in nearness:
            nearness[cell] = _sea_near_mine(known, cell)
        return pull[colour] + 0.5 * nearness[cell]

    return value


def _stakes(known: Knowledge) -> list[list[float]]:
    """Per colour, each player's hold on that empire: 2 a city, 1 a cell held by ships."""
    stakes = [[0.0] * known.players for _ in COLOURS]
    colours, city = known.colour, known.city
    # Whole numbers: any order of adding gives the same floats, so cities, then ships.
    if max(city) >= 0:
        for cell, owner in enumerate(city):
            if owner >= 0 and colours[cell] >= 0:
                stakes[colours[cell]][owner] += 2.0
    for cell, owners in known.ships.items():  # only the cells with ships
        colour = colours[cell]
        if colour >= 0 and city[cell] < 0 and owners.count(owners[0]) == len(owners):
            stakes[colour][owners[0]] += 1.0
    return stakes


def _sea_near_mine(known: Knowledge, cell: int) -> float:
    """How close (by sea) our ships are to ``cell``: 1 next door, less further away."""
    best = min(
        (CELL_SEA_DISTANCE[other][cell] for other in known.my_cells),
        default=NO_ROUTE,
    )
    return 1.0 / best if best < NO_ROUTE else 0.0


# ---- answering offers ---------------------------------------------------------------
def _answer(known: Knowledge, legal: Collection[str]) -> str:
    if "accept" not in legal or known.offer is None:
        return "refuse"
    sender, give, ask = known.offer
    if sender == known.leader() and known.scores[sender] > max(known.scores[known.me], 0):
        return "refuse"  # never help the leader
    gain = known.cards_value(give) - known.cards_value(ask)
    return "accept" if gain > 0.05 else "refuse"


# ---- actions ------------------------------------------------------------------------
def _city_value(known: Knowledge, action: str) -> float:
    cell, paid = _city_parts(action)
    colour = known.colour[cell]
    rank = known.rank[colour]
    value = float(CITY_POINTS[rank] - (SHIP_POINTS[rank] if known.held_alone(cell) else 0))
    mine = known.my_cities_in[colour]
    if mine == 0:
        value += 2.0  # towards the bonus for a city in every empire
    value += 2.0 if mine == 0 else 1.0
    return value - CARD_COST * paid + 4.0


def _move_valuer(known: Knowledge) -> Callable[[str], float]:
    """Values of moves; what depends only on the cell left or the cell reached is worked
    out once per decision (and added in the same order, so every sum is unchanged)."""
    losses: dict[int, int] = {}
    gains: dict[int, float] = {}
    loss_at, gain_at = losses.get, gains.get
    need = known.need

    def value(action: str) -> float:
        src, dst, colour, cards, jokers, fee = _move_parts(action)
        # cards_value: the same sum (a kind absent adds exactly 0.0)
        value = -(need[colour] * cards + need[JOKER] * jokers) * CARD_COST
        if fee >= 0:
            value -= need[fee] * CARD_COST
        if src == dst:
            return value - 1.0  # only a change of Italy's coast
        loss = loss_at(src)
        if loss is None:
            loss = losses[src] = _leaving_loss(known, src)
        gain = gain_at(dst)
        if gain is None:
            gain = gains[dst] = _arrival_gain(known, dst)
        return value - loss + gain

    return value


def _leaving_loss(known: Knowledge, src: int) -> int:
    """The ship points lost when our only ship leaves a cell it held alone."""
    colour = known.colour[src]
    if known.held_alone(src) and known.mine_at[src] == 1 and colour >= 0:
        return SHIP_POINTS[known.rank[colour]]
    return 0


def _arrival_gain(known: Knowledge, dst: int) -> float:
    """What a ship reaching ``dst`` brings: a cell held alone, a rival's cell spoilt..."""
    colour = known.colour[dst]
    rank = known.rank[colour]
    if known.city[dst] >= 0:
        return -1.0
    mine = known.mine_at[dst]
    others = known.total_at[dst] - mine
    if others == 0 and mine == 0:
        return SHIP_POINTS[rank] + 0.6 * known.hand[colour]
    if others == 0:
        return 1.0 if known.hand[colour] >= 3 else -0.5
    owners = known.ships[dst]
    if others != len(owners):
        return -1.0
    rival = owners[0]  # all the ships there are rivals'
    return SHIP_POINTS[rank] * (1.2 if rival == known.leader() else 0.8)


def _ship_valuer(known: Knowledge) -> Callable[[str], float]:
    """Values of new ships: they differ only by the cards paid (search values several
    Tyros ships in most decisions)."""
    on_board = known.on_board
    if on_board >= 6:
        return lambda action: -1.0
    base = 4.0 - 0.8 * on_board  # base - CARD_COST * paid: the same sum, left to right

    def value(action: str) -> float:
        return base - CARD_COST * _paid(action)

    return value


def _bank_value(known: Knowledge, action: str) -> float:
    given, take = _bank_parts(action)
    value = -known.cards_value(given)
    if take >= 0:
        value += known.need[take] * 1.5
    else:
        value += 0.9 * sum(given)
    return value


def _offer(known: Knowledge, legal: Collection[str]) -> str | None:
    """Ask for the cards a city needs, giving what it needs least; not to the leader."""
    if known.offers_made:
        return None
    hand = known.hand
    wanted = None
    for cell in known.my_cells:
        colour = known.colour[cell]
        if known.city[cell] >= 0 or colour < 0:
            continue
        if known.total_at[cell] != known.mine_at[cell]:
            continue
        short = (5 if known.mine_at[cell] == 1 else 4) - hand[colour] - hand[JOKER]
        if 1 <= short <= 2 and (wanted is None or short < wanted[1]):
            wanted = (colour, short)
    if wanted is None:
        return None
    colour, short = wanted
    spare = sorted(
        (k for k in range(len(COLOURS)) if k != colour and hand[k]),
        key=lambda k: known.need[k],
    )
    if not spare:
        return None
    give = [0] * KINDS
    give[spare[0]] = min(short, hand[spare[0]])
    ask = [0] * KINDS
    ask[colour] = short
    leader = known.leader()
    targets = sorted(
        (p for p in range(known.players) if p not in (known.me, leader)),
        key=lambda p: -known.known[p][colour],
    )
    for target in targets:
        action = f"offer {target} give {vec_str(vec_of(give))} ask {vec_str(vec_of(ask))}"
        if action in legal:
            return action
    return None


# ---- reading action strings (each distinct string parsed once) ---------------------------
def _cards(text: str) -> tuple[int, ...]:
    vec = parse_cards(text)
    return vec if vec is not None else (0,) * KINDS


def _node_cell(token: str) -> int:
    return BOARD.node_cell[NODE_BY_TOKEN[token]]


@cache
def _move_parts(action: str) -> tuple[int, int, int, int, int, int]:
    """``move a>b pay ... [fee k]``: source cell, destination cell, the colour paid (its
    cards and jokers: a move pays one colour), and the fee's kind (-1: none)."""
    parts = action.split()
    source, dest = parts[1].split(">")
    paid = _cards(parts[3])
    colour = next((kind for kind in range(JOKER) if paid[kind]), 0)
    fee = CARD_INDEX[parts[5]] if len(parts) > 4 else -1
    return _node_cell(source), _node_cell(dest), colour, paid[colour], paid[JOKER], fee


@cache
def _city_parts(action: str) -> tuple[int, int]:
    """``city c pay ...``: the cell and the number of cards paid."""
    parts = action.split()
    return CELL_OF_TOKEN[parts[1]], len(parts[3].split(","))


@cache
def _paid(action: str) -> int:
    """``ship c pay ...``: the number of cards paid."""
    return len(action.split()[3].split(","))


@cache
def _bank_parts(action: str) -> tuple[tuple[int, ...], int]:
    """``bank cards [take k]``: the cards given and the kind taken (-1: drawn)."""
    parts = action.split()
    return _cards(parts[1]), CARD_INDEX[parts[3]] if len(parts) == 4 else -1


@cache
def _keep_vec(action: str) -> tuple[int, ...]:
    return _cards(action.split()[1])


@cache
def _expansion(action: str) -> tuple[int, int]:
    """``expand c colour``: the cell and colour; ``under t``: the tile and -1."""
    parts = action.split()
    if parts[0] == "under":
        return int(parts[1]), -1
    return int(parts[1]), COLOURS.index(parts[2])
