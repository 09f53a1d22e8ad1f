"""A process's sign of life to the others (:class:`Liveness`), and hearing at once that another server process
died, without polling for it (:class:`DeathWatch`): PostgreSQL advisory locks.

Each process holds its liveness lock for as long as it runs (:class:`Liveness`). To hear
when another one dies, a process asks PostgreSQL, on a connection of its own, for a *shared* hold on that
lock. The request waits, costing nothing on either side, while the other process holds its lock, and is
granted the moment the other's sessions end, which PostgreSQL sees as soon as a dead process's sockets close
(``kill -9`` included). The waiting thread lets the lock go at once and says whose it was; the upkeep then
looks for free tables straight away (rummoli.server.cluster.upkeep).

Why: the upkeep used to look for dead owners' tables four times a second. Each look woke the event loop,
hopped to the lease thread and ran a query, and those looks were most of what an idle process of a cluster
cost (``python -m bench.cluster --idle``). Now it looks once a second, for leases that ran out (a stopped
process keeps its lock, so only its lease ends its tables), and hears of a death sooner than a quarter-second
look would have.

It is only a hint. Nothing is taken because of it: the takeover checks again, in the database, that the
owner holds no lock (``Store.unowned`` and ``Store.claim`` with ``early``). So a grant for another reason
takes nothing from a live process. Such a grant can come after PostgreSQL restarts, before the other
process has taken its lock again, or from another name with the same hash.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Connection, Engine, func, select

from rummoli.server.storage.store import LIVENESS_KEY

log = logging.getLogger("rummoli.server")

class Liveness:
    """A process's sign of life to the others, on PostgreSQL: a session advisory lock named after the process,
    held on a connection of its own for as long as the process runs.

    Why: a lease shows a dead owner only when it runs out (up to a whole lease after the death). When a process
    dies, even by ``kill -9``, the kernel closes its sockets, PostgreSQL ends its sessions and drops their locks
    at once; the other processes, which wait for that lock (rummoli.server.cluster.deaths), then see a table whose owner
    holds no lock and take it over at once (``Store.unowned`` and ``Store.claim`` with ``early``): once the database has
    run for a lease, since when it starts every lock is gone until each process takes its own again. Safety never
    depends on this: a process wrongly thought dead (a lost connection, a name whose hash another process
    shares) loses its tables to the fence, as with a lease that ran out, and writes nothing more.

    A process stopped without dying (SIGSTOP, a long pause) keeps its connection and its lock: its tables are
    taken only when their leases run out. A machine that vanishes without closing its sockets keeps the lock
    until PostgreSQL's keep-alives give up: the lease bounds that case too.

    Only the lease thread calls :meth:`keep`; the connection is never shared.
    """

    def __init__(self, engine: Engine, name: str) -> None:
        self.engine = engine
        self.name = name
        self._conn: Connection | None = None

    def keep(self) -> None:
        """Take the lock, or check that the connection holding it still answers (a lock held by a dead
        connection is gone: it is taken again on a new one). Raises what the database raises."""
        if self.engine.dialect.name != "postgresql":
            return
        if self._conn is not None:
            try:
                self._conn.execute(select(1)).scalar()
                return
            except Exception:
                self.drop()  # the session ended (the database restarted?): its lock went with it; again below
        conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            taken = conn.execute(select(func.pg_try_advisory_lock(LIVENESS_KEY, func.hashtext(self.name)))).scalar()
        except Exception:
            conn.invalidate()
            conn.close()
            raise
        if not taken:
            # Another session holds it: this process's own previous one, not yet ended by the server, or
            # another process whose name has the same hash. Tried again at the next renewal.
            conn.close()
            return
        self._conn = conn

    @property
    def held(self) -> bool:
        """Whether this process holds its lock (as far as the last :meth:`keep` knows)."""
        return self._conn is not None

    def drop(self) -> None:
        """Give the lock up (closing its connection; the pool never gets it back, since the lock would go
        with it)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.invalidate()
                conn.close()
            except Exception:
                pass


#: The most processes one process watches at once (one connection each): a site runs a few processes, and
#: a name that keeps owning tables without a lock would otherwise cost a connection per name.
MOST_WATCHED = 32


class DeathWatch:
    """One waiting connection per other process that owns tables (see the module's docstring).

    ``connect()`` opens a PostgreSQL connection (psycopg, autocommit, no lock or statement timeout);
    ``key`` is the liveness locks' first key; ``on_death(name)`` is called from a watching thread when
    ``name``'s lock is granted (its process is gone, or never took it)."""

    def __init__(self, connect: Callable[[], Any], key: int, on_death: Callable[[str], None]) -> None:
        self._connect, self._key, self._on_death = connect, key, on_death
        self._watching: dict[str, Any] = {}  # name -> its waiting connection (None while it is being opened)
        self._threads: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()
        self._closed = False

    def watch(self, names: Iterable[str]) -> None:
        """Watch each of ``names`` not watched yet (a name whose watch ended is watched again)."""
        with self._lock:
            if self._closed:
                return
            for name in names:
                if name in self._watching or len(self._watching) >= MOST_WATCHED:
                    continue
                self._watching[name] = None
                thread = threading.Thread(target=self._wait, args=(name,), name="rummoli-deathwatch", daemon=True)
                self._threads[name] = thread
                thread.start()

    @property
    def watched(self) -> set[str]:
        with self._lock:
            return set(self._watching)

    def close(self, timeout: float = 3.0) -> None:
        """Stop watching: every waiting request is cancelled, and its thread has closed its connection by the
        time this returns (waiting at most ``timeout`` seconds in all for a database that does not answer)."""
        with self._lock:
            self._closed = True
            waiting = [conn for conn in self._watching.values() if conn is not None]
            threads = list(self._threads.values())
        for conn in waiting:
            with contextlib.suppress(Exception):
                conn.cancel_safe(timeout=timeout)
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _wait(self, name: str) -> None:
        conn: Any = None
        granted = False
        try:
            conn = self._connect()
            with self._lock:
                if self._closed:
                    return
                self._watching[name] = conn
            conn.execute("SELECT pg_advisory_lock_shared(%s, hashtext(%s))", (self._key, name))
            granted = True
            conn.execute("SELECT pg_advisory_unlock_shared(%s, hashtext(%s))", (self._key, name))
        except Exception as error:
            # The database went away or the watch was cancelled: no news of the process. The next renewal
            # watches it again if it still owns tables.
            if not self._closed and not granted:
                log.info("watching process %s stopped (%s)", name, type(error).__name__)
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
            with self._lock:
                self._watching.pop(name, None)
                self._threads.pop(name, None)
        if granted and not self._closed:
            self._on_death(name)


#: How long a watching thread sleeps at a time while its request waits (psycopg's own is a tenth of a second, so
#: that a Ctrl-C is noticed: ten wake-ups a second per process watched, for nothing here, where the thread is
#: woken by the answer or by :meth:`DeathWatch.close` cancelling the request).
PATIENCE = 3600.0


def connector(engine: Any) -> Callable[[], Any]:
    """How :class:`DeathWatch` opens its connections: to the store engine's PostgreSQL database, outside its
    pool (a waiting connection is held for as long as the other process lives), with no lock timeout (the
    store's sessions give up waiting for a lock after two seconds; this one waits on purpose), sleeping
    :data:`PATIENCE` seconds at a time while it waits."""
    import psycopg

    class Patient(psycopg.Connection[Any]):
        def wait(self, gen: Any, interval: float = PATIENCE, timeout: float | None = None) -> Any:
            return super().wait(gen, interval=PATIENCE, timeout=timeout)

    args, params = engine.dialect.create_connect_args(engine.url)
    params = {key: value for key, value in params.items() if key != "context"}

    def connect() -> Any:
        return Patient.connect(*args, **params, autocommit=True, options="-c lock_timeout=0 -c statement_timeout=0")

    return connect
