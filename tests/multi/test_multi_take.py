"""A takeover that meets a load of the same table already under way (issue 14).

A process loads a table for a client of its own while another process still holds its lease, so the load
makes a follower's copy. Before that load finishes, the lease runs out and this process's upkeep claims the
table. The claim is this process's in the store; the copy in memory must be the owner too. Before the fix it
stayed a follower: the store named this process as owner, nobody drove the table, forwarded actions were
refused as "moved" and nothing renewed the lease, until it ran out and another process took the table
(bench.cluster saw 4.3-4.6 s failovers in 3 kills of 20).

In-process, on the machine's PostgreSQL (a real Store, a real Registry and Cluster); the bus is a real one that is
never started (Redis is not needed to follow or to promote a table; its publishes are dropped while it is
down). The only thing the test holds back is the moment the load's follow returns.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from multi_helpers import MACHINE_REDIS, Database

from rummoli.server.cluster.bus import Bus
from rummoli.server.cluster.placement import Cluster
from rummoli.server.settings import Settings
from rummoli.server.storage.rows import SeatRow
from rummoli.server.storage.store import Store
from rummoli.server.tables.host import Host
from rummoli.server.tables.hub import Hub
from rummoli.server.tables.registry import Registry

OPTIONS = {"game": "stops", "ruleset": "rummoli", "ruleset_name": "rummoli", "turn_timer": None}


async def _nothing(*_args: object) -> None:
    return None


def _owner(database: Database, table_id: str) -> tuple[str, int]:
    rows = database.query("SELECT owner, fence FROM tables WHERE id = %s", table_id)
    return rows[0][0], int(rows[0][1])


def test_a_table_claimed_while_it_loads_as_a_follower_is_driven(tmp_path: Path, database: Database,
                                                                  prefix: str) -> None:
    store = Store(database.url)
    store.migrate()
    try:
        store.create_table("raced", "stops", "rummoli", OPTIONS, 0,
                           [SeatRow("Ann", None, "hash-of-a-token"), SeatRow("Open", None, None)],
                           owner="other", lease=60.0)
        settings = Settings(data_dir=tmp_path, database_url=database.url, redis_url=MACHINE_REDIS,
                            redis_prefix=prefix, process_name="here", lease_seconds=3.0)
        asyncio.run(_race(store, settings, database))
    finally:
        store.engine.dispose()


async def _race(store: Store, settings: Settings, database: Database) -> None:
    registry = Registry(settings, store, Hub(), None)
    cluster = registry.placement = Cluster(registry)
    cluster.bus = Bus(MACHINE_REDIS, settings.redis_prefix, settings.process_name, _nothing, _nothing, _nothing)
    following = asyncio.Event()
    go_on = asyncio.Event()
    real_follow = cluster.bus.follow

    async def held_follow(table_id: str) -> None:
        following.set()
        await go_on.wait()  # the load stays here, its follower's copy not yet in the registry's rooms
        await real_follow(table_id)

    cluster.bus.follow = held_follow  # type: ignore[method-assign]
    # A client of this process arrives: the lease is another's, so the table loads as a follower's copy.
    loading = asyncio.create_task(registry.get("raced"))
    await asyncio.wait_for(following.wait(), 10)
    assert _owner(database, "raced") == ("other", 1)
    # Meanwhile the other process stops renewing and its lease runs out; this process's upkeep claims it.
    database.query("UPDATE tables SET lease_until = 0 WHERE id = %s RETURNING id", "raced")
    taking = asyncio.create_task(cluster.take("raced"))
    deadline = time.monotonic() + 10
    while _owner(database, "raced")[0] != "here":  # the claim is stored; take now waits for the load
        assert time.monotonic() < deadline, "the claim was never stored"
        await asyncio.sleep(0.01)
    go_on.set()
    assert await asyncio.wait_for(taking, 10) is True
    room = await asyncio.wait_for(loading, 10)
    assert room is registry.rooms["raced"]
    owner, fence = _owner(database, "raced")
    assert (owner, fence) == ("here", 2)
    # The table is this process's in memory as in the store: it drives it and renews its lease.
    assert isinstance(room.keeper, Host), "claimed in the store but left a follower's copy: nobody drives the table"
    assert room.keeper.fence == fence
    assert [h.room.id for h in cluster.owned()] == ["raced"]
    room.keeper.halt()
