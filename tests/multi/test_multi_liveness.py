"""A dead owner's tables are taken before its leases run out (issue 14's failover: the liveness locks).

Each process holds a PostgreSQL advisory lock named after it for as long as it runs. When it dies its sessions
end and the lock goes with them, so the others may take its tables at once instead of waiting for the leases.
A process that is only stopped keeps its lock, and its tables wait for their leases: only the fence keeps that
one from writing (test_multi_fence.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from multi_helpers import Cluster, ClusterParty, Database
from server_helpers import open_table

from rummoli.server.cluster.deaths import DeathWatch, Liveness, connector
from rummoli.server.storage.rows import SeatRow
from rummoli.server.storage.store import LIVENESS_KEY, Store


def _store_with_table(database: Database, owner: str) -> Store:
    store = Store(database.url)
    store.migrate()
    store.create_table("t1", "stops", "rummoli", {}, 0, [SeatRow("A", None, "h", False)], owner=owner, lease=60.0)
    store.start_table("t1", 1, {"seq": 1}, fence=1)
    return store


def _soon(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    """A session's locks go when its server process has ended, a moment after the connection closes."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_table_whose_owner_holds_no_lock_is_free_only_when_asked_early(database: Database) -> None:
    store = _store_with_table(database, "p0")
    alive = Liveness(store.engine, "p0")
    try:
        # p0 holds no lock yet: its 60 s lease still counts, unless the caller asks about dead owners.
        assert store.unowned(0.0) == []
        assert store.unowned(0.0, early=1.0) == ["t1"]
        alive.keep()
        assert alive.held
        assert store.unowned(0.0, early=1.0) == [], "a table whose owner holds its lock is not free"
        assert store.claim("t1", "p1", 1.0, early=True) is None
        alive.keep()  # the second call only checks the connection: the lock is not taken twice
        held = database.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = "
                              "(SELECT oid FROM pg_database WHERE datname = current_database())")
        assert held == [(1,)]
        alive.drop()
        assert _soon(lambda: store.unowned(0.0, early=1.0) == ["t1"])
        assert store.claim("t1", "p1", 60.0) is None, "without early, the lease still holds"
        assert store.claim("t1", "p1", 1.0, early=True) == 2, "taken, with the next fence"
        assert store.owner("t1")[0] == "p1"
    finally:
        alive.drop()
        store.close()


def test_no_table_is_taken_early_while_the_database_has_just_started(database: Database) -> None:
    """Every lock is gone when PostgreSQL starts, until each process takes its own again: a missing lock only
    counts once the server has run for the given time."""
    store = _store_with_table(database, "p0")
    try:
        (up,) = database.query("SELECT extract(epoch FROM clock_timestamp() - pg_postmaster_start_time())")[0]
        assert store.unowned(0.0, early=float(up) - 1) == ["t1"]
        assert store.unowned(0.0, early=float(up) + 60) == []
        assert store.claim("t1", "p1", float(up) + 60, early=True) is None
    finally:
        store.close()


def test_the_lock_of_a_session_that_ended_is_taken_again(database: Database) -> None:
    store = _store_with_table(database, "p0")
    alive = Liveness(store.engine, "p0")
    try:
        alive.keep()
        assert alive._conn is not None
        ended = database.query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                               " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")
        assert ended == [(True,)]
        assert _soon(lambda: store.unowned(0.0, early=1.0) == ["t1"]), "the lock ended with its session"
        alive.keep()  # finds the connection dead and takes the lock again on a new one, in the same call
        assert alive.held
        assert store.unowned(0.0, early=1.0) == []
    finally:
        alive.drop()
        store.close()


def test_killed_owner_loses_its_table_long_before_its_lease_ends(make_cluster: Callable[..., Cluster]) -> None:
    lease = 6.0
    cluster = make_cluster(2, lease=lease)
    party = open_table(cluster.nodes[0], "rummoli", 3, [], "liveness", hands=1, joiners=cluster.nodes,
                       party=lambda table, tokens: ClusterParty(cluster, table, tokens))
    assert isinstance(party, ClusterParty)
    table = party.table_id
    owner = cluster.wait_owner(table)
    other = next(node for node in cluster.nodes if node is not owner)

    # Stopped, not dead: it keeps its lock, and its table waits for the lease. Its last renewal was at most a
    # third of a lease ago (later on a busy machine), so the lease has at least a third left: a quarter of a
    # lease on, the table must still be its (a dead owner's goes within a second: below).
    owner.pause()
    paused = time.monotonic()
    try:
        time.sleep(lease / 4)
        assert cluster.owner(table)[0] == owner.name, "a stopped process's table was taken before its lease ended"
        assert cluster.wait_owner(table, other_than=owner.name, timeout=lease + 5) is other
        assert time.monotonic() - paused > lease / 4, "taken before the lease could have run out"
    finally:
        owner.resume()
    party.close()

    party = open_table(other, "rummoli", 3, [], "liveness-2", hands=1, joiners=cluster.nodes,
                       party=lambda table, tokens: ClusterParty(cluster, table, tokens))
    assert isinstance(party, ClusterParty)
    table = party.table_id
    victim = cluster.wait_owner(table)
    heir = next(node for node in cluster.nodes if node is not victim)
    killed = time.monotonic()
    victim.kill()
    assert cluster.wait_owner(table, other_than=victim.name, timeout=lease) is heir
    after = time.monotonic() - killed
    assert after < lease / 2, f"taken over {after:.1f} s after the kill, with a {lease} s lease"
    party.close()


def test_a_death_is_heard_when_the_lock_goes_and_not_before(database: Database) -> None:
    """rummoli.server.cluster.deaths: a watcher waits on another process's liveness lock and speaks once it is granted
    (its holder gone), never while it is held; a name that holds no lock is reported at once; closing the
    watch ends the waiting requests."""
    store = _store_with_table(database, "p0")
    heard: list[str] = []
    done = threading.Event()

    def died(name: str) -> None:
        heard.append(name)
        done.set()

    alive = Liveness(store.engine, "p0")
    watch = DeathWatch(connector(store.engine), LIVENESS_KEY, died)
    try:
        alive.keep()
        assert store.owners("p1") == {"p0"} and store.owners("p0") == set()
        watch.watch(["p0"])
        assert _soon(lambda: len(_waiting_for_locks(database)) == 1), "the watcher waits on p0's lock"
        time.sleep(0.5)
        assert heard == [], "p0 still holds its lock"
        watch.watch(["p0"])  # already watched: no second watcher
        assert watch.watched == {"p0"}
        alive.drop()  # p0's session ends, as a killed process's does
        assert done.wait(5.0), "the death was not heard"
        assert heard == ["p0"]
        assert _soon(lambda: watch.watched == set()), "a watch ends once it has spoken"
        assert _soon(lambda: _locks_held(database) == 0), "the watcher let the lock go at once"

        done.clear()
        watch.watch(["nobody"])  # a name whose lock nobody holds: reported at once
        assert done.wait(5.0) and heard == ["p0", "nobody"]
    finally:
        alive.drop()
        watch.close()
        store.close()


def test_a_watch_outlives_the_stores_lock_timeout_and_closes_at_once(database: Database) -> None:
    """The store's sessions give up waiting for a lock after two seconds; a watcher's waits as long as the
    other process lives, and close() ends it."""
    store = _store_with_table(database, "p0")
    heard: list[str] = []
    alive = Liveness(store.engine, "p0")
    watch = DeathWatch(connector(store.engine), LIVENESS_KEY, heard.append)
    try:
        alive.keep()
        watch.watch(["p0"])
        assert _soon(lambda: len(_waiting_for_locks(database)) == 1)
        time.sleep(1.0)
        # It sleeps while it waits: psycopg's own waiting woke it ten times a second.
        (watcher,) = [t for t in threading.enumerate() if t.name == "rummoli-deathwatch"]
        before = _wakeups(watcher)
        time.sleep(1.5)
        assert _wakeups(watcher) - before <= 1, "the waiting thread woke up while nothing happened"
        assert len(_waiting_for_locks(database)) == 1 and heard == [], "the watcher stopped waiting"
        started = time.monotonic()
        watch.close()
        assert _soon(lambda: _waiting_for_locks(database) == [], 3.0), "close() left a request waiting"
        assert time.monotonic() - started < 3.0
        assert heard == [], "a closed watch reports nothing"
        watch.watch(["p0"])  # after close: nothing starts
        assert watch.watched == set()
    finally:
        alive.drop()
        watch.close()
        store.close()


def _waiting_for_locks(database: Database) -> list[tuple[int]]:
    return database.query("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = "
                          "(SELECT oid FROM pg_database WHERE datname = current_database())")


def _locks_held(database: Database) -> int:
    (count,) = database.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = "
                              "(SELECT oid FROM pg_database WHERE datname = current_database())")[0]
    return int(count)


def _wakeups(thread: threading.Thread) -> int:
    """How many times ``thread`` has gone to sleep and been woken (Linux: its voluntary context switches)."""
    status = Path(f"/proc/self/task/{thread.native_id}/status").read_text()
    return int(status.split("voluntary_ctxt_switches:")[1].split()[0])
