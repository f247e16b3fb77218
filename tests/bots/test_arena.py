"""The arena: seat rotation, confidence intervals, Elo, files written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import machiavel
from machiavel import cli
from machiavel.bots import bot_from_spec
from machiavel.bots.arena import (
    GameOutcome,
    fit_elo,
    pairwise_score,
    run_arena,
    wilson_interval,
)


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    low, high = wilson_interval(100, 100)
    assert high == 1.0 and low == pytest.approx(0.963, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("games", [1, 7, 30, 200])
def test_wilson_interval_always_holds_the_rate(games: int) -> None:
    """At 100% rounding alone left the rate above the interval (30 of 30: high was
    0.9999999999999999), and the chart's error bar negative."""
    for points in (0, games / 3, games / 2, games):
        low, high = wilson_interval(points, games)
        assert 0.0 <= low <= points / games <= high <= 1.0


def test_pairwise_score_from_a_multiplayer_share() -> None:
    assert pairwise_score(0.25, 4) == pytest.approx(0.5)
    assert pairwise_score(1.0, 4) == 1.0
    assert pairwise_score(0.7, 2) == pytest.approx(0.7)
    assert pairwise_score(0.0, 2) == 0.0


def test_a_game_another_field_bot_won_leaves_the_focus_level_with_two_of_three() -> None:
    """Lost to one field bot, level with the two others that lost too: a third."""
    assert pairwise_score(0.0, 4) == pytest.approx(1 / 3)
    assert pairwise_score(0.5, 3) == pytest.approx(0.5 + (0.5 - 0.25) / 2)


def test_a_bot_winning_more_than_its_share_is_rated_above_the_field() -> None:
    """8 wins in 20 four-player games (fair share 5): rated above the field it beat. It
    was rated below it when a game another field bot won counted as a loss to the field."""
    outcomes = [
        GameOutcome(
            "expert",
            "hard",
            i % 4,
            i,
            [i % 4] if i < 8 else [(i + 1) % 4],
            1.0 if i < 8 else 0.0,
            180,
        )
        for i in range(20)
    ]
    elo = fit_elo(outcomes, 4)
    assert elo["expert"] > 1500 > elo["hard"]


def test_elo_orders_bots_by_results() -> None:
    outcomes = [GameOutcome("a", "b", 0, i, [0], 1.0, 10) for i in range(8)]
    outcomes += [GameOutcome("a", "b", 1, i, [0], 0.0, 10) for i in range(2)]
    outcomes += [GameOutcome("b", "c", 0, i, [0], 1.0, 10) for i in range(7)]
    outcomes += [GameOutcome("b", "c", 1, i, [0], 0.0, 10) for i in range(3)]
    elo = fit_elo(outcomes, 2)
    assert elo["a"] > elo["b"] > elo["c"]
    assert sum(elo.values()) / 3 == pytest.approx(1500, abs=1)


def test_a_small_arena_rotates_seats_and_counts_every_game() -> None:
    report = run_arena("tyrus", ["heuristic", "random"], games=6, seed=10)
    (pairing,) = report.pairings
    assert pairing.games == 6 and 0 <= pairing.low <= pairing.win_rate <= pairing.high <= 1
    assert sorted(o.focus_seat for o in report.outcomes) == [0, 0, 0, 1, 1, 1]
    assert report.elo["heuristic"] >= report.elo["random"] or pairing.win_rate < 0.5
    json.dumps(report.to_json())


def test_arena_refuses_bad_bots_and_setups_before_playing() -> None:
    with pytest.raises(machiavel.UnknownBot):
        run_arena("tyrus", ["heuristic", "nobody"], games=2)
    with pytest.raises(machiavel.InvalidSetup):
        run_arena("tyrus", ["heuristic", "random"], games=2, players=3)
    with pytest.raises(machiavel.UnknownBot, match="name=value"):
        bot_from_spec("ismcts:iterations")


def test_cli_arena_writes_json_and_png(tmp_path: Path) -> None:
    out = tmp_path / "result"
    code = cli.main(
        [
            "arena",
            "--game",
            "tyrus",
            "--bots",
            "random,ismcts:iterations=5",
            "--games",
            "2",
            "--out",
            str(out),
            "--jobs",
            "2",
        ]
    )
    assert code == 0
    data = json.loads((tmp_path / "result.json").read_text())
    assert data["pairings"][0]["games"] == 2 and len(data["games"]) == 2
    assert (tmp_path / "result.png").read_bytes()[:4] == b"\x89PNG"


def test_an_interrupted_arena_reports_the_games_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C during a long arena keeps what was played: the table and files cover it."""
    from machiavel.bots import arena as arena_module

    def two_games_then_ctrl_c(*args: object) -> None:
        on_progress = args[7]
        assert callable(on_progress)
        on_progress(GameOutcome("random", "medium", 0, 5, [0], 1.0, 30))
        on_progress(GameOutcome("random", "medium", 1, 6, [0], 0.0, 31))
        raise KeyboardInterrupt

    monkeypatch.setattr(arena_module, "run_arena", two_games_then_ctrl_c)
    out = tmp_path / "cut"
    args = ["arena", "--game", "tyrus", "--bots", "random,medium", "--games", "50"]
    assert cli.main([*args, "--out", str(out)]) == 0
    assert "Interrupted: 2 of 50 games played" in capsys.readouterr().out
    data = json.loads((tmp_path / "cut.json").read_text())
    assert data["pairings"][0]["games"] == 2
    assert data["pairings"][0]["win_rate"] == 0.5


ARENA = ["arena", "--game", "tyrus", "--bots", "random,medium", "--seed", "40"]


def test_a_stopped_arena_keeps_every_finished_game_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The JSON is written after each game: a run killed mid-way loses only the game
    in progress."""
    from machiavel.bots import arena as arena_module

    def two_games_then_killed(*args: object) -> None:
        on_progress = args[7]
        assert callable(on_progress)
        on_progress(GameOutcome("random", "medium", 0, 40, [1], 0.0, 30))
        on_progress(GameOutcome("random", "medium", 1, 41, [1], 1.0, 31))
        raise RuntimeError("the session stopped")

    monkeypatch.setattr(arena_module, "run_arena", two_games_then_killed)
    with pytest.raises(RuntimeError):
        cli.main([*ARENA, "--games", "9", "--out", str(tmp_path / "cut")])
    data = json.loads((tmp_path / "cut.json").read_text())
    assert [game["seed"] for game in data["games"]] == [40, 41]
    assert data["bots"] == ["random", "medium"] and data["options"] == {}


def test_a_resumed_arena_plays_only_the_missing_games_and_ends_as_one_run(
    tmp_path: Path,
) -> None:
    whole, resumed = tmp_path / "whole", tmp_path / "resumed"
    assert cli.main([*ARENA, "--games", "4", "--out", str(whole)]) == 0
    complete = json.loads((tmp_path / "whole.json").read_text())
    # As if stopped after two games: the saved file holds only those.
    cut = {**complete, "games": complete["games"][:2]}
    (tmp_path / "resumed.json").write_text(json.dumps(cut))
    assert cli.main([*ARENA, "--games", "4", "--out", str(resumed), "--resume"]) == 0
    assert json.loads((tmp_path / "resumed.json").read_text()) == complete


def test_resume_refuses_another_arena_a_damaged_file_and_a_missing_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "saved"
    assert cli.main([*ARENA, "--games", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    other = ["arena", "--game", "tyrus", "--bots", "random,heuristic", "--games", "2"]
    assert cli.main([*other, "--out", str(out), "--resume"]) == 2
    assert "another arena: bots" in capsys.readouterr().err
    (tmp_path / "saved.json").write_text('{"games": [{"seed": 1}]')
    assert cli.main([*ARENA, "--games", "2", "--out", str(out), "--resume"]) == 2
    assert "cannot resume from" in capsys.readouterr().err
    assert cli.main([*ARENA, "--games", "2", "--resume"]) == 2
    assert "give --out PATH" in capsys.readouterr().err


def test_the_file_lists_games_in_the_arenas_order_whatever_order_they_ended_in(
    tmp_path: Path,
) -> None:
    """On Ray games end in any order: a file saved then, resumed, ends as one run's."""
    three_bots = ["arena", "--game", "tyrus", "--bots", "random,easy,medium", "--seed", "7"]
    assert cli.main([*three_bots, "--games", "2", "--out", str(tmp_path / "whole")]) == 0
    complete = json.loads((tmp_path / "whole.json").read_text())
    ended = [complete["games"][index] for index in (5, 0, 3, 2)]
    (tmp_path / "shuffled.json").write_text(json.dumps({**complete, "games": ended}))
    resume = ["--games", "2", "--out", str(tmp_path / "shuffled"), "--resume"]
    assert cli.main([*three_bots, *resume]) == 0
    assert json.loads((tmp_path / "shuffled.json").read_text()) == complete
