"""A Tyrus heuristic bot that plays like a reasonable person, from its seat only.

It estimates both scores of the current election from what it can see (hidden opponent
tiles are guessed from the opponent's tiles not yet revealed), then either contests the
election with the cheapest tiles that should win it, or concedes it with its lowest tiles
placed where they help later elections. It contests whatever the cost when losing would
hand the opponent the game (a third win in a row or a fifth win), and it keeps its high
tiles unless they are needed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from machiavel.core.contract import JsonDict, Seat, State
from machiavel.core.rng import Rng, random_seed
from machiavel.games.tyrus.rules import (
    ALL_ACTIONS,
    BLOCKED_BY,
    ELECTED,
    ELECTIONS,
    KIND_INDEX,
    KINDS,
    TILES,
    TILES_PER_ELECTION,
    VALUE,
    WINS_TO_WIN,
    TyrusState,
)

# A hidden opponent tile is feared at this fraction of the mean of the opponent's unseen
# tiles of the threatening profession: people bluff, but not always.
HIDDEN_TILE_WEIGHT = 0.8
# What each opponent placement still to come is feared to add.
FUTURE_OPPONENT_THREAT = 6
# Above this cost in tile values an ordinary election is not worth contesting.
AFFORDABLE_COST = 22
HIGH_TILE = 9
# Each election kind's elected profession, the one that blocks it, the one that counters.
ROLES = {
    kind: (ELECTED[kind], BLOCKED_BY[ELECTED[kind]], BLOCKED_BY[BLOCKED_BY[ELECTED[kind]]])
    for kind in KINDS
}


@dataclass(slots=True)
class Situation:
    """What the player to move knows that the decision uses, read either from its view
    (``read_situation``) or straight from a state's fields (``situation_in``), and the
    scores it expects from that."""

    me: int
    kind: str
    elected: str
    blocker: str
    counter: str
    hand: list[str]
    my_votes: int
    my_counters: int
    opponent_hidden_in_mine: int
    my_blocks_in_theirs: int
    opponent_hidden_in_theirs: int
    my_left: int
    opponent_left: int
    unseen_mean: dict[str, float]
    critical: bool  # losing this election hands the opponent the game
    decisive: bool  # critical, or winning it gives me the game
    remaining: frozenset[str]  # the election kinds still in the deck (public counts)
    # The scores expected from the fields above (worked out once, in ``situation_of``):
    estimated_blocks: float  # the opponent's hidden blocks in my building
    my_estimate: float  # my score once those blocks are counted
    opponent_ceiling: float  # the opponent's score, with the placements still to come

    def lowest_first(self, profession: str) -> list[str]:
        """My tiles in hand of ``profession``, lowest value first."""
        tiles = [t for t in self.hand if t[0] == profession]
        tiles.sort(key=VALUE.__getitem__)
        return tiles


# A building's tiles as (placer, tile) pairs; the tile is None where the view hides it.
Placements = Sequence[tuple[int, str | None]]


def read_situation(view: JsonDict, me: int) -> Situation:
    """The situation as the seat's JSON view shows it."""
    kind = view["election_kind"]
    buildings = {(b["owner"], b["kind"]): b["tiles"] for b in view["buildings"]}

    def placements(owner: int) -> Placements:
        return [(t["player"], t["tile"]) for t in buildings[(owner, kind)]]

    return situation_of(
        me=me,
        kind=kind,
        hand=list(view["hand"]),
        mine=placements(me),
        theirs=placements(1 - me),
        placed=view["placed_this_election"],
        first_player=view["election_first_player"],
        tallies=view["tallies"],
        results=[r["winner"] for r in view["results"]],
        election=view["election"],
        remaining=frozenset(k for k, n in view["cards_remaining"].items() if n > 0),
        means=_unseen_means,
    )


def situation_in(state: TyrusState, me: int, means: MeansOf | None = None) -> Situation:
    """The situation read straight from the state's fields: only what ``me``'s view shows
    (own tiles, where the opponent's hidden tiles lie, the visible tallies, the deck's
    counts), as ``read_situation`` reads it from that view. ``means`` may remember the
    unseen means from one decision to the next."""
    kind = state.turned[-1]
    kind_index = KIND_INDEX[kind]
    election = len(state.turned)
    # T2: the first player begins the odd elections, the other player the even ones.
    first_player = state.first_player if election % 2 else 1 - state.first_player
    # Positional, in situation_of's order: search reads a situation for every decision.
    return situation_of(
        me,
        kind,
        state.hands[me],  # read, never changed
        state.buildings[me * 3 + kind_index],
        state.buildings[(1 - me) * 3 + kind_index],
        state.placed,
        first_player,
        state.tallies[-1:] if state.memory_mode else state.tallies,  # T9
        state.results,
        election,
        frozenset(state.deck),  # the kinds left, never their order
        means or _unseen_means,
    )


def situation_of(
    me: int,
    kind: str,
    hand: list[str],
    mine: Placements,
    theirs: Placements,
    placed: int,
    first_player: int,
    tallies: Sequence[JsonDict],
    results: Sequence[int | None],
    election: int,
    remaining: frozenset[str],
    means: MeansOf,
) -> Situation:
    """The situation of ``me`` from what they know: their hand; their building of this
    election's ``kind`` (``mine``) and the opponent's (``theirs``), the opponent's tiles
    there face down; the tiles ``placed`` in this election, begun by ``first_player``; the
    tallies ``me`` sees (T9: memory_mode hides the older ones); each election's winner
    (None for a null); the election's number; the kinds still in the deck."""
    opponent = 1 - me
    elected, blocker, counter = ROLES[kind]
    my_votes, my_counters, hidden_in_mine = _read_building(mine, me, elected, counter)
    my_blocks, _, hidden_in_theirs = _read_building(theirs, me, blocker, blocker)
    my_done = (placed + 1) // 2 if first_player == me else placed // 2
    critical, decisive = _stakes(results, election, me)
    my_left = TILES_PER_ELECTION - my_done
    opponent_left = TILES_PER_ELECTION - (placed - my_done)
    unseen_mean = means(tallies, opponent)
    # Each hidden opponent tile is feared at a fraction of the mean of its profession.
    feared_blocks = hidden_in_mine * unseen_mean[blocker] * HIDDEN_TILE_WEIGHT
    feared_votes = hidden_in_theirs * unseen_mean[elected] * HIDDEN_TILE_WEIGHT
    # Blocks and scores never go below zero (T5), nor do their estimates (written out
    # rather than max(): search works these out for every decision).
    blocked = feared_blocks - my_counters
    blocked = blocked if blocked > 0.0 else 0.0
    my_estimate = my_votes - blocked
    my_estimate = my_estimate if my_estimate > 0.0 else 0.0
    opponent_votes = feared_votes - my_blocks
    opponent_votes = opponent_votes if opponent_votes > 0.0 else 0.0
    opponent_ceiling = opponent_votes + FUTURE_OPPONENT_THREAT * opponent_left
    # Positional, in Situation's order: search reads a situation for every decision.
    return Situation(
        me,
        kind,
        elected,
        blocker,
        counter,
        hand,
        my_votes,
        my_counters,
        hidden_in_mine,
        my_blocks,
        hidden_in_theirs,
        my_left,
        opponent_left,
        unseen_mean,
        critical,
        decisive,
        remaining,
        feared_blocks,  # estimated_blocks
        my_estimate,
        opponent_ceiling,
    )


def _read_building(placed: Placements, me: int, first: str, second: str) -> tuple[int, int, int]:
    """The values of my tiles of professions ``first`` and ``second`` in a building, and
    how many tiles the opponent placed there (face down: only their number is known)."""
    first_total = second_total = hidden = 0
    for placer, tile in placed:
        if placer != me:
            hidden += 1
        elif tile is not None and tile[0] == first:
            first_total += VALUE[tile]
        elif tile is not None and tile[0] == second:
            second_total += VALUE[tile]
    return first_total, second_total, hidden


# The mean value of the opponent's unseen tiles of each profession, from the tallies seen.
MeansOf = Callable[[Sequence[JsonDict], int], dict[str, float]]


@dataclass
class Unseen:
    """Each player's tiles of each profession not yet seen in a tally: their total value
    and their number (tallies show every tile of both players in the counted buildings)."""

    totals: tuple[dict[str, int], dict[str, int]]
    counts: tuple[dict[str, int], dict[str, int]]

    @classmethod
    def at_start(cls) -> Unseen:
        totals = {"S": 55, "M": 55, "P": 55}  # 1 + 2 + ... + 10
        counts = {"S": 10, "M": 10, "P": 10}
        return cls((dict(totals), dict(totals)), (dict(counts), dict(counts)))

    def remove_revealed(self, tally: JsonDict) -> None:
        totals, counts = self.totals, self.counts
        for entry in tally["tiles"]:
            player, tile = entry["player"], entry["tile"]
            totals[player][tile[0]] -= VALUE[tile]
            counts[player][tile[0]] -= 1

    def means(self, player: int) -> dict[str, float]:
        totals, counts = self.totals[player], self.counts[player]
        return {p: totals[p] / counts[p] if counts[p] else 0.0 for p in totals}


def _unseen_means(tallies: Sequence[JsonDict], opponent: int) -> dict[str, float]:
    """Mean value of the opponent's tiles of each profession not yet seen in a tally."""
    unseen = Unseen.at_start()
    for tally in tallies:
        unseen.remove_revealed(tally)
    return unseen.means(opponent)


class UnseenMeans:
    """``_unseen_means`` for search, which asks for it at every decision: remembered for
    the tallies last asked about, and brought up to date from the newest tally alone when
    one was added since. A tally is never changed once written and tallies are only
    appended, so the same newest tally (the very object) and the same number of tallies
    mean the same tallies."""

    def __init__(self) -> None:
        self._last: JsonDict | None = None  # the newest tally counted
        self._count = 0  # how many tallies were counted
        self._unseen = Unseen.at_start()
        self._means = (self._unseen.means(0), self._unseen.means(1))

    def __call__(self, tallies: Sequence[JsonDict], opponent: int) -> dict[str, float]:
        count = len(tallies)
        last = tallies[-1] if count else None
        if last is not self._last or count != self._count:
            self._catch_up(tallies, count)
        return self._means[opponent]

    def _catch_up(self, tallies: Sequence[JsonDict], count: int) -> None:
        one_more = count == self._count + 1 and (count == 1 or tallies[-2] is self._last)
        if one_more:
            self._unseen.remove_revealed(tallies[-1])
        else:
            self._unseen = Unseen.at_start()
            for tally in tallies:
                self._unseen.remove_revealed(tally)
        self._last, self._count = tallies[-1] if count else None, count
        self._means = (self._unseen.means(0), self._unseen.means(1))


def _stakes(results: Sequence[int | None], election: int, me: int) -> tuple[bool, bool]:
    """What this election decides (T8): would losing it end the game in the opponent's
    favour (critical), and would either result end it (decisive: critical, or winning it
    gives me the game)?"""
    opponent = 1 - me
    held = len(results)
    # Who has won the last two elections, if one player has.
    streak = results[-1] if held >= 2 and results[-1] == results[-2] else None
    # Four wins need four elections held: most searches' elections are early ones.
    critical = (
        streak == opponent
        or election == ELECTIONS
        or (held >= WINS_TO_WIN - 1 and results.count(opponent) >= WINS_TO_WIN - 1)
    )
    winning = streak == me or (held >= WINS_TO_WIN - 1 and results.count(me) >= WINS_TO_WIN - 1)
    return critical, critical or winning


class TyrusHeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(random_seed() if seed is None else seed)
        self._means = UnseenMeans()

    def choose(self, seat: Seat) -> str:
        legal = seat.legal_actions()
        action = self._plan(read_situation(seat.view(), seat.player))
        return action if action in legal else self.rng.choice(legal)

    def choose_in(self, state: State, player: int) -> str:
        """``choose(state.seat(player))`` without building the view (search's fast path)."""
        assert isinstance(state, TyrusState)
        situation = situation_in(state, player, self._means)
        action = self._plan(situation)
        # The legal actions are every building for every tile in hand: the tile decides.
        if ALL_ACTIONS[action][0] in situation.hand:
            return action
        return self.rng.choice(state.legal_list(player))

    def _plan(self, situation: Situation) -> str:
        plan = self._contest(situation, situation.decisive)
        return plan if plan is not None else self._concede(situation)

    # ---- contesting -----------------------------------------------------------------
    def _contest(self, s: Situation, decisive: bool) -> str | None:
        """The cheapest useful move towards winning this election, or None to concede."""
        if s.estimated_blocks > s.my_counters:
            counter = self._counter_tile(s)
            if counter is not None:
                return f"{counter} {s.kind}"
        target = s.opponent_ceiling + 1 - s.my_estimate
        if target <= 0:
            return None if not decisive else self._cheapest_guard(s)
        votes = s.lowest_first(s.elected)
        reachable = sum(map(VALUE.__getitem__, votes[-s.my_left :]))
        if reachable < target:
            return None
        per_placement = target / s.my_left
        cost = min(target, reachable)
        if cost > AFFORDABLE_COST and not decisive:
            return None
        tile = _first_reaching(votes, per_placement) or votes[-1]
        block = self._useful_block(s, per_placement)
        if block is not None and VALUE[block] < VALUE[tile]:
            return f"{block} rival-{s.kind}"
        if VALUE[tile] >= HIGH_TILE and not decisive and per_placement < HIGH_TILE - 2:
            lower = [t for t in votes if VALUE[t] < HIGH_TILE]
            if lower:
                tile = lower[-1]
        return f"{tile} {s.kind}"

    def _counter_tile(self, s: Situation) -> str | None:
        deficit = s.estimated_blocks - s.my_counters
        counters = s.lowest_first(s.counter)
        if not counters or s.my_votes == 0:
            return None
        return _first_reaching(counters, deficit) or counters[-1]

    def _useful_block(self, s: Situation, needed: float) -> str | None:
        """A blocking tile in the opponent's building, when they likely have votes there."""
        if s.opponent_hidden_in_theirs == 0:
            return None
        return _first_reaching(s.lowest_first(s.blocker), needed)

    def _cheapest_guard(self, s: Situation) -> str | None:
        """Already ahead in a decisive election: add the smallest vote as insurance."""
        votes = s.lowest_first(s.elected)
        return f"{votes[0]} {s.kind}" if votes and s.opponent_left > 0 else None

    # ---- conceding ------------------------------------------------------------------
    def _concede(self, s: Situation) -> str:
        """Spend the lowest tile where it helps a later election (or bluffs this one)."""
        tile = min(s.hand, key=_spending_order(s.remaining).__getitem__)
        building = _where_it_helps_later(tile[0], s.kind, s.remaining)
        if building is not None:
            return f"{tile} {building}"
        if s.opponent_left > 0:
            return f"{tile} {s.kind}"  # a bluff: the opponent may spend more to be sure
        return f"{tile} rival-{s.kind}"


def _first_reaching(tiles: list[str], value: float) -> str | None:
    """The first of ``tiles`` (lowest first) worth at least ``value``, if any."""
    for tile in tiles:
        if VALUE[tile] >= value:
            return tile
    return None


# The two functions below depend only on a few public facts: each is worked out once per
# combination (cached), as search concedes tens of thousands of times a second.


@cache
def _spending_order(remaining: frozenset[str]) -> dict[str, tuple[int, int]]:
    """The key a concession spends tiles by: the lowest value first, then the tile whose
    profession fewer remaining election kinds want as votes."""
    return {tile: (VALUE[tile], _future_need(tile[0], remaining)) for tile in TILES}


def _future_need(profession: str, remaining: frozenset[str]) -> int:
    """How many remaining election kinds want this profession as votes."""
    return sum(1 for kind in remaining if ELECTED[kind] == profession)


@cache
def _where_it_helps_later(profession: str, kind: str, remaining: frozenset[str]) -> str | None:
    """Where a conceded tile of ``profession`` serves a later election: as votes in my own
    building of a kind still to come, else as blocks in the rival's; None if nowhere."""
    for later in KINDS:
        if later in remaining and later != kind and ELECTED[later] == profession:
            return later
    for later in KINDS:
        if later in remaining and later != kind and BLOCKED_BY[ELECTED[later]] == profession:
            return f"rival-{later}"
    return None
