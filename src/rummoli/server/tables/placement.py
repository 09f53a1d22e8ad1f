"""Where a table is driven: what the registry and the hosts ask of the processes around them.

A single process drives every table it holds (:class:`LocalPlacement`): every room gets a
:class:`~rummoli.server.tables.host.Host`, nobody else is told of a change, and the listing is what this process
holds. With several processes (``--redis-url``) rummoli.server.cluster gives a placement over leases and Redis
that makes a room's keeper a host or a follower's copy, tells the other processes of each change, and replaces
one keeper with the other when a table moves. Nothing here imports it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from rummoli.server.tables.host import Host

if TYPE_CHECKING:
    from rummoli.server.tables.registry import Registry
    from rummoli.server.tables.room import Keeper, Room


class Placement(Protocol):
    """What the tables of this process need from the processes around them."""

    #: The owner written on a new table's row (``None``: a single process, no leases).
    owner: str | None

    async def start(self) -> int:
        """At start: bring back the tables this process drives; how many."""

    async def keeper_for(self, room: Room) -> Keeper:
        """The keeper of a room being loaded from the store (before its table is read)."""

    def announce(self, host: Host) -> None:
        """``host`` just began driving its table here."""

    def publish_change(self, host: Host, change: dict[str, Any]) -> None:
        """Tell whoever else shows the table of the change ``host`` just stored."""

    def publish_seats(self, host: Host) -> None:
        """Tell whoever else shows the table that who sits where (or who is connected) changed."""

    def publish_next_hand(self, host: Host) -> None:
        """Tell whoever else shows the table who is ready for the next hand."""

    def publish_news(self, table_id: str, news: dict[str, Any]) -> None:
        """Tell whoever else shows the table what its driver has to say besides changes: a chat line
        (``{"kind": "chat", "message"}``: rummoli.server.tables.chat) or a rematch (``{"kind": "rematch",
        "again"}``: rummoli.server.tables.rematch)."""

    def lost(self, host: Host) -> None:
        """``host``'s write was fenced off: another process drives its table now."""

    async def listing(self, base_url: str) -> list[dict[str, Any]]:
        """The summaries of the tables waiting or in play, newest first."""

    async def upkeep(self, now: float) -> None:
        """Every second (and at once when woken), after the registry's own upkeep."""

    def health(self) -> dict[str, Any]:
        """What ``/healthz`` adds: ``redis`` (off, ok, unreachable) and how many tables this process ``owned``."""

    async def stopping(self) -> None:
        """The server is stopping: before the rooms stop."""

    async def close(self) -> None:
        """The server is stopping: after the rooms stopped and the changes were stored."""


class LocalPlacement:
    """A single process: it drives every table (see the module's docstring)."""

    owner = None

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    async def start(self) -> int:
        """Bring back every table still waiting or in play (after a start or a crash)."""
        registry = self.registry
        count = 0
        for table_id in await asyncio.to_thread(registry.store.table_ids, None):
            room = await registry.get(table_id, active_only=True)
            if room is not None and not room.over:
                count += 1
        return count

    async def keeper_for(self, room: Room) -> Keeper:
        return Host(room)

    def announce(self, host: Host) -> None:
        return

    def publish_change(self, host: Host, change: dict[str, Any]) -> None:
        return

    def publish_seats(self, host: Host) -> None:
        return

    def publish_next_hand(self, host: Host) -> None:
        return

    def publish_news(self, table_id: str, news: dict[str, Any]) -> None:
        return

    def lost(self, host: Host) -> None:
        return  # never: without a lease, a write that finds the store elsewhere rebuilds the table

    async def listing(self, base_url: str) -> list[dict[str, Any]]:
        return self.registry.summaries(base_url)

    async def upkeep(self, now: float) -> None:
        return

    def health(self) -> dict[str, Any]:
        return {"redis": "off", "owned": 0}

    async def stopping(self) -> None:
        return

    async def close(self) -> None:
        return
