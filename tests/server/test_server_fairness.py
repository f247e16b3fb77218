"""Slow bot moves take turns across the tables' owners (``bots.FairSlots``): a flood of
strong-bot tables from one client cannot keep another table's bot waiting behind it, and
quick bots never wait for a slot. Order is checked, never time."""

from __future__ import annotations

import asyncio

from machiavel.server.bots import FairSlots


def test_owners_take_turns() -> None:
    async def scenario() -> list[str]:
        slots = FairSlots(1)
        order: list[str] = []
        release = asyncio.Event()

        async def move(owner: str, name: str) -> None:
            await slots.acquire(owner)
            order.append(name)
            await release.wait()
            slots.release()

        await slots.acquire("flood")  # one move of the flood thinks
        tasks = [asyncio.create_task(move("flood", f"flood {i}")) for i in range(1, 6)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(move("friend", "friend")))
        await asyncio.sleep(0)
        assert slots.waiting == 6
        release.set()
        slots.release()
        await asyncio.gather(*tasks)
        return order

    order = asyncio.run(scenario())
    assert order.index("friend") <= 1  # after at most one more move of the flood
    assert sorted(order) == sorted([*(f"flood {i}" for i in range(1, 6)), "friend"])


def test_a_cancelled_wait_passes_its_place_on() -> None:
    async def scenario() -> None:
        slots = FairSlots(1)
        await slots.acquire("a")
        waiting = asyncio.create_task(slots.acquire("b"))
        after = asyncio.create_task(slots.acquire("c"))
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        slots.release()
        await asyncio.wait_for(after, 60)  # c got the place b gave up
        assert slots.busy == 1 and slots.waiting == 0

    asyncio.run(scenario())


def test_at_least_one_slot() -> None:
    assert FairSlots(0).slots == 1
