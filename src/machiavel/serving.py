"""Connection settings of ``machiavel serve``: how many connections at once, how long a
client may take to send a request's headers, how long an idle keep-alive connection stays,
and which proxies' forwarded client addresses are believed (docs/server.md, "Connection
limits"); and which clients may read ``/metrics`` (docs/cluster.md, "Metrics"). Read by
the command line, so nothing here loads the server or Uvicorn;
``machiavel.server.connections`` turns them into Uvicorn's options.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

MAX_CONNECTIONS = 1000
HEADER_TIMEOUT = 10.0
KEEP_ALIVE_TIMEOUT = 5
FORWARDED_ALLOW_IPS = "127.0.0.1,::1"  # a proxy on this machine; "none": believe no proxy
METRICS_FROM = "127.0.0.1,::1"  # a Prometheus on this machine, scraping the server's port
METRICS_FROM_VARIABLE = "MACHIAVEL_METRICS_FROM"

ENVIRONMENT = {
    "max_connections": "MACHIAVEL_MAX_CONNECTIONS",
    "header_timeout": "MACHIAVEL_HEADER_TIMEOUT",
    "keep_alive_timeout": "MACHIAVEL_KEEP_ALIVE_TIMEOUT",
    "forwarded_allow_ips": "MACHIAVEL_FORWARDED_ALLOW_IPS",
}


class SettingError(ValueError):
    """A connection setting that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class ConnectionSettings:
    max_connections: int = MAX_CONNECTIONS
    header_timeout: float = HEADER_TIMEOUT
    keep_alive_timeout: int = KEEP_ALIVE_TIMEOUT
    forwarded_allow_ips: str = FORWARDED_ALLOW_IPS


def positive_int(name: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise SettingError(f"{name} must be a whole number, not {text!r}") from None
    if value < 1:
        raise SettingError(f"{name} must be 1 or more, not {value}")
    return value


def positive_seconds(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise SettingError(f"{name} must be a number of seconds, not {text!r}") from None
    if not 0 < value <= 3600:
        raise SettingError(f"{name} must be more than 0 and at most 3600 seconds, not {text}")
    return value


def trusted_proxies(text: str) -> list[str]:
    """The addresses or networks in a comma-separated list ("none" or "": no proxy)."""
    if text.strip().lower() in ("", "none"):
        return []
    proxies = [part.strip() for part in text.split(",") if part.strip()]
    for proxy in proxies:
        if proxy == "*":
            continue  # every peer: only for a server no client can reach directly
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise SettingError(
                f"forwarded-allow-ips: {proxy!r} is not an IP address or network"
            ) from None
    return proxies


Network: TypeAlias = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class MetricsReaders:
    """The clients that may read ``/metrics``: those whose address (the forwarded one
    behind a trusted proxy) is in one of ``networks``, or everyone (``everyone``)."""

    networks: tuple[Network, ...] = ()
    everyone: bool = False

    @classmethod
    def parse(cls, text: str) -> MetricsReaders:
        """Comma-separated addresses or networks; "*" for every client, "none" or "" for
        none. SettingError names a part that is neither."""
        if text.strip().lower() in ("", "none"):
            return cls()
        parts = [part.strip() for part in text.split(",") if part.strip()]
        if "*" in parts:
            return cls(everyone=True)
        networks = []
        for part in parts:
            try:
                networks.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise SettingError(
                    f"metrics-from: {part!r} is not an IP address or network"
                ) from None
        return cls(tuple(networks))

    def allows(self, host: str | None) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(host or "")
        except ValueError:
            return False  # no address, or a name (a test client): not on any network
        return any(address in network for network in self.networks)


def metrics_from(arguments: argparse.Namespace, environment: Mapping[str, str] = os.environ) -> str:
    """``--metrics-from``, else $MACHIAVEL_METRICS_FROM, else loopback; checked here,
    before the server starts (SettingError)."""
    given: str | None = getattr(arguments, "metrics_from", None)
    text = given if given is not None else environment.get(METRICS_FROM_VARIABLE, METRICS_FROM)
    MetricsReaders.parse(text)
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` options; each defaults to its environment variable, else ours."""
    group = parser.add_argument_group("connection limits (docs/server.md)")
    group.add_argument(
        "--max-connections",
        help=f"connections at once, WebSockets included; more are answered 503 "
        f"(${ENVIRONMENT['max_connections']}, default {MAX_CONNECTIONS})",
    )
    group.add_argument(
        "--header-timeout",
        help=f"seconds a client has to send a request's headers before it is cut off "
        f"(${ENVIRONMENT['header_timeout']}, default {HEADER_TIMEOUT:g})",
    )
    group.add_argument(
        "--keep-alive-timeout",
        help=f"seconds an idle keep-alive connection is kept "
        f"(${ENVIRONMENT['keep_alive_timeout']}, default {KEEP_ALIVE_TIMEOUT})",
    )
    group.add_argument(
        "--forwarded-allow-ips",
        help=f"proxies whose X-Forwarded-For/-Proto are believed, comma-separated addresses "
        f"or networks, 'none' for none (${ENVIRONMENT['forwarded_allow_ips']}, "
        f"default {FORWARDED_ALLOW_IPS})",
    )
    parser.add_argument_group("metrics (docs/cluster.md)").add_argument(
        "--metrics-from",
        help=f"clients that may read /metrics, comma-separated addresses or networks, '*' "
        f"for all, 'none' for none (${METRICS_FROM_VARIABLE}, default {METRICS_FROM})",
    )


def settings_from(
    arguments: argparse.Namespace, environment: Mapping[str, str] = os.environ
) -> ConnectionSettings:
    """The settings of a command line, else of the environment, else the defaults."""

    def given(field: str) -> str | None:
        value: str | None = getattr(arguments, field, None)
        return value if value is not None else environment.get(ENVIRONMENT[field])

    settings = ConnectionSettings()
    if (text := given("max_connections")) is not None:
        settings = _replace(settings, max_connections=positive_int("max-connections", text))
    if (text := given("header_timeout")) is not None:
        settings = _replace(settings, header_timeout=positive_seconds("header-timeout", text))
    if (text := given("keep_alive_timeout")) is not None:
        seconds = positive_int("keep-alive-timeout", text)
        settings = _replace(settings, keep_alive_timeout=seconds)
    if (text := given("forwarded_allow_ips")) is not None:
        trusted_proxies(text)  # refused here, before the server starts
        settings = _replace(settings, forwarded_allow_ips=text)
    return settings


def _replace(settings: ConnectionSettings, **changes: Any) -> ConnectionSettings:
    return ConnectionSettings(**{**settings.__dict__, **changes})
