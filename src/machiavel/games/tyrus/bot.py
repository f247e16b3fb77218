"""A Tyrus heuristic bot that plays like a reasonable person, from its seat only.

It estimates both scores of the current election from what it can see (hidden opponent
tiles are guessed from the opponent's tiles not yet revealed), then either contests the
election with the cheapest tiles that should win it, or concedes it with its lowest tiles
placed where they help later elections. It contests whatever the cost when losing would
hand the opponent the game (a third win in a row or a fifth win), and it keeps its high
tiles unless they are needed.
"""

from __future__ import annotations

from dataclasses import dataclass

from machiavel.core.contract import JsonDict, Seat
from machiavel.core.rng import Rng, random_seed
from machiavel.games.tyrus.rules import (
    BLOCKED_BY,
    ELECTED,
    KINDS,
    TILES_PER_ELECTION,
    VALUE,
    tile_profession,
    tile_value,
)

# A hidden opponent tile is feared at this fraction of the mean of the opponent's unseen
# tiles of the threatening profession: people bluff, but not always.
HIDDEN_TILE_WEIGHT = 0.8
# What each opponent placement still to come is feared to add.
FUTURE_OPPONENT_THREAT = 6
# Above this cost in tile values an ordinary election is not worth contesting.
AFFORDABLE_COST = 22
HIGH_TILE = 9


@dataclass
class Situation:
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
    critical: bool

    def estimated_blocks(self) -> float:
        return self.opponent_hidden_in_mine * self.unseen_mean[self.blocker] * HIDDEN_TILE_WEIGHT

    def my_estimate(self, votes: int = 0, counters: int = 0) -> float:
        blocks = max(0.0, self.estimated_blocks() - self.my_counters - counters)
        return max(0.0, self.my_votes + votes - blocks)

    def opponent_estimate(self, blocks: int = 0) -> float:
        votes = self.opponent_hidden_in_theirs * self.unseen_mean[self.elected] * HIDDEN_TILE_WEIGHT
        return max(0.0, votes - self.my_blocks_in_theirs - blocks)

    def opponent_ceiling(self, blocks: int = 0) -> float:
        return self.opponent_estimate(blocks) + FUTURE_OPPONENT_THREAT * self.opponent_left


def read_situation(view: JsonDict, me: int) -> Situation:
    kind = view["election_kind"]
    elected = ELECTED[kind]
    blocker = BLOCKED_BY[elected]
    counter = BLOCKED_BY[blocker]
    opponent = 1 - me
    buildings = {(b["owner"], b["kind"]): b["tiles"] for b in view["buildings"]}
    mine, theirs = buildings[(me, kind)], buildings[(opponent, kind)]

    def own_sum(tiles: list[JsonDict], profession: str) -> int:
        return sum(
            tile_value(t["tile"])
            for t in tiles
            if t["player"] == me and tile_profession(t["tile"]) == profession
        )

    placed = view["placed_this_election"]
    i_start = view["election_first_player"] == me
    my_done = (placed + 1) // 2 if i_start else placed // 2
    opponent_done = placed - my_done
    return Situation(
        me=me,
        kind=kind,
        elected=elected,
        blocker=blocker,
        counter=counter,
        hand=list(view["hand"]),
        my_votes=own_sum(mine, elected),
        my_counters=own_sum(mine, counter),
        opponent_hidden_in_mine=sum(1 for t in mine if t["player"] == opponent),
        my_blocks_in_theirs=own_sum(theirs, blocker),
        opponent_hidden_in_theirs=sum(1 for t in theirs if t["player"] == opponent),
        my_left=TILES_PER_ELECTION - my_done,
        opponent_left=TILES_PER_ELECTION - opponent_done,
        unseen_mean=_unseen_means(view, opponent),
        critical=_losing_is_fatal(view, opponent),
    )


def _unseen_means(view: JsonDict, opponent: int) -> dict[str, float]:
    """Mean value of the opponent's tiles of each profession not yet seen in a tally."""
    totals = {"S": 55, "M": 55, "P": 55}  # 1 + 2 + ... + 10
    counts = {"S": 10, "M": 10, "P": 10}
    for tally in view["tallies"]:
        for entry in tally["tiles"]:
            if entry["player"] == opponent:
                tile = entry["tile"]
                totals[tile[0]] -= VALUE[tile]
                counts[tile[0]] -= 1
    return {p: totals[p] / counts[p] if counts[p] else 0.0 for p in totals}


def _losing_is_fatal(view: JsonDict, opponent: int) -> bool:
    """Would the opponent winning this election end the game in their favour (T8)?"""
    winners = [r["winner"] for r in view["results"]]
    streak = len(winners) >= 2 and winners[-1] == opponent and winners[-2] == opponent
    return bool(streak or view["elections_won"][opponent] >= 4 or view["election"] == 9)


def _fatal_for_opponent(view: JsonDict, me: int) -> bool:
    """Would winning this election give me the game?"""
    winners = [r["winner"] for r in view["results"]]
    return bool(
        (len(winners) >= 2 and winners[-1] == me and winners[-2] == me)
        or view["elections_won"][me] >= 4
    )


class TyrusHeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(random_seed() if seed is None else seed)

    def choose(self, seat: Seat) -> str:
        legal = seat.legal_actions()
        view = seat.view()
        situation = read_situation(view, seat.player)
        decisive = situation.critical or _fatal_for_opponent(view, seat.player)
        plan = self._contest(situation, decisive)
        action = plan if plan is not None else self._concede(situation, view)
        return action if action in legal else self.rng.choice(legal)

    # ---- contesting -----------------------------------------------------------------
    def _contest(self, s: Situation, decisive: bool) -> str | None:
        """The cheapest useful move towards winning this election, or None to concede."""
        if s.estimated_blocks() > s.my_counters:
            counter = self._counter_tile(s)
            if counter is not None:
                return f"{counter} {s.kind}"
        target = s.opponent_ceiling() + 1 - s.my_estimate()
        if target <= 0:
            return None if not decisive else self._cheapest_guard(s)
        votes = sorted((t for t in s.hand if t[0] == s.elected), key=tile_value)
        blocks = sorted((t for t in s.hand if t[0] == s.blocker), key=tile_value)
        reachable = sum(tile_value(t) for t in votes[-s.my_left :])
        if reachable < target:
            return None
        per_placement = target / s.my_left
        cost = min(target, reachable)
        if cost > AFFORDABLE_COST and not decisive:
            return None
        tile = next((t for t in votes if tile_value(t) >= per_placement), votes[-1])
        block = self._useful_block(s, blocks, per_placement)
        if block is not None and tile_value(block) < tile_value(tile):
            return f"{block} rival-{s.kind}"
        if tile_value(tile) >= HIGH_TILE and not decisive and per_placement < HIGH_TILE - 2:
            lower = [t for t in votes if tile_value(t) < HIGH_TILE]
            if lower:
                tile = lower[-1]
        return f"{tile} {s.kind}"

    def _counter_tile(self, s: Situation) -> str | None:
        deficit = s.estimated_blocks() - s.my_counters
        counters = sorted((t for t in s.hand if t[0] == s.counter), key=tile_value)
        if not counters or s.my_votes == 0:
            return None
        return next((t for t in counters if tile_value(t) >= deficit), counters[-1])

    def _useful_block(self, s: Situation, blocks: list[str], needed: float) -> str | None:
        """A blocking tile in the opponent's building, when they likely have votes there."""
        if s.opponent_hidden_in_theirs == 0:
            return None
        return next((t for t in blocks if tile_value(t) >= needed), None)

    def _cheapest_guard(self, s: Situation) -> str | None:
        """Already ahead in a decisive election: add the smallest vote as insurance."""
        votes = sorted((t for t in s.hand if t[0] == s.elected), key=tile_value)
        return f"{votes[0]} {s.kind}" if votes and s.opponent_left > 0 else None

    # ---- conceding ------------------------------------------------------------------
    def _concede(self, s: Situation, view: JsonDict) -> str:
        """Spend the lowest tile where it helps a later election (or bluffs this one)."""
        remaining = {k for k, n in view["cards_remaining"].items() if n > 0}
        tile = min(s.hand, key=lambda t: (tile_value(t), self._future_need(t, remaining)))
        profession = tile_profession(tile)
        for kind in KINDS:
            if kind in remaining and kind != s.kind and ELECTED[kind] == profession:
                return f"{tile} {kind}"
        for kind in KINDS:
            if kind in remaining and kind != s.kind and BLOCKED_BY[ELECTED[kind]] == profession:
                return f"{tile} rival-{kind}"
        if s.opponent_left > 0:
            return f"{tile} {s.kind}"  # a bluff: the opponent may spend more to be sure
        return f"{tile} rival-{s.kind}"

    @staticmethod
    def _future_need(tile: str, remaining: set[str]) -> int:
        """How many remaining election kinds want this profession as votes."""
        return sum(1 for kind in remaining if ELECTED[kind] == tile_profession(tile))
