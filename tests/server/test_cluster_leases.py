"""Leases, members and messages of a cluster, on the real Redis (server/cluster.py).

Each test has its own key prefix, deleted afterwards. No test waits on the clock: leases
that must run out are made to (their key deleted, as Redis does when one expires), and a
member's death is its heartbeat key gone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from machiavel.server import metrics
from machiavel.server.cluster import Cluster, ClusterSettings
from support.cluster_run import REDIS_URL


@pytest.fixture
def prefix(redis_prefix: str) -> str:
    return redis_prefix  # tests/server/conftest.py


def member(prefix: str, name: str, lease: float = 60.0) -> Cluster:
    """A member whose leases never run out by themselves during a test (60 s)."""
    return Cluster(ClusterSettings(REDIS_URL, f"http://{name}.invalid", name, lease, prefix))


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def closing(*members: Cluster) -> None:
    for one in members:
        await one.redis.aclose()


def test_a_game_has_one_owner_at_a_time(prefix: str) -> None:
    async def test() -> None:
        a, b = member(prefix, "a"), member(prefix, "b")
        await a._beat()
        assert await a.claim("g1")
        assert await a.claim("g1")  # renewing is claiming again
        assert not await b.claim("g1")
        owner = await b.owner("g1")
        assert owner is not None and owner.member == a.member
        assert owner.address == "http://a.invalid"
        assert await a.owner("g1") is None  # its own game: nobody else's
        assert await b.owner_or_claim("g1") == owner  # a live owner: pass requests on
        await a.release("g1")
        assert await b.claim("g1")
        await closing(a, b)

    run(test)


def test_a_member_that_lost_a_lease_forgets_the_game(prefix: str) -> None:
    async def test() -> None:
        a, b = member(prefix, "a"), member(prefix, "b")
        lost: list[str] = []
        a.owned = lambda: ["g1", "g2"]
        a.on_lost = lost.append
        assert await a.claim("g1") and await a.claim("g2")
        await a._renew_all()
        assert lost == []
        await a.redis.delete(a.lease_key("g2"))  # ran out while a was stalled...
        assert await b.claim("g2")  # ...and b took it
        await a._renew_all()
        assert lost == ["g2"]
        assert not await a.claim("g2")
        await closing(a, b)

    run(test)


def test_the_games_of_a_dead_member_are_taken_over(prefix: str) -> None:
    async def test() -> None:
        a, b = member(prefix, "a"), member(prefix, "b")
        await a._beat()
        await b._beat()
        for game in ("g1", "g2", "g3"):
            assert await a.claim(game)
        adopted: list[str] = []
        gone: list[str] = []

        async def adopt(games: list[str]) -> None:
            adopted.extend(games)

        b.on_orphans = adopt
        b.on_member_gone = gone.append
        await b._take_over_the_dead()
        assert adopted == [] and gone == []  # a is alive
        before = metrics.LEASE_TAKEOVERS._value.get()
        await a.redis.delete(a._key("member", a.member))  # a's heartbeat ran out
        await a.redis.delete(a.lease_key("g1"), a.lease_key("g2"))  # so did two leases
        await b._take_over_the_dead()
        assert sorted(adopted) == ["g1", "g2"]  # g3's lease has not run out yet
        assert gone == [a.member]
        assert metrics.LEASE_TAKEOVERS._value.get() == before + 2
        await a.redis.delete(a.lease_key("g3"))
        await b._take_over_the_dead()
        assert sorted(adopted) == ["g1", "g2", "g3"]
        assert gone == [a.member]  # told once
        assert (await b.owner("g3")) is None and not await a.claim("g3")
        await b._take_over_the_dead()  # nothing left of a: it leaves the members
        assert a.member not in await b.redis.smembers(b._key("members"))
        await closing(a, b)

    run(test)


def test_a_dead_owner_is_waited_for_until_its_lease_ends(prefix: str) -> None:
    async def test() -> None:
        a, b = member(prefix, "a"), member(prefix, "b")
        await a._beat()
        assert await a.claim("g1")
        await a.redis.delete(a._key("member", a.member))  # a died; its lease still runs

        async def lease_runs_out() -> None:  # while b waits for it
            await a.redis.delete(a.lease_key("g1"))

        expiry = asyncio.create_task(lease_runs_out())
        assert await b.owner_or_claim("g1", patience=120) is None  # b owns it now
        await expiry
        assert not await a.claim("g1")
        await closing(a, b)

    run(test)


def test_members_pass_messages_and_drop_garbage(prefix: str) -> None:
    async def test() -> None:
        a, b = member(prefix, "a"), member(prefix, "b")
        received: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def handle(message: dict[str, Any]) -> None:
            received.put_nowait(message)

        async def ignore(message: dict[str, Any]) -> None:
            pass

        await b.start(handle)
        await a.start(ignore)
        assert a.secret == b.secret != ""  # shared by every member
        await a.redis.publish(a.channel(b.member), "not json {")
        await a.redis.publish(a.channel(b.member), "[1, 2]")
        a.send(b.member, {"t": "push", "c": "x", "x": "é"})
        assert await received.get() == {"t": "push", "c": "x", "x": "é"}
        await a.stop()
        await b.stop()

    run(test)


def test_a_member_leaving_gives_its_leases_up(prefix: str) -> None:
    async def test() -> None:
        a, b = member(prefix, "a"), member(prefix, "b")

        async def ignore(message: dict[str, Any]) -> None:
            pass

        await a.start(ignore)
        a.owned = lambda: ["g1", "g2"]
        assert await a.claim("g1") and await a.claim("g2")
        await a.stop()
        assert not await b.is_alive(a.member)
        assert await b.claim("g1")  # at once: no lease to wait for
        adopted: list[str] = []

        async def adopt(games: list[str]) -> None:
            adopted.extend(games)

        b.on_orphans = adopt
        await b._take_over_the_dead()  # and its games are handed over, g2 included
        assert sorted(adopted) == ["g1", "g2"]
        await closing(b)

    run(test)
