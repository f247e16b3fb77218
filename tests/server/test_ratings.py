"""The ratings module (server/ratings.py): ranks of results, OpenSkill updates, the display
number, who is rated, JSON round-trips; properties over random results of every game."""

from __future__ import annotations

import json
import math
import random
from itertools import pairwise

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.server.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    MODEL,
    RANKED_BY_SCORE,
    Rating,
    TableSeat,
    account_key,
    bot_key,
    display,
    is_rated,
    new_model,
    rank_of_result,
    rate_game,
    seat_key,
    unrated_reason,
    update,
)

GAMES = {
    "tyrus": (2, 2),
    "djambi": (4, 4),
    "guildes": (3, 6),
    "tyros": (3, 4),
}


def fresh(n: int) -> list[Rating]:
    return [Rating() for _ in range(n)]


def changes(before: list[Rating], after: list[Rating]) -> list[float]:
    return [a.mu - b.mu for a, b in zip(after, before, strict=True)]


# ---- the value and its display ------------------------------------------------------------


def test_a_new_rating_is_openskills_default_and_displays_1500() -> None:
    rating = Rating()
    assert (rating.mu, rating.sigma, rating.games) == (25.0, 25.0 / 3.0, 0)
    assert (MODEL.mu, MODEL.sigma) == (DEFAULT_MU, DEFAULT_SIGMA)
    assert rating.ordinal == pytest.approx(0.0)
    assert display(rating) == 1500


def test_display_formula() -> None:
    assert display(Rating(30.0, 2.0, 10)) == 1500 + 30 * 24
    assert display(Rating(25.0, 1.0, 10)) == 1500 + 30 * 22
    assert display(Rating(-60.0, 1.0, 99)) == 0  # never below 0


@given(
    st.floats(-100, 100),
    st.floats(0.01, 10),
    st.floats(0, 5),
)
def test_display_rises_with_mu_and_falls_with_sigma(mu: float, sigma: float, more: float) -> None:
    assert display(Rating(mu + more, sigma)) >= display(Rating(mu, sigma))
    assert display(Rating(mu, sigma + more)) <= display(Rating(mu, sigma))


def test_json_round_trip() -> None:
    rating = update(MODEL, fresh(3), [1, 2, 3])[1]
    assert Rating.from_json(rating.to_json()) == rating
    assert Rating.from_json(json.dumps(rating.to_json())) == rating
    assert Rating.from_json(orjson.dumps(rating.to_json())) == rating
    assert Rating.from_json({"mu": 25, "sigma": 8, "games": 0}) == Rating(25.0, 8.0, 0)


@given(
    st.floats(allow_nan=False, allow_infinity=False), st.floats(1e-6, 1e6), st.integers(0, 2**53)
)
def test_json_round_trip_is_exact(mu: float, sigma: float, games: int) -> None:
    rating = Rating(mu, sigma, games)
    assert Rating.from_json(json.dumps(rating.to_json())) == rating
    assert Rating.from_json(orjson.dumps(rating.to_json()).decode()) == rating


@pytest.mark.parametrize(
    "data",
    [
        {"mu": 25.0, "sigma": 8.0},
        {"mu": 25.0, "sigma": 8.0, "games": 0, "extra": 1},
        {"mu": "25", "sigma": 8.0, "games": 0},
        {"mu": 25.0, "sigma": True, "games": 0},
        {"mu": 25.0, "sigma": 8.0, "games": 1.5},
        {"mu": 25.0, "sigma": 0.0, "games": 0},
        {"mu": 25.0, "sigma": -1.0, "games": 0},
        {"mu": float("nan"), "sigma": 8.0, "games": 0},
        {"mu": 25.0, "sigma": float("inf"), "games": 0},
        {"mu": 25.0, "sigma": 8.0, "games": -1},
        [25.0, 8.0, 0],
        "not json",
    ],
)
def test_from_json_refuses_anything_else(data: object) -> None:
    with pytest.raises(ValueError):
        Rating.from_json(data)  # type: ignore[arg-type]


# ---- ranks of results ---------------------------------------------------------------------


def test_every_registered_game_says_how_its_results_rank() -> None:
    assert set(RANKED_BY_SCORE) == set(machiavel.games())
    for game_id, (low, high) in GAMES.items():
        spec = machiavel.game(game_id)
        assert (spec.min_players, spec.max_players) == (low, high)


def test_tyrus_ranks() -> None:
    assert rank_of_result("tyrus", 2, (0,), [5.0, 2.0]) == [1, 2]
    # three in a row can win with fewer elections: the scores do not rank
    assert rank_of_result("tyrus", 2, (1,), [4.0, 3.0]) == [2, 1]
    assert rank_of_result("tyrus", 2, (0, 1), [4.0, 4.0]) == [1, 1]  # a draw


def test_djambi_ranks_the_others_equal() -> None:
    assert rank_of_result("djambi", 4, (2,), [0.0, 0.0, 1.0, 0.0]) == [2, 2, 1, 2]
    assert rank_of_result("djambi", 4, (0, 3), [0.5, 0.0, 0.0, 0.5]) == [1, 3, 3, 1]
    assert rank_of_result("djambi", 4, (0, 1, 2, 3), [0.25] * 4) == [1, 1, 1, 1]


def test_tyros_and_guildes_rank_by_score() -> None:
    assert rank_of_result("tyros", 4, (1,), [10.0, 20.0, 10.0, 5.0]) == [2, 1, 2, 4]
    # a player with the winner's points who lost the tie-break comes after the winner
    assert rank_of_result("tyros", 3, (0,), [30.0, 30.0, 12.0]) == [1, 2, 3]
    assert rank_of_result("tyros", 3, (0, 1), [30.0, 30.0, 12.0]) == [1, 1, 3]
    assert rank_of_result("guildes", 6, (0, 4), [90, 70, 80, 70, 90, 10]) == [1, 4, 3, 4, 1, 6]


@pytest.mark.parametrize(
    ("game_id", "players", "winners", "scores"),
    [
        ("chess", 2, (0,), [1.0, 0.0]),
        ("tyrus", 2, (), [1.0, 0.0]),
        ("tyrus", 2, (2,), [1.0, 0.0]),
        ("tyrus", 2, (0, 0), [1.0, 0.0]),
        ("tyrus", 2, (0,), [1.0]),
        ("tyrus", 1, (0,), [1.0]),
        ("guildes", 3, (0,), [1.0, float("nan"), 0.0]),
    ],
)
def test_rank_of_result_refuses_malformed_results(
    game_id: str, players: int, winners: tuple[int, ...], scores: list[float]
) -> None:
    with pytest.raises(ValueError):
        rank_of_result(game_id, players, winners, scores)


def test_ranks_of_real_games_agree_with_their_winners() -> None:
    """Random play to the end of every game and player count: the winners alone have
    place 1, and a score-ranked game places nobody above a higher score."""
    for game_id, (low, high) in GAMES.items():
        spec = machiavel.game(game_id)
        for players in range(low, high + 1):
            for seed in range(3):
                state = spec.new(players, seed=seed)
                choose = random.Random(seed)
                while not state.is_over:
                    player = state.to_move[0]
                    state.apply(player, choose.choice(state.legal_actions(player)))
                ranks = rank_of_result(game_id, players, state.winners, state.scores)
                assert {p for p in range(players) if ranks[p] == 1} == set(state.winners)
                if RANKED_BY_SCORE[game_id]:
                    for a in range(players):
                        for b in range(players):
                            if state.scores[a] > state.scores[b] and b not in state.winners:
                                assert ranks[a] < ranks[b]
                keys = [f"account:{p}" for p in range(players)]
                after = rate_game(MODEL, game_id, keys, {}, state.winners, state.scores)
                assert all(after[key].games == 1 for key in keys)


# ---- updates ------------------------------------------------------------------------------


def test_two_players_winner_gains_loser_loses() -> None:
    before = fresh(2)
    winner, loser = update(MODEL, before, rank_of_result("tyrus", 2, (0,), [5.0, 2.0]))
    assert winner.mu > DEFAULT_MU > loser.mu
    assert winner.mu - DEFAULT_MU == pytest.approx(DEFAULT_MU - loser.mu)
    assert winner.sigma < DEFAULT_SIGMA and loser.sigma < DEFAULT_SIGMA
    assert winner.games == loser.games == 1
    assert display(winner) > 1500 > display(loser)
    assert (display(winner), display(loser)) == (1603, 1445)


def test_djambi_winner_up_the_others_down_equally() -> None:
    before = fresh(4)
    after = update(MODEL, before, rank_of_result("djambi", 4, (1,), [0.0, 1.0, 0.0, 0.0]))
    delta = changes(before, after)
    assert delta[1] > 0
    assert delta[0] < 0 and delta[0] == delta[2] == delta[3]
    assert after[0] == after[2] == after[3]
    assert sum(delta) == pytest.approx(0.0, abs=1e-9)


def test_guildes_six_players_shared_win() -> None:
    before = fresh(6)
    scores = [90, 70, 90, 60, 70, 50]
    ranks = rank_of_result("guildes", 6, (0, 2), scores)
    assert ranks == [1, 3, 1, 5, 3, 6]
    after = update(MODEL, before, ranks)
    delta = changes(before, after)
    assert delta[0] == delta[2] > 0  # the tied winners gain the same, the most
    assert delta[0] > delta[1] == delta[4] > delta[3] > delta[5]
    assert delta[5] < 0
    assert after[0] == after[2] and after[1] == after[4]


def test_tied_winners_gain_more_than_a_sole_second() -> None:
    """Why Bradley-Terry (full pairing) and not Plackett-Luce: four players sharing a win
    of six gain more than the one who came second after them."""
    after = update(MODEL, fresh(6), [1, 1, 1, 1, 5, 6])
    delta = changes(fresh(6), after)
    assert delta[0] > delta[4] > delta[5]


def test_tyros_ranks_by_score() -> None:
    before = fresh(4)
    after = update(MODEL, before, rank_of_result("tyros", 4, (2,), [40.0, 55.0, 61.0, 12.0]))
    delta = changes(before, after)
    assert delta[2] > delta[1] > delta[0] > delta[3]
    assert delta[2] > 0 > delta[3]


def test_a_draw_between_equals_changes_no_mu() -> None:
    after = update(MODEL, fresh(2), rank_of_result("tyrus", 2, (0, 1), [4.0, 4.0]))
    assert [r.mu for r in after] == [DEFAULT_MU, DEFAULT_MU]
    assert all(r.sigma < DEFAULT_SIGMA and r.games == 1 for r in after)
    # a draw with a stronger player: the weaker gains, the stronger loses
    strong, weak = update(MODEL, [Rating(35.0, 3.0), Rating(20.0, 3.0)], [1, 1])
    assert strong.mu < 35.0 and weak.mu > 20.0
    # Djambi, every player still in the game at the end sharing a draw
    four = update(MODEL, fresh(4), rank_of_result("djambi", 4, (0, 1, 2, 3), [0.25] * 4))
    assert all(r.mu == pytest.approx(DEFAULT_MU) for r in four)


def test_repeated_results_converge() -> None:
    """The same player winning game after game: sigma shrinks every game, mu rises by
    ever smaller steps, and the display climbs. Two equals winning in turn: their sigma
    shrinks far and their mu stays near the start."""
    good, bad = Rating(), Rating()
    sigmas, steps, shown = [good.sigma], [], [display(good)]
    for _ in range(60):
        before = good.mu
        good, bad = update(MODEL, [good, bad], [1, 2])
        sigmas.append(good.sigma)
        steps.append(good.mu - before)
        shown.append(display(good))
    assert all(b < a for a, b in pairwise(sigmas))
    assert all(b < a for a, b in pairwise(steps))
    assert all(b > a for a, b in pairwise(shown))
    assert sigmas[-1] < 0.7 * DEFAULT_SIGMA and steps[-1] < steps[0] / 20
    assert good.games == bad.games == 60
    one, other = Rating(), Rating()
    for game in range(100):
        one, other = update(MODEL, [one, other], [1, 2] if game % 2 else [2, 1])
    assert one.sigma < 2.5 and other.sigma < 2.5
    assert abs(one.mu - DEFAULT_MU) < 1 and abs(other.mu - DEFAULT_MU) < 1


def test_updates_are_deterministic() -> None:
    ratings = [Rating(31.0, 4.0, 9), Rating(18.5, 6.2, 3), Rating(25.0, 8.0, 1)]
    first = update(MODEL, ratings, [2, 1, 3])
    assert update(new_model(), ratings, [2, 1, 3]) == first
    assert update(MODEL, ratings, [2, 1, 3]) == first
    assert ratings == [Rating(31.0, 4.0, 9), Rating(18.5, 6.2, 3), Rating(25.0, 8.0, 1)]


def test_update_refuses_mismatched_lengths() -> None:
    with pytest.raises(ValueError):
        update(MODEL, fresh(3), [1, 2])
    with pytest.raises(ValueError):
        update(MODEL, fresh(1), [1])


# ---- keys and bots ------------------------------------------------------------------------


def test_seat_keys() -> None:
    assert seat_key(TableSeat("human", account_id=42)) == account_key(42) == "account:42"
    assert seat_key(TableSeat("bot", level="hard")) == bot_key("hard") == "bot:hard"
    assert seat_key(TableSeat("human")) is None
    with pytest.raises(ValueError):
        seat_key(TableSeat("bot"))
    with pytest.raises(ValueError):
        seat_key(TableSeat("robot", level="hard"))


def test_bots_are_rated_like_players() -> None:
    """A bot level's rating moves exactly as an account's would in its place."""
    person, bot = Rating(27.0, 5.0, 4), Rating(24.0, 6.0, 10)
    keys = ["account:1", "bot:hard"]
    with_bot = rate_game(
        MODEL, "tyrus", keys, dict(zip(keys, [person, bot], strict=True)), (1,), [3.0, 5.0]
    )
    with_account = update(MODEL, [person, bot], [2, 1])
    assert [with_bot["account:1"], with_bot["bot:hard"]] == with_account
    assert with_bot["bot:hard"].mu > bot.mu


def test_rate_game_with_two_seats_of_one_bot_level() -> None:
    """Two medium bots and a person: the level's comparisons with itself cancel out."""
    after = rate_game(
        MODEL, "guildes", ["bot:medium", "account:7", "bot:medium"], {}, (1,), [60, 80, 60]
    )
    assert set(after) == {"bot:medium", "account:7"}
    assert after["bot:medium"].games == 2 and after["account:7"].games == 1
    solo = update(MODEL, fresh(3), [2, 1, 2])
    assert after["bot:medium"].mu == pytest.approx(DEFAULT_MU + 2 * (solo[0].mu - DEFAULT_MU))
    assert after["account:7"] == solo[1]
    # all three started equal: what the person gains the bots lose
    assert after["bot:medium"].mu - DEFAULT_MU == pytest.approx(DEFAULT_MU - after["account:7"].mu)


# ---- which tables are rated ---------------------------------------------------------------

ADA, BOB = TableSeat("human", account_id=1), TableSeat("human", account_id=2)
GUEST = TableSeat("human")
HARD = TableSeat("bot", level="hard")


def test_is_rated_rules() -> None:
    assert is_rated([ADA, BOB])
    assert is_rated([ADA, HARD])
    assert is_rated([ADA, HARD, HARD])  # several seats of one bot level are fine
    assert is_rated([ADA, BOB], True)
    assert not is_rated([ADA, BOB], False)  # asked to be unrated
    assert not is_rated([ADA, GUEST])  # a person without an account
    assert not is_rated([ADA, GUEST], True)
    assert not is_rated([HARD, HARD])  # no account
    assert not is_rated([ADA, ADA])  # one account in two seats
    assert unrated_reason([ADA, BOB]) is None
    assert unrated_reason([ADA, GUEST]) == "seat 1 is played without an account"
    assert unrated_reason([HARD, TableSeat("bot", level="easy")]) == (
        "no seat is played by an account"
    )
    assert unrated_reason([ADA, BOB], False) == "the table was created unrated"
    assert unrated_reason([ADA, ADA]) == "an account plays several seats"


def test_the_servers_seat_record_is_a_rated_seat() -> None:
    from machiavel.server.storage import SeatRecord

    record = SeatRecord(player=0, kind="human", account_id=5)
    assert seat_key(record) == "account:5"


# ---- properties over random results of every game and player count ------------------------


@st.composite
def results(draw: st.DrawFn) -> tuple[str, int, tuple[int, ...], list[float]]:
    """A game, its player count, and a result the game could end with."""
    game_id = draw(st.sampled_from(sorted(GAMES)))
    low, high = GAMES[game_id]
    players = draw(st.integers(low, high))
    seats = list(range(players))
    if game_id == "tyrus":
        elections = draw(st.lists(st.integers(0, 5), min_size=2, max_size=2))
        winners = tuple(draw(st.sampled_from([[0], [1], [0, 1]])))
        return game_id, players, winners, [float(e) for e in elections]
    if game_id == "djambi":
        winners = tuple(sorted(draw(st.sets(st.sampled_from(seats), min_size=1))))
        share = 1.0 / len(winners)
        return game_id, players, winners, [share if p in winners else 0.0 for p in seats]
    scores = draw(st.lists(st.integers(0, 12), min_size=players, max_size=players))
    best = [p for p in seats if scores[p] == max(scores)]
    if game_id == "tyros":  # the tie-break may leave some of the best out
        best = sorted(draw(st.sets(st.sampled_from(best), min_size=1)))
    return game_id, players, tuple(best), [float(s) for s in scores]


ratings = st.builds(
    Rating,
    st.floats(-10.0, 60.0),
    st.floats(0.1, DEFAULT_SIGMA),
    st.integers(0, 1000),
)


@settings(max_examples=300)
@given(results(), st.data())
def test_rank_properties(
    result: tuple[str, int, tuple[int, ...], list[float]], data: st.DataObject
) -> None:
    game_id, players, winners, scores = result
    ranks = rank_of_result(game_id, players, winners, scores)
    assert len(ranks) == players
    assert all(1 <= r <= players for r in ranks)
    assert [p for p in range(players) if ranks[p] == 1] == sorted(winners)
    for a in range(players):
        # a place is 1 + the number of players strictly ahead
        assert ranks[a] == 1 + sum(1 for b in range(players) if ranks[b] < ranks[a])
        for b in range(players):
            if a in winners or b in winners:
                continue
            if RANKED_BY_SCORE[game_id]:
                assert (ranks[a] < ranks[b]) == (scores[a] > scores[b])
            else:
                assert ranks[a] == ranks[b]


@settings(max_examples=300)
@given(results(), st.data())
def test_update_properties(
    result: tuple[str, int, tuple[int, ...], list[float]], data: st.DataObject
) -> None:
    game_id, players, winners, scores = result
    ranks = rank_of_result(game_id, players, winners, scores)
    before = data.draw(st.lists(ratings, min_size=players, max_size=players))
    after = update(MODEL, before, ranks)
    delta = changes(before, after)
    for old, new in zip(before, after, strict=True):
        assert math.isfinite(new.mu) and math.isfinite(new.sigma)
        assert 0 < new.sigma <= old.sigma <= DEFAULT_SIGMA  # sigma never grows
        assert new.games == old.games + 1
    for a in range(players):
        for b in range(players):
            if ranks[a] == ranks[b] and before[a] == before[b]:
                assert delta[a] == pytest.approx(delta[b], abs=1e-9)  # a tie moves alike
        if ranks.count(ranks[a]) == 1 and ranks[a] == 1:
            assert delta[a] >= 0  # a sole winner never loses
        if ranks.count(ranks[a]) == 1 and ranks[a] == max(ranks):
            assert delta[a] <= 0  # a sole last never gains
    if players == 2 and len(winners) == 1:
        winner, loser = winners[0], 1 - winners[0]
        assert delta[winner] >= 0 >= delta[loser]
        assert after[winner].mu - after[loser].mu >= before[winner].mu - before[loser].mu


@settings(max_examples=300)
@given(results(), st.data())
def test_equally_uncertain_seats_are_zero_sum(
    result: tuple[str, int, tuple[int, ...], list[float]], data: st.DataObject
) -> None:
    """Seats with the same sigma: the mu one gains another loses; from equal ratings a
    better place gains strictly more, and the same place the same."""
    game_id, players, winners, scores = result
    ranks = rank_of_result(game_id, players, winners, scores)
    sigma = data.draw(st.floats(0.1, DEFAULT_SIGMA))
    mus = data.draw(st.lists(st.floats(-10.0, 60.0), min_size=players, max_size=players))
    before = [Rating(mu, sigma) for mu in mus]
    assert sum(changes(before, update(MODEL, before, ranks))) == pytest.approx(0.0, abs=1e-9)
    equal = [Rating(mus[0], sigma) for _ in range(players)]
    delta = changes(equal, update(MODEL, equal, ranks))
    for a in range(players):
        for b in range(players):
            if ranks[a] < ranks[b]:
                assert delta[a] > delta[b]
            elif ranks[a] == ranks[b]:
                assert delta[a] == pytest.approx(delta[b], abs=1e-12)


@settings(max_examples=200)
@given(results(), st.data())
def test_rate_game_matches_update_for_distinct_keys(
    result: tuple[str, int, tuple[int, ...], list[float]], data: st.DataObject
) -> None:
    game_id, players, winners, scores = result
    before = data.draw(st.lists(ratings, min_size=players, max_size=players))
    keys = [f"account:{p}" for p in range(players)]
    after = rate_game(MODEL, game_id, keys, dict(zip(keys, before, strict=True)), winners, scores)
    expected = update(MODEL, before, rank_of_result(game_id, players, winners, scores))
    assert [after[key] for key in keys] == expected
