"""Information-set Monte Carlo tree search, for every game, through the contract only.

Each iteration draws a world the bot cannot tell apart from the true one
(``seat.resample``), walks the tree with UCB among the actions available in that world
(availability counts, as in single-observer ISMCTS), adds one node, plays the rest of the
game out, and credits every player on the path with their share of the win. One tree
serves every player: each node holds the reward of the player who chose it, so each
player maximises their own result, for any number of players. Simultaneous choices are
taken one player at a time in a random order; multi-step turns are just successive
nodes of the same player. Progressive widening keeps nodes with hundreds of actions
(Djambi corpse placements, Tyros trades) from spreading the budget thin.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from machiavel.bots.base import Bot, RankingBot, StatePolicy, StateRanking
from machiavel.bots.random_bot import RandomBot
from machiavel.core.contract import Seat, State
from machiavel.core.errors import IllegalAction
from machiavel.core.registry import game
from machiavel.core.rng import Rng, random_seed

ROLLOUT_POLICIES = ("random", "heuristic")
GUIDES = ("none", "heuristic")
MAX_ROLLOUT_ACTIONS = 20_000
SETTLED_CHECK_EVERY = 16  # iterations between checks that the choice is already settled


@dataclass(slots=True)
class Node:
    player: int  # who chose the action leading here (-1 at the root)
    action: str
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[tuple[int, str], Node] = field(default_factory=dict)
    # The guide's order of each player's actions here, with the legal list it ranked.
    guides: dict[int, tuple[list[str], list[str]]] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        mean = self.reward / self.visits
        return mean + exploration * math.sqrt(math.log(max(self.available, 1)) / self.visits)


def _most_promising(available: list[Node], exploration: float) -> Node:
    """The first child of the best ``ucb`` once each counts one more availability:
    ``max(available, key=ucb)`` after the counts, written out (a search's inner loop)."""
    best = available[0]
    best_value = -math.inf
    log, sqrt = math.log, math.sqrt
    for child in available:
        child.available += 1
        visits = child.visits
        value = child.reward / visits + exploration * sqrt(log(max(child.available, 1)) / visits)
        if value > best_value:
            best, best_value = child, value
    return best


@dataclass
class SearchStats:
    iterations: int = 0
    seconds: float = 0.0
    settled_early: bool = False  # stopped because no other action could catch up


def win_shares(state: State) -> list[float]:
    """Each player's reward at the end of a play-out: an equal share of the win."""
    rewards = [0.0] * state.players
    winners = state.winners
    for player in winners:
        rewards[player] = 1.0 / len(winners)
    return rewards


@dataclass(frozen=True)
class SearchSettings:
    """How a search runs; a game's ``search_hints`` fill what the caller leaves out."""

    rollout: str = "random"
    guide: str = "none"
    exploration: float = 0.7
    widening: float = 3.0
    rollout_limit: int | None = None
    cutoff_temperature: float | None = None  # points; None: the leaders share the win
    stop_early: bool = True  # stop once no other action can catch up with the best

    def __post_init__(self) -> None:
        if self.rollout not in ROLLOUT_POLICIES:
            raise ValueError(
                f"rollout must be one of {', '.join(ROLLOUT_POLICIES)}, not {self.rollout!r}"
            )
        if self.guide not in GUIDES:
            raise ValueError(f"guide must be one of {', '.join(GUIDES)}, not {self.guide!r}")
        if self.rollout_limit is not None and self.rollout_limit < 1:
            raise ValueError("rollout_limit must be at least 1")
        if self.cutoff_temperature is not None and self.cutoff_temperature <= 0:
            raise ValueError("cutoff_temperature must be positive")
        if self.widening <= 0:
            raise ValueError(f"widening must be positive, not {self.widening}")
        if self.exploration < 0:
            raise ValueError(f"exploration must be zero or more, not {self.exploration}")


def soft_shares(state: State, temperature: float) -> list[float]:
    """At a cut-off play-out: win chances from ``estimate`` (a softmax, in points).

    A lead of ``temperature`` points makes a player about e times likelier to win than
    the one behind; smoother than crowning the current leader, so a few hundred play-outs
    tell a good move from a slightly worse one.
    """
    scores = state.estimate()
    best = max(scores)
    weights = [math.exp((score - best) / temperature) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def _root_visits(root: Node, player: int) -> dict[str, int]:
    return {
        action: child.visits for (mover, action), child in root.children.items() if mover == player
    }


def _lead(visits: dict[str, int]) -> int:
    """How far the most visited action is ahead of the next one.

    The choice is the most visited action, so once this lead exceeds the iterations left
    no other action can catch up and the rest of the budget would not change the move:
    stopping then saves time (an obvious move is played at once) and, under an iteration
    budget, plays exactly the move the full search would.
    """
    counts = sorted(visits.values(), reverse=True)
    if not counts:
        return 0
    return counts[0] - (counts[1] if len(counts) > 1 else 0)


def leader_shares(state: State) -> list[float]:
    """At a cut-off play-out: the players leading on ``estimate`` share the win."""
    scores = state.estimate()
    best = max(scores)
    leaders = [p for p, score in enumerate(scores) if score == best]
    return [1.0 / len(leaders) if p in leaders else 0.0 for p in range(state.players)]


class Policy:
    """A game's heuristic as search calls it, by the fastest way it offers.

    The worlds search plays in were drawn from its seat (``resample``), so a
    ``StatePolicy`` reads them directly; any other heuristic is handed a seat of the world.
    What the heuristic offers is looked up once, not at every call.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.fast = bot if isinstance(bot, StatePolicy) else None
        self.fast_ranking = bot if isinstance(bot, StateRanking) else None
        self.seat_ranking = bot if isinstance(bot, RankingBot) else None

    def choose(self, world: State, player: int) -> str:
        if self.fast is not None:
            return self.fast.choose_in(world, player)
        return self.bot.choose(world.seat(player))

    def ranked(self, world: State, player: int) -> list[str] | None:
        """Every action of ``player`` best first, if the heuristic ranks them."""
        if self.fast_ranking is not None:
            return self.fast_ranking.ranked_in(world, player)
        if self.seat_ranking is not None:
            return self.seat_ranking.ranked(world.seat(player))
        return None


class IsmctsBot:
    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        jobs: int = 1,
        **settings: Any,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        unknown = set(settings) - set(SearchSettings.__dataclass_fields__)
        if unknown:
            raise TypeError(f"unknown ISMCTS parameters: {', '.join(sorted(unknown))}")
        SearchSettings(**settings)  # refuse bad values at once, not at the first move
        self.seed = random_seed() if seed is None else seed
        self.rng = Rng(self.seed)
        self.iterations = iterations
        self.seconds = seconds
        self.jobs = jobs
        self.overrides = settings
        self.settings = SearchSettings(**settings)
        self.last = SearchStats()
        self._pool: ProcessPoolExecutor | None = None
        self._policies: dict[str, Policy] = {}

    def settings_for(self, game_id: str) -> SearchSettings:
        """Explicit parameters first, then the game's hints, then the defaults."""
        return SearchSettings(**{**game(game_id).search_hints, **self.overrides})

    # ---- the public move ------------------------------------------------------------
    def choose(self, seat: Seat) -> str:
        legal = seat.legal_actions()
        if not legal:
            raise IllegalAction(f"player {seat.player} has nothing to play now")
        if len(legal) == 1:
            return legal[0]
        seeds = [self.rng.next_u64() for _ in range(self.jobs)]
        if self.jobs == 1:
            visits, stats = self.search(seat, seeds[0])
        else:
            visits, stats = self._parallel_search(seat, seeds)
        self.last = stats
        # The most visited action; ties broken by the legal order, so results reproduce.
        return max(legal, key=lambda action: visits.get(action, 0))

    def search(
        self, seat: Seat, seed: int, root: Node | None = None
    ) -> tuple[dict[str, int], SearchStats]:
        """Run one tree; return the visits of the root player's actions.

        A caller may pass an empty ``Node(-1, "")`` as ``root`` to read the tree's
        statistics (visits, availability, rewards) afterwards.
        """
        rng = Rng(seed)
        self.settings = self.settings_for(seat.game)
        root = Node(-1, "") if root is None else root
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        done = 0
        settled = False
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(seat, root, rng)
            done += 1
            if self.settings.stop_early and done % SETTLED_CHECK_EVERY == 0:
                remaining = self._iterations_left(done, start, deadline)
                if _lead(_root_visits(root, seat.player)) > remaining:
                    settled = True
                    break
        visits = _root_visits(root, seat.player)
        return visits, SearchStats(done, time.perf_counter() - start, settled)

    def _iterations_left(self, done: int, start: float, deadline: float | None) -> float:
        """How many more iterations the budget allows (estimated from the pace so far)."""
        left = math.inf
        if self.iterations is not None:
            left = self.iterations - done
        if deadline is not None:
            now = time.perf_counter()
            pace = done / max(now - start, 1e-9)
            left = min(left, (deadline - now) * pace)
        return left

    # ---- one iteration --------------------------------------------------------------
    def _iterate(self, seat: Seat, root: Node, rng: Rng) -> None:
        world = seat.resample(rng)
        path = [root]
        node = root
        while movers := world.to_move:
            player = movers[0] if len(movers) == 1 else rng.choice(movers)
            legal = world.legal_list(player)
            child = self._select_or_expand(node, player, legal, rng, world)
            world.play_legal(player, child.action)  # taken from ``legal``: no second check
            path.append(child)
            if child.visits == 0:
                break
            node = child
        rewards = self._play_out(world, rng)
        for visited in path:
            visited.visits += 1
            if visited.player >= 0:
                visited.reward += rewards[visited.player]

    def _select_or_expand(
        self, node: Node, player: int, legal: Sequence[str], rng: Rng, world: State
    ) -> Node:
        available = []
        untried = []
        children = node.children
        for action in legal:
            child = children.get((player, action))
            if child is None:
                untried.append(action)
            else:
                available.append(child)
        # Progressive widening: a node may grow a new child once it has enough visits.
        room = len(available) < self.settings.widening * math.sqrt(node.visits + 1)
        if untried and (room or not available):
            action = self._first_to_try(node, untried, player, rng, world, legal)
            child = Node(player, action)
            children[(player, action)] = child
            return child
        return _most_promising(available, self.settings.exploration)

    def _first_to_try(
        self,
        node: Node,
        untried: list[str],
        player: int,
        rng: Rng,
        world: State,
        legal: Sequence[str],
    ) -> str:
        """The next action to add to a node: the heuristic's choice first when guided.

        A heuristic that ranks every action (``RankingBot``) gives the order of all the
        children; otherwise its one choice comes first and the rest at random. The world
        was drawn from the seat (``resample``), so a ``StatePolicy`` reads it directly.
        """
        if self.settings.guide == "heuristic":
            policy = self._policy(world)
            ranking = self._guide_order(node, player, legal, world, policy)
            if ranking is not None:
                waiting = set(untried)
                for action in ranking:
                    if action in waiting:
                        return action
            preferred = policy.choose(world, player)
            if preferred in untried:
                return preferred
        return rng.choice(untried)

    @staticmethod
    def _guide_order(
        node: Node, player: int, legal: Sequence[str], world: State, policy: Policy
    ) -> list[str] | None:
        """The heuristic's ranking of ``player``'s actions at ``node``, kept from the node's
        earlier expansions while the legal list is the same.

        In a game without hidden information every world at a node is the same position,
        so the ranking is too and need not be computed at each of the node's expansions
        (a ranking is a costly call). With hidden information, a world with the same
        choices at a node reuses the order the first such world gave.
        """
        kept = node.guides.get(player)
        if kept is not None and kept[0] == legal:
            return kept[1]
        ranking = policy.ranked(world, player)
        if ranking is not None:
            node.guides[player] = (list(legal), ranking)
        return ranking

    def _play_out(self, world: State, rng: Rng) -> list[float]:
        limit = self.settings.rollout_limit or MAX_ROLLOUT_ACTIONS
        if self.settings.rollout == "heuristic":
            policy = self._policy(world)
            steps = 0
            while (movers := world.to_move) and steps < limit:
                player = movers[0] if len(movers) == 1 else rng.choice(movers)
                # Legal: the conformance suite checks every game's policy.
                world.play_legal(player, policy.choose(world, player))
                steps += 1
        else:
            world.random_playout(rng, limit)  # a game may play these its own faster way
        if world.is_over:
            return win_shares(world)
        if self.settings.cutoff_temperature is not None:
            return soft_shares(world, self.settings.cutoff_temperature)
        return leader_shares(world)

    def _policy(self, world: State) -> Policy:
        policy = self._policies.get(world.game.id)
        if policy is None:
            policy = Policy(game(world.game.id).heuristic_bot(self.seed))
            self._policies[world.game.id] = policy
        return policy

    # ---- root parallelisation -------------------------------------------------------
    def _parallel_search(self, seat: Seat, seeds: list[int]) -> tuple[dict[str, int], SearchStats]:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.jobs, mp_context=get_context("fork"))
        worker = IsmctsBot(self.seed, self.iterations, self.seconds, 1, **self.overrides)
        futures = [self._pool.submit(worker.search, seat, seed) for seed in seeds]
        merged: dict[str, int] = {}
        total = SearchStats()
        for future in futures:  # in submission order, so the merge is deterministic
            visits, stats = future.result()
            for action, count in visits.items():
                merged[action] = merged.get(action, 0) + count
            total.iterations += stats.iterations
            total.seconds = max(total.seconds, stats.seconds)
            total.settled_early = total.settled_early or stats.settled_early
        return merged, total

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_pool"] = None
        return state


class EasyBot:
    """A beginner: plays the game's heuristic move half of the time, a random one otherwise."""

    name = "easy"

    def __init__(self, seed: int | None = None, blunder_rate: float = 0.5) -> None:
        seed = random_seed() if seed is None else seed
        self.rng = Rng(seed)
        self.blunder_rate = blunder_rate
        self.random = RandomBot(seed + 1)
        self._heuristic: dict[str, Bot] = {}
        self.seed = seed

    def choose(self, seat: Seat) -> str:
        if self.rng.random() < self.blunder_rate:
            return self.random.choose(seat)
        inner = self._heuristic.get(seat.game)
        if inner is None:
            inner = game(seat.game).heuristic_bot(self.seed)
            self._heuristic[seat.game] = inner
        return inner.choose(seat)
