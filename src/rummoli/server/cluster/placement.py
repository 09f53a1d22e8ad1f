"""The placement of a process that is one of several (``rummoli serve --redis-url``; docs/deploy.md).

Each table waiting or in play has one owner, under a fenced lease in the database. When a room is loaded,
this process claims the table if no live process owns it and hosts it (a :class:`~rummoli.server.tables.host.Host`
with the lease's fence), or else follows it (a :class:`~rummoli.server.cluster.copy.Copy`). A host tells the
processes that follow its table of each stored change, who sits where and who is ready for the next hand, on
the table's Redis channel. Taking a table over (:meth:`Cluster.take`) replaces the room's copy with a host;
losing it (:meth:`Cluster.lost`: a fenced-off write, or a renewal that found the lease taken) replaces the host
with a copy, rebuilt from the store before anything reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from rummoli.server.cluster.bus import Bus
from rummoli.server.cluster.copy import Copy
from rummoli.server.cluster.forward import Forwarding
from rummoli.server.cluster.upkeep import Upkeep
from rummoli.server.jsontext import dumps
from rummoli.server.tables import chat, rematch
from rummoli.server.tables.host import Host
from rummoli.server.tables.registry import Registry
from rummoli.server.tables.room import Keeper, Room, stored_summary

log = logging.getLogger("rummoli.server")


class Cluster:
    """The placement over leases and Redis (see the module's docstring)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.settings = registry.settings
        self.store = registry.store
        self.hub = registry.hub
        self.name = self.settings.process_name
        self.owner = self.name  # a new table's row is born owned by the process that made it
        self.bus: Bus | None = None  # made by start (a test may give one)
        self.forwarding = Forwarding(self)
        self.upkeeping = Upkeep(self)
        self._claimed: dict[str, int] = {}  # tables being loaded after a claim: their fence

    # ------------------------------------------------------------------------------------- life
    async def start(self) -> int:
        """Join the other processes (the bus) and keep leases. No table is brought back here: the upkeep
        takes each free one, so every table goes to one process."""
        if self.bus is None:
            self.bus = Bus(self.settings.redis_url, self.settings.redis_prefix, self.name, self.on_table,
                           self.forwarding.on_command, self.on_bus_back, self.on_table_now)
        self.bus.start()
        self.upkeeping.start()
        return 0

    async def stopping(self) -> None:
        await self.upkeeping.stopping()

    async def close(self) -> None:
        if self.bus is not None:
            # a clean stop hands the tables on at once instead of after their leases run out
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.release, self.name, [h.room.id for h in self.owned()])
            await self.bus.close()
        await self.upkeeping.close()

    def health(self) -> dict[str, Any]:
        redis = "off" if self.bus is None else "ok" if self.bus.up else "unreachable"
        return {"redis": redis, "owned": len(self.owned())}

    def owned(self) -> list[Host]:
        """The hosts of the tables this process drives under a lease, waiting or in play."""
        return [r.keeper for r in self.registry.rooms.values()
                if isinstance(r.keeper, Host) and r.keeper.fence is not None and not r.over]

    async def upkeep(self, now: float) -> None:
        await self.upkeeping.run(now)

    # ------------------------------------------------------------------------------------- keepers
    async def keeper_for(self, room: Room) -> Keeper:
        """Host the table if no live process owns it (claimed now, or by :meth:`take`), else follow it. A
        finished evening is driven by nobody: a host without a lease."""
        if room.over:
            return Host(room)
        fence = self._claimed.get(room.id)
        if fence is None:
            fence = await asyncio.to_thread(self.store.claim, room.id, self.name, self.settings.lease_seconds)
        if fence is not None:
            return Host(room, fence)
        copy = Copy(room, self)
        assert self.bus is not None
        await self.bus.follow(room.id)  # before the store is read: no change can fall in between
        return copy

    async def take(self, table_id: str, early: bool = False) -> bool:
        """Claim a table whose lease is free or has run out (``early``: or whose owner died, see
        rummoli.server.cluster.deaths.Liveness); True if this process drives it now."""
        try:
            fence = await asyncio.to_thread(self.store.claim, table_id, self.name, self.settings.lease_seconds,
                                            early)
        except Exception:
            return False
        if fence is None:
            return False
        room = self.registry.rooms.get(table_id)
        if room is None:
            # Loaded as claimed; but a load already under way (a client of this process arriving) finishes
            # first and returns its room, a follower's copy: it is replaced below. Left a copy, the table was
            # this process's in the store and driven by nobody (forwarded actions refused as "moved") until the
            # lease ran out, about 4.4 s after a kill instead of 1.5 (3 kills in 20 in bench.cluster).
            self._claimed[table_id] = fence
            try:
                room = await self.registry.get(table_id)
            finally:
                self._claimed.pop(table_id, None)
            if room is None:
                return False
        keeper = room.keeper
        if not isinstance(keeper, Host) or keeper.fence != fence:
            log.warning("table %s: taken over (fence %s)", table_id, fence)
            await self._host(room, fence)
        self.forwarding.owner_moved(room)  # this process's own forwarded actions for it are run here now
        return True

    async def _host(self, room: Room, fence: int) -> None:
        """This process took the table over: a host replaces the room's keeper, rebuilt from the store (bots'
        memory included), and drives it."""
        async with room.lock:
            room.keeper.retire()
            host = Host(room, fence)
            room.keeper = host
            room.stale = True  # nothing reads the table the copy held until the store's is loaded
            await room.reload()
            host.start_clocks()
            self.announce(host)
        self.hub.publish(room.id)
        host.seats_changed()

    def lost(self, host: Host) -> None:
        """This process lost the table (its lease was taken over): a follower's copy replaces the host, rebuilt
        from the store before anything reads it."""
        room = host.room
        if room.keeper is not host:
            return  # already (the renewal and a refused write can both find out)
        host.retire()
        copy = Copy(room, self)
        room.keeper = copy
        room.stale = True
        asyncio.get_running_loop().create_task(self._follow(copy))

    async def _follow(self, copy: Copy) -> None:
        if self.bus is not None:
            await self.bus.follow(copy.room.id)
        await copy.refresh()

    # ------------------------------------------------------------------------------------- telling
    def announce(self, host: Host) -> None:
        """Followers learn who to forward to, and check they are not behind."""
        if self.bus is not None:
            self.bus.publish(host.room.id, {"kind": "owner", "table": host.room.id, "owner": self.name,
                                            "fence": host.fence, "seq": host.room.seq})

    def publish_change(self, host: Host, change: dict[str, Any]) -> None:
        """Tell the followers of a host's table the change just stored (and the turn clock after it)."""
        if self.bus is None:
            return
        room = host.room
        clock = None
        if host.schedule.clock is not None:
            left = max(0.0, host.schedule.clock.deadline - asyncio.get_running_loop().time())
            clock = {"seat": host.schedule.clock.seat, "seq": host.schedule.clock.seq, "seconds": round(left, 3)}
        since = change.get("since")
        texts = self._texts_for_followers(host, since) if isinstance(since, int) and change["seq"] > since else {}
        journal = change.pop("journal", None)  # None: the followers read the change from the store
        if journal is not None:
            # The journal entries travel as one more text beside the seats' (see Copy._keep_change).
            texts["journal"] = dumps(journal)
            change["entries"] = len(journal)
        self.bus.publish(room.id, {"kind": "change", "table": room.id, "owner": self.name, "fence": host.fence,
                                   **change, "clock": clock, "next_hand": self._next_hand(host)}, texts)
        if "answers" in change:
            self.forwarding.answered.add(change["answers"])

    @staticmethod
    def _texts_for_followers(host: Host, since: int) -> dict[str, str]:
        """The update texts, after the change just stored, for the seats other processes show (they send them
        as they are instead of replaying the change and working the views out again)."""
        seats = {seat for counts in host.elsewhere.values() for seat, n in counts.items() if n > 0}
        return {str(seat): host.room.update_text(seat, since) for seat in sorted(seats)}

    @staticmethod
    def _next_hand(host: Host) -> dict[str, Any] | None:
        """The countdown as the followers are told it (with the change messages, and on its own)."""
        shown = host.next_hand_info()
        return None if shown is None else {"seq": host.room.seq, **shown}

    def publish_seats(self, host: Host) -> None:
        if self.bus is not None:
            self.bus.publish(host.room.id, {"kind": "seats", "table": host.room.id, "infos": host.room.seat_infos()})

    def publish_news(self, table_id: str, news: dict[str, Any]) -> None:
        if self.bus is not None:
            self.bus.publish(table_id, {**news, "table": table_id})

    def publish_next_hand(self, host: Host) -> None:
        if self.bus is not None:
            self.bus.publish(host.room.id, {"kind": "next_hand", "table": host.room.id,
                                            "next_hand": self._next_hand(host)})

    async def share_presence(self, copy: Copy) -> None:
        """Tell the owner how many clients of each seat this process holds."""
        if self.bus is None:
            return
        room = copy.room
        owner = copy.owner or await self.owner_name(room.id)
        if owner is not None and owner != self.name:
            copy.owner = owner
            self.bus.tell(owner, {"kind": "cmd", "op": "presence", "table": room.id, "process": self.name,
                                  "args": {str(k): v for k, v in room.present.items() if v > 0}})

    async def owner_name(self, table_id: str) -> str | None:
        with contextlib.suppress(Exception):
            found = await asyncio.to_thread(self.store.owner, table_id)
            if found is not None and found[0] is not None and found[2] > 0:
                return found[0]
        return None

    async def listing(self, base_url: str) -> list[dict[str, Any]]:
        """The newest 100 tables waiting or in play, as stored for the tables other processes hold."""
        out = []
        for row in await asyncio.to_thread(self.store.listing, 100):
            room = self.registry.rooms.get(row.id)
            out.append(room.summary(base_url) if room is not None else stored_summary(row, base_url, self.settings))
        return out

    # ------------------------------------------------------------------------------------- hearing
    def _copy_of(self, message: dict[str, Any]) -> Copy | None:
        room = self.registry.rooms.get(str(message.get("table")))
        keeper = room.keeper if room is not None else None
        return keeper if isinstance(keeper, Copy) else None

    def on_table_now(self, message: dict[str, Any]) -> bool:
        """What a table's owner published, handled as it is read when that needs no waiting (a change in order,
        the usual case); False: :meth:`on_table` must handle it."""
        copy = self._copy_of(message)
        if copy is None:
            return True  # nothing to do (as in on_table)
        return message.get("kind") == "change" and copy.follow_change_now(message)

    async def on_table(self, message: dict[str, Any]) -> None:
        """What a table's owner published."""
        copy = self._copy_of(message)
        if copy is None:
            return
        kind = message.get("kind")
        if kind == "change":
            await copy.follow_change(message)
        elif kind == "seats":
            await copy.follow_seats(message)
        elif kind == "next_hand":
            copy.follow_next_hand(message)
        elif kind == "chat" and isinstance(message.get("message"), dict):
            chat.heard(copy.room, message["message"])
        elif kind == "rematch" and isinstance(message.get("again"), dict):
            rematch.heard(copy.room, message["again"])
        elif kind == "owner":
            copy.owner = str(message.get("owner"))
            self.forwarding.owner_moved(copy.room)
            if message.get("seq") != copy.room.seq:
                await copy.refresh()
            await self.share_presence(copy)

    async def on_bus_back(self) -> None:
        """Redis is back (or reached for the first time): followers may have missed changes."""
        for room in list(self.registry.rooms.values()):
            keeper = room.keeper
            if isinstance(keeper, Copy):
                keeper.owner = None
                await keeper.refresh()
                await self.share_presence(keeper)
            elif isinstance(keeper, Host) and keeper.fence is not None:
                self.announce(keeper)
