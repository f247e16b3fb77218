"""`machiavel serve`'s connection settings: command line, then environment, then defaults;
bad values refused with a sentence before anything starts (issue 14)."""

from __future__ import annotations

import argparse
import resource

import pytest

from machiavel.cli import build_parser, main
from machiavel.server.connections import SPARE_FILES, make_room_for, uvicorn_options
from machiavel.serving import ConnectionSettings, SettingError, settings_from


def parsed(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["serve", *argv])


def test_the_defaults() -> None:
    settings = settings_from(parsed(), {})
    assert settings == ConnectionSettings(1000, 10.0, 5, "127.0.0.1,::1")
    options = uvicorn_options(settings)
    assert options["limit_concurrency"] == 1000
    assert options["timeout_keep_alive"] == 5
    assert options["http"].header_timeout == 10.0
    assert options["proxy_headers"] is True
    assert options["forwarded_allow_ips"] == ["127.0.0.1", "::1"]


def test_the_environment_then_the_command_line() -> None:
    environment = {
        "MACHIAVEL_MAX_CONNECTIONS": "300",
        "MACHIAVEL_HEADER_TIMEOUT": "2.5",
        "MACHIAVEL_KEEP_ALIVE_TIMEOUT": "7",
        "MACHIAVEL_FORWARDED_ALLOW_IPS": "none",
    }
    assert settings_from(parsed(), environment) == ConnectionSettings(300, 2.5, 7, "none")
    given = parsed("--max-connections", "50", "--forwarded-allow-ips", "10.0.0.0/8")
    assert settings_from(given, environment) == ConnectionSettings(50, 2.5, 7, "10.0.0.0/8")
    assert uvicorn_options(ConnectionSettings(forwarded_allow_ips="none"))["proxy_headers"] is False


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (("--max-connections", "0"), "max-connections must be 1 or more, not 0"),
        (("--max-connections", "lots"), "max-connections must be a whole number, not 'lots'"),
        (("--header-timeout", "0"), "header-timeout must be more than 0 and at most 3600"),
        (("--header-timeout", "soon"), "header-timeout must be a number of seconds"),
        (("--keep-alive-timeout", "-1"), "keep-alive-timeout must be 1 or more, not -1"),
        (("--forwarded-allow-ips", "proxy"), "'proxy' is not an IP address or network"),
    ],
)
def test_a_bad_value_is_refused_with_a_sentence(
    argv: tuple[str, ...], sentence: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SettingError, match=sentence.replace("(", r"\(")):
        settings_from(parsed(*argv), {})
    assert main(["serve", *argv]) == 2  # before any server starts
    assert sentence in capsys.readouterr().err


def test_room_is_made_in_the_open_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < SPARE_FILES + 50:
        pytest.skip(f"the hard open-file limit ({hard}) leaves no room to test in")
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (SPARE_FILES + 10, hard))
        assert make_room_for(50) == 50
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= 50 + SPARE_FILES
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
