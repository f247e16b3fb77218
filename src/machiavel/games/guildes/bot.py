"""The Guildes heuristic bot: quick enough to serve as a rollout policy.

- Drafting: keeps the card worth most votes to it (the places it can win at this count and,
  discounted, the later ones, since tableaux stay), plus half what the card would be worth
  to the player it passes to, when that player leads: cards are denied to the leader.
- Placing: places the card that gains most at the coming count against what is already on
  the table; Milice (3 votes a card at every count left) wins whenever guild fights are
  lost, so it is kept for them.
- Coup Tordu: plays the effect that most raises its votes at the coming count against the
  leader's, or passes when nothing helps; D always draws.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from machiavel.core.contract import JsonDict, Seat, State
from machiavel.core.rng import Rng, random_seed
from machiavel.games.guildes import actions as act
from machiavel.games.guildes.count import count_votes, guild_votes, share_of, without_ties
from machiavel.games.guildes.data import (
    GUILD_COUNT,
    GUILD_INDEX,
    MILICE,
    MILICE_VOTES,
    PLACES,
    TIES_IGNORED,
    TRICK_GUILD,
    TRICK_LETTERS,
)
from machiavel.games.guildes.rules import DRAFT, PHASE_NAMES, TRICKS, GuildesState

LATER_ROUNDS = 0.6  # later counts are worth less: the others' tableaux will grow
DENIAL = 0.5
NOISE = 0.01


def counts_of(cards: dict[str, int]) -> list[int]:
    row = [0] * GUILD_COUNT
    for name, count in cards.items():
        row[GUILD_INDEX[name]] = count
    return row


def counted(tableaux: list[list[int]], modifiers: list[tuple[int, int, int]]) -> list[list[int]]:
    """The tableaux as the coming count sees them: F-I's (player, guild, +1/-1) applied."""
    rows = [row[:] for row in tableaux]
    for player, guild, delta in modifiers:
        rows[player][guild] = max(0, rows[player][guild] + delta)
    return rows


class Table:
    """What the bot knows, as counts: read from its view (``from_view``) or, for search,
    straight from the fields of a state that the view shows (``from_state``)."""

    def __init__(
        self,
        player: int,
        phase: str,
        round_index: int,
        tableaux: list[list[int]],
        modifiers: list[tuple[int, int, int]],
    ) -> None:
        self.me = player
        self.phase = phase
        self.n = len(tableaux)
        self.round = round_index
        self.tableaux = tableaux
        self.counted = counted(tableaux, modifiers)
        self.ignore_ties = False
        self.hand = [0] * GUILD_COUNT
        self.kept = [0] * GUILD_COUNT
        self.scores: Sequence[float] = ()
        self.direction = 1
        self.drawing = False  # placing a card drawn with D (G7)
        self.trick_letter = -1  # the Coup Tordu card being played, if any
        self._leader: int | None = None

    @classmethod
    def from_view(cls, view: JsonDict, player: int) -> Table:
        tricks = view.get("dirty_tricks")
        modifiers = [
            (m["player"], GUILD_INDEX[m["guild"]], m["delta"])
            for m in (tricks["modifiers"] if tricks else ())
        ]
        tableaux = [counts_of(t) for t in view["tableaux"]]
        table = cls(player, view["phase"], view["round"] - 1, tableaux, modifiers)
        event = view["event"]
        table.ignore_ties = event["in_effect"] and event["id"] == "ties_ignored"
        table.hand = counts_of(view.get("hand") or {})
        table.kept = counts_of(view.get("kept") or {})
        table.scores = view["scores"]
        table.direction = 1 if view["direction"] == "left" else -1
        table.drawing = bool(view.get("drawn"))
        turn = tricks["turn"] if tricks else None
        table.trick_letter = TRICK_LETTERS.index(turn) if turn else -1
        return table

    @classmethod
    def from_state(cls, state: GuildesState, player: int) -> Table:
        """As ``from_view`` reads ``state.view(player)``: only what that view shows."""
        phase = state.phase
        modifiers = [
            (target, TRICK_GUILD[letter], delta) for letter, target, delta in state.modifiers
        ]
        tableaux = [row[:] for row in state.tableau]
        table = cls(player, PHASE_NAMES[phase], state.round, tableaux, modifiers)
        table.ignore_ties = state.event_in_effect(TIES_IGNORED)
        if phase == DRAFT:
            table.hand = state.packets[player][:]
        table.kept = state.kept[player][:]
        table.scores = state.scores_
        table.direction = state.direction
        if phase == TRICKS:
            table.drawing = bool(state.drawn) and state.waiting == (player,)
            table.trick_letter = state.trick_letter
        return table

    def leader(self) -> int:
        """The other player most likely to win: running total plus the coming count."""
        if self._leader is None:
            votes = count_votes(self.round, self.counted, self.ignore_ties)
            others = [p for p in range(self.n) if p != self.me]
            self._leader = max(others, key=lambda p: (self.scores[p] + votes[p], -p))
        return self._leader

    def gain(self, player: int, guild: int, base: list[int], extra: int = 1) -> float:
        """Votes ``player`` gains, now and (discounted) later, with ``extra`` more cards."""
        if guild == MILICE:
            rounds_left = 1 + LATER_ROUNDS * (2 - self.round)
            return MILICE_VOTES * extra * rounds_left
        before = [row[guild] for row in self.tableaux]
        before[player] = base[guild]
        after = before[:]
        after[player] += extra
        if self.ignore_ties:  # the same at every count: dropped once
            before, after = without_ties(before), without_ties(after)
        total = 0.0
        weight = 1.0
        for round_index in range(self.round, 3):
            places = PLACES[round_index][guild]
            total += weight * (share_of(after, places, player) - share_of(before, places, player))
            weight = LATER_ROUNDS
        return total

    def change(self, edits: dict[tuple[int, int], int]) -> list[int]:
        """Vote changes at the coming count if counted cards change by ``edits``."""
        delta = [0] * self.n
        for guild in {g for _, g in edits}:
            column = [row[guild] for row in self.counted]
            before = guild_votes(self.round, guild, column, self.ignore_ties)
            for (player, g), d in edits.items():
                if g == guild:
                    column[player] = max(0, column[player] + d)
            after = guild_votes(self.round, guild, column, self.ignore_ties)
            for p in range(self.n):
                delta[p] += after[p] - before[p]
        return delta

    def worth(self, delta: list[int]) -> float:
        """How good a change of votes is for the bot: its own gain against the leader's."""
        leader = self.leader()
        others = sum(d for p, d in enumerate(delta) if p not in (self.me, leader))
        return delta[self.me] - delta[leader] - 0.25 * others


def guildes_state(state: State) -> GuildesState:
    assert isinstance(state, GuildesState)
    return state


def best_first(scored: list[tuple[float, str]]) -> list[str]:
    """The actions by decreasing value: the first is ``max``'s, as ``choose`` takes it."""
    return [action for _, action in sorted(scored, reverse=True)]


class GuildesHeuristicBot:
    name = "guildes-heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(random_seed() if seed is None else seed)

    def choose(self, seat: Seat) -> str:
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return max(self._scored(legal, Table.from_view(seat.view(), seat.player)))[1]

    def ranked(self, seat: Seat) -> list[str]:
        """Every legal action, best first (``choose``'s first): search grows a node's
        children in this order."""
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal
        return best_first(self._scored(legal, Table.from_view(seat.view(), seat.player)))

    def choose_in(self, state: State, player: int) -> str:
        """``choose(state.seat(player))`` without the view: search's fast entry point."""
        world = guildes_state(state)
        legal = world.legal_list(player)
        if len(legal) == 1:
            return legal[0]
        return max(self._scored(legal, Table.from_state(world, player)))[1]

    def ranked_in(self, state: State, player: int) -> list[str]:
        """``ranked(state.seat(player))`` without the view."""
        world = guildes_state(state)
        legal = world.legal_list(player)
        if len(legal) == 1:
            return list(legal)
        return best_first(self._scored(legal, Table.from_state(world, player)))

    def _scored(self, legal: Sequence[str], table: Table) -> list[tuple[float, str]]:
        """Each action with its value, and a little noise to break ties at random."""
        value = self._valuation(table)
        return [(value(a) + NOISE * self.rng.random(), a) for a in legal]

    def _valuation(self, table: Table) -> Callable[[str], float]:
        phase = table.phase
        if phase == "draft":
            return lambda a: self._draft_value(table, a)
        if phase == "redistribute":
            return lambda a: -self._place_value(table, act.parse(a)[1])
        if phase == "place" or table.drawing:
            return lambda a: self._place_value(table, act.parse(a)[1])
        return lambda a: self._trick_value(table, a)

    def _draft_value(self, table: Table, action: str) -> float:
        guild = act.parse(action)[1][0]
        mine = [t + k for t, k in zip(table.tableaux[table.me], table.kept, strict=True)]
        value = table.gain(table.me, guild, mine)
        receiver = (table.me + table.direction) % table.n
        if receiver == table.leader():  # deny the leader what it would score most with
            value += DENIAL * table.gain(receiver, guild, table.tableaux[receiver])
        return value

    def _place_value(self, table: Table, guilds: tuple[int, ...]) -> float:
        base = table.tableaux[table.me][:]
        value = 0.0
        for guild in guilds:
            value += table.gain(table.me, guild, base)
            base[guild] += 1
        return value

    def _trick_value(self, table: Table, action: str) -> float:
        verb, numbers = act.parse(action)
        me = table.me
        if verb == "pass":
            return 0.0
        if verb == "draw":
            return 1.0  # a free card: always worth it
        if verb == "swap":
            a, ga, b, gb = numbers
            edits = {(a, ga): -1, (b, ga): 1}
            edits[(b, gb)] = edits.get((b, gb), 0) - 1
            edits[(a, gb)] = edits.get((a, gb), 0) + 1
            return table.worth(table.change(edits))
        if verb == "sacrifice":
            own, target, guild = numbers
            edits = {(me, own): -1}
            edits[(target, guild)] = edits.get((target, guild), 0) - 1
            return table.worth(table.change(edits))
        if verb == "exchange":
            back, out = numbers
            return table.worth(table.change({(me, back): -1, (me, out): 1}))
        guild = TRICK_GUILD[table.trick_letter]
        delta = 1 if verb == "plus" else -1
        return table.worth(table.change({(numbers[0], guild): delta}))


__all__ = ["GuildesHeuristicBot"]
