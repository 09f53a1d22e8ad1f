"""The store's transactions that lock several ``tables`` rows do so in one order (issue 14).

A process's store-writer thread stores many tables' changes in one transaction while its lease upkeep renews
all of its leases in another. When the two locked the same rows in different orders, PostgreSQL found a
deadlock and aborted one of them: under load a renewal failed every few seconds, its leases ran out and the
other process took those tables over for nothing (measured with bench/cluster.py at 200 tables). Here both run
at once, as hard as they can, on the machine's PostgreSQL: neither may fail, and every change is stored. Both
through the store's SQLAlchemy statements and through the server's own (each thread's ``Store.line()``).
"""

from __future__ import annotations

import threading

import pytest
from multi_helpers import Database

from rummoli.server.storage.rows import SeatRow
from rummoli.server.storage.store import Store

TABLES = 24


@pytest.mark.parametrize("via", ["store", "lines"])
def test_batched_changes_and_lease_renewals_never_deadlock(database: Database, via: str) -> None:
    store = Store(database.url)
    store.migrate()
    ids = [f"t{k:03}" for k in range(TABLES)]
    fences = {}
    for table_id in ids:
        store.create_table(table_id, "stops", "rummoli", {}, 0, [SeatRow("A", None, "h" + table_id, False)])
        store.start_table(table_id, 1, {"seq": 1})
        fence = store.claim(table_id, "p0", 30.0)
        assert fence is not None
        fences[table_id] = fence
    failures: list[BaseException] = []
    stop = threading.Event()

    writer, leases = (store, store) if via == "store" else (store.line(), store.line())

    def renew() -> None:
        while not stop.is_set():
            try:
                assert leases.renew("p0", list(reversed(ids)), 30.0) == set(ids)
            except BaseException as error:
                failures.append(error)
                return

    renewer = threading.Thread(target=renew)
    renewer.start()
    try:
        seq = {table_id: 1 for table_id in ids}
        for round_no in range(60):
            # each batch in another order, some tables twice (their own changes in order)
            order = ids[round_no % TABLES:] + ids[:round_no % TABLES]
            order = list(reversed(order)) if round_no % 2 else order
            batch = []
            for table_id in order + order[:3]:
                batch.append((table_id, seq[table_id], seq[table_id] + 1, "act", 0, {"n": round_no}, None, None,
                              fences[table_id], None))
                seq[table_id] += 1
            assert writer.append_many(batch) == [None] * len(batch)
            assert not failures, failures
    finally:
        stop.set()
        renewer.join(30)
    assert not failures, failures
    assert store.seqs(ids) == seq
    store.close()
