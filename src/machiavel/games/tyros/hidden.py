"""Determinization: a world one player cannot tell apart from the true one.

Redrawn: the other players' trade cards and the deck (keeping every hand size and what
the player knows: the lower bounds of ``known``), the others' secret end-of-round choices,
the terrain tiles the player has not seen (in other hands and in the pile, keeping every
count and every tile whose place is public), and the game's future randomness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.core.rng import Rng
from machiavel.games.tyros.cards import JOKERS, KINDS, PER_COLOUR, vec_of

if TYPE_CHECKING:
    from machiavel.games.tyros.rules import TyrosState


def resample_state(state: TyrosState, player: int, rng: Rng) -> TyrosState:
    world = state.clone()
    _redraw_cards(world, player, rng)
    _redraw_tiles(world, player, rng)
    world.rng = rng.fork()
    return world


def _redraw_cards(world: TyrosState, player: int, rng: Rng) -> None:
    n = world.n
    others = [p for p in range(n) if p != player]
    # Unseen by ``player``: the deck and the other hands, as one pool of colours.
    pool = [PER_COLOUR] * (KINDS - 1) + [JOKERS]
    for kind in range(KINDS):
        pool[kind] -= world.discard[kind] + world.hands[player][kind]
    sizes = {p: sum(world.hands[p]) for p in others}
    for p in others:
        base = (player * n + p) * KINDS
        hand = world.known[base : base + KINDS]  # what ``player`` knows p holds stays
        for kind in range(KINDS):
            pool[kind] -= hand[kind]
        world.hands[p] = hand
    rest = [kind for kind in range(KINDS) for _ in range(pool[kind])]
    rng.shuffle(rest)  # built from counts only: the draw ignores where the cards truly are
    for p in others:
        hand = world.hands[p]
        for _ in range(sizes[p] - sum(hand)):
            hand[rest.pop()] += 1
    world.deck = rest
    for p in others:  # a secret keep is redrawn among the new cards
        if world.keep_choice[p] is not None:
            cards = [kind for kind in range(KINDS) for _ in range(world.hands[p][kind])]
            rng.shuffle(cards)
            kept = [0] * KINDS
            for kind in cards[:3]:
                kept[kind] += 1
            world.keep_choice[p] = vec_of(kept)
    _forget_private_knowledge(world, player)


def _forget_private_knowledge(world: TyrosState, player: int) -> None:
    """What the others know of each other's cards, as far as ``player`` can tell.

    A city fee (Y6) shows its card to the giver and the receiver only: what they learned
    from it about each other is unknown to ``player``, so in the world they know only what
    everyone saw (the spectator's row). Every public event raises or lowers all rows alike,
    and a fee lowers the spectator's row at least as much as any player's, so that row is
    never above ``player``'s own bounds, which the redrawn hands keep. What the others know
    of ``player``'s cards is left as it is: ``player`` saw every event behind it.
    """
    n = world.n
    known = world.known
    for viewer in range(n):
        if viewer == player:
            continue
        for holder in range(n):
            if holder in (viewer, player):
                continue
            row = (viewer * n + holder) * KINDS
            public = (n * n + holder) * KINDS
            known[row : row + KINDS] = known[public : public + KINDS]


def _redraw_tiles(world: TyrosState, player: int, rng: Rng) -> None:
    public = world.public_tiles
    hidden: list[int] = []
    for p in range(world.n):
        if p != player:
            hidden.extend(t for t in world.tiles[p] if t not in public)
    hidden.extend(t for t in world.pile if t not in public)
    hidden.sort()
    rng.shuffle(hidden)
    for p in range(world.n):
        if p != player:
            tiles = world.tiles[p]
            world.tiles[p] = sorted(t if t in public else hidden.pop() for t in tiles)
    world.pile = [t if t in public else hidden.pop() for t in world.pile]
