"""The chores that keep several processes together: leases renewed, free tables taken, deaths heard, copies
checked against the store, clients of dead processes forgotten, copies nobody watches dropped.

The owner renews its leases every third of their length (:meth:`Upkeep.renew_leases`), in a thread and a loop
of its own; every second (:meth:`Upkeep.run`, called by the registry's upkeep) a process looks for leases that
ran out, and for tables whose owner holds no liveness lock (it died: rummoli.server.cluster.deaths), and
takes them. Every two seconds it forgets the clients of processes whose heartbeat ran out, rebuilds the copies
still behind what was stored two seconds before (pub/sub never redelivers, so it is never relied on alone) and
drops the copies nobody here watches any more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from rummoli.server.cluster.copy import Copy
from rummoli.server.cluster.deaths import DeathWatch, Liveness, connector
from rummoli.server.storage.store import LIVENESS_KEY
from rummoli.server.tables.registry import Health
from rummoli.server.tables.room import Room

if TYPE_CHECKING:
    from rummoli.server.cluster.placement import Cluster

log = logging.getLogger("rummoli.server")

#: Seconds a copy nobody here watches stays in memory.
IDLE_COPY = 30.0


class Upkeep:
    """A process's leases and its upkeep among the others (see the module's docstring)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.liveness: Liveness | None = None
        self.deaths: DeathWatch | None = None  # PostgreSQL: tells at once that another process died
        self._thread: ThreadPoolExecutor | None = None
        self._line: Any = None  # the lease thread's way to the database (Store.line)
        self._renewer: asyncio.Task[None] | None = None
        self._last_alive = 0.0
        self._behind: dict[str, int] = {}  # copies found behind the store at the last check, and by how much

    def start(self) -> None:
        cluster = self.cluster
        store = cluster.store
        # Renewals have a loop and a thread of their own: queued behind takeovers (each a rebuild from the
        # database) or behind other database work in the shared threads, a busy process's renewals came late,
        # its leases ran out, and the tables went back and forth between processes.
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummoli-leases")
        # The upkeep's frequent polls (free tables, renewals, stored seqs) run in that thread too, on a
        # connection of its own (rummoli.server.storage.pgline: through the pool each cost milliseconds of CPU)
        self._line = store.line()
        self.liveness = Liveness(store.engine, cluster.name)
        if store.engine.dialect.name == "postgresql":
            loop = asyncio.get_running_loop()
            wake = cluster.registry.wake

            def heard(_name: str) -> None:  # in a watching thread
                with contextlib.suppress(RuntimeError):  # the loop closed: this process is stopping
                    loop.call_soon_threadsafe(wake.set)

            self.deaths = DeathWatch(connector(store.engine), LIVENESS_KEY, heard)
        self._renewer = asyncio.get_running_loop().create_task(self.renew_leases())

    async def _in_thread(self, call: Any, *args: Any) -> Any:
        """``call(*args)`` in the lease thread."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, call, *args)

    async def stopping(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._renewer

    async def close(self) -> None:
        if self.deaths is not None:
            await asyncio.to_thread(self.deaths.close)
        if self._thread is not None:
            # Last: with the lock gone, the other processes may take this one's tables at once.
            if self.liveness is not None:  # in its own thread, the only one that uses its connection
                with contextlib.suppress(Exception):
                    await self._in_thread(self.liveness.drop)
            if self._line is not None:
                with contextlib.suppress(Exception):
                    await self._in_thread(self.cluster.store.close_line, self._line)
            self._thread.shutdown(wait=False)

    # ------------------------------------------------------------------------------------- every second
    def _sees_deaths(self) -> bool:
        """Whether a table whose owner holds no liveness lock may be taken before its lease runs out: while
        this process holds its own (the store also waits until the database has run for a lease)."""
        return self.liveness is not None and self.liveness.held

    async def run(self, now: float) -> None:
        """Take over tables whose lease ran out, and at once those of a process that died; every two seconds
        the rest (see the module's docstring)."""
        cluster = self.cluster
        if self._line is None:
            return  # not started (a test's cluster drives only what it is given)
        early = self._sees_deaths()
        free = await self._in_thread(self._line.unowned, 0.0, 200, cluster.settings.lease_seconds if early else 0.0)
        # tables this process shows first (its clients are waiting), then a share of the rest
        free.sort(key=lambda table_id: table_id not in cluster.registry.rooms)
        # Together, not one after another: each takeover rebuilds its table from the database, and a dead
        # process's last table waited for all the others (about a second with a dozen tables).
        await asyncio.gather(*(cluster.take(table_id, early) for table_id in free[:50]), return_exceptions=True)
        if now - self._last_alive >= 2.0:
            self._last_alive = now
            if cluster.bus is not None and cluster.bus.up:
                await self._forget_dead_processes()
            self._behind = await self._catch_up(self._behind)
            for room in list(cluster.registry.rooms.values()):
                if isinstance(room.keeper, Copy) or room.over:
                    self._drop_if_idle(room, now)

    async def _catch_up(self, behind: dict[str, int]) -> dict[str, int]:
        """A copy still behind what was stored two seconds ago missed a change (which pub/sub does not
        redeliver) and is rebuilt from the store."""
        copies = {r.id: r.keeper for r in self.cluster.registry.rooms.values()
                  if isinstance(r.keeper, Copy) and not r.over}
        stored = await self._in_thread(self._line.seqs, list(copies))
        for table_id, seq in behind.items():
            copy = copies.get(table_id)
            if copy is not None and copy.room.seq < seq:
                log.warning("table %s: its copy missed a change; rebuilding it from the store", table_id)
                await copy.refresh()
        return {table_id: seq for table_id, seq in stored.items() if copies[table_id].room.seq < seq}

    async def _forget_dead_processes(self) -> None:
        cluster = self.cluster
        assert cluster.bus is not None
        hosts = cluster.owned()
        alive = await cluster.bus.alive({name for host in hosts for name in host.elsewhere})
        for host in hosts:
            for name in list(host.elsewhere):
                if name not in alive:
                    await host.presence_elsewhere(name, {})

    def _drop_if_idle(self, room: Room, now: float) -> None:
        registry = self.cluster.registry
        if registry.hub.listeners(room.id):
            room.idle_since = None
        elif room.idle_since is None:
            room.idle_since = now
        elif now - room.idle_since > IDLE_COPY and not room.lock.locked():
            registry.drop(room)

    # ------------------------------------------------------------------------------------- leases
    async def renew_leases(self) -> None:
        """Every third of a lease: extend this process's leases; a table whose lease another process took is
        given up (its host is replaced by a follower's copy)."""
        cluster = self.cluster
        lease = cluster.settings.lease_seconds
        health = Health("renewing leases", "every third of a lease")
        while True:
            started = time.monotonic()
            try:
                owned = cluster.owned()
                kept, others = await self._in_thread(self._renewal, [h.room.id for h in owned], lease)
                if self.deaths is not None:
                    self.deaths.watch(others)
                for host in owned:
                    if host.room.id not in kept and not host.room.over:
                        log.warning("table %s: lease lost to another process", host.room.id)
                        cluster.lost(host)
                health.works()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                health.failed(error)
            await asyncio.sleep(max(0.05, lease / 3 - (time.monotonic() - started)))

    def _renewal(self, table_ids: list[str], lease: float) -> tuple[set[str], set[str]]:
        """In the lease thread, in one go (one hop there and back, not three): this process's liveness lock
        first, then its leases (:meth:`rummoli.server.storage.pgline.PgLine.renew`), then the other processes
        that own tables (whose deaths :attr:`deaths` listens for). A failure of the lock (the database is down)
        shows in the renewal after it."""
        assert self.liveness is not None
        with contextlib.suppress(Exception):
            self.liveness.keep()
        kept: set[str] = self._line.renew(self.cluster.name, table_ids, lease)
        others: set[str] = self._line.owners(self.cluster.name) if self.deaths is not None else set()
        return kept, others
