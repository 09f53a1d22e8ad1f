"""The PostgreSQL fast path (rummoli.server.storage.pgline) against the store's SQLAlchemy statements, on the machine's
PostgreSQL: the same answers and the same rows for the same changes, a batch that fails stores nothing, and a
connection the server ended is replaced at the next call."""

from __future__ import annotations

import psycopg
import pytest
from line_cases import BATCHES, a_failed_batch_stores_nothing, answers, rows, store_with_tables
from multi_helpers import Database

from rummoli.server.storage.rows import StoreConflict
from rummoli.server.storage.store import Store


def fresh(database: Database) -> Store:
    return store_with_tables(database.url)


def test_the_fast_path_stores_and_answers_as_the_store_does(database: Database) -> None:
    other = Database()
    slow, fast = fresh(other), fresh(database)
    line = fast.line()
    try:
        for batch in BATCHES:
            assert answers(line.append_many(batch)) == answers(slow.append_many(batch))
        assert rows(fast) == rows(slow)
        assert any(isinstance(o, StoreConflict) for o in line.append_many([BATCHES[0][2]]))

        for early in (0.0, 3.0):  # nobody holds p0's liveness lock: with ``early`` its tables count as free
            assert line.unowned(0.0, 10, early) == fast.unowned(0.0, 10, early)
            assert slow.unowned(0.0, 10, early) == fast.unowned(0.0, 10, early)
        assert line.unowned(0.0, 10, 3.0) == ["ta", "tb"]  # tc is over
        assert line.renew("p0", ["tb", "ta", "zz"], 60.0) == fast.renew("p0", ["tb", "ta", "zz"], 60.0) == {"ta", "tb"}
        assert line.renew("p1", ["ta"], 60.0) == set()
        assert line.seqs(["ta", "tb", "zz"]) == fast.seqs(["ta", "tb", "zz"]) == {"ta": 5, "tb": 0}
        assert line.renew("p0", [], 60.0) == set() and line.seqs([]) == {}
        # the processes whose deaths matter: owners of tables not over, the asker left out
        assert line.owners("p1") == fast.owners("p1") == slow.owners("p1") == {"p0"}
        assert line.owners("p0") == fast.owners("p0") == set()
    finally:
        line.close()
        slow.close()
        fast.close()
        other.drop()


def test_a_batch_that_fails_stores_none_of_its_changes(database: Database) -> None:
    store = fresh(database)
    line = store.line()
    try:
        # after the failure the line opens a new connection and goes on
        a_failed_batch_stores_nothing(store, line, psycopg.errors.UniqueViolation)
        assert line.seqs(["ta"]) == {"ta": 2}
    finally:
        line.close()
        store.close()


def test_a_connection_the_server_ended_is_replaced(database: Database) -> None:
    store = fresh(database)
    line = store.line()
    try:
        assert line.seqs(["ta"]) == {"ta": 0}
        pid = line._connection().info.backend_pid
        with store.engine.connect() as conn:
            conn.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
        with pytest.raises(psycopg.OperationalError):
            line.seqs(["ta"])
        assert line.seqs(["ta"]) == {"ta": 0}  # the next call has a new connection
        assert line._connection().info.backend_pid != pid
    finally:
        line.close()
        store.close()
