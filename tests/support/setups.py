"""Every registered game with every player count it allows: what shared suites run over."""

from __future__ import annotations

import machiavel

GAME_IDS = list(machiavel.games())
SETUPS = [
    (game_id, players)
    for game_id in GAME_IDS
    for players in range(
        machiavel.game(game_id).min_players, machiavel.game(game_id).max_players + 1
    )
]
