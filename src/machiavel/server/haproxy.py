"""HAProxy (Debian's package ``haproxy``) in front of the server processes of a cluster
(docs/cluster.md): one template, filled in for ``machiavel cluster`` (a child process on
loopback ports) and for a real deployment (``machiavel proxy-config``, which wrote
deploy/haproxy.cfg; a test checks the two still agree).

A game's requests, its WebSocket included, go by a consistent hash of the game's id, so
that they reach one process (the one that owns the game) while it is up; every other
request goes round robin. HAProxy checks ``GET /api/health`` of every process every two
seconds and, passively, marks a process down at its first refused connection; the
request that met it is sent to another process at once (``option redispatch``).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from string import Template

from machiavel.server.health import HEALTH_PATH

HAPROXY = os.environ.get("MACHIAVEL_HAPROXY", "/usr/sbin/haproxy")
PER_ADDRESS = 64  # requests in progress and open WebSockets per client address

# As Debian's own /etc/haproxy/haproxy.cfg: logs to syslog, an unprivileged user in a
# chroot, the admin socket where `systemctl reload` and hatop find it.
SYSTEM_GLOBAL = """\
    log /dev/log local0
    chroot /var/lib/haproxy
    stats socket /run/haproxy/admin.sock mode 660 level admin
    stats timeout 30s
    user haproxy
    group haproxy
    # Each proxied connection takes two descriptors (client and server side).
    maxconn 20000"""
SYSTEM_LOGS = """\
    log global
    option httplog
    option dontlognull"""
# A child of `machiavel cluster`: its user, no request log; HAProxy says on its stderr
# (the cluster's proxy.log) when a process goes down or comes back.
CHILD_GLOBAL = "    # a child of `machiavel cluster`: its user, no log, no socket"
CHILD_LOGS = "    # no request log"

TEMPLATE = Template("""\
# machiavel behind HAProxy (Debian's package haproxy): several `machiavel serve` processes
# on one PostgreSQL and one Redis (docs/cluster.md). Written by `machiavel proxy-config`
# from the template in src/machiavel/server/haproxy.py, which `machiavel cluster` fills
# in too; check it with `haproxy -c -f FILE`.
global
$global_settings

defaults
    mode http
$logs
    timeout connect 5s
    # Slow clients: the headers within 20 s of the connection's opening (more than the
    # 10 s a browser keeps an unused preconnected socket); an idle keep-alive 15 s.
    timeout http-request 20s
    timeout http-keep-alive 15s
    timeout client 30s
    timeout server 60s
    # An upgraded WebSocket is a tunnel: the server pings each one every 20 s and ends
    # those whose client stopped answering, so only a vanished host is ever this quiet.
    timeout tunnel 1h
    timeout client-fin 5s
    timeout queue 10s
    # A request that met a refused connection goes to another process at once; so does
    # a GET or HEAD that a dying process accepted and closed without an answer (any
    # other method may have been carried out: the client hears of it, 502).
    retries 2
    option redispatch 1
    retry-on conn-failure empty-response

frontend machiavel
    bind $bind
    # For HTTPS (e.g. certificates from Debian's certbot, key and chain in one file):
    #   bind :443 ssl crt /etc/haproxy/certs/machiavel.pem
    #   http-request redirect scheme https unless { ssl_fc }
    # Requests in progress and open WebSockets (a page holds one per game it shows) per
    # client address, as deploy/nginx.conf limits them.
    stick-table type ipv6 size 100k expire 60s store conn_cur
    http-request track-sc0 src
    http-request deny deny_status 429 if { sc_conn_cur(0) gt $per_address }
    # Set, not appended to: a client cannot slip in an address of its choosing.
    http-request set-header X-Forwarded-For %[src]
    http-request set-header X-Forwarded-Proto https if { ssl_fc }
    http-request set-header X-Forwarded-Proto http unless { ssl_fc }
    http-request disable-l7-retry unless METH_GET || METH_HEAD
    # A game's requests: /api/games/ID and everything under it, the WebSocket included.
    acl game_request path_reg ^/api/games/[^/]+(/|$$)
    use_backend machiavel_games if game_request
    default_backend machiavel_any

backend machiavel_games
    # The game's id is the path's 4th field (the 1st is the empty one before its first
    # slash). Consistent hashing: a process that goes down takes away only its own
    # games, which the next process on the ring then receives; they come back to it
    # when it is up again.
    balance hash path,field(4,/)
    hash-type consistent
    option httpchk
    http-check send meth GET uri $health_path
    http-check expect status 200
    # A process gone (its port closed) is marked down by the first refused connection,
    # at once. The checks, every 2 s, are for a process that hangs: down after 3 failed
    # in a row (5 s each to answer: a process only slow, e.g. on a busy machine, keeps
    # its games, which moving would cost more), up again after 2 good ones.
    timeout check 5s
    default-server check inter 2s fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down
$game_servers

backend machiavel_any
    balance roundrobin
    # The same processes, up or down as the checks of machiavel_games find them.
$any_servers
""")


@dataclass(frozen=True)
class Upstream:
    """A server process as the proxy knows it: its name in HAProxy's logs and stats, and
    the address (host:port) where the proxy reaches it."""

    name: str
    address: str


def proxy_config(
    bind: str,
    upstreams: Sequence[Upstream],
    *,
    system: bool = True,
    per_address: int = PER_ADDRESS,
) -> str:
    """The HAProxy configuration listening on ``bind`` (e.g. ``:80``) in front of
    ``upstreams``; ``system``: for Debian's service (else for a child process)."""
    if not upstreams:
        raise ValueError("the proxy needs at least one server process")
    names = [upstream.name for upstream in upstreams]
    if len(set(names)) != len(names):
        raise ValueError(f"two server processes have the same name among {names}")
    return TEMPLATE.substitute(
        global_settings=SYSTEM_GLOBAL if system else CHILD_GLOBAL,
        logs=SYSTEM_LOGS if system else CHILD_LOGS,
        bind=bind,
        per_address=per_address,
        health_path=HEALTH_PATH,
        game_servers="\n".join(f"    server {u.name} {u.address}" for u in upstreams),
        any_servers="\n".join(
            f"    server {u.name} {u.address} track machiavel_games/{u.name}" for u in upstreams
        ),
    )


def check_config(config: Path, haproxy: str = HAPROXY) -> str | None:
    """What ``haproxy -c`` finds wrong with ``config`` (None if it is valid)."""
    checked = subprocess.run(
        [haproxy, "-c", "-f", str(config)], capture_output=True, text=True, check=False
    )
    if checked.returncode == 0:
        return None
    found = [line for line in checked.stderr.splitlines() if "[NOTICE]" not in line]
    return "\n".join(found).strip() or f"haproxy -c stopped with code {checked.returncode}"


def haproxy_command(config: Path, haproxy: str = HAPROXY) -> list[str]:
    """HAProxy in the foreground (stopped at once by SIGINT or SIGTERM)."""
    return [haproxy, "-db", "-f", str(config)]
