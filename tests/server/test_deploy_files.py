"""The example deployment in deploy/ (docs/cluster.md, "Deploying"), checked by the
tools that will run it: HAProxy's own check of its configuration (``haproxy -c``), which
must also be what ``machiavel proxy-config`` writes from the one template, and
``systemd-analyze verify`` of the units.

Without HAProxy (scripts/ensure-haproxy.sh installs it) or systemd-analyze the checks
that need them are skipped, except under CI (CI set), where HAProxy's missing is a
failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from machiavel import cli
from machiavel.server.haproxy import HAPROXY, Upstream, check_config, proxy_config

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
# The servers of the example (deploy/README.md): two machines, two processes each.
EXAMPLE_UPSTREAMS = [
    Upstream("app1-8001", "10.0.0.5:8001"),
    Upstream("app1-8002", "10.0.0.5:8002"),
    Upstream("app2-8001", "10.0.0.6:8001"),
    Upstream("app2-8002", "10.0.0.6:8002"),
]
UNITS = [
    "machiavel-migrate.service",
    "machiavel-server@.service",
    "machiavel-bots.service",
    "machiavel.target",
]
INSTALLED_VENV = "/opt/machiavel/venv"  # where the units expect machiavel


def need_haproxy() -> None:
    if not Path(HAPROXY).exists():
        message = f"{HAPROXY} is missing: run scripts/ensure-haproxy.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def test_the_example_configuration_is_what_the_template_gives() -> None:
    written = (DEPLOY / "haproxy.cfg").read_text()
    assert written == proxy_config(":80", EXAMPLE_UPSTREAMS)


def test_proxy_config_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    servers = [f"--server={u.name}={u.address}" for u in EXAMPLE_UPSTREAMS]
    assert cli.main(["proxy-config", *servers]) == 0
    assert capsys.readouterr().out == (DEPLOY / "haproxy.cfg").read_text()
    assert cli.main(["proxy-config", "--server", "a b=10.0.0.5:8001"]) == 2
    assert "must be [NAME=]HOST:PORT" in capsys.readouterr().err


def test_haproxy_accepts_the_example_and_the_cluster_configuration(tmp_path: Path) -> None:
    need_haproxy()
    assert check_config(DEPLOY / "haproxy.cfg") is None
    child = tmp_path / "child.cfg"
    child.write_text(proxy_config("127.0.0.1:8000", EXAMPLE_UPSTREAMS[:2], system=False))
    assert check_config(child) is None
    broken = tmp_path / "broken.cfg"
    broken.write_text(proxy_config(":80", EXAMPLE_UPSTREAMS).replace("balance hash", "balance"))
    assert check_config(broken) is not None  # the check can fail


def test_the_template_refuses_what_haproxy_would_misread() -> None:
    with pytest.raises(ValueError, match="at least one server"):
        proxy_config(":80", [])
    with pytest.raises(ValueError, match="the same name"):
        proxy_config(":80", [Upstream("a", "10.0.0.5:1"), Upstream("a", "10.0.0.5:2")])


def verify_units(folder: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` of the units in ``folder`` (the server's as instance
    8001), with the same environment whatever the machine's own units."""
    names = [name.replace("@.service", "@8001.service") for name in UNITS]
    return subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *(str(folder / name) for name in names)],
        capture_output=True,
        text=True,
        check=False,
    )


def units_in(folder: Path) -> Path:
    """The units, their programs pointed at this Python's own (verify wants them there)."""
    venv = Path(sys.executable).parent.parent
    if not (venv / "bin" / "machiavel").exists():
        pytest.skip(f"no machiavel command in {venv / 'bin'} (pip install -e .)")
    for name in UNITS:
        text = (DEPLOY / name).read_text()
        assert INSTALLED_VENV in text or name.endswith(".target"), name
        (folder / name).write_text(text.replace(INSTALLED_VENV, str(venv)))
    return folder


def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is missing (not a systemd machine)")
    verified = verify_units(units_in(tmp_path))
    assert verified.returncode == 0 and verified.stderr == "", verified.stderr
    # The check can fail: a misspelt key is reported.
    server = tmp_path / "machiavel-server@.service"
    server.write_text(server.read_text().replace("ProtectSystem=", "ProtectSytem="))
    assert "Unknown key" in verify_units(tmp_path).stderr
