"""A follower's copy: the keeper of a room whose table another process drives.

A process with clients of a table it does not own keeps a copy of the ``Table``. After each stored change the
owner publishes, on the table's channel, the journal entries it added and the update texts of the seats other
processes show (it knows them from their presence reports). The copy sends those texts to its clients as they
are, and keeps the journal entries unplayed, as the JSON text they came in, until something needs the table (a
client that is not at the change's start, a spectator, a newcomer, the seats); then it runs them through the
table (``snapshot.replay_journal``, the same code a restart uses) and its clients are redacted for with the
engine's own ``events_since`` and ``view``. A copy that finds a gap (a change whose journal position is not the
end of its table), or a new owner, rebuilds its table from the store.

Every command a client gives it (an action, next, a seat taken or left, start, end) is forwarded to the owner
(rummoli.server.cluster.forward); presence goes to the owner too, which decides the grace period and the
bots taking seats over. When this process takes the table over, the copy is replaced by a host.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummoli.server.jsontext import loads
from rummoli.server.tables.errors import Moved
from rummoli.server.tables.room import Room

if TYPE_CHECKING:
    from rummoli.server.cluster.placement import Cluster

log = logging.getLogger("rummoli.server")


@dataclass(frozen=True)
class Told:
    """The owner's countdown between hands, valid while the copy is at ``seq``."""

    seq: int
    deadline: float  # this process's loop time
    ready: tuple[int, ...]
    waiting: tuple[int, ...]


def told_from(message: object) -> Told | None:
    """The owner's countdown read from a bus message's ``next_hand`` (None if absent or odd)."""
    if not isinstance(message, dict):
        return None
    try:
        deadline = asyncio.get_running_loop().time() + float(message["seconds"])
        return Told(int(message["seq"]), deadline, tuple(int(s) for s in message["ready"]),
                    tuple(int(s) for s in message["waiting"]))
    except (KeyError, TypeError, ValueError):
        return None


def change_parts(message: dict[str, Any]) -> tuple[int, str, int, int] | None:
    """Of an owner's "change" message (Cluster.publish_change): where its journal entries start, their JSON
    text, how many there are and the seq they lead to; None for a message that lacks one of them.

    >>> change_parts({"at": 4, "entries": 1, "seq": 9, "texts": {"journal": '[["act",0,{}]]', "1": "{}"}})
    (4, '[["act",0,{}]]', 1, 9)
    >>> change_parts({"at": 4, "entries": 1, "seq": 9, "texts": {}}) is None
    True
    """
    at, count, seq, texts = message.get("at"), message.get("entries"), message.get("seq"), message.get("texts")
    journal = texts.get("journal") if isinstance(texts, dict) else None
    if (not isinstance(at, int) or not isinstance(count, int) or count < 0 or not isinstance(seq, int)
            or not isinstance(journal, str)):
        return None
    return at, journal, count, seq


class Copy:
    """A follower's copy of a room's table (see the module's docstring)."""

    def __init__(self, room: Room, cluster: Cluster) -> None:
        self.room = room
        self.cluster = cluster
        self.retired = False
        self.owner: str | None = None  # which process owns the table, as last heard (None: ask the store)
        self.owner_infos: list[dict[str, Any]] | None = None  # the seats as the owner last described them
        self.remote_clock: tuple[int, int, float] | None = None  # the owner's turn clock (seat, seq, deadline)
        self.remote_next: Told | None = None  # the owner's countdown between hands
        # The owner's changes not played on the table yet (each change's journal entries as the JSON text they
        # came in), how many entries they hold, the seq they lead to, and the update texts the owner made for
        # the last of them (see follow_change).
        self._unplayed: list[str] = []
        self._unplayed_count = 0
        self._unplayed_seq = 0
        self._told: dict[str, Any] | None = None

    # ------------------------------------------------------------------------------------- reading
    @property
    def ahead(self) -> int:
        return self._unplayed_seq if self._unplayed else 0

    def loaded(self) -> None:
        self._unplayed, self._unplayed_count, self._told = [], 0, None

    def catch_up(self) -> None:
        """Replay the changes kept unplayed (see follow_change). If they do not replay, the room is marked
        stale: nothing reads it until the upkeep has rebuilt it from the store."""
        from rummoli.snapshot import replay_journal

        table = self.room.held
        texts, count, seq = self._unplayed, self._unplayed_count, self._unplayed_seq
        self._unplayed, self._unplayed_count = [], 0
        try:
            entries = [entry for text in texts for entry in loads(text)]
            if len(entries) != count:
                raise RuntimeError(f"the owner's changes held {len(entries)} journal entries, not {count}")
            replay_journal(table, entries)
            if int(table.seq) != seq:
                raise RuntimeError(f"the copy is at seq {table.seq} after replaying, the owner at {seq}")
        except Exception:
            log.exception("table %s: the owner's changes did not replay; rebuilding the copy", self.room.id)
            self.room.stale = True

    def connected(self, seat: int) -> int:
        here = self.room.present.get(seat, 0)
        told = self.owner_infos
        if told is not None and seat < len(told) and told[seat].get("connected"):
            return here + 1
        return here

    def clock_info(self) -> dict[str, Any] | None:
        clock = self.remote_clock
        if clock is None or clock[1] != self.room.seq:
            return None
        return {"seat": clock[0], "seconds": round(max(0.0, clock[2] - asyncio.get_running_loop().time()), 2)}

    def clock_key(self) -> tuple[Any, ...] | None:
        return self.remote_clock

    def next_hand_info(self, also: int | None = None) -> dict[str, Any] | None:
        room, told = self.room, self.remote_next
        if told is None or told.seq != room.seq:
            return None
        waiting = list(told.waiting)
        if (also is not None and also not in told.ready and also not in waiting and room.table is not None
                and room.table.bots[also] is None):
            waiting = sorted([*waiting, also])
        left = told.deadline - asyncio.get_running_loop().time()
        return {"seconds": round(max(0.0, left), 2), "ready": list(told.ready), "waiting": waiting}

    def told_text(self, seat: int | None, since: int) -> str | None:
        told = self._told
        if told is not None and told["seq"] == self.room.seq and told["since"] == since:
            text = told["texts"].get("s" if seat is None else str(seat))
            if isinstance(text, str):
                return text
        return None

    # ------------------------------------------------------------------------------------- commands: to the owner
    async def _forward(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        if self.retired:
            raise Moved()
        return await self.cluster.forwarding.forward(self, op, args)

    async def act(self, seat: int, action: Any, seq: int) -> None:
        await self._forward("act", {"seat": seat, "action": action, "seq": seq})

    async def next_ready(self, seat: int, seq: int) -> None:
        await self._forward("next", {"seat": seat, "seq": seq})

    async def end(self) -> None:
        await self._forward("end", {})

    async def resume(self) -> None:
        await self._forward("resume", {})

    async def forward_chat(self, seat: int, text: str | None, reaction: str | None) -> None:
        """A chat line written here: the owner keeps it and sends it to everyone (rummoli.server.tables.chat)."""
        await self._forward("chat", {"seat": seat, "text": text, "reaction": reaction})

    async def forward_rematch(self, seat: int) -> tuple[str, str]:
        """Play again, asked here: the owner makes the new table (rummoli.server.tables.rematch)."""
        result = await self._forward("rematch", {"seat": seat})
        return str(result["table"]), str(result["token"])

    async def start_now(self) -> None:
        await self._forward("start", {})

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        result = await self._forward("join", {"name": name, "seat": seat})
        with contextlib.suppress(Exception):  # so the new token works here at once
            row = await asyncio.to_thread(self.room.registry.store.table, self.room.id)
            if row is not None:
                self.room.seats = row.seats
        return int(result["seat"]), str(result["token"])

    async def leave(self, seat: int) -> None:
        await self._forward("leave", {"seat": seat})
        self.room.close_clients(seat)

    async def presence_changed(self, seat: int) -> None:
        """Only the owner decides (the grace period, a bot taking the seat): it is told."""
        await self.cluster.share_presence(self)
        self.room.registry.hub.publish_seats(self.room.id)

    # ------------------------------------------------------------------------------------- the owner's news
    async def refresh(self) -> None:
        """Rebuild the table from the store (after a gap, a new owner, or Redis coming back)."""
        room = self.room
        async with room.lock:
            await room.reload()
        room.registry.hub.publish(room.id)
        room.registry.hub.publish_seats(room.id)

    async def follow_change(self, message: dict[str, Any]) -> None:
        """The owner stored a change; keep its journal entries for the table (or, after a gap, rebuild the
        table from the store), then tell this process's clients."""
        room = self.room
        async with room.lock:
            if self.retired:
                return
            self.owner = str(message.get("owner") or self.owner)
            t, change = room.held, change_parts(message)
            have = -1 if t is None else len(t.journal) + self._unplayed_count
            if room.stale or t is None or change is None or change[0] > have:
                await room.reload()
            elif change[0] == have:
                self._keep_change(message, *change[1:])
            elif change[0] + change[2] > have:  # partly applied already: cannot happen in order; start over
                await room.reload()
            self._note_clock(message)
        room.registry.hub.publish(room.id)

    def follow_change_now(self, message: dict[str, Any]) -> bool:
        """:meth:`follow_change` at once, without its lock, for a change that comes in order (nothing here
        waits, so nothing can run in between); False, having done nothing, for any other (the lock is held,
        the table is stale or behind, the message is odd)."""
        room = self.room
        t, change = room.held, change_parts(message)
        if (room.lock.locked() or self.retired or room.stale or t is None or change is None
                or change[0] != len(t.journal) + self._unplayed_count):
            return False
        self.owner = str(message.get("owner") or self.owner)
        self._keep_change(message, *change[1:])
        self._note_clock(message)
        room.registry.hub.publish(room.id)
        return True

    def _keep_change(self, message: dict[str, Any], journal: str, count: int, seq: int) -> None:
        # The entries are kept, not replayed, until something needs the table (a client that is not at the
        # change's start, a newcomer, the seats): the owner sends the texts of the seats this process shows,
        # so most changes are never worked out twice. They are kept as the text they came in and read only
        # then: a text is one object the garbage collector never looks at, where the entries read at once were
        # dozens per change, which lived long enough to be examined again and again (the collector's time
        # per process was about twice that of a process whose tables have no followers).
        self._unplayed.append(journal)
        self._unplayed_count += count
        self._unplayed_seq = seq
        self.room.status = str(message.get("status", self.room.status))
        texts = message.get("texts")
        since = message.get("since")
        self._told = ({"seq": seq, "since": since, "texts": texts}
                      if isinstance(texts, dict) and isinstance(since, int) and since < seq else None)

    def _note_clock(self, message: dict[str, Any]) -> None:
        clock = message.get("clock")
        self.remote_clock = None if not clock else (
            int(clock["seat"]), int(clock["seq"]), asyncio.get_running_loop().time() + float(clock["seconds"]))
        self.remote_next = told_from(message.get("next_hand"))

    def follow_next_hand(self, message: dict[str, Any]) -> None:
        """Who is ready for the next hand changed (the owner says so without a change)."""
        self.remote_next = told_from(message.get("next_hand"))
        self.room.registry.hub.publish_next(self.room.id)

    async def follow_seats(self, message: dict[str, Any]) -> None:
        """Who sits where changed (a seat taken or left, a bot, who is connected)."""
        room = self.room
        with contextlib.suppress(Exception):
            row = await asyncio.to_thread(room.registry.store.table, room.id)
            if row is not None:
                room.seats = row.seats
                if {row.status, room.status} <= {"playing", "paused"}:  # the owner paused or resumed it
                    room.status = row.status
        infos = message.get("infos")
        self.owner_infos = infos if isinstance(infos, list) else None
        room.registry.hub.publish_seats(room.id)

    # ------------------------------------------------------------------------------------- life
    async def ready_for(self, since: int | None) -> None:
        room = self.room
        await room.fresh()
        if since is not None and since > room.seq:
            # The client saw more than this copy holds yet (it was on a process that died, and this copy had
            # not heard of the last changes): bring the copy up to the store first, or the welcome would move
            # the client back to the copy's seq and the next update repeat events it has (seen once in
            # tests/multi/test_multi_failover.py: seq 2803 back to 2765).
            await room.reload()

    async def recheck_seats(self) -> bool:
        await self.refresh()  # a seat just taken through another process
        return True

    def begin(self) -> None:
        return

    def resumed(self) -> None:
        return

    def halt(self) -> list[asyncio.Task[None]]:
        bus = self.cluster.bus
        if bus is not None:
            bus.unfollow(self.room.id)
        return []

    def retire(self) -> None:
        self.retired = True
        self.halt()
