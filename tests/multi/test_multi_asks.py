"""An action forwarded to an owner that will never answer stops waiting once the table has another owner (issue
14's failover; rummoli.server.cluster.forward.Forwarding.ask and _check_ask).

Each forwarded action has a timer of its own, cancelled by its answer: after a quarter of a second it looks
whether this process has heard of another owner, and after half a second it asks the store. The owner here is
a process name nobody runs, so the action's message is published to a channel nobody hears, as to a process
killed a moment ago.

In-process, on the machine's PostgreSQL and Redis: a real Store, a real Registry and Cluster, and a real, started
Bus.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from multi_helpers import MACHINE_REDIS, Database

from rummoli.server.cluster.bus import Bus
from rummoli.server.cluster.copy import Copy
from rummoli.server.cluster.forward import OwnerChanged
from rummoli.server.cluster.placement import Cluster
from rummoli.server.settings import Settings
from rummoli.server.storage.rows import SeatRow
from rummoli.server.storage.store import Store
from rummoli.server.tables.hub import Hub
from rummoli.server.tables.registry import Registry

OPTIONS = {"game": "stops", "ruleset": "rummoli", "ruleset_name": "rummoli", "turn_timer": None}
ACTION = {"seat": 0, "action": {"seat": 0, "action": "pass"}, "seq": 1}


async def _nothing(*_args: object) -> None:
    return None


async def _follower(tmp_path: Path, database: Database, prefix: str) -> tuple[Cluster, Copy]:
    """This process ("here") with a follower's copy of table "t", owned by "gone" (which nobody runs)."""
    store = Store(database.url)
    store.migrate()
    store.create_table("t", "stops", "rummoli", OPTIONS, 0,
                       [SeatRow("Ann", None, "hash-of-a-token"), SeatRow("Bob", None, "another")],
                       owner="gone", lease=60.0)
    settings = Settings(data_dir=tmp_path, database_url=database.url, redis_url=MACHINE_REDIS,
                        redis_prefix=prefix, process_name="here", lease_seconds=3.0)
    registry = Registry(settings, store, Hub(), None)
    cluster = registry.placement = Cluster(registry)
    cluster.bus = Bus(MACHINE_REDIS, prefix, "here", _nothing, _nothing, _nothing)
    cluster.bus.start()
    deadline = time.monotonic() + 10
    while not cluster.bus.up:
        assert time.monotonic() < deadline, "the bus did not come up"
        await asyncio.sleep(0.02)
    room = await registry.get("t")
    assert room is not None and isinstance(room.keeper, Copy)
    return cluster, room.keeper


def _with_follower(tmp_path: Path, database: Database, prefix: str,
                   body: Callable[[Cluster, Copy], Awaitable[None]]) -> None:
    """Run ``body`` with this process and its follower's copy of "t" (see _follower), then close them."""
    async def run() -> None:
        cluster, copy = await _follower(tmp_path, database, prefix)
        try:
            await body(cluster, copy)
        finally:
            assert cluster.bus is not None
            await cluster.bus.close()
            await asyncio.to_thread(cluster.registry.writer.close)
            cluster.store.engine.dispose()

    asyncio.run(run())


def test_an_action_sent_to_a_dead_owner_is_freed_when_the_store_names_another(tmp_path: Path, database: Database,
                                                                               prefix: str) -> None:
    async def body(cluster: Cluster, copy: Copy) -> None:
        forwarding = cluster.forwarding
        asking = asyncio.create_task(forwarding.ask(copy, "gone", "act", ACTION))
        await asyncio.sleep(0.3)
        assert not asking.done(), "the action stopped waiting though nothing changed"
        # Another process took the table over; this one has heard nothing of it on the bus.
        database.query("UPDATE tables SET owner = 'other', fence = 2 WHERE id = 't' RETURNING id")
        started = time.monotonic()
        with pytest.raises(OwnerChanged):
            await asyncio.wait_for(asking, 3.0)
        assert time.monotonic() - started < 1.5, "the store was asked too late"
        assert copy.owner == "other", "the next try goes to the owner the store names"
        assert forwarding._asking == {} and forwarding._store_asked == {} and forwarding._checks == {}

    _with_follower(tmp_path, database, prefix, body)


def test_an_owner_announced_on_the_bus_frees_the_actions_at_once(tmp_path: Path, database: Database,
                                                                  prefix: str) -> None:
    async def body(cluster: Cluster, copy: Copy) -> None:
        forwarding = cluster.forwarding
        asking = asyncio.create_task(forwarding.ask(copy, "gone", "act", ACTION))
        other = asyncio.create_task(forwarding.ask(copy, "gone", "act", ACTION))
        await asyncio.sleep(0.02)  # both sent; their own timers would look only at 0.25 s
        waiting = list(forwarding._asking)
        assert len(waiting) == 2 and not any(asked.done() for asked in waiting)
        await cluster.on_table({"kind": "owner", "table": "t", "owner": "other", "fence": 2, "seq": copy.room.seq})
        assert all(asked.done() for asked in waiting), "the announcement did not free the waiting actions"
        for task in (asking, other):
            with pytest.raises(OwnerChanged):
                await asyncio.wait_for(task, 3.0)

    _with_follower(tmp_path, database, prefix, body)


def test_an_answered_action_leaves_nothing_behind(tmp_path: Path, database: Database, prefix: str) -> None:
    """The answer cancels the action's timer: nothing looks at it, nor at the store, afterwards."""
    async def body(cluster: Cluster, copy: Copy) -> None:
        forwarding = cluster.forwarding
        looked: list[object] = []
        real_check = forwarding._check_ask
        forwarding._check_ask = lambda asked: (looked.append(asked), real_check(asked))  # type: ignore[method-assign]
        asking = asyncio.create_task(forwarding.ask(copy, "gone", "act", ACTION))
        await asyncio.sleep(0.05)
        (asked,) = forwarding._asking
        asked.set_result({"kind": "answer", "result": {"ok": True}})  # as Bus._dispatch does with an answer
        assert await asyncio.wait_for(asking, 1.0) == {"kind": "answer", "result": {"ok": True}}
        await asyncio.sleep(0.6)
        assert looked == [], "the timer of an answered action still ran"
        assert forwarding._asking == {} and forwarding._store_asked == {} and forwarding._checks == {}

    _with_follower(tmp_path, database, prefix, body)
