"""One seat of a machiavel game against machiavel's bots, as a Gymnasium environment
(docs/rl.md); needs ``machiavel[rl]``.

    from machiavel.rl import gymnasium as machiavel_gym
    env = machiavel_gym.make("tyrus", seat=0, opponents="medium")
    observation, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The other seats are played by bots (a name or spec of ``machiavel.bot``, one for all or one
per other seat), each given only its seat, as everywhere in machiavel. The reward comes at
the end: the seat's share of the win. ``info["action_mask"]`` marks the legal actions.
An action that is not legal now changes nothing and costs ``illegal_reward`` (with the
reason in ``info["illegal"]``), or raises ``ValueError`` if ``illegal_reward`` is None.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from machiavel.bots import bot_from_spec
from machiavel.bots.base import Bot
from machiavel.core.contract import State
from machiavel.core.errors import IllegalAction
from machiavel.core.registry import game
from machiavel.core.rng import Rng, random_seed
from machiavel.rl.encoding import Vector
from machiavel.rl.spaces import ActionSpace, Observer


def make(
    game_id: str,
    seat: int = 0,
    opponents: str | Sequence[str] = "medium",
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    illegal_reward: float | None = -1.0,
) -> SeatEnv:
    return SeatEnv(game_id, seat, opponents, players, options, illegal_reward)


class SeatEnv(gymnasium.Env[Vector, np.int64]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  # Gymnasium's own declaration

    def __init__(
        self,
        game_id: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "medium",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        spec = game(game_id)
        count = spec.min_players if players is None else players
        self.setup_options = spec.make_setup(count, 0, options).options
        if type(seat) is not int or not 0 <= seat < count:
            raise ValueError(f"seat is a player of this {count}-player game (0 to {count - 1})")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.machiavel_game = spec
        self.players = count
        self.seat = seat
        self.opponent_specs = _opponents_by_seat(opponents, count, seat)
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.encoding = ActionSpace(game_id, count, self.setup_options)
        self.observer = Observer(game_id, count, self.setup_options)
        self.observation_space = spaces.Box(0.0, 1.0, self.observer.shape, np.float32)
        self.action_space = spaces.Discrete(self.encoding.n)
        self.game_state: State | None = None
        self.bots: dict[int, Bot] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """A new game dealt from ``seed`` (random if None), the bots seeded from it too;
        the bots play until it is the seat's turn."""
        super().reset(seed=seed)
        game_seed = random_seed() if seed is None else seed
        self.game_state = self.machiavel_game.new(
            self.players, seed=game_seed, options=self.setup_options
        )
        seeds = Rng(game_seed)
        self.bots = {
            player: bot_from_spec(spec, seed=seeds.next_u64())
            for player, spec in self.opponent_specs.items()
        }
        self._bots_play()
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Vector, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self._started()
        if state.is_over:
            raise ValueError("the game is over: call reset() for a new one")
        move = self.encoding.decode(action)
        try:
            state.apply(self.seat, move)
        except IllegalAction as error:
            if self.illegal_reward is None:
                raise ValueError(f"may not play {move!r} (action {action}): {error}") from error
            info = {**self._info(), "illegal": f"{move!r} (action {action}): {error}"}
            return self._observation(), self.illegal_reward, False, False, info
        self._bots_play()
        reward = 0.0
        if state.is_over and self.seat in state.winners:
            reward = 1.0 / len(state.winners)
        return self._observation(), reward, state.is_over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.machiavel_game.render(self._started().view(None))

    def close(self) -> None:
        for player_bot in self.bots.values():
            close = getattr(player_bot, "close", None)
            if callable(close):
                close()
        self.bots = {}

    # ---- inside ----------------------------------------------------------------------
    def _bots_play(self) -> None:
        """The bots act until the seat is waited for or the game is over."""
        state = self._started()
        while not state.is_over and self.seat not in state.to_move:
            player = state.to_move[0]
            state.apply(player, self.bots[player].choose(state.seat(player)))

    def _observation(self) -> Vector:
        return self.observer.encode(self._started().view(self.seat))

    def _info(self) -> dict[str, Any]:
        state = self._started()
        legal = state.legal_list(self.seat) if self.seat in state.to_move else ()
        return {"action_mask": self.encoding.mask(legal)}

    def _started(self) -> State:
        if self.game_state is None:
            raise ValueError("call reset() before using the environment")
        return self.game_state


def _opponents_by_seat(opponents: str | Sequence[str], players: int, seat: int) -> dict[int, str]:
    """Each other seat's bot spec, checked now rather than at the first reset."""
    others = [p for p in range(players) if p != seat]
    if isinstance(opponents, str):
        specs = [opponents] * len(others)
    else:
        specs = list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"give one bot for all or one per other seat ({len(others)})")
    for spec in specs:
        bot_from_spec(spec, seed=0)  # an unknown bot is refused here, with the known ones
    return dict(zip(others, specs, strict=True))
