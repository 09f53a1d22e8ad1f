"""Fan-out: who is listening to which table, and how they learn that it changed.

A :class:`Listener` is one connected client. It never receives a copy of another seat's data: the hub only
says *that* a table changed (:meth:`Hub.publish`), and each listener then asks the table for what its own
seat may see since the last thing it was sent. That keeps redaction in one place (the engine's
``events_since`` and ``view``) and makes a slow client cost nobody else anything: updates it could not take
yet are merged into its next one.

:class:`Hub` is the fan-out of one process to its own clients. With several processes each keeps its own; the
other processes hear of a change from its host's placement (rummoli.server.cluster), and their hubs tell their
clients.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any, Protocol


class Listener(Protocol):
    """One connected client, as the hub and its table see it."""

    seat: int | None

    def poke(self) -> None:
        """The table changed: send me what is new for my seat (soon, in order, without blocking the caller)."""

    def poke_seats(self) -> None:
        """Who sits at the table, or who is connected, changed."""

    def poke_next(self) -> None:
        """Between hands, who is ready for the next one (or awaited) changed."""

    def close(self, code: int, reason: str) -> None:
        """End this client's connection (its seat was given up)."""

    def send(self, message: dict[str, Any]) -> None:
        """Send this client a message made for it (a chat line, a rematch invitation), in order."""


class Hub:
    """In-process publish/subscribe by table id."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[Listener]] = defaultdict(set)

    def subscribe(self, table_id: str, listener: Listener) -> None:
        self._listeners[table_id].add(listener)

    def unsubscribe(self, table_id: str, listener: Listener) -> None:
        group = self._listeners.get(table_id)
        if group is not None:
            group.discard(listener)
            if not group:
                del self._listeners[table_id]

    def listeners(self, table_id: str) -> list[Listener]:
        return list(self._listeners.get(table_id, ()))

    def publish(self, table_id: str) -> None:
        """Tell every listener of ``table_id`` that it changed (the caller has already stored the change)."""
        for listener in list(self._listeners.get(table_id, ())):
            listener.poke()

    def publish_seats(self, table_id: str) -> None:
        for listener in list(self._listeners.get(table_id, ())):
            listener.poke_seats()

    def publish_next(self, table_id: str) -> None:
        for listener in list(self._listeners.get(table_id, ())):
            listener.poke_next()

    def count(self) -> int:
        return sum(len(group) for group in self._listeners.values())

    async def close(self) -> None:
        self._listeners.clear()
        await asyncio.sleep(0)
