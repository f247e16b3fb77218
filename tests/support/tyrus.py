"""Tyrus positions set up by hand for tests (rule book examples, every shape of count)."""

from __future__ import annotations

from machiavel.games.tyrus.rules import TILES, TyrusState, building_index


def rig(
    state: TyrusState,
    kind: str,
    hands: dict[int, list[str]],
    already: dict[tuple[int, str], list[tuple[int, str]]] | None = None,
) -> None:
    """At the start of a game: force the election's kind, both hands, and tiles placed in
    earlier elections. Every other tile goes to the reserve, so each tile stays in exactly
    one place."""
    already = already or {}
    state.turned[-1] = kind
    for player in (0, 1):
        placed = {t for tiles in already.values() for owner, t in tiles if owner == player}
        state.hands[player] = list(hands[player])
        state.reserves[player] = [t for t in TILES if t not in placed | set(hands[player])]
    for (owner, building_kind), tiles in already.items():
        state.buildings[building_index(owner, building_kind)] = list(tiles)
    state._to_move = state._next_to_move()
    state._legal_cache.clear()
    state._legal_sets.clear()
