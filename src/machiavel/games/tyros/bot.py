"""The Tyros heuristic bot: greedy, one-ply, using only its seat's view and legal actions.

It expands the empires where it is strong, moves ships toward cells it can hold alone,
builds cities in the largest empires, trades with the bank when stuck, offers trades that
bring the cards a city needs, and answers offers by what they do for it (refusing the
leader). It is a rollout policy too, so it reads each legal action string once and never
simulates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from machiavel.core.contract import JsonDict, Seat
from machiavel.core.rng import Rng, random_seed
from machiavel.games.tyros.board import BOARD, NODE_COUNT
from machiavel.games.tyros.cards import (
    CARD_NAMES,
    COLOURS,
    JOKER,
    KINDS,
    parse_cards,
    vec_of,
    vec_str,
)
from machiavel.games.tyros.scoring import CITY_POINTS, SHIP_POINTS

CARD_INDEX = {name: index for index, name in enumerate(CARD_NAMES)}
CARD_COST = 0.7  # what a card is worth when spent, in points
NODE_BY_TOKEN = {token: node for node, token in enumerate(BOARD.node_token)}


@dataclass
class Reading:
    """What the bot reads from its view, indexed for quick lookups."""

    me: int
    colour: dict[str, int] = field(default_factory=dict)  # cell token -> colour
    rank: list[int] = field(default_factory=list)  # colour -> 0 (largest) .. 3
    city: dict[str, int] = field(default_factory=dict)
    ships: dict[str, list[int]] = field(default_factory=dict)  # cell -> owners
    hand: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    my_city_colours: set[int] = field(default_factory=set)
    need: list[float] = field(default_factory=list)

    def mine(self, cell: str) -> int:
        return self.ships.get(cell, []).count(self.me)

    def others(self, cell: str) -> int:
        return len(self.ships.get(cell, [])) - self.mine(cell)

    def held_alone(self, cell: str) -> bool:
        return self.mine(cell) > 0 and self.others(cell) == 0 and cell not in self.city

    def leader(self) -> int:
        """The best-placed opponent."""
        rivals = [p for p in range(len(self.scores)) if p != self.me]
        return max(rivals, key=lambda p: (self.scores[p], -p))


def read(view: JsonDict, me: int) -> Reading:
    reading = Reading(me)
    reading.colour = {cell: COLOURS.index(name) for cell, name in view["markers"].items()}
    reading.rank = [0] * len(COLOURS)
    for empire in view["empires"]:
        reading.rank[COLOURS.index(empire["colour"])] = empire["rank"] - 1
    reading.city = dict(view["cities"])
    for ship in view["ships"]:
        reading.ships.setdefault(ship["cell"], []).append(ship["owner"])
    reading.hand = [view["hand"][name] for name in CARD_NAMES]
    reading.scores = list(view["scores"])
    reading.my_city_colours = {
        reading.colour[cell] for cell, owner in reading.city.items() if owner == me
    }
    reading.need = _needs(reading)
    return reading


def _needs(reading: Reading) -> list[float]:
    """How useful a card of each colour is: colours of cells where a city could rise."""
    need = [0.6] * KINDS
    for cell, owners in reading.ships.items():
        colour = reading.colour.get(cell)
        if colour is not None and reading.me in owners and cell not in reading.city:
            need[colour] += 0.6 if reading.others(cell) == 0 else 0.2
    for colour in range(len(COLOURS)):
        need[colour] += 0.1 * (3 - reading.rank[colour])
    need[JOKER] = max(need[: len(COLOURS)]) + 0.4
    return need


def cards_value(reading: Reading, vec: tuple[int, ...]) -> float:
    return sum(reading.need[k] * vec[k] for k in range(KINDS))


class TyrosHeuristicBot:
    name = "tyros-heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(random_seed() if seed is None else seed)

    def choose(self, seat: Seat) -> str:
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = seat.view()
        reading = read(view, seat.player)
        phase = view["phase"]
        if phase == "expand":
            return self._best(legal, lambda a: self._expand_value(reading, a))
        if phase == "offer":
            return self._answer(view, reading, legal)
        if phase == "keep":
            return self._best(legal, lambda a: cards_value(reading, _cards(a.split()[1])))
        return self._act(view, reading, legal)

    def ranked(self, seat: Seat) -> list[str]:
        """Every legal action, best first (for search bots that widen in this order)."""
        legal = seat.legal_actions()
        first = self.choose(seat)
        if len(legal) == 1:
            return legal
        view = seat.view()
        reading = read(view, seat.player)
        value = self._value_function(view, reading)
        order = sorted(legal, key=lambda action: -value(action))  # stable: legal order on ties
        order.remove(first)
        return [first, *order]

    def _value_function(self, view: JsonDict, reading: Reading) -> Callable[[str], float]:
        """How the bot values one action of the current phase (offers it makes: last)."""
        phase = view["phase"]
        if phase == "expand":
            return lambda a: self._expand_value(reading, a)
        if phase == "keep":
            return lambda a: cards_value(reading, _cards(a.split()[1]))
        if phase == "offer":
            return lambda a: 0.0

        def act_value(action: str) -> float:
            verb = action[:4]
            if verb == "city":
                return self._city_value(reading, action)
            if verb == "move":
                return self._move_value(reading, action)
            if verb == "ship":
                return self._ship_value(view, reading, action)
            if verb == "bank":
                return min(self._bank_value(reading, action), 0.0) - 0.5
            if verb == "pass":
                return -0.4
            return float("-inf")  # offers: only the one ``choose`` picks comes early

        return act_value

    def _best(self, actions: list[str], value: Callable[[str], float]) -> str:
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

    # ---- expansion ------------------------------------------------------------------
    def _expand_value(self, reading: Reading, action: str) -> float:
        parts = action.split()
        if parts[0] == "under":  # keep the tiles closest to the empires where we are strong
            return -float(parts[1] in reading.colour)
        cell, colour = parts[1], COLOURS.index(parts[2])
        stake = [0.0] * len(reading.scores)
        for other, c in reading.colour.items():
            if c != colour:
                continue
            owner = reading.city.get(other)
            if owner is not None:
                stake[owner] += 2.0
            else:
                owners = set(reading.ships.get(other, []))
                if len(owners) == 1:
                    stake[owners.pop()] += 1.0
        rivals = max((s for p, s in enumerate(stake) if p != reading.me), default=0.0)
        near = _sea_near_mine(reading, cell)
        return stake[reading.me] - 0.7 * rivals + 0.5 * near

    # ---- answering offers -----------------------------------------------------------
    def _answer(self, view: JsonDict, reading: Reading, legal: list[str]) -> str:
        if "accept" not in legal:
            return "refuse"
        offer = view["offer"]
        if offer["from"] == reading.leader() and reading.scores[offer["from"]] > max(
            reading.scores[reading.me], 0
        ):
            return "refuse"  # never help the leader
        gain = cards_value(reading, _vec(offer["give"])) - cards_value(reading, _vec(offer["ask"]))
        return "accept" if gain > 0.05 else "refuse"

    # ---- actions --------------------------------------------------------------------
    def _act(self, view: JsonDict, reading: Reading, legal: list[str]) -> str:
        best_action, best_value = "pass", 0.0
        bank: list[str] = []
        for action in legal:
            verb = action[:4]
            if verb == "offe" or verb == "pass":
                continue
            if verb == "bank":
                bank.append(action)
                continue
            if verb == "city":
                value = self._city_value(reading, action)
            elif verb == "move":
                value = self._move_value(reading, action)
            else:
                value = self._ship_value(view, reading, action)
            if value > best_value + 1e-9 or (
                abs(value - best_value) < 1e-9 and best_action != "pass" and self.rng.below(2)
            ):
                best_action, best_value = action, value
        if best_action != "pass":
            return best_action
        offer = self._offer(view, reading, set(legal))
        if offer is not None:
            return offer
        if bank:  # stuck: swap the cards it needs least, if that is worth it
            choice = self._best(bank, lambda a: self._bank_value(reading, a))
            if self._bank_value(reading, choice) > 0:
                return choice
        return "pass"

    def _city_value(self, reading: Reading, action: str) -> float:
        parts = action.split()
        cell = parts[1]
        colour = reading.colour[cell]
        rank = reading.rank[colour]
        value: float = CITY_POINTS[rank] - (SHIP_POINTS[rank] if reading.held_alone(cell) else 0)
        if colour not in reading.my_city_colours:
            value += 2.0  # towards the bonus for a city in every empire
        mine = sum(
            1 for c, o in reading.city.items() if o == reading.me and reading.colour[c] == colour
        )
        value += 2.0 if mine == 0 else 1.0
        return value - CARD_COST * len(parts[3].split(",")) + 4.0

    def _move_value(self, reading: Reading, action: str) -> float:
        parts = action.split()
        source_token, dest_token = parts[1].split(">")
        source = BOARD.node_cell[NODE_BY_TOKEN[source_token]]
        dest = BOARD.node_cell[NODE_BY_TOKEN[dest_token]]
        src, dst = _token(source), _token(dest)
        value = -cards_value(reading, _cards(parts[3])) * CARD_COST
        if len(parts) > 4:
            value -= reading.need[CARD_INDEX[parts[5]]] * CARD_COST
        if src == dst:
            return value - 1.0  # only a change of Italy's coast
        if reading.held_alone(src) and reading.mine(src) == 1 and src in reading.colour:
            value -= SHIP_POINTS[reading.rank[reading.colour[src]]]
        rank = reading.rank[reading.colour[dst]]
        if dst in reading.city:
            return value - 1.0
        others = reading.others(dst)
        if others == 0 and reading.mine(dst) == 0:
            value += SHIP_POINTS[rank] + 0.6 * reading.hand[reading.colour[dst]]
        elif others == 0:
            value += 1.0 if reading.hand[reading.colour[dst]] >= 3 else -0.5
        else:
            rival = next(o for o in reading.ships[dst] if o != reading.me)
            spoil = SHIP_POINTS[rank] * (1.2 if rival == reading.leader() else 0.8)
            value += spoil if others == len(reading.ships[dst]) else -1.0
        return value

    def _ship_value(self, view: JsonDict, reading: Reading, action: str) -> float:
        parts = action.split()
        on_board = sum(1 for ship in view["ships"] if ship["owner"] == reading.me)
        paid = len(parts[3].split(","))
        value = 4.0 - 0.8 * on_board - CARD_COST * paid
        return value if on_board < 6 else -1.0

    def _bank_value(self, reading: Reading, action: str) -> float:
        parts = action.split()
        given = _cards(parts[1])
        value = -cards_value(reading, given)
        if len(parts) == 4:
            value += reading.need[CARD_INDEX[parts[3]]] * 1.5
        else:
            value += 0.9 * sum(given)
        return value

    def _offer(self, view: JsonDict, reading: Reading, legal: set[str]) -> str | None:
        """Ask for the cards a city needs, giving what it needs least; not to the leader."""
        if view["offers_this_turn"]:
            return None
        hand = reading.hand
        wanted = None
        for cell, owners in reading.ships.items():
            if cell in reading.city or cell not in reading.colour:
                continue
            if reading.me not in owners or reading.others(cell):
                continue
            colour = reading.colour[cell]
            short = (5 if reading.mine(cell) == 1 else 4) - hand[colour] - hand[JOKER]
            if 1 <= short <= 2 and (wanted is None or short < wanted[1]):
                wanted = (colour, short)
        if wanted is None:
            return None
        colour, short = wanted
        spare = sorted(
            (k for k in range(len(COLOURS)) if k != colour and hand[k]),
            key=lambda k: reading.need[k],
        )
        if not spare:
            return None
        give = [0] * KINDS
        give[spare[0]] = min(short, hand[spare[0]])
        ask = [0] * KINDS
        ask[colour] = short
        leader = reading.leader()
        targets = sorted(
            (p for p in range(len(reading.scores)) if p not in (reading.me, leader)),
            key=lambda p: -view["player_info"][p]["known_cards"][COLOURS[colour]],
        )
        for target in targets:
            action = f"offer {target} give {vec_str(vec_of(give))} ask {vec_str(vec_of(ask))}"
            if action in legal:
                return action
        return None


def _token(cell: int) -> str:
    return "tyros" if cell == 0 else str(cell)


def _cards(text: str) -> tuple[int, ...]:
    vec = parse_cards(text)
    return vec if vec is not None else (0,) * KINDS


def _vec(cards: JsonDict) -> tuple[int, ...]:
    return tuple(int(cards[name]) for name in CARD_NAMES)


def _sea_near_mine(reading: Reading, cell: str) -> float:
    """How close (by sea) our ships are to ``cell``: 1 next door, less further away."""
    target_nodes = [n for n in range(NODE_COUNT) if _token(BOARD.node_cell[n]) == cell]
    best = 99
    for other, owners in reading.ships.items():
        if reading.me not in owners:
            continue
        for node in range(NODE_COUNT):
            if _token(BOARD.node_cell[node]) == other:
                for target in target_nodes:
                    distance = BOARD.distance[node][target]
                    if 0 <= distance < best:
                        best = distance
    return 1.0 / best if best < 99 else 0.0
