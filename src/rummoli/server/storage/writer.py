"""One thread that stores every table's changes, many tables' changes to a transaction.

A table's change is stored before anyone is told of it (docs/ARCHITECTURE.md). Storing each one in its own
transaction from a worker thread cost a thread hop, a transaction and a commit per action, and at a few
hundred actions a second those were most of the server's time outside the engine. Here the event loop hands
each change to :class:`StoreWriter`, whose single thread takes every change waiting when it is free and
stores them in one transaction with ``append_many`` (:meth:`Store.append_many`; on PostgreSQL
:meth:`rummoli.server.storage.pgline.PgLine.append_many`, one round trip): each keeps its own compare-and-set on its
table's ``seq`` and fence (a refused one writes nothing and is answered :class:`StoreConflict`; the others are
stored). Only after the commit does each caller's ``await`` return, so the rule holds: nothing is announced
that is not stored. A table has at most one change waiting (it awaits its change under its lock), so the
order of a table's changes is the order it made them.

Other writes made on a table's behalf (forgetting old snapshots after a deal) run in the same thread between
batches (:meth:`StoreWriter.later`), so they never hold SQLite's write lock while a batch waits for it.

If a whole transaction fails (the disk, the database gone), each change of the batch is tried again alone,
so one bad change cannot refuse the others, and a caller whose change could not be stored gets the error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from rummoli.server.storage.rows import Change, StoreConflict
from rummoli.server.storage.store import Store

log = logging.getLogger("rummoli.server")

_Waiter = tuple[Change, asyncio.AbstractEventLoop, "asyncio.Future[None]"]
_Chore = tuple[Callable[..., object], tuple[Any, ...]]


class StoreWriter:
    """The store's writing thread (see the module's docstring). ``batch``: most changes per transaction."""

    def __init__(self, store: Store, batch: int = 200) -> None:
        self.store = store
        self.batch = batch
        self.transactions = 0
        self.changes = 0
        self._queue: queue.SimpleQueue[_Waiter | _Chore | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="rummoli-store-writer", daemon=True)
        self._thread.start()

    async def append(self, *change: Any) -> None:
        """:meth:`Store.append` with the same arguments, returning once the change is committed (or raising
        what refused it)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put((change, loop, done))
        await done

    def later(self, chore: Callable[..., object], *args: Any) -> None:
        """Run ``chore(*args)`` (another write, such as forgetting old snapshots) in this thread, after the
        changes waiting now: writes from other threads would wait on SQLite's lock, and so would the changes.
        Nobody waits for it; a chore that fails is logged."""
        self._queue.put((chore, args))

    def close(self) -> None:
        """Store what is waiting, then stop the thread."""
        self._queue.put(None)
        self._thread.join(30)

    # ------------------------------------------------------------------------------------- the thread
    def _run(self) -> None:
        # This thread's own way to the database (on PostgreSQL a connection it holds: rummoli.server.storage.pgline)
        self._line = self.store.line()
        try:
            self._loop()
        finally:
            self.store.close_line(self._line)

    def _loop(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                return
            items = [first]
            while len(items) < self.batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                items.append(item)
            waiting = [item for item in items if len(item) == 3]
            outcomes = self._store([change for change, _loop, _done in waiting]) if waiting else []
            loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]] = {}
            for (_change, loop, done), outcome in zip(waiting, outcomes, strict=True):
                loops.setdefault(loop, []).append((done, outcome))
            for loop, answers in loops.items():
                with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
                    loop.call_soon_threadsafe(_answer, answers)
            for item in items:
                if len(item) == 2:
                    chore, args = item
                    try:
                        chore(*args)
                    except Exception as error:
                        log.warning("a store chore (%s) failed: %s", getattr(chore, "__name__", chore),
                                    type(error).__name__)

    def _store(self, changes: list[Change]) -> list[BaseException | None]:
        try:
            outcomes: list[BaseException | None] = list(self._line.append_many(changes))
            self.transactions += 1
            self.changes += len(changes)
            return outcomes
        except Exception as error:
            if len(changes) == 1:
                return [error]
            log.warning("storing %d changes together failed (%s); storing them one by one", len(changes),
                        type(error).__name__)
        return [self._store([change])[0] for change in changes]


def _answer(answers: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for done, outcome in answers:
        if done.cancelled():
            continue
        if outcome is None:
            done.set_result(None)
        else:
            done.set_exception(outcome)


__all__ = ["StoreConflict", "StoreWriter"]
