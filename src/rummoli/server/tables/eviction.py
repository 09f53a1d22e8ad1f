"""Finished evenings leave memory, and tables nobody is at close (:func:`lonely`).

A table whose evening is over is dropped from the process once nobody has watched it for a while, or sooner
when too many finished ones are held. Nothing is lost: the store keeps every table, and the next request for
it (its summary, a seat's history, the evening's record, a client connecting) loads it again
(:meth:`rummoli.server.tables.registry.Registry.get`).

A table waiting for players that nobody has been at for a long while (``waiting_keep``) is closed, and so
leaves the lobby; an evening whose people have all gone (``idle_end``) ends: its bots finish the hand in play
and deal no other.
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


def lonely(tables: Iterable[Any], anyone: Callable[[Any], bool], now: float, waiting_keep: float,
           idle_end: float) -> list[Any]:
    """The tables nobody is at to close now, from ``tables`` (rooms this process drives): a table waiting for
    players that nobody has been connected to for ``waiting_keep`` seconds, and an evening in play with no
    person connected for ``idle_end`` seconds (bots do not play on alone). ``anyone(table)``: whether a person
    is connected to it now. Marks when each table was last seen with somebody (``alone_since``, on the
    monotonic clock of ``now``).

    >>> from types import SimpleNamespace as T
    >>> tables = [T(id="w", status="waiting", alone_since=None), T(id="p", status="playing", alone_since=None),
    ...           T(id="o", status="over", alone_since=None)]
    >>> lonely(tables, lambda t: False, 0.0, waiting_keep=30, idle_end=10)
    []
    >>> [t.id for t in lonely(tables, lambda t: False, 11.0, waiting_keep=30, idle_end=10)]
    ['p']
    >>> [t.id for t in lonely(tables, lambda t: t.id == "p", 31.0, waiting_keep=30, idle_end=10)]
    ['w']
    >>> tables[1].alone_since is None
    True
    """
    out = []
    for table in tables:
        if table.status == "over":
            continue
        if anyone(table):
            table.alone_since = None
            continue
        if table.alone_since is None:
            table.alone_since = now
        keep = waiting_keep if table.status == "waiting" else idle_end
        if now - table.alone_since >= keep:
            out.append(table)
    return out
