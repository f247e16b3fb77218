"""Environment steps per second: every machiavel game through PettingZoo and through
OpenSpiel, and OpenSpiel's own Python games through the same OpenSpiel loop, in one run.

Each step reads the observation of the player to act (the vector and, for PettingZoo, the
action mask) and plays a uniformly random legal action; games restart when over:

    .venv/bin/python benchmarks/rl.py --seconds 3
    taskset -c 0 .venv/bin/python benchmarks/rl.py --seconds 3 --game tyrus --cpu

With ``--cpu``, steps per CPU second of the benchmark's thread (``time.thread_time``):
on a shared machine, other jobs move it far less than steps per second of wall time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python import games as openspiel_python_games

import machiavel
from machiavel.rl import openspiel
from machiavel.rl import pettingzoo as machiavel_pz

OPENSPIEL_PEERS = ("python_tic_tac_toe", "python_kuhn_poker")


def pettingzoo_steps(game_id: str, seconds: float) -> float:
    env = machiavel_pz.env(game_id)
    rng = np.random.default_rng(1)
    return _timed(seconds, lambda: _pettingzoo_game(env, rng))


def _pettingzoo_game(env: machiavel_pz.MachiavelEnv, rng: np.random.Generator) -> int:
    env.reset(seed=int(rng.integers(2**31)))
    steps = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(pick(np.flatnonzero(observation["action_mask"]), rng))
        steps += 1
    return steps


def pick(actions: Sequence[int] | npt.NDArray[np.intp], rng: np.random.Generator) -> int:
    """A uniformly random one of ``actions``, by index: ``rng.choice`` would first turn a
    list into an array, a cost that grows with the number of legal actions and is the
    loop's, not the environment's."""
    return int(actions[int(rng.integers(len(actions)))])


def openspiel_steps(name: str, seconds: float, params: dict[str, int] | None = None) -> float:
    rng = np.random.default_rng(1)
    game = pyspiel.load_game(name, params or {})

    def one_game() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=chances)))
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(pick(state.legal_actions(), rng))
            steps += 1
        return steps

    return _timed(seconds, one_game)


CLOCK = time.perf_counter  # time.thread_time with --cpu


def _timed(seconds: float, one_game: Callable[[], int]) -> float:
    """Whole games for about ``seconds`` of ``CLOCK``; steps per second of it."""
    steps = 0
    start = CLOCK()
    while CLOCK() - start < seconds or steps == 0:
        steps += one_game()
    return steps / (CLOCK() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measure")
    parser.add_argument("--game", action="append", default=[], help="only this game")
    parser.add_argument(
        "--cpu", action="store_true", help="steps per CPU second of this thread, not wall time"
    )
    args = parser.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.thread_time
    openspiel.register()
    assert openspiel_python_games  # imported for its registering of the Python games
    print(f"{'environment':32} {'steps/s':>10}")
    for peer in OPENSPIEL_PEERS:
        print(f"{'OpenSpiel ' + peer:32} {openspiel_steps(peer, args.seconds):10.0f}")
    for game_id in args.game or list(machiavel.games()):
        name = f"machiavel_{game_id}"
        print(f"{'OpenSpiel ' + name:32} {openspiel_steps(name, args.seconds):10.0f}")
        print(f"{'PettingZoo ' + name:32} {pettingzoo_steps(game_id, args.seconds):10.0f}")


if __name__ == "__main__":
    main()
