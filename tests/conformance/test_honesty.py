"""Honest bots (issue 12): a world drawn by ``resample(p, rng)`` depends only on what ``p``
knows, that is on ``view(p)`` all along the game, never on the hidden truth.

(a) Pair properties, for every game, player count and combination of option choices: two
    true states the observer cannot tell apart give, for the same seed, worlds nobody can
    tell apart (same views for every viewer, same legal actions, and still the same after
    identical continuations). Pairs come from two actions of one mover that leave the
    observer's view identical, followed by the same play for a while (a hidden choice
    often shows its effect only much later: a face-down discard, a Redistribution).
(b) Statistical checks where such pairs rarely reach: the cards D draws from a pile of
    face-down discards (Guildes, G7), the Redistribution (Guildes, G6) and the colour of a
    city fee (Tyros, Y6).

Every test is derandomized: the same examples on every run.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.contract import State
from machiavel.core.playout import random_playout, random_step
from machiavel.core.rng import Rng
from machiavel.games.guildes.data import COPIES, DRAW, GUILD_NAMES, REMOVED
from machiavel.games.guildes.rules import REDISTRIBUTE, TRICKS, GuildesState
from machiavel.games.tyros.rules import TyrosState


def _option_combinations(game_id: str) -> list[dict[str, Any]]:
    """Every combination of the options that list their choices (others keep defaults)."""
    specs = [o for o in machiavel.game(game_id).option_specs if o.choices is not None]
    return [
        dict(zip([o.name for o in specs], values, strict=True))
        for values in itertools.product(*(o.choices or () for o in specs))
    ]


SETUPS = [
    pytest.param(game_id, players, options, id=f"{game_id}-{players}-{json.dumps(options)}")
    for game_id in machiavel.games()
    for players in range(
        machiavel.game(game_id).min_players, machiavel.game(game_id).max_players + 1
    )
    for options in _option_combinations(game_id)
]
seeds = st.integers(min_value=0, max_value=2**32)
WINDOW = 40  # actions compared at once: a run of the legal list, where variants sit together
CONTINUATION = 4  # identical actions played on both worlds after they are drawn
FOLLOW = 80  # identical actions played on both true states after they part
COMPARE_EVERY = 4  # actions between two comparisons of the worlds while following
WORLDS = 16  # worlds drawn for a statistical check


# ---- helpers --------------------------------------------------------------------------
def play_partly(
    game_id: str, players: int, options: dict[str, Any], seed: int, fraction: float
) -> State:
    """A state part-way through a random game (deterministic in the seed)."""
    spec = machiavel.game(game_id)
    total = random_playout(spec.new(players, seed=seed, options=options), Rng(seed + 1))
    state = spec.new(players, seed=seed, options=options)
    rng = Rng(seed + 1)
    for _ in range(int(total * fraction)):
        random_step(state, rng)
    return state


def seen_by(state: State, viewer: int | None) -> str:
    return json.dumps(state.view(viewer), sort_keys=True)


def assert_indistinguishable(a: State, b: State) -> None:
    """Nobody, spectator included, can tell ``a`` from ``b`` now."""
    assert a.to_move == b.to_move
    for viewer in [None, *range(a.players)]:
        assert seen_by(a, viewer) == seen_by(b, viewer), f"viewer {viewer} tells them apart"
    for player in a.to_move:
        assert a.legal_actions(player) == b.legal_actions(player), f"player {player}'s actions"


def play_the_same(a: State, b: State, rng: Rng) -> bool:
    """One random action legal in both, applied to both; False if there is none."""
    movers = [p for p in a.to_move if p in b.to_move]
    if not movers:
        return False
    player = rng.choice(movers)
    legal = set(b.legal_actions(player))
    actions = [action for action in a.legal_actions(player) if action in legal]
    if not actions:
        return False
    action = rng.choice(actions)
    a.apply(player, action)
    b.apply(player, action)
    return True


def assert_same_worlds(a: State, b: State, observer: int, seed: int) -> None:
    """``observer``'s worlds of ``a`` and ``b`` drawn with one seed: the same, and they stay
    the same under the same play (the future draws are part of the world)."""
    world_a, world_b = a.resample(observer, Rng(seed)), b.resample(observer, Rng(seed))
    assert world_a.view(observer) == a.view(observer)
    rng = Rng(seed + 7)
    for _ in range(CONTINUATION):
        assert_indistinguishable(world_a, world_b)
        if not play_the_same(world_a, world_b, rng):
            return
    assert_indistinguishable(world_a, world_b)


def hidden_pairs(state: State, mover: int, rng: Rng) -> dict[int, list[tuple[State, State]]]:
    """For each observer, pairs of states after two actions of ``mover`` it cannot tell apart.

    A run of at most ``WINDOW`` legal actions: variants of one action (a Tyros move with
    each fee colour) are listed side by side, so they are compared with each other.
    """
    legal = state.legal_actions(mover)
    start = rng.below(max(1, len(legal) - WINDOW + 1))
    after = []
    for action in legal[start : start + WINDOW]:
        trial = state.clone()
        trial.apply(mover, action)
        after.append(trial)
    pairs: dict[int, list[tuple[State, State]]] = {}
    for observer in range(state.players):
        if observer == mover:
            continue
        alike: dict[str, list[State]] = {}
        for trial in after:
            alike.setdefault(seen_by(trial, observer), []).append(trial)
        for group in alike.values():
            pairs.setdefault(observer, []).extend((group[0], other) for other in group[1:])
    return pairs


def follow_and_compare(a: State, b: State, observer: int, seed: int, steps: int) -> None:
    """Play the same actions on two states ``observer`` cannot tell apart, comparing
    ``observer``'s worlds of the two every few actions, while ``observer`` still cannot.

    Copies are played: the pair must be fresh, since what the observer saw at every step
    since the two parted (not only at the last) is what they know.
    """
    a, b = a.clone(), b.clone()
    rng = Rng(seed)
    for step in range(steps):
        if a.is_over or seen_by(a, observer) != seen_by(b, observer):
            return
        if step % COMPARE_EVERY == 0:
            assert_same_worlds(a, b, observer, seed + step)
        if not play_the_same(a, b, rng):
            break
    if seen_by(a, observer) == seen_by(b, observer):
        assert_same_worlds(a, b, observer, seed + steps)


# ---- (a) pair properties, every game --------------------------------------------------
@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS)
@settings(max_examples=6, derandomize=True)
@given(seed=seeds, fraction=st.floats(0, 1))
def test_a_world_shows_the_observer_exactly_their_view(
    game_id: str, players: int, options: dict[str, Any], seed: int, fraction: float
) -> None:
    state = play_partly(game_id, players, options, seed, fraction)
    before = state.to_json()
    for observer in range(players):
        world = state.resample(observer, Rng(seed + observer))
        assert world.view(observer) == state.view(observer)
        assert world.legal_actions(observer) == state.legal_actions(observer)
        assert world.to_move == state.to_move
    assert state.to_json() == before  # resampling leaves the true state alone


def positions_of_a_game(
    game_id: str, players: int, options: dict[str, Any], seed: int
) -> list[State]:
    """Positions of one random game, one of each phase (a view's ``phase``, if it has one),
    and one of each phase where the last of several players choosing together is to move:
    their choice resolves what the others' choices hid (a Redistribution, a placing)."""
    state = machiavel.game(game_id).new(players, seed=seed, options=options)
    rng = Rng(seed + 1)
    found: dict[tuple[bool, Any], list[State]] = {}
    while not state.is_over:
        waiting = len(state.to_move)
        found.setdefault((False, state.view(None).get("phase")), []).append(state.clone())
        random_step(state, rng)
        if waiting > 1 and len(state.to_move) == 1:
            found.setdefault((True, state.view(None).get("phase")), []).append(state.clone())
    pick = Rng(seed)
    return [pick.choice(states) for _, states in sorted(found.items(), key=str)]


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS)
@settings(max_examples=6, derandomize=True)
@given(seed=seeds)
def test_actions_the_observer_cannot_tell_apart_give_the_same_worlds(
    game_id: str, players: int, options: dict[str, Any], seed: int
) -> None:
    rng = Rng(seed)
    for state in positions_of_a_game(game_id, players, options, seed):
        mover = rng.choice(state.to_move)
        for observer, pairs in hidden_pairs(state, mover, rng).items():
            for a, b in pairs[:2]:
                assert_same_worlds(a, b, observer, seed)


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS)
@settings(max_examples=8, derandomize=True)
@given(seed=seeds)
def test_a_hidden_choice_followed_by_the_same_play_gives_the_same_worlds(
    game_id: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """Multi-step pairs: what one action hides may matter only many actions later (a card
    kept in the drafting and never placed is discarded face down at the end of the round)."""
    rng = Rng(seed)
    positions = positions_of_a_game(game_id, players, options, seed)
    for state in (rng.choice(positions), rng.choice(positions)):
        mover = rng.choice(state.to_move)
        pairs = [
            (observer, a, b)
            for observer, found in hidden_pairs(state, mover, rng).items()
            for a, b in found
        ]
        if pairs:
            observer, a, b = rng.choice(pairs)
            follow_and_compare(a, b, observer, seed, FOLLOW)


# ---- (b) Guildes: D draws from face-down discards (G7) ----------------------------------
def guildes(players: int, seed: int, events: bool) -> GuildesState:
    state = machiavel.game("guildes").new(
        players, seed=seed, options={"events": events, "dirty_tricks": True}
    )
    assert isinstance(state, GuildesState)
    return state


def d_turn_after_face_down_discards(players: int, seed: int, events: bool) -> GuildesState:
    """A position where D's holder may draw and another player has discarded face down."""
    for attempt in range(50):
        state = guildes(players, seed + attempt, events)
        rng = Rng(seed + attempt)
        while not state.is_over:
            if (
                state.phase == TRICKS
                and state.trick_letter == DRAW
                and "draw" in state.legal_actions(state.to_move[0])
                and unseen_swap(state, state.to_move[0]) is not None
            ):
                return state
            random_step(state, rng)
    raise AssertionError("no such position found")


def unseen_swap(state: GuildesState, observer: int) -> GuildesState | None:
    """Another truth ``observer`` cannot tell from ``state``: a card a player drafted from a
    packet ``observer`` had not seen yet, and later discarded face down, is exchanged with a
    deck card of another guild."""
    n, direction = state.n, state.direction
    for q in range(n):
        if q == observer or not state.hand_discarded[q] or state.red_out[q] >= 0:
            continue
        for step, row in enumerate(state.draft_log):
            packet = (q - direction * step) % n
            if step >= (direction * (observer - packet)) % n:
                continue  # the observer saw this card in the packet
            card = row[q]
            other = next((c for c in state.deck if c != card), None)
            if state.hand_discards[q][card] == 0 or other is None:
                continue
            swapped = state.clone()
            swapped.draft_log = [r[:] for r in state.draft_log]
            swapped.draft_log[step][q] = other
            swapped.deck = swap_one(state.deck, other, card)
            for counts in (swapped.discard, swapped.round_adds):
                counts[card] -= 1
                counts[other] += 1
            discards = state.hand_discards[q][:]
            discards[card] -= 1
            discards[other] += 1
            swapped.hand_discards[q] = discards
            return swapped
    return None


def swap_one(deck: list[int], old: int, new: int) -> list[int]:
    changed = deck[:]
    changed[changed.index(old)] = new
    return changed


def face_down_discards(state: GuildesState, observer: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(state.hand_discards[q]) for q in range(state.n) if q != observer)


def cards_outside_the_pile(state: GuildesState, observer: int) -> list[int]:
    """Of each guild, the cards ``observer`` sees elsewhere: tableaux and their own."""
    seen = [0] * len(GUILD_NAMES)
    for cards in [*state.tableau, state.kept[observer], state.packets[observer]]:
        for guild, count in enumerate(cards):
            seen[guild] += count
    return seen


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("events", [False, True])
@settings(max_examples=3, derandomize=True)
@given(seed=seeds)
def test_d_draws_from_face_down_discards_as_unknown_as_other_hidden_cards_g7(
    players: int, events: bool, seed: int
) -> None:
    state = d_turn_after_face_down_discards(players, seed, events)
    holder = state.to_move[0]
    other = unseen_swap(state, holder)
    assert other is not None and other.view(holder) == state.view(holder)
    totals = [COPIES[g] - REMOVED[players][g] for g in range(len(GUILD_NAMES))]
    assert other.card_totals() == state.card_totals() == totals
    outside = cards_outside_the_pile(state, holder)
    draws, discards = set(), []
    for world_seed in range(WORLDS):
        worlds = [truth.resample(holder, Rng(seed + world_seed)) for truth in (state, other)]
        assert_indistinguishable(*worlds)
        assert isinstance(worlds[0], GuildesState)
        discards.append(face_down_discards(worlds[0], holder))
        for world in worlds:
            world.apply(holder, "draw")
        assert_indistinguishable(*worlds)  # the same cards drawn from the same pile
        drawn = worlds[0].view(holder)["drawn"]
        draws.add(tuple(drawn))
        for name in drawn:  # only cards the holder cannot see anywhere else
            guild = GUILD_NAMES.index(name)
            assert drawn.count(name) + outside[guild] <= totals[guild]
    assert len(draws) > 1 and len(set(discards)) > 1
    for truth in (state, other):  # neither truth's face-down discards are in every world
        assert discards.count(face_down_discards(truth, holder)) < WORLDS


# ---- (b) Guildes: the Redistribution (G6) -----------------------------------------------
def redistribution_last_choice(players: int, seed: int) -> tuple[GuildesState, int]:
    """The Redistribution with every player but one (returned) having chosen a card."""
    for attempt in range(50):
        state = guildes(players, seed + attempt, events=True)
        rng = Rng(seed + attempt)
        while not state.is_over and state.phase != REDISTRIBUTE:
            random_step(state, rng)
        if state.phase != REDISTRIBUTE:
            continue
        while len(state.to_move) > 1:
            random_step(state, rng)
        if len(state.legal_actions(state.to_move[0])) > 1:
            return state, state.to_move[0]
    raise AssertionError("no Redistribution found")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@settings(max_examples=3, derandomize=True)
@given(seed=seeds)
def test_what_others_gave_and_received_stays_hidden_g6(players: int, seed: int) -> None:
    """The last player gives one card or another: a player who received the same card
    either way gets the same worlds, through the placing that follows."""
    state, mover = redistribution_last_choice(players, seed)
    rng = Rng(seed)
    compared = 0
    for observer, pairs in hidden_pairs(state, mover, rng).items():
        for a, b in pairs[:2]:
            follow_and_compare(a, b, observer, seed, 12)
            compared += 1
    assert compared  # the players who did not receive the mover's card cannot tell
    state.apply(mover, state.legal_actions(mover)[0])
    observer = (mover + 1) % players
    exchanges = set()
    for world_seed in range(WORLDS):
        world = state.resample(observer, Rng(seed + world_seed))
        assert isinstance(world, GuildesState)
        assert world.red_out[observer] == state.red_out[observer]
        assert world.red_in[observer] == state.red_in[observer]
        assert sorted(world.red_out) == sorted(world.red_in)  # the given cards, dealt again
        exchanges.add((tuple(world.red_out), tuple(world.red_in)))
    assert len(exchanges) > 1


# ---- (b) Tyros: a city fee's colour (Y6) ------------------------------------------------
def fee_choice(players: int, seed: int) -> tuple[TyrosState, list[str]]:
    """A position whose mover may end a move on another player's city paying the fee in
    at least two colours (the same move otherwise)."""
    spec = machiavel.game("tyros")
    for attempt in range(100):
        state = spec.new(players, seed=seed + attempt)
        assert isinstance(state, TyrosState)
        rng = Rng(seed + attempt)
        while not state.is_over:
            mover = state.to_move[0]
            moves: dict[str, list[str]] = {}
            for action in state.legal_actions(mover):
                head, _, fee = action.partition(" fee ")
                if fee:
                    moves.setdefault(head, []).append(action)
            variants = [fees for fees in moves.values() if len(fees) > 1]
            if variants:
                return state, rng.choice(variants)
            random_step(state, rng)
    raise AssertionError("no city fee found")


def what_they_know_of_each_other(world: State, payer: int, owner: int) -> str:
    """The cards the payer and the owner are shown to surely hold, each of the other's."""
    known = [
        world.view(viewer)["player_info"][holder]["known_cards"]
        for viewer, holder in ((payer, owner), (owner, payer))
    ]
    return json.dumps(known, sort_keys=True)


@pytest.mark.parametrize("players", [3, 4])
@settings(max_examples=4, derandomize=True)
@given(seed=seeds)
def test_a_city_fee_colour_stays_between_the_two_players_y6(players: int, seed: int) -> None:
    state, fees = fee_choice(players, seed)
    mover = state.to_move[0]
    truths = []
    for action in fees[:2]:
        truth = state.clone()
        truth.apply(mover, action)
        truths.append(truth)
    owner = next(
        p for p in range(players) if p != mover and truths[0].hands[p] != truths[1].hands[p]
    )
    for observer in range(players):
        if observer in (mover, owner):
            continue
        assert seen_by(truths[0], observer) == seen_by(truths[1], observer)
        outcomes: list[Counter[str]] = [Counter(), Counter()]
        for world_seed in range(WORLDS):
            worlds = [truth.resample(observer, Rng(seed + world_seed)) for truth in truths]
            assert_indistinguishable(*worlds)
            for outcome, world in zip(outcomes, worlds, strict=True):
                outcome[what_they_know_of_each_other(world, mover, owner)] += 1
        assert outcomes[0] == outcomes[1]
