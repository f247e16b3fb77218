"""Ratings: one per game for every account and every bot level, updated by OpenSkill.

Pure functions and values, no storage: the server keeps a ``Rating`` per (game, key) and,
when a rated game ends, calls ``rate_game`` (or ``rank_of_result`` then ``update``).

- ``Rating`` (mu, sigma, games played), ``Rating.to_json`` / ``Rating.from_json``; a new
  player has ``Rating()`` (openskill's defaults: mu 25, sigma 25/3, 0 games).
- ``display(rating)``: the conservative number shown to people,
  ``max(0, round(1500 + 30 * (mu - 3 * sigma)))``: 1500 for a new player, rising as the
  system gets to know a good player (docs/server.md, "Ratings").
- ``rank_of_result(game_id, players, winners, scores)``: each player's place, as OpenSkill
  reads it (winners share place 1; what comes after depends on the game).
- ``update(model, ratings, ranks)``: the ratings after one game, each seat a team of one.
- ``seat_key(seat)``: who a seat's result is rated for: ``"account:<id>"``,
  ``"bot:<level>"``, or None (a person without an account).
- ``is_rated(seats, requested)`` / ``unrated_reason(seats, requested)``: whether a table's
  result counts.

Everything is deterministic: OpenSkill's updates are closed-form (no sampling).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openskill.models import BradleyTerryFull

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0

# display(): 1500 + 30 per unit of ordinal (mu - 3 sigma). Between two players the system
# knows well (sigma near 0, so c = sqrt(2) * beta, about 5.9, in the Bradley-Terry model
# below), a difference of 400 points (13.3 mu) is about 10 to 1 odds, as in Elo.
DISPLAY_BASE = 1500
DISPLAY_SCALE = 30
DISPLAY_Z = 3.0

# How a game's final `scores` rank the players who did not win (each game's doc,
# "Ratings"): True, by score (ties share a place); False, all of them share the place
# after the winners.
RANKED_BY_SCORE: Mapping[str, bool] = {
    "tyrus": False,  # two players: the loser is second whatever the elections won
    "djambi": False,  # scores are 1 shared by the winners, 0 for all others
    "guildes": True,  # vote totals (the winners are the highest total, G5)
    "tyros": True,  # points (the winners are the most points, then a tie-break, Y8)
}


@dataclass(frozen=True, slots=True)
class Rating:
    """A rated entity's skill in one game: OpenSkill's mu and sigma, and games rated."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    def __post_init__(self) -> None:
        if not math.isfinite(self.mu):
            raise ValueError(f"a rating's mu must be a finite number, not {self.mu!r}")
        if not (math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(
                f"a rating's sigma must be a finite number above 0, not {self.sigma!r}"
            )
        if self.games < 0:
            raise ValueError(f"a rating's games must be 0 or more, not {self.games!r}")

    @property
    def ordinal(self) -> float:
        """The conservative estimate mu - 3 sigma (0 for a new player)."""
        return self.mu - DISPLAY_Z * self.sigma

    def to_json(self) -> dict[str, Any]:
        """``{"mu", "sigma", "games"}``: floats written by ``json``/``orjson`` come back
        exactly, so ``from_json(to_json())`` is the same rating."""
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str | bytes) -> Rating:
        """A rating from ``to_json()`` output (a dict or its JSON text); ``ValueError``
        for anything else (a missing or extra key, a number of the wrong kind)."""
        if isinstance(data, str | bytes):
            data = json.loads(data)
        if not isinstance(data, Mapping) or set(data) != {"mu", "sigma", "games"}:
            raise ValueError(f"a rating is {{'mu', 'sigma', 'games'}}, not {data!r}")
        mu, sigma, games = data["mu"], data["sigma"], data["games"]
        for name, value in (("mu", mu), ("sigma", sigma)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"a rating's {name} must be a number, not {value!r}")
        if isinstance(games, bool) or not isinstance(games, int):
            raise ValueError(f"a rating's games must be a whole number, not {games!r}")
        return cls(float(mu), float(sigma), games)


def display(rating: Rating) -> int:
    """The number shown to people: ``max(0, round(1500 + 30 * (mu - 3 * sigma)))``.

    Conservative: the skill the system is fairly sure the player has at least, so a new
    player (mu 25, sigma 25/3) shows 1500 and a player rises as wins come and sigma
    shrinks; one lucky game does not top the leaderboard.
    """
    return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * rating.ordinal))


def new_model() -> BradleyTerryFull:
    """The OpenSkill model the server rates with (one instance may be shared: rating a
    game changes nothing in it).

    Bradley-Terry with full pairing (Weng and Lin 2011, algorithm 1): a game of k seats
    counts, for each seat, as one comparison with each other seat: a better place is a
    win, the same place a draw (half a win), a worse place a loss. Chosen over
    openskill's default Plackett-Luce because of shared wins, common here (Guildes,
    Tyros, Djambi draws, every non-winner of Djambi sharing a place): Plackett-Luce
    divides each tied group's terms by its size, so from equal ratings four players
    sharing a win in a 6-player Guildes game gain +0.25 each while the sole second gains
    +1.01. With full pairing, from equal ratings, a better place always gains more than a
    worse one, tied players gain the same, and the winners of a shared win gain the most.
    The price: a big table moves ratings more than a 2-player game (it holds more
    comparisons); tables are at most 6 seats. The defaults (mu 25, sigma 25/3, beta 25/6,
    tau 25/300) are openskill's; ``limit_sigma`` keeps a rating's sigma from ever growing
    (tau still widens it inside the update, so a well-known player's mu keeps moving).

    Tied seats whose ratings differ each move by their own comparisons (the less certain
    one more): openskill 6.2 means to give a tied group the average of its mu changes but
    reads the mu it has already changed, so that step changes nothing.
    """
    return BradleyTerryFull(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, limit_sigma=True)


MODEL = new_model()


def rank_of_result(
    game_id: str, players: int, winners: Sequence[int], scores: Sequence[float]
) -> list[int]:
    """Each player's place at the end of a game, for OpenSkill (lower is better).

    A place is 1 + the number of players who did strictly better (``1, 1, 3``). The
    winners (``state.winners``: one, or several for a shared win or a draw) all share
    place 1. The others, by game (``RANKED_BY_SCORE``; each game's doc, "Ratings"):

    - Tyrus: the loser is second. Its ``scores`` (elections won) do not rank: three wins in
      a row or T8's tie-break can make the player with fewer elections the winner.
    - Djambi: every non-winner shares the place after the winners; its ``scores`` only
      repeat who won (1 shared by the winners, 0 for the others).
    - Guildes and Tyros: by final score (vote totals; points), higher first, equal scores
      sharing a place. In Tyros a player with the winners' points who lost the tie-break
      (points in the largest empire) comes after them; the tie-break is not applied among
      the others.
    """
    if game_id not in RANKED_BY_SCORE:
        raise ValueError(f"no ranking of results for game {game_id!r} (see RANKED_BY_SCORE)")
    if players < 2 or len(scores) != players:
        raise ValueError(f"{players} players need {players} scores (at least 2), not {scores!r}")
    if not all(math.isfinite(s) for s in scores):
        raise ValueError(f"scores must be finite numbers, not {scores!r}")
    won = set(winners)
    if not won or len(won) != len(winners) or not won <= set(range(players)):
        raise ValueError(f"winners must be distinct players of 0..{players - 1}, not {winners!r}")
    by_score = RANKED_BY_SCORE[game_id]
    others = [p for p in range(players) if p not in won]
    ranks = []
    for player in range(players):
        if player in won:
            ranks.append(1)
        elif by_score:
            ahead = sum(1 for p in others if scores[p] > scores[player])
            ranks.append(1 + len(won) + ahead)
        else:
            ranks.append(1 + len(won))
    return ranks


def update(
    model: BradleyTerryFull, ratings: Sequence[Rating], ranks: Sequence[int]
) -> list[Rating]:
    """The ratings after one game: ``ratings[i]`` is seat i's before, ``ranks[i]`` its place
    (lower is better, equal places are a tie). Each seat is a team of one; each rating's
    games go up by one. The same inputs always give the same result."""
    if len(ratings) != len(ranks) or len(ratings) < 2:
        raise ValueError(
            f"a rated game needs one place per rating, at least 2: {len(ratings)} ratings, "
            f"{len(ranks)} places"
        )
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = model.rate(teams, ranks=[float(rank) for rank in ranks])
    return [
        Rating(team[0].mu, team[0].sigma, old.games + 1)
        for team, old in zip(rated, ratings, strict=True)
    ]


def rate_game(
    model: BradleyTerryFull,
    game_id: str,
    keys: Sequence[str],
    ratings: Mapping[str, Rating],
    winners: Sequence[int],
    scores: Sequence[float],
) -> dict[str, Rating]:
    """The new rating of every key of a finished game (the whole integration in one call).

    ``keys[i]`` is player i's ``seat_key``; ``ratings`` their current ratings (a key not
    in it is a new player, ``Rating()``). A key holding several seats (two bots of one
    level) is compared as one entity per seat; its mu then moves by the sum of its seats'
    changes (the comparisons between its own seats cancel out), its sigma is the smallest
    of theirs and its games go up by its number of seats.
    """
    ranks = rank_of_result(game_id, len(keys), winners, scores)
    before = [ratings.get(key, Rating()) for key in keys]
    after = update(model, before, ranks)
    result: dict[str, Rating] = {}
    for key, old, new in zip(keys, before, after, strict=True):
        seen = result.get(key)
        if seen is None:
            result[key] = new
        else:
            result[key] = Rating(
                seen.mu + (new.mu - old.mu), min(seen.sigma, new.sigma), seen.games + 1
            )
    return result


# ---- who is rated -------------------------------------------------------------------------


class RatedSeat(Protocol):
    """What rating needs of a seat (the server's ``SeatRecord`` has it)."""

    @property
    def kind(self) -> str:
        """``"human"`` or ``"bot"``."""
        ...

    @property
    def level(self) -> str | None:
        """A bot's level (``"easy"``...``"expert"``); None for a person."""
        ...

    @property
    def account_id(self) -> int | None:
        """The account a person's seat belongs to, or None."""
        ...


@dataclass(frozen=True, slots=True)
class TableSeat:
    """A plain ``RatedSeat``."""

    kind: str
    level: str | None = None
    account_id: int | None = None


def account_key(account_id: int) -> str:
    """The key of an account's ratings: ``"account:42"``."""
    return f"account:{account_id}"


def bot_key(level: str) -> str:
    """The key of a bot level's ratings: ``"bot:hard"`` (bots are rated like people)."""
    return f"bot:{level}"


def seat_key(seat: RatedSeat) -> str | None:
    """Whom a seat's result is rated for: its account, its bot level, or None for a
    person without an account (``ValueError`` for a seat that is neither)."""
    if seat.kind == "bot":
        if not seat.level:
            raise ValueError("a bot seat without a level cannot be rated")
        return bot_key(seat.level)
    if seat.kind == "human":
        return None if seat.account_id is None else account_key(seat.account_id)
    raise ValueError(f"a seat is 'human' or 'bot', not {seat.kind!r}")


def unrated_reason(seats: Sequence[RatedSeat], requested: bool | None = None) -> str | None:
    """Why a table is not rated (a sentence), or None if it is.

    Rated by default (``requested`` None) and when asked (True) if every human seat
    belongs to an account, at least one seat does, and no account holds two seats (one
    cannot play oneself for rating); a table asked to be unrated (False) never is.
    """
    if requested is False:
        return "the table was created unrated"
    keys = [seat_key(seat) for seat in seats]
    for player, key in enumerate(keys):
        if key is None:
            return f"seat {player} is played without an account"
    accounts = [key for key in keys if key is not None and key.startswith("account:")]
    if not accounts:
        return "no seat is played by an account"
    if len(set(accounts)) != len(accounts):
        return "an account plays several seats"
    return None


def is_rated(seats: Sequence[RatedSeat], requested: bool | None = None) -> bool:
    """Whether a table's result updates ratings (``unrated_reason`` says why not)."""
    return unrated_reason(seats, requested) is None
