"""Finished evenings leave memory: a table whose evening is over is dropped from the process once nobody has
watched it for a while, or sooner when too many finished ones are held. Nothing is lost: the store keeps
every table, and the next request for it (its summary, a seat's history, the evening's record, a client
connecting) loads it again (:meth:`rummoli.server.tables.registry.Registry.get`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def over_to_drop(tables: Iterable[Any], watched: Callable[[str], bool], now: float, keep: float,
                 cap: int) -> list[Any]:
    """The finished tables to drop now, from ``tables`` (rooms): those nobody has watched for
    ``keep`` seconds, and then, while more than ``cap`` finished tables would stay, the longest unwatched.
    A table being watched, or busy (its lock held), stays. Marks when each table's last client left
    (``idle_since``, on the monotonic clock of ``now``).

    >>> from types import SimpleNamespace as T
    >>> from asyncio import Lock
    >>> tables = [T(id=k, status="over", idle_since=None, lock=Lock()) for k in "abcd"]
    >>> over_to_drop(tables, lambda i: i == "a", 0.0, keep=60, cap=10)
    []
    >>> [t.id for t in over_to_drop(tables, lambda i: i == "a", 61.0, keep=60, cap=10)]
    ['b', 'c', 'd']
    >>> tables[2].idle_since = 30.0
    >>> [t.id for t in over_to_drop(tables, lambda i: False, 40.0, keep=60, cap=2)]
    ['b', 'd']
    """
    finished = [t for t in tables if t.status == "over"]
    idle = []
    for live in finished:
        if watched(live.id):
            live.idle_since = None
        else:
            if live.idle_since is None:
                live.idle_since = now
            if not live.lock.locked():
                idle.append(live)
    idle.sort(key=lambda t: t.idle_since)
    drop = [t for t in idle if now - t.idle_since >= keep]
    extra = len(finished) - len(drop) - cap
    rest = [t for t in idle if now - t.idle_since < keep]
    return drop + rest[:max(0, extra)]
