"""ISMCTS as an algorithm: each part of the search decides a move in a tiny game made here.

Each tiny game says, from a hidden deal and the moves so far, who moves next with which
actions, or who has won. They have 3 or 4 players and someone other than player 0 to
move, so a search that credits the wrong player shows. The game "tiny" joins the registry
for each test only (the search asks the registry for the game's hints and heuristic).
Every search runs on an iteration budget with a fixed seed: the moves do not depend on
the machine's speed.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import pytest

from machiavel.bots.base import Bot, RankingBot
from machiavel.bots.ismcts import IsmctsBot, Node
from machiavel.core import registry
from machiavel.core.contract import Game, JsonDict, Option, Seat, Setup, State
from machiavel.core.fields import LIST, SHARED, StateFields
from machiavel.core.rng import Rng


@dataclass(frozen=True)
class Turn:
    player: int
    actions: tuple[str, ...]


@dataclass(frozen=True)
class Won:
    winners: tuple[int, ...]


class TinyState(State):
    """A tiny game: ``step`` gives the next turn or the result of the game.

    ``deal`` (one of ``deals``, drawn from the seed) is seen only by the ``informed``
    players; no move reveals it, so a resample just draws it again for the others.
    """

    fields = StateFields(deal=SHARED, moves=LIST)
    deals: ClassVar[int] = 1
    informed: ClassVar[tuple[int, ...]] = ()

    def __init__(self, game: Game, setup: Setup) -> None:
        super().__init__(game, setup)
        self.deal = setup.seed % self.deals
        self.moves: list[str] = []

    @abstractmethod
    def step(self) -> Turn | Won:
        """Who moves now and with what, or who has won."""

    def advice(self) -> list[str]:
        """The heuristic's favourite actions, best first (public)."""
        return []

    @property
    def to_move(self) -> tuple[int, ...]:
        step = self.step()
        return (step.player,) if isinstance(step, Turn) else ()

    def _legal(self, player: int) -> list[str]:
        step = self.step()
        assert isinstance(step, Turn)
        return list(step.actions)

    def _play(self, player: int, action: str) -> None:
        self.moves.append(action)

    def _view(self, player: int | None) -> JsonDict:
        deal = self.deal if player in self.informed else None
        return {"moves": list(self.moves), "deal": deal, "advice": self.advice()}

    @property
    def scores(self) -> list[float]:
        return [1.0 if p in self.winners else 0.0 for p in range(self.players)]

    @property
    def winners(self) -> tuple[int, ...]:
        step = self.step()
        return step.winners if isinstance(step, Won) else ()

    def _resample(self, player: int, rng: Rng) -> TinyState:
        world = self.clone()
        if player not in self.informed:
            world.deal = rng.below(self.deals)
        return world


class Kingmaker(TinyState):
    """Player 1 wins alone, or allies with player 2, who then betrays them or crowns
    player 0. Player 1 should go alone; a search crediting player 0 allies."""

    def step(self) -> Turn | Won:
        match self.moves:
            case []:
                return Turn(1, ("ally", "alone"))
            case ["alone"]:
                return Won((1,))
            case ["ally"]:
                return Turn(2, ("crown-0", "betray"))
            case ["ally", "betray"]:
                return Won((2,))
            case _:
                return Won((0,))


DOORS = tuple(f"door{n}" for n in range(6))
PRIZE = "door4"


class Doors(TinyState):
    """Player 3 settles for a third of a win (shared with two others), or searches six
    doors for a sure win behind one.

    A first random play-out through the doors most likely loses: only the exploration
    term brings the search back to find the prize.
    """

    def step(self) -> Turn | Won:
        match self.moves:
            case []:
                return Turn(3, ("settle", "search"))
            case ["settle"]:
                return Won((3, 0, 1))
            case ["search"]:
                return Turn(3, DOORS)
            case ["search", door]:
                return Won((3,)) if door == PRIZE else Won((0,))
            case _:
                raise AssertionError(self.moves)


LOSERS = tuple(f"lose{n:02}" for n in range(20))
WINNERS = tuple(f"win{n:02}" for n in range(20))


class Crowd(TinyState):
    """Player 1 has forty actions: the first twenty lose, the last twenty win."""

    def step(self) -> Turn | Won:
        if not self.moves:
            return Turn(1, LOSERS + WINNERS)
        return Won((1,)) if self.moves[0] in WINNERS else Won((2,))


PICKS = tuple(f"pick{n:02}" for n in range(40))
NEEDLE = "pick23"


class Needle(TinyState):
    """Player 2 has forty actions, one of which wins; the heuristic knows which."""

    def step(self) -> Turn | Won:
        if not self.moves:
            return Turn(2, PICKS)
        return Won((2,)) if self.moves[0] == NEEDLE else Won((0,))

    def advice(self) -> list[str]:
        return [NEEDLE, "pick05", "pick31", "pick12", "pick38", "pick02", "pick17"]


STANDINGS = {
    "lead": [10.0, 10.0, 10.1],  # a narrow lead over two others
    "second": [0.0, 11.0, 10.5],  # close behind one, far ahead of the other
}


class Standings(TinyState):
    """Player 2 takes a narrow lead or a close second, then the game drags on far past any
    play-out's cut-off: the search values the position by ``estimate``.

    Leaders sharing the win prefer the lead; a softmax with temperature 4 prefers the
    second place (0.45 against 0.34).
    """

    def step(self) -> Turn | Won:
        if not self.moves:
            return Turn(2, ("lead", "second"))
        if len(self.moves) < 10_000:
            return Turn(len(self.moves) % 3, ("wait",))
        best = max(self.estimate())
        return Won(tuple(p for p, score in enumerate(self.estimate()) if score == best))

    def estimate(self) -> list[float]:
        return list(STANDINGS[self.moves[0]]) if self.moves else [0.0, 0.0, 0.0]


class Ambush(TinyState):
    """Player 1 waits (half a win) or enters; then player 2 may ambush (and win) only in
    one deal of four, which player 2 sees and player 1 does not. Entering wins 3 times
    in 4."""

    deals = 4
    informed = (2,)

    def step(self) -> Turn | Won:
        match self.moves:
            case []:
                return Turn(1, ("wait", "enter"))
            case ["wait"]:
                return Won((1, 0))
            case ["enter"]:
                return Turn(2, ("wave", "ambush") if self.deal == 0 else ("wave",))
            case ["enter", "wave"]:
                return Won((1,))
            case _:
                return Won((2,))


SCENARIOS: dict[str, type[TinyState]] = {
    "kingmaker": Kingmaker,
    "doors": Doors,
    "crowd": Crowd,
    "needle": Needle,
    "standings": Standings,
    "ambush": Ambush,
}


class AdvisedRanking:
    """The tiny game's heuristic: the advice first, then the other actions in order."""

    name = "advised"

    def ranked(self, seat: Seat) -> list[str]:
        legal = seat.legal_actions()
        advised = [a for a in seat.view()["advice"] if a in legal]
        return advised + [a for a in legal if a not in advised]

    def choose(self, seat: Seat) -> str:
        return self.ranked(seat)[0]


class AdvisedChoice:
    """The same heuristic without a ranking: only its one choice is known."""

    name = "advised-choice"

    def choose(self, seat: Seat) -> str:
        return AdvisedRanking().choose(seat)


class Tiny(Game):
    id = "tiny"
    title = "Tiny test games"
    min_players = 3
    max_players = 4
    option_specs = (Option("scenario", "kingmaker", "which game", choices=tuple(SCENARIOS)),)

    def __init__(self) -> None:
        self.heuristic: type[AdvisedRanking] | type[AdvisedChoice] = AdvisedRanking

    def _initial_state(self, setup: Setup) -> State:
        return SCENARIOS[setup.options["scenario"]](self, setup)

    def render(self, view: JsonDict) -> str:
        return str(view)

    def heuristic_bot(self, seed: int | None) -> Bot:
        return self.heuristic()


@pytest.fixture(autouse=True)
def tiny(monkeypatch: pytest.MonkeyPatch) -> Iterator[Tiny]:
    """'tiny' joins the registry for one test."""
    spec = Tiny()
    known, load = registry.games, registry._load
    monkeypatch.setattr(registry, "games", lambda: (*known(), "tiny"))
    monkeypatch.setattr(registry, "_load", lambda gid: spec if gid == "tiny" else load(gid))
    yield spec


def start(tiny: Tiny, scenario: str, players: int = 3, seed: int = 1) -> TinyState:
    state = tiny.new(players, seed=seed, options={"scenario": scenario})
    assert isinstance(state, TinyState)
    return state


def mean(node: Node) -> float:
    return node.reward / node.visits


@pytest.mark.parametrize("players", [3, 4])
def test_each_node_holds_the_reward_of_the_player_who_chose_it(tiny: Tiny, players: int) -> None:
    state = start(tiny, "kingmaker", players)
    root = Node(-1, "")
    IsmctsBot(seed=1, iterations=300, stop_early=False).search(state.seat(1), 7, root)
    ally, alone = root.children[(1, "ally")], root.children[(1, "alone")]
    assert mean(alone) == 1.0  # player 1's win, not player 0's loss
    assert mean(ally.children[(2, "betray")]) == 1.0  # player 2's win
    assert alone.visits > ally.visits
    assert IsmctsBot(seed=1, iterations=300).choose(state.seat(1)) == "alone"
    state.apply(1, "ally")
    assert IsmctsBot(seed=1, iterations=300).choose(state.seat(2)) == "betray"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_exploration_comes_back_to_a_move_whose_first_play_out_lost(tiny: Tiny, seed: int) -> None:
    """Without the exploration term the sure third of a win would be played for ever."""
    state = start(tiny, "doors", players=4)
    assert IsmctsBot(seed=seed, iterations=200).choose(state.seat(3)) == "search"


@pytest.mark.parametrize(("widening", "iterations"), [(1.0, 100), (3.0, 39), (0.5, 200)])
def test_widening_grows_at_most_widening_times_sqrt_visits_root_children(
    tiny: Tiny, widening: float, iterations: int
) -> None:
    state = start(tiny, "crowd")
    searcher = IsmctsBot(seed=3, iterations=iterations, widening=widening, stop_early=False)
    visits, _ = searcher.search(state.seat(1), 11)
    assert 1 <= len(visits) <= math.ceil(widening * math.sqrt(iterations))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_widening_spends_a_budget_smaller_than_the_actions_on_a_few(tiny: Tiny, seed: int) -> None:
    """39 iterations for 40 actions: trying each once would leave every count at 1, and
    the first legal action (a loser) would be played."""
    state = start(tiny, "crowd")
    searcher = IsmctsBot(seed=seed, iterations=39)
    assert searcher.choose(state.seat(1)) in WINNERS


def test_the_guide_grows_the_children_in_the_heuristics_order(tiny: Tiny) -> None:
    state = start(tiny, "needle")
    searcher = IsmctsBot(seed=4, iterations=20, guide="heuristic", widening=1.0)
    visits, _ = searcher.search(state.seat(2), 5)
    # The root's actions come in the order their children were grown.
    assert list(visits) == state.advice()[: len(visits)]
    assert searcher.choose(state.seat(2)) == NEEDLE


class CountedRanking(AdvisedRanking):
    """The advised ranking, counting its calls (a class attribute: search makes its own)."""

    calls = 0

    def ranked(self, seat: Seat) -> list[str]:
        CountedRanking.calls += 1
        return super().ranked(seat)


def test_the_guide_ranks_a_node_once_while_its_legal_actions_stay_the_same(tiny: Tiny) -> None:
    """Needle has no hidden information: every world at a node is the same position, so
    its ranking is asked once per node, not at each of the node's expansions."""
    tiny.heuristic = CountedRanking
    CountedRanking.calls = 0
    state = start(tiny, "needle")
    root = Node(-1, "")
    searcher = IsmctsBot(seed=4, iterations=60, guide="heuristic", widening=1.0)
    visits, _ = searcher.search(state.seat(2), 5, root)
    expanded = [node for node in _nodes(root) if node.guides]
    assert len(visits) > 1  # the root grew several children from one ranking
    assert CountedRanking.calls == len(expanded)
    assert list(visits) == state.advice()[: len(visits)]


def _nodes(node: Node) -> list[Node]:
    return [node, *(n for child in node.children.values() for n in _nodes(child))]


def test_the_guide_tries_a_heuristics_one_choice_first(tiny: Tiny) -> None:
    tiny.heuristic = AdvisedChoice
    assert not isinstance(tiny.heuristic_bot(1), RankingBot)
    state = start(tiny, "needle")
    searcher = IsmctsBot(seed=4, iterations=20, guide="heuristic", widening=1.0)
    visits, _ = searcher.search(state.seat(2), 5)
    assert next(iter(visits)) == NEEDLE
    assert searcher.choose(state.seat(2)) == NEEDLE


def test_the_cut_off_temperature_values_a_close_second_above_a_narrow_lead(tiny: Tiny) -> None:
    state = start(tiny, "standings")
    soft = IsmctsBot(seed=2, iterations=200, rollout_limit=1, cutoff_temperature=4.0)
    assert soft.choose(state.seat(2)) == "second"
    root = Node(-1, "")
    soft.search(state.seat(2), 3, root)
    assert mean(root.children[(2, "second")]) == pytest.approx(0.4535, abs=1e-3)
    assert mean(root.children[(2, "lead")]) == pytest.approx(0.3390, abs=1e-3)
    leaders = IsmctsBot(seed=2, iterations=200, rollout_limit=1)
    assert leaders.choose(state.seat(2)) == "lead"


def test_availability_counts_only_the_worlds_where_an_action_is_legal(tiny: Tiny) -> None:
    state = start(tiny, "ambush")
    root = Node(-1, "")
    IsmctsBot(seed=6, iterations=400, stop_early=False).search(state.seat(1), 9, root)
    enter = root.children[(1, "enter")]
    wave, ambush = enter.children[(2, "wave")], enter.children[(2, "ambush")]
    # Ambushing is legal in one world of four: counted available about a quarter as often.
    assert 0.15 < ambush.available / wave.available < 0.35
    assert wave.available <= enter.visits
    assert mean(ambush) == 1.0 and mean(wave) == 0.0  # player 2's rewards
    assert mean(enter) == pytest.approx(0.75, abs=0.1)  # player 1 is ambushed 1 time in 4
    assert IsmctsBot(seed=6, iterations=400).choose(state.seat(1)) == "enter"
