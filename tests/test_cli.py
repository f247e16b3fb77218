"""The `machiavel` command: play, rules, bench, games."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from machiavel import cli
from machiavel.benchmark import bench_game


def run_play(lines: list[str], *extra: str) -> str:
    args = cli.build_parser().parse_args(["play", "tyrus", "--seed", "5", *extra])
    out = io.StringIO()
    assert cli.play(args, io.StringIO("".join(line + "\n" for line in lines)), out) == 0
    return out.getvalue()


def test_bad_entries_are_explained_and_end_of_input_quits() -> None:
    text = run_play(["nonsense", "Z9 citadel", "S1 palace"])
    assert "Not accepted: 'nonsense' is not an action" in text
    assert "'Z9' is not a tile" in text
    assert "'palace' is not a building" in text
    assert text.rstrip().endswith("Goodbye.")


def test_quit_and_help_words() -> None:
    text = run_play(["help", "quit"])
    assert text.count("Your legal actions") >= 2 and "Goodbye." in text


class PlaysFirstLegal(io.StringIO):
    """A person who always types the first action listed on screen."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        screen = self.out.getvalue()
        listing = screen[screen.rindex("Your legal actions") :].splitlines()[1].strip()
        head, _, rests = listing.partition(": ")
        return f"{head} {rests.split(', ')[0]}\n"


@pytest.mark.parametrize("seat", [0, 1])
def test_a_whole_game_can_be_played_to_the_end(seat: int) -> None:
    args = cli.build_parser().parse_args(
        ["play", "tyrus", "--seed", "8", "--seat", str(seat), "--bot", "random"]
    )
    out = io.StringIO()
    assert cli.play(args, PlaysFirstLegal(out), out) == 0
    text = out.getvalue()
    assert "won the game" in text or "draw" in text
    assert "Tiles left in hand" in text


def test_opponent_moves_are_shown_without_their_tiles() -> None:
    text = run_play(["quit"], "--seat", "1", "--seed", "3")
    for line in text.splitlines():
        if line.startswith("player 0 placed"):
            assert "a tile" in line


def test_rules_and_games_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "tyrus"]) == 0
    assert "nine elections" in capsys.readouterr().out.lower()
    assert cli.main(["games"]) == 0
    assert "tyrus" in capsys.readouterr().out
    assert cli.main(["rules", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert cli.main(["play", "tyrus", "--option", "memory_mode=maybe"]) == 2
    assert "memory_mode" in capsys.readouterr().err


def test_bench_measures_through_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    result = bench_game("tyrus", None, seconds=0.05)
    assert result.games >= 1 and result.actions >= 27 * result.games
    assert result.legal_calls >= 27 and result.mean_legal_microseconds > 0
    assert result.turns <= result.actions
    assert cli.main(["bench", "--seconds", "0.05", "--game", "tyrus"]) == 0
    assert "machiavel bench --seconds 0.05 --game tyrus" in capsys.readouterr().out


def test_the_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "machiavel.cli", "games"], capture_output=True, text=True, check=True
    )
    assert "tyrus" in done.stdout
