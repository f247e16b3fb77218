"""The arena: bots play matches with seats rotated; win rates with confidence, Elo ratings.

For two-player games each pairing is a straight match. For more players, a pairing
``X vs Y`` seats one X among ``players - 1`` copies of Y (the seat of X rotates), which is
how strength targets are stated ("hard in one seat against three random bots"); a fair
share of wins is then ``1 / players``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from typing import Any

from machiavel.bots import bot_from_spec
from machiavel.core.registry import game

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class GameTask:
    game: str
    players: int
    focus: str
    field: str
    focus_seat: int
    seed: int
    options: Mapping[str, Any]


@dataclass
class GameOutcome:
    focus: str
    field: str
    focus_seat: int
    seed: int
    winners: list[int]
    share: float  # the focus bot's share of the win
    actions: int


@dataclass
class PairingResult:
    focus: str
    field: str
    games: int
    points: float
    fair_share: float
    low: float = 0.0
    high: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass
class ArenaReport:
    game: str
    players: int
    games_per_pairing: int
    pairings: list[PairingResult]
    elo: dict[str, float]
    outcomes: list[GameOutcome] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "bots": self.bots,
            "options": self.options,
            "games_per_pairing": self.games_per_pairing,
            "pairings": [
                {**asdict(p), "win_rate": p.win_rate, "ci95": [p.low, p.high]}
                for p in self.pairings
            ],
            "elo": self.elo,
            "games": [asdict(o) for o in self.outcomes],
        }


def play_one(task: GameTask) -> GameOutcome:
    """One game: the focus bot in its seat, the field bot everywhere else."""
    state = game(task.game).new(task.players, seed=task.seed, options=dict(task.options))
    bots = {
        seat: bot_from_spec(
            task.focus if seat == task.focus_seat else task.field, seed=task.seed + seat
        )
        for seat in range(task.players)
    }
    try:
        while not state.is_over:
            player = state.to_move[0]
            state.apply(player, bots[player].choose(state.seat(player)))
    finally:  # a game cancelled mid-way (Ctrl-C, Ray) still stops its bots' processes
        for player_bot in bots.values():
            close = getattr(player_bot, "close", None)
            if callable(close):
                close()
    winners = list(state.winners)
    share = 1.0 / len(winners) if task.focus_seat in winners else 0.0
    return GameOutcome(
        task.focus, task.field, task.focus_seat, task.seed, winners, share, len(state.history)
    )


def wilson_interval(points: float, games: int) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (shared wins count as fractions)."""
    if games == 0:
        return 0.0, 1.0
    rate = points / games
    denominator = 1 + Z_95**2 / games
    centre = (rate + Z_95**2 / (2 * games)) / denominator
    spread = Z_95 * math.sqrt(rate * (1 - rate) / games + Z_95**2 / (4 * games**2)) / denominator
    # The interval holds the rate itself: at 0% or 100% rounding alone would leave it out
    # (and a chart's error bar negative).
    return min(rate, max(0.0, centre - spread)), max(rate, min(1.0, centre + spread))


def pairwise_score(share: float, players: int) -> float:
    """The focus bot's expected score against one field bot drawn at random, from its
    share of the win: 1 where it finished ahead of that bot, 0 behind, 0.5 level.

    Against field bot j that is 0.5 + (share - share_j) / 2: a win beats every field bot,
    a loss to j is 0, and a game another field bot won leaves the focus and j level
    (both lost). Averaged over the field, whose shares add up to 1 - share. A game one
    field bot won is thus worth a third of a point in a 4-player game, not nothing: as
    nothing, a bot that won 40% of its games, against a fair share of 25%, was rated
    below the bots it beat."""
    mean_field_share = (1 - share) / (players - 1)
    return 0.5 + (share - mean_field_share) / 2


def fit_elo(outcomes: list[GameOutcome], players: int, iterations: int = 3000) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale (mean 1500), fitted by gradient ascent."""
    names = sorted({o.focus for o in outcomes} | {o.field for o in outcomes})
    ratings = dict.fromkeys(names, 0.0)
    if len(names) < 2:
        return dict.fromkeys(names, 1500.0)
    pairs = [(o.focus, o.field, pairwise_score(o.share, players)) for o in outcomes]
    rate = 4.0 / max(1, len(pairs))
    for _ in range(iterations):
        gradient = dict.fromkeys(names, 0.0)
        for a, b, score in pairs:
            expected = 1 / (1 + math.exp(ratings[b] - ratings[a]))
            gradient[a] += score - expected
            gradient[b] -= score - expected
        for name in names:
            # a weak prior keeps a bot that always wins (or loses) finite
            ratings[name] += rate * (gradient[name] - 0.01 * ratings[name])
    mean = sum(ratings.values()) / len(ratings)
    scale = 400 / math.log(10)
    return {name: round(1500 + scale * (r - mean), 1) for name, r in ratings.items()}


def tasks(
    game_id: str,
    bot_names: list[str],
    games: int,
    players: int,
    seed: int,
    options: Mapping[str, Any],
) -> Iterator[GameTask]:
    for focus, field_bot in itertools.combinations(bot_names, 2):
        for number in range(games):
            yield GameTask(
                game_id, players, focus, field_bot, number % players, seed + number, options
            )


@dataclass(frozen=True)
class RayCluster:
    """Games played as Ray tasks (``arena --ray``): on the cluster at ``address``
    (``HOST:PORT``, ``ray://HOST:PORT`` or ``auto``), or on a local Ray started for the
    run when it is None."""

    address: str | None = None


def run_arena(
    game_id: str,
    bot_names: list[str],
    games: int,
    players: int | None = None,
    jobs: int = 1,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    on_progress: Callable[[GameOutcome], None] | None = None,
    earlier: Sequence[GameOutcome] = (),
    cluster: RayCluster | None = None,
) -> ArenaReport:
    """Play the arena's games but those in ``earlier`` (an interrupted run of the same
    arena: same focus, field and seed), and report on all of them: in this process, in
    ``jobs`` processes, or on a Ray ``cluster``."""
    spec = game(game_id)
    count = spec.min_players if players is None else players
    spec.make_setup(count, seed, options)  # refuse a bad setup before playing anything
    for name in bot_names:
        bot_from_spec(name, seed=0)  # refuse an unknown bot before playing anything
    played = {(o.focus, o.field, o.seed) for o in earlier}
    todo = [
        task
        for task in tasks(game_id, bot_names, games, count, seed, options or {})
        if (task.focus, task.field, task.seed) not in played
    ]
    outcomes: list[GameOutcome] = list(earlier)
    # Closed on Ctrl-C or an error too: games not begun are dropped, not awaited.
    with closing(play_all(todo, jobs, cluster)) as finished:
        for outcome in finished:
            outcomes.append(outcome)
            if on_progress:
                on_progress(outcome)
    return summarize(game_id, count, games, outcomes, bot_names, options)


def play_all(
    todo: list[GameTask], jobs: int = 1, cluster: RayCluster | None = None
) -> Generator[GameOutcome, None, None]:
    """Each game of ``todo`` as it ends; closing the generator stops the games not over."""
    if cluster is not None:
        from machiavel.bots.arena_ray import play_on_ray

        yield from play_on_ray(todo, cluster.address)
    elif jobs > 1:
        yield from _play_in_pool(todo, jobs)
    else:
        yield from map(play_one, todo)


def _play_in_pool(todo: list[GameTask], jobs: int) -> Generator[GameOutcome, None, None]:
    pool = ProcessPoolExecutor(jobs, mp_context=get_context("fork"))
    finished = False
    try:
        yield from pool.map(play_one, todo)
        finished = True
    finally:
        pool.shutdown(wait=finished, cancel_futures=not finished)


def summarize(
    game_id: str,
    players: int,
    games: int,
    outcomes: list[GameOutcome],
    bots: list[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> ArenaReport:
    """The report on ``outcomes``, in the arena's order (pairing by pairing, seed by seed)
    whatever order they ended in: Ray, ``--jobs`` and a resumed run write the same file."""
    outcomes = in_arena_order(outcomes, bots or [])
    pairings: dict[tuple[str, str], PairingResult] = {}
    for outcome in outcomes:
        key = (outcome.focus, outcome.field)
        result = pairings.setdefault(key, PairingResult(key[0], key[1], 0, 0.0, 1 / players))
        result.games += 1
        result.points += outcome.share
    for result in pairings.values():
        result.low, result.high = wilson_interval(result.points, result.games)
    return ArenaReport(
        game_id,
        players,
        games,
        list(pairings.values()),
        fit_elo(outcomes, players),
        outcomes,
        list(bots or []),
        dict(options or {}),
    )


def in_arena_order(outcomes: list[GameOutcome], bots: list[str]) -> list[GameOutcome]:
    """Sorted as ``tasks`` makes the games (bots in their listed order); games of bots
    not listed come last. Without a list of bots, left as they are."""
    if not bots:
        return list(outcomes)
    rank = {name: index for index, name in enumerate(bots)}
    unlisted = len(bots)

    def position(outcome: GameOutcome) -> tuple[int, int, int]:
        return rank.get(outcome.focus, unlisted), rank.get(outcome.field, unlisted), outcome.seed

    return sorted(outcomes, key=position)


def outcomes_from_json(
    data: Any, game_id: str, players: int, bots: list[str], options: Mapping[str, Any]
) -> list[GameOutcome]:
    """The games of an earlier run's JSON, to resume it; refused (``ValueError``, saying
    what differs) unless it is the same arena: game, players, bots and options."""
    if not isinstance(data, dict) or not isinstance(data.get("games"), list):
        raise ValueError("not an arena result: a JSON object with a list of 'games'")
    wanted = {"game": game_id, "players": players, "bots": bots, "options": dict(options)}
    for key, value in wanted.items():
        if key not in data:
            raise ValueError(f"it does not say its {key} (saved before runs could be resumed)")
        if data[key] != value:
            raise ValueError(f"it was another arena: {key} {data.get(key)!r}, not {value!r}")
    try:
        return [GameOutcome(**entry) for entry in data["games"]]
    except TypeError as error:
        raise ValueError(f"a game in it is damaged: {error}") from error


def save_chart(report: ArenaReport, path: str) -> None:
    """A PNG: each pairing's win rate with its 95% interval, and the fair share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{p.focus} vs {p.field}" for p in report.pairings]
    rates = [p.win_rate for p in report.pairings]
    errors = [
        [r - p.low for r, p in zip(rates, report.pairings, strict=True)],
        [p.high - r for r, p in zip(rates, report.pairings, strict=True)],
    ]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    left.barh(labels, rates, xerr=errors, color="#4477aa", capsize=4)
    left.axvline(1 / report.players, color="#cc6677", linestyle="--", label="fair share")
    left.set_xlim(0, 1)
    left.set_xlabel("win rate of the first bot (95% interval)")
    left.legend()
    names = sorted(report.elo, key=report.elo.__getitem__)
    right.barh(names, [report.elo[n] - 1500 for n in names], left=1500, color="#228833")
    right.set_xlabel("Elo")
    figure.suptitle(f"machiavel arena: {report.game}, {report.players} players")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
