"""Every machiavel game as a PettingZoo AEC environment (docs/rl.md); needs ``machiavel[rl]``.

    from machiavel.rl import pettingzoo
    env = pettingzoo.env("tyrus")
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        mask = observation["action_mask"]
        action = None if terminated or truncated else env.action_space(agent).sample(mask)
        env.step(action)

Agents are ``player_0`` ... in seat order. The agent selected is the first player the game
waits for; while several choose at once (Guildes' drafting and placing), they choose one
at a time, each seeing only its own view, where the others' choices stay hidden. Rewards
come at the end: each winner's share of the win (1, or 1/k for k winners), 0 for the
others. An action outside the space, or one not legal now, raises ``ValueError`` with the
reason and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from machiavel.core.contract import State
from machiavel.core.errors import IllegalAction
from machiavel.core.registry import game
from machiavel.core.rng import random_seed
from machiavel.rl.spaces import ActionSpace, Observer

Observation = dict[str, npt.NDArray[Any]]


def env(
    game_id: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    max_cycles: int | None = None,
) -> MachiavelEnv:
    """The environment of ``game_id`` for ``players`` (default: the game's fewest)."""
    return MachiavelEnv(game_id, players, options, render_mode, max_cycles)


def agent_name(player: int) -> str:
    return f"player_{player}"


class MachiavelEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no types
    """One machiavel game as an AEC environment; ``max_cycles`` (if given) truncates the
    game once some agent has acted that many times."""

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        spec = game(game_id)
        count = spec.min_players if players is None else players
        self.setup_options = spec.make_setup(count, 0, options).options
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles is a whole number of at least 1, not {max_cycles!r}")
        self.machiavel_game = spec
        self.players = count
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.action_encoding = ActionSpace(game_id, count, self.setup_options)
        self.observer = Observer(game_id, count, self.setup_options)
        self.metadata = {
            "name": f"machiavel_{game_id}_v{self.action_encoding.version}",
            "render_modes": ["ansi"],
            "is_parallelizable": False,
        }
        self.possible_agents = [agent_name(p) for p in range(count)]
        self._player = {agent: p for p, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self.observer.shape, np.float32),
                "action_mask": spaces.Box(0, 1, (self.action_encoding.n,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {
            agent: spaces.Discrete(self.action_encoding.n) for agent in self.possible_agents
        }
        self.game_state: State | None = None
        self._acted: dict[str, int] = {}

    # ---- the AEC interface --------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, dealt from ``seed`` (random if None). The game's options are the
        environment's; ``options`` here is accepted for the API and not read."""
        self.game_state = self.machiavel_game.new(
            self.players, seed=random_seed() if seed is None else seed, options=self.setup_options
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._acted = dict.fromkeys(self.agents, 0)
        self.agent_selection = self._waited_for()

    def observe(self, agent: str) -> Observation:
        state = self._started()
        player = self._player[agent]
        observation = self.observer.encode(state.view(player))
        waiting = agent == self.agent_selection and player in state.to_move
        legal = state.legal_list(player) if waiting else ()
        return {"observation": observation, "action_mask": self.action_encoding.mask(legal)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # None, as the API wants
            return
        state = self._started()
        if action is None:
            raise ValueError(f"{agent} is to act: step() needs an action number, not None")
        move = self.action_encoding.decode(action)
        try:
            state.apply(self._player[agent], move)
        except IllegalAction as error:
            raise ValueError(f"{agent} may not play {move!r} (action {action}): {error}") from error
        self._cumulative_rewards[agent] = 0.0
        self._acted[agent] += 1
        self._after_action(state)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The game as a spectator sees it (no hidden thing), as text."""
        if self.render_mode is None:
            return None
        return self.machiavel_game.render(self._started().view(None))

    def close(self) -> None:
        self.game_state = None

    # ---- what the environment adds ------------------------------------------------------
    def view(self, agent: str) -> dict[str, Any]:
        """The agent's view itself (what ``observe`` encodes), for those who prefer dicts."""
        return self._started().view(self._player[agent])

    def action_name(self, number: int) -> str:
        """The action a number stands for, in the game's own spelling."""
        return self.action_encoding.decode(number)

    def _after_action(self, state: State) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if state.is_over:
            winners = state.winners
            for player in winners:
                self.rewards[agent_name(player)] = 1.0 / len(winners)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and max(self._acted.values()) >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._waited_for()

    def _waited_for(self) -> str:
        """The next agent to select: the first player the game waits for; once it is over,
        the first agent (every agent then steps once with None, as the API wants)."""
        state = self._started()
        if state.is_over or any(self.truncations.values()):
            return self.agents[0]
        return agent_name(state.to_move[0])

    def _started(self) -> State:
        if self.game_state is None:
            raise ValueError("call reset() before using the environment")
        return self.game_state
