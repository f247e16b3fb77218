"""Every machiavel game as an OpenSpiel game (docs/rl.md); needs ``machiavel[openspiel]``.

    import pyspiel
    from machiavel.rl import openspiel
    openspiel.register()
    game = pyspiel.load_game("machiavel_tyrus", {"players": 2, "seed": 7})

``register()`` adds ``machiavel_tyrus``, ``machiavel_djambi``, ``machiavel_guildes`` and
``machiavel_tyros`` to pyspiel's registry. Parameters: ``players`` (default the game's
fewest) and ``seed`` (the deal; each seed is one game of the same rules, so a state
serializes as the game's parameters and its actions, and comes back by replaying them).
The games are sequential with imperfect information: players who choose at once (Guildes)
choose one after another, each seeing only its view. Randomness is drawn from ``seed``
inside the engine (``SAMPLED_STOCHASTIC``: there are no chance nodes). Returns are win
shares (1, or 1/k for k winners), so they add up to 1. The information state of a player
is their view (as JSON) and the numbers of their own past actions; observations are the
``Observer``'s vector. ``resample_from_infostate`` draws a world with machiavel's own
``resample``: a state the player cannot tell from the true one.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from machiavel.core.contract import State
from machiavel.core.registry import game, games
from machiavel.core.rng import Rng
from machiavel.rl.encoding import Vector
from machiavel.rl.spaces import ActionSpace, Observer

# Upper bounds on the number of actions of a game, for OpenSpiel's GameInfo (no algorithm
# here relies on them; a game reaching one is not cut).
MAX_GAME_LENGTH = {"tyrus": 60, "djambi": 5000, "guildes": 600, "tyros": 3000}
SEED_RANGE = 2**62
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def short_name(game_id: str) -> str:
    return f"machiavel_{game_id}"


def register() -> None:
    """Register every machiavel game with pyspiel (again is harmless)."""
    known = set(pyspiel.registered_names())
    for game_id in games():
        if short_name(game_id) not in known:
            pyspiel.register_game(_game_type(game_id), _game_class(game_id))


def _game_type(game_id: str) -> pyspiel.GameType:
    spec = game(game_id)
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"machiavel {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.min_players, "seed": 0},
    )


def _game_class(game_id: str) -> type[pyspiel.Game]:
    class MachiavelGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            spec = game(game_id)
            players = int(params.get("players", spec.min_players))
            seed = int(params.get("seed", 0))
            setup = spec.make_setup(players, seed % SEED_RANGE, None)  # a clear error if bad
            self.machiavel_setup = setup
            # Every initial state is a copy of this one: OpenSpiel asks for initial states
            # often (its observation calls make one), and a copy skips the deal.
            self.initial = game(game_id).state_from_setup(setup)
            self.initial_views = SharedViews()
            self.actions = ActionSpace(game_id, players)
            self.observer = Observer(game_id, players)
            info = pyspiel.GameInfo(
                num_distinct_actions=self.actions.n,
                max_chance_outcomes=0,
                num_players=players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=1.0,
                max_game_length=MAX_GAME_LENGTH.get(game_id, 10_000),
            )
            super().__init__(_game_type(game_id), info, {"players": players, "seed": seed})

        def new_initial_state(self) -> MachiavelState:
            return MachiavelState(self, self.initial, self.initial_views, shared=True)

        def make_py_observer(
            self,
            iig_obs_type: pyspiel.IIGObservationType | None = None,
            params: dict[str, Any] | None = None,
        ) -> ViewObserver:
            if params:
                raise ValueError(f"observation parameters are not supported: {params}")
            recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return ViewObserver(self.observer, recall)

    MachiavelGame.__name__ = f"Machiavel{game_id.capitalize()}Game"
    return MachiavelGame


class SharedViews(dict[int | None, dict[str, Any]]):
    """The views of one position by player, and their observations: copies of the position
    share them (OpenSpiel asks for a position's observation more than once)."""

    def __init__(self) -> None:
        super().__init__()
        self.observations: dict[int, Vector] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> SharedViews:
        return self


class MachiavelState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """A machiavel state behind pyspiel's State interface."""

    def __init__(
        self,
        spiel_game: Any,
        state: State,
        views: SharedViews | None = None,
        shared: bool = False,
    ) -> None:
        super().__init__(spiel_game)
        # ``shared``: ``state`` is the game's initial position, which every new initial
        # state reads (OpenSpiel makes one at each observation_tensor call) and which is
        # copied only when this state first changes, or is handed out as ``machiavel``.
        self._state = state
        self._shared = shared
        self.encoding: ActionSpace = spiel_game.actions
        self.observer: Observer = spiel_game.observer
        self.own_actions: list[list[int]] = [[] for _ in range(state.players)]
        # Views of this very position (shared by every copy of the same position: pyspiel's
        # clone deep-copies each attribute): replaced, never changed in place, by an action.
        self._views = SharedViews() if views is None else views

    @property
    def machiavel(self) -> State:
        """The machiavel state, this OpenSpiel state's own."""
        if self._shared:
            self._state = self._state.clone()
            self._shared = False
        return self._state

    def view(self, player: int | None) -> dict[str, Any]:
        """``view(player)`` of the machiavel state, built once per action."""
        seen = self._views.get(player)
        if seen is None:
            seen = self._views[player] = self._state.view(player)
        return seen

    def observation(self, player: int, observer: Observer) -> Vector:
        """The observer's vector of ``view(player)``, built once per action."""
        vector = self._views.observations.get(player)
        if vector is None:
            vector = self._views.observations[player] = observer.encode(self.view(player))
        return vector

    def current_player(self) -> int:
        moving = self._state.to_move  # empty once the game is over
        return moving[0] if moving else _TERMINAL

    # pyspiel's observation_tensor and legal_actions, answered here for Python callers (C++
    # callers keep pyspiel's way): the same numbers without pyspiel's detours (a new initial
    # state, two observer passes and a copy through C++ for each tensor). Anything unusual
    # (no such player, no player to move) goes to pyspiel, for its own answer or error.
    def observation_tensor(self, *args: Any) -> list[float]:
        state = self._state
        if args:
            player = args[0]
            if len(args) > 1 or type(player) is not int or not 0 <= player < state.players:
                return list(super().observation_tensor(*args))
        elif state.is_over:
            return list(super().observation_tensor())
        else:
            player = state.to_move[0]
        vector: list[float] = self.observation(player, self.observer).tolist()
        return vector

    def legal_actions(self, *args: Any) -> list[int]:
        state = self._state
        if len(args) > 1 or (args and type(args[0]) is not int):
            return list(super().legal_actions(*args))
        if state.is_over:
            return []
        current = state.to_move[0]
        player = args[0] if args else current
        if player == current:
            return self._legal_actions(player)
        if player < 0:
            return list(super().legal_actions(player))
        return []  # pyspiel's answer for a player not to move (one at a time, as here)

    def _legal_actions(self, player: int) -> list[int]:
        state = self._state
        if player not in state.to_move:
            return []
        numbers = self.encoding.encode_all(state.legal_list(player))
        numbers.sort()
        return numbers

    def _apply_action(self, action: int) -> None:
        state = self.machiavel
        player = state.to_move[0]
        state.apply(player, self.encoding.decode(action))
        self.own_actions[player].append(int(action))
        self._views = SharedViews()

    def _action_to_string(self, player: int, action: int) -> str:
        return f"player {player}: {self.encoding.decode(action)}"

    def is_terminal(self) -> bool:
        return self._state.is_over

    def returns(self) -> list[float]:
        shares = [0.0] * self._state.players
        winners = self._state.winners
        for player in winners:
            shares[player] = 1.0 / len(winners)
        return shares

    def resample_from_infostate(self, player: int, sampler: Any) -> MachiavelState:
        """A world ``player`` cannot tell from this state, drawn by machiavel's resample
        (its randomness taken from OpenSpiel's sampler)."""
        seed = int(sampler() * SEED_RANGE)
        world = self._state.resample(player, Rng(seed))
        other = MachiavelState(self.get_game(), world)
        other.own_actions = [list(actions) for actions in self.own_actions]
        return other

    def __str__(self) -> str:
        return json.dumps(self.view(None), sort_keys=True)


class ViewObserver:
    """OpenSpiel's PyObserver: the Observer's vector as ``tensor``; as a string, the
    player's view in JSON (with their own past actions for a perfect-recall observer)."""

    def __init__(self, observer: Observer, perfect_recall: bool) -> None:
        self.observer = observer
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(observer.shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MachiavelState, player: int) -> None:
        self.tensor[:] = state.observation(player, self.observer)

    def string_from(self, state: MachiavelState, player: int) -> str:
        seen: dict[str, Any] = {"view": state.view(player)}
        if self.perfect_recall:
            seen["mine"] = state.own_actions[player]
        return json.dumps(seen, sort_keys=True)


class MachiavelBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no types
    """A machiavel bot (``machiavel.bot`` name or spec, e.g. ``hard``) as a pyspiel Bot, for
    ``evaluate_bots``: it is given only its seat of the game, as everywhere."""

    def __init__(self, spec: str, seed: int) -> None:
        from machiavel.bots import bot_from_spec

        super().__init__()
        self.bot = bot_from_spec(spec, seed=seed)

    def step(self, state: MachiavelState) -> int:
        player = state.current_player()
        return state.encoding.encode(self.bot.choose(state.machiavel.seat(player)))

    def restart_at(self, state: MachiavelState) -> None:
        """Nothing to do: the bot reads the seat it is given at every move."""

    def inform_action(self, state: MachiavelState, player: int, action: int) -> None:
        """Nothing to do: the next seat shows what was played."""
