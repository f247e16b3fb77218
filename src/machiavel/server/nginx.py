"""Debian's nginx in front of a server, run as a child process with the example site file
deploy/nginx.conf on loopback ports (the proxy test and the slow-clients benchmark).

Only the ports change: the site's ``listen 80;`` becomes the proxy's loopback port (the
IPv6 line goes), its upstream ``127.0.0.1:8000`` the server's port. Everything else nginx
writes (pid, logs, temporary files) stays in a folder of the caller's.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from pathlib import Path

from machiavel.server.launch import start_server_process

NGINX = os.environ.get("MACHIAVEL_NGINX", "/usr/sbin/nginx")
SITE = Path(__file__).resolve().parents[3] / "deploy" / "nginx.conf"
WORKER_CONNECTIONS = 8192  # as deploy/nginx.conf asks of /etc/nginx/nginx.conf
UPSTREAM = "server 127.0.0.1:8000;"


def site_on_ports(site: str, port: int, upstream_port: int) -> str:
    """The site file with its ports replaced (refused if it no longer has them)."""
    if UPSTREAM not in site or not re.search(r"^\s*listen 80;$", site, re.MULTILINE):
        raise ValueError(f"the site file lost 'listen 80;' or '{UPSTREAM}'")
    site = re.sub(r"^(\s*)listen 80;$", rf"\1listen 127.0.0.1:{port};", site, flags=re.MULTILINE)
    site = re.sub(r"^\s*listen \[::\]:80;\n", "", site, flags=re.MULTILINE)
    return site.replace(UPSTREAM, f"server 127.0.0.1:{upstream_port};")


def main_config(folder: Path, site_file: Path) -> str:
    """A whole nginx.conf: one worker in the foreground, its files in ``folder``."""
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers need the folder too
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy"))
    return (
        f"{user}daemon off;\nworker_processes 1;\nworker_rlimit_nofile {WORKER_CONNECTIONS * 2};\n"
        f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
        f"events {{ worker_connections {WORKER_CONNECTIONS}; }}\n"
        f"http {{\n    access_log off;\n{temp}\n"
        f"    fastcgi_temp_path {folder / 'fastcgi'};\n    uwsgi_temp_path {folder / 'uwsgi'};\n"
        f"    scgi_temp_path {folder / 'scgi'};\n    include {site_file};\n}}\n"
    )


def start_nginx(folder: Path, port: int, upstream_port: int) -> subprocess.Popen[bytes]:
    """nginx on 127.0.0.1:``port`` in front of 127.0.0.1:``upstream_port``; stop it with
    ``launch.stop_server_process`` (SIGINT: nginx's fast stop, then its group)."""
    folder.mkdir(parents=True, exist_ok=True)
    site_file = folder / "machiavel-site.conf"
    site_file.write_text(site_on_ports(SITE.read_text(), port, upstream_port))
    config = folder / "nginx.conf"
    config.write_text(main_config(folder, site_file))
    with (folder / "nginx.out").open("ab") as output:
        return start_server_process([NGINX, "-p", str(folder), "-c", str(config)], output)


def wait_listening(port: int, process: subprocess.Popen[bytes], seconds: float) -> None:
    """Return once something accepts connections on 127.0.0.1:``port``; fail if
    ``process`` stops first or ``seconds`` go by (a bound only a stuck start reaches)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the process stopped with code {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)  # polling interval, not a condition: the loop checks again
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")
