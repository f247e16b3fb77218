"""The research environments of every game (issue 17): PettingZoo's own checks, Gymnasium's
``check_env``, OpenSpiel's bots through ``evaluate_bots``; bad input refused clearly."""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pytest

import machiavel
from machiavel.core.contract import State
from support.setups import GAME_IDS, SETUPS

pettingzoo_test = pytest.importorskip("pettingzoo.test")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from machiavel.rl import gymnasium as machiavel_gym  # noqa: E402
from machiavel.rl import openspiel  # noqa: E402
from machiavel.rl import pettingzoo as machiavel_pz  # noqa: E402


def started(env: machiavel_pz.MachiavelEnv | machiavel_gym.SeatEnv) -> State:
    assert env.game_state is not None, "reset() first"
    return env.game_state


@pytest.fixture(autouse=True)
def _quiet_library_warnings() -> Any:
    """PettingZoo's checks warn about style (a Dict observation space); not failures."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


# ---- PettingZoo ------------------------------------------------------------------------
@pytest.mark.parametrize(("game_id", "players"), SETUPS)
def test_pettingzoo_api_and_seed_tests_pass(game_id: str, players: int) -> None:
    pettingzoo_test.api_test(machiavel_pz.env(game_id, players), num_cycles=60)
    pettingzoo_test.seed_test(lambda: machiavel_pz.env(game_id, players), num_cycles=30)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_whole_pettingzoo_game_ends_with_win_shares(game_id: str) -> None:
    env = machiavel_pz.env(game_id, render_mode="ansi")
    env.reset(seed=5)
    assert env.metadata["name"] == f"machiavel_{game_id}_v1"
    total = 0.0
    rng = np.random.default_rng(5)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        total += reward
        mask = observation["action_mask"]
        assert terminated or mask.sum() == len(started(env).legal_actions(int(agent[7:])))
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
    assert total == pytest.approx(1.0)
    assert env.render() == machiavel.game(game_id).render(started(env).view(None))


def test_pettingzoo_max_cycles_truncates_after_that_many_actions_of_an_agent() -> None:
    env = machiavel_pz.env("guildes", 4, max_cycles=3)
    env.reset(seed=2)
    acted = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        acted[agent] += 1
        observation, _, terminated, truncated, _ = env.last()
        mask = observation["action_mask"]
        env.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))
    # As PettingZoo's max_cycles test counts: the last step of each agent is the None one.
    assert max(acted.values()) == 3 + 1
    assert not env.agents


def test_pettingzoo_refuses_bad_actions_and_changes_nothing() -> None:
    env = machiavel_pz.env("tyrus")
    env.reset(seed=1)
    before = json.dumps(started(env).to_json())
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="may not play"):
        env.step(illegal)
    with pytest.raises(ValueError, match="action numbers go from 0 to 179"):
        env.step(180)
    with pytest.raises(ValueError, match="needs an action number"):
        env.step(None)
    assert json.dumps(started(env).to_json()) == before
    with pytest.raises(machiavel.InvalidSetup, match="players"):
        machiavel_pz.env("tyrus", 3)
    with pytest.raises(ValueError, match="render_mode"):
        machiavel_pz.env("tyrus", render_mode="human")


def test_pettingzoo_simultaneous_choices_do_not_show_earlier_ones() -> None:
    """Guildes' drafting: whichever card the first agent keeps, the next one to choose
    observes exactly the same."""
    seen = []
    for choice in (0, -1):
        env = machiavel_pz.env("guildes", 3)
        env.reset(seed=4)
        observation, *_ = env.last()
        first = env.agent_selection
        env.step(int(np.flatnonzero(observation["action_mask"])[choice]))
        assert env.agent_selection != first  # the others still choose, one at a time
        seen.append(env.observe(env.agent_selection)["observation"])
    assert np.array_equal(seen[0], seen[1])


# ---- Gymnasium -------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_gymnasium_check_env_passes_and_a_game_plays_out(game_id: str) -> None:
    env = machiavel_gym.make(game_id, seat=1, opponents="random")
    check_env(env, skip_render_check=True)
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    terminated = False
    while not terminated:
        assert env.observation_space.contains(observation)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
    assert reward in (0.0, 1.0) or 0 < float(reward) < 1


def test_gymnasium_illegal_actions_cost_and_change_nothing_or_raise() -> None:
    env = machiavel_gym.make("tyrus", opponents="medium")
    _, info = env.reset(seed=8)
    before = json.dumps(started(env).to_json()) if env.game_state else ""
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and not terminated
    assert info["illegal"].startswith(f"'{env.encoding.decode(illegal)}' (action {illegal})")
    assert env.game_state is not None and json.dumps(started(env).to_json()) == before
    strict = machiavel_gym.make("tyrus", illegal_reward=None)
    strict.reset(seed=8)
    with pytest.raises(ValueError, match="may not play"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="seat"):
        machiavel_gym.make("tyrus", seat=2)
    with pytest.raises(machiavel.UnknownBot, match="known bots"):
        machiavel_gym.make("tyrus", opponents="grandmaster")
    with pytest.raises(ValueError, match="one per other seat"):
        machiavel_gym.make("guildes", players=4, opponents=["medium", "easy"])


# ---- OpenSpiel -------------------------------------------------------------------------
class FlatEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """No play-outs: every position is even. Enough to check that search walks the games
    (resample, clone, apply) without paying for play-outs."""

    def evaluate(self, state: Any) -> np.ndarray[Any, Any]:
        players = state.num_players()
        return np.full(players, 1.0 / players)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class PythonIsmcts(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS, with the two no-op methods ``evaluate_bots`` calls and it
    lacks (it searches afresh at every move)."""

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_ismcts_mcts_and_machiavel_bots_play_whole_games(game_id: str) -> None:
    openspiel.register()
    spec = machiavel.game(game_id)
    game = pyspiel.load_game(f"machiavel_{game_id}", {"players": spec.min_players, "seed": 3})
    rng = np.random.RandomState(3)
    evaluator = FlatEvaluator()
    bots = [
        PythonIsmcts(game, evaluator, 2.0, 4, random_state=rng),
        mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rng),
        *[openspiel.MachiavelBot("medium", seed) for seed in range(spec.min_players - 2)],
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == pytest.approx(1.0)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_states_serialize_resample_and_observe(game_id: str) -> None:
    openspiel.register()
    game = pyspiel.load_game(f"machiavel_{game_id}", {"seed": 11})
    state = game.new_initial_state()
    rng = np.random.RandomState(11)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state)
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(player) == state.information_state_string(player)
    assert world.legal_actions() == state.legal_actions()
    assert len(state.observation_tensor(player)) == game.observation_tensor_size()


def _answer(call: Any, *args: Any) -> tuple[Any, str | None]:
    try:
        return call(*args), None
    except Exception as error:  # pyspiel's SpielError, compared by its message
        return None, str(error)


@pytest.mark.parametrize(("game_id", "players"), [("tyrus", 2), ("guildes", 3), ("djambi", 4)])
def test_openspiel_tensors_and_legal_actions_answered_in_python_are_pyspiels(
    game_id: str, players: int
) -> None:
    """observation_tensor and legal_actions, answered by the state for Python callers, give
    what pyspiel's own path gives (values, or the error), for every player and none."""
    openspiel.register()
    game = pyspiel.load_game(f"machiavel_{game_id}", {"players": players, "seed": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(40):
        for args in [(), *((p,) for p in range(-1, players + 1)), (np.int64(0),)]:
            for name in ("observation_tensor", "legal_actions"):
                mine = _answer(getattr(state, name), *args)
                assert mine == _answer(getattr(pyspiel.State, name), state, *args), (name, args)
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_openspiel_refuses_bad_parameters_clearly() -> None:
    openspiel.register()
    with pytest.raises(machiavel.InvalidSetup, match="exactly 2 players, not 5"):
        pyspiel.load_game("machiavel_tyrus", {"players": 5})
