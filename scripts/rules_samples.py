"""Write src/machiavel/web/rules-data.js: what the rules pages draw, taken from the engines.

The rules pages (web/rules.js) draw each game's board with the game's own board module, on
a position reached by a fixed seed and a few fixed moves, and Guildes' guild values (G2) on
the cards and the count table. Both come from the engines, not copied by hand: this script
writes them; `--check` fails when the file differs from what the engines give now
(tests/web/test_web_rules.py runs it).

    python scripts/rules_samples.py           # rewrite the file
    python scripts/rules_samples.py --check   # exit 1 when it is out of date
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import machiavel
from machiavel.games.guildes import data as guildes_data

TARGET = Path(__file__).resolve().parents[1] / "src" / "machiavel" / "web" / "rules-data.js"

# game: (players, seed, moves played before the picture): a position a newcomer can read,
# with pieces moved, tiles placed, a count made, ships out of Tyros.
POSITIONS: dict[str, tuple[int, int, int]] = {
    "tyrus": (2, 3, 10),
    "djambi": (4, 3, 12),
    "guildes": (4, 3, 80),
    "tyros": (3, 3, 40),
}
# Verbs played first when legal (earlier first): Tyros ships that sail and cities that get
# built rather than trades with the bank.
PREFERRED: dict[str, tuple[str, ...]] = {"tyros": ("city", "move", "expand")}


def pick(game_id: str, legal: list[str], chooser: random.Random) -> str:
    for verb in PREFERRED.get(game_id, ()):
        wanted = [action for action in legal if action.split(" ")[0] == verb]
        if wanted:
            return chooser.choice(wanted)
    return chooser.choice(legal)


def sample_view(game_id: str) -> dict[str, Any]:
    """The spectator's view after a few moves chosen by a seeded generator (never a bot:
    bots change, and the pictures must not change with them)."""
    players, seed, moves = POSITIONS[game_id]
    state = machiavel.game(game_id).new(players, seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        player = min(state.to_move)
        state.apply(player, pick(game_id, sorted(state.legal_actions(player)), chooser))
    view: dict[str, Any] = state.view(None)
    return view


def guild_values() -> dict[str, Any]:
    """Per guild, its votes per place at the count of each round (G2); Milice: per card."""
    values: dict[str, Any] = {}
    for index, name in enumerate(guildes_data.GUILD_NAMES):
        if index == guildes_data.MILICE:
            values[name] = {"per_card": guildes_data.MILICE_VOTES}
        else:
            values[name] = {"rounds": [list(rounds[index]) for rounds in guildes_data.PLACES]}
    return values


def module_text() -> str:
    samples = {game_id: sample_view(game_id) for game_id in POSITIONS}
    return (
        "// @ts-check\n"
        "// Written by scripts/rules_samples.py from the engines: do not edit by hand.\n"
        "// SAMPLES: a spectator's view of each game a few moves in (the rules pages draw it).\n"
        "// GUILD_VALUES: Guildes' votes per place at each round's count (ruling G2).\n"
        f"export const SAMPLES = {json.dumps(samples, ensure_ascii=False, sort_keys=True)};\n"
        f"export const GUILD_VALUES = {json.dumps(guild_values(), ensure_ascii=False)};\n"
    )


def main(argv: list[str]) -> int:
    text = module_text()
    if "--check" in argv:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} is out of date: run python scripts/rules_samples.py")
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
