"""OpenSpiel's Python ISMCTS against machiavel's `hard` bot, through `evaluate_bots`.

Each game is a new deal (`seed` parameter); seats alternate. OpenSpiel's ISMCTS runs a
fixed number of simulations with random play-out evaluation (its own defaults); `hard` has
its usual second a move. Prints `hard`'s win rate with a 95% Wilson interval and, with
`--out`, writes every game to a JSON file:

    .venv/bin/python benchmarks/openspiel_vs_hard.py --game tyrus --games 100 \\
        --simulations 400 --out docs/arena/tyrus_openspiel_ismcts_vs_hard
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from machiavel.bots.arena import wilson_interval
from machiavel.rl import openspiel


class PythonIsmcts(ismcts.ISMCTSBot):  # type: ignore[misc]  # OpenSpiel ships no types
    """OpenSpiel's Python ISMCTS with the two methods ``evaluate_bots`` calls and it lacks
    (it searches afresh at every move, so they have nothing to do)."""

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass


def play(game_id: str, seed: int, hard_seat: int, simulations: int) -> dict[str, Any]:
    game = pyspiel.load_game(f"machiavel_{game_id}", {"seed": seed})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    searcher = PythonIsmcts(game, evaluator, 2.0, simulations, random_state=rng)
    bots = [searcher] * game.num_players()
    bots[hard_seat] = openspiel.MachiavelBot("hard", seed)
    start = time.perf_counter()
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    return {
        "seed": seed,
        "hard_seat": hard_seat,
        "returns": [float(r) for r in returns],
        "hard_share": float(returns[hard_seat]),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="tyrus")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--simulations", type=int, default=400, help="ISMCTS simulations a move (about 1 s here)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="write PATH.json with every game")
    args = parser.parse_args()
    openspiel.register()
    games: list[dict[str, Any]] = []
    for number in range(args.games):
        seed = args.seed + number
        games.append(play(args.game, seed, number % 2, args.simulations))
        points = sum(g["hard_share"] for g in games)
        print(f"game {number + 1}: hard {games[-1]['hard_share']:.1f}, total {points:.1f}")
        if args.out:  # after every game: a stopped run keeps what it played
            save(args, games)
    points = sum(g["hard_share"] for g in games)
    low, high = wilson_interval(points, len(games))
    print(f"hard won {points / len(games):.1%} of {len(games)} games (95% {low:.1%}-{high:.1%})")


def save(args: argparse.Namespace, games: list[dict[str, Any]]) -> None:
    points = sum(g["hard_share"] for g in games)
    low, high = wilson_interval(points, len(games))
    summary = {
        "game": args.game,
        "simulations": args.simulations,
        "hard_win_rate": points / len(games),
        "ci95": [low, high],
        "games": games,
    }
    Path(f"{args.out}.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
