"""The Djambi bot's fast paths tell what its plain definitions tell (issue 16).

Over positions of seeded games played partly by the bot and partly at random, under every
option (Hypothesis, derandomized: these tests never fail by chance):

- what the bot knows is the same read from the seat's JSON view or from the state;
- ``Turn._struck`` (strikes looked for along the lines to the Reporters) answers as
  ``attacked`` does, on the board as it stands and once a step is played on it, and so
  does ``Turn._chief_struck_after`` for the bot's Chief once another piece stepped; a
  landing square struck along a clear line before the step is struck after it, and one
  that was not is struck after it as ``Turn._struck_once_left`` says;
- a change outside the lines of sight of a square leaves ``attacked`` as it was;
- every bound is at least the score (up to rounding for a lowered one), and is the score
  when nothing is left to know;
- drawing only the contenders' noise picks what drawing every action's noise picks.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from machiavel.core.rng import Rng
from machiavel.games.djambi import GAME
from machiavel.games.djambi.board import MOVE_ACTION_SQUARES, SQUARES
from machiavel.games.djambi.bot import (
    ENEMY,
    HOPELESS,
    MINE,
    NOISE,
    DjambiHeuristicBot,
    Knowledge,
    Turn,
    _noise_generator,
    attacked,
    lines_of_sight,
)
from machiavel.games.djambi.rules import DjambiState

seeds = st.integers(min_value=0, max_value=2**48)
options = st.fixed_dictionaries(
    {
        "reporter": st.sampled_from(["single", "scandal"]),
        "aggressivity": st.booleans(),
        "inherited_turns": st.sampled_from(["book", "skip"]),
    }
)
EXAMPLES = settings(max_examples=20, deadline=None, derandomize=True)
ROUNDING = 1e-9  # far below the margin ``_contenders`` keeps (bot.HOPELESS)


def positions(seed: int, chosen: dict[str, Any], every: int = 3) -> list[DjambiState]:
    """Positions of one game, every few actions, each a copy."""
    state = GAME.new(4, seed=seed, options=chosen)
    assert isinstance(state, DjambiState)
    rng = Rng(seed)
    bot = DjambiHeuristicBot(seed)
    found: list[DjambiState] = []
    while not state.is_over and state.version < 240:
        player = state.to_move[0]
        if state.version % every == 0:
            found.append(state.clone())
        if rng.below(2):
            action = bot.choose_in(state, player)
        else:
            action = rng.choice(state.legal_actions(player))
        state.apply(player, action)
    return found


def turn_of(state: DjambiState) -> Turn:
    player = state.to_move[0]
    return Turn(Knowledge.from_state(state, player))


@EXAMPLES
@given(seed=seeds, chosen=options)
def test_what_the_bot_knows_is_the_same_from_the_view_or_the_state(
    seed: int, chosen: dict[str, Any]
) -> None:
    for state in positions(seed, chosen, every=1):
        for player in range(4):
            from_view = Knowledge.from_view(state.view(player), player)
            assert Knowledge.from_state(state, player) == from_view


@EXAMPLES
@given(seed=seeds, chosen=options)
def test_the_fast_strike_look_answers_as_attacked(seed: int, chosen: dict[str, Any]) -> None:
    for state in positions(seed, chosen):
        turn = turn_of(state)
        for side in (MINE, ENEMY):
            for square in range(SQUARES):
                expected = attacked(turn.board, square, turn.rel, side)
                assert turn._struck(square, side) == expected
        board = turn.board
        for action in state.legal_actions(state.to_move[0]):
            squares = MOVE_ACTION_SQUARES.get(action)
            if squares is None:
                continue
            origin, target = squares
            piece, other = board[origin], board[target]
            surely = turn._surely_struck_landing(target)
            board[origin], board[target] = 0, piece  # a step, as the bot plays it to judge
            assert turn._struck(target) == attacked(board, target, turn.rel)
            assert attacked(board, target, turn.rel) or not surely
            if not surely:  # only the line through the square left may have opened
                assert turn._struck_once_left(target, origin) == turn._struck(target)
            if turn.chief >= 0 and turn.chief != origin:
                exposed = attacked(board, turn.chief, turn.rel)
                assert turn._struck(turn.chief) == exposed
                assert turn._chief_struck_after(origin, target) == exposed
            board[origin], board[target] = piece, other


@EXAMPLES
@given(seed=seeds, chosen=options, filler=st.sampled_from([0, -1, 2, 6, 10, 14, 19, 27]))
def test_changes_out_of_sight_leave_attacked_as_it_was(
    seed: int, chosen: dict[str, Any], filler: int
) -> None:
    for state in positions(seed, chosen, every=7):
        turn = turn_of(state)
        board = turn.board
        for square in range(0, SQUARES, 4):
            before = attacked(board, square, turn.rel)
            sight = lines_of_sight(board, square)
            for other in range(SQUARES):
                if sight[other] or other == square:
                    continue
                kept = board[other]
                board[other] = filler
                assert attacked(board, square, turn.rel) == before
                board[other] = kept


@EXAMPLES
@given(seed=seeds, chosen=options)
def test_bounds_are_never_below_the_scores(seed: int, chosen: dict[str, Any]) -> None:
    for state in positions(seed, chosen):
        actions = state.legal_actions(state.to_move[0])
        turn = turn_of(state)
        bounds, unsure = turn.bounds(actions)
        assert turn.scores(actions) == [turn.score(action) for action in actions]
        for index, action in enumerate(actions):
            bound, score = bounds[index], turn.score(action)
            assert bound >= score
            if not unsure[index]:
                assert bound == score
            else:
                refined, exact = turn.refine(index, action, bound)
                assert refined >= score - ROUNDING  # summed in another order
                if exact:
                    assert refined == score


@settings(max_examples=50, deadline=None, derandomize=True)
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    scores=st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 4.8]), min_size=1, max_size=60),
)
def test_the_noise_of_the_contenders_alone_picks_as_all_draws_do(
    seed: int, scores: list[float]
) -> None:
    rng = Rng(seed)
    drawn = [rng.random() for _ in scores]
    assert [_noise_generator(seed, i).random() for i in range(len(scores))] == drawn
    totals = [score + NOISE * noise for score, noise in zip(scores, drawn, strict=True)]
    best = max(scores)
    contenders = {i: s for i, s in enumerate(scores) if s > best - HOPELESS}
    bot = DjambiHeuristicBot(seed)
    assert bot._pick(contenders, len(scores)) == totals.index(max(totals))
    assert bot.rng.state == rng.state
