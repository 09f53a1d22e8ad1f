"""What the two fast paths of the store writer (rummoli.server.storage.sqliteline on SQLite, pgline on PostgreSQL)
are held to: the same changes, answered and stored as the store's own SQLAlchemy statements answer and store them
(tests/server/test_server_sqliteline.py, tests/multi/test_multi_pgline.py)."""

from __future__ import annotations

from typing import Any

import pytest

from rummoli.server.storage.rows import SeatRow
from rummoli.server.storage.store import Store

TABLES = ["ta", "tb", "tc"]


def store_with_tables(url: str) -> Store:
    """A store on the database at ``url`` with three tables owned by p0 (fence 1)."""
    store = Store(url)
    store.migrate()
    for table_id in TABLES:
        store.create_table(table_id, "stops", "rummoli", {}, 0, [SeatRow("A", None, None)], "p0", 60.0)
    return store


ROWS = {
    "tables": "SELECT id, seq, status, hand_no, fence, owner FROM tables ORDER BY id",
    "actions": "SELECT table_id, seq, kind, seat, payload FROM actions ORDER BY 1, 2",
    "snapshots": "SELECT table_id, seq, data FROM snapshots ORDER BY 1, 2",
}


def rows(store: Store) -> dict[str, Any]:
    with store.engine.connect() as conn:
        return {name: conn.exec_driver_sql(sql).all() for name, sql in ROWS.items()}


def answers(outcomes: list[Any]) -> list[str | None]:
    return [None if o is None else f"{type(o).__name__}: {o}" for o in outcomes]


# (table, seen, new, kind, seat, payload, snapshot, status, fence, hand_no), as StoreWriter hands them over
BATCHES: list[list[tuple[Any, ...]]] = [
    [("ta", 0, 1, "deal", None, {"journal": [["deal", 1]]}, {"snap": "a1"}, "playing", 1, 1),
     ("tb", 0, 0, "seat", 2, {"journal": [["bot", 2]]}, {"snap": "b0"}, None, 1, None),
     ("tc", 3, 4, "act", 1, {"journal": []}, None, None, 1, None)],  # not at seq 3: refused
    [("tb", 0, 0, "seat", 2, {}, {"snap": "b0 again"}, None, 1, None),  # the snapshot at the same seq replaced
     ("ta", 1, 3, "act", 0, {"journal": [["act", 0, {"action": "bet"}]]}, None, "playing", 1, None),
     ("ta", 3, 5, "act", 1, {"journal": [["act", 1, {"action": "fold", "name": "Zoë \"x\""}]]}, None, None, 1, None),
     ("tc", 0, 2, "act", 0, {}, None, None, 7, None)],  # another fence: refused
    [("tc", 0, 2, "end", None, {"journal": [["end"]]}, {"snap": "c2"}, "over", None, 3)],  # no fence: one process
]


def a_failed_batch_stores_nothing(store: Store, line: Any, error: type[Exception]) -> None:
    """A batch whose second change cannot be logged (a row in its way) raises ``error`` and stores neither
    change, and the line goes on storing afterwards."""
    assert line.append_many([BATCHES[0][0]]) == [None]
    with store.engine.begin() as conn:  # a row in the way: tb's change cannot be logged
        conn.exec_driver_sql("INSERT INTO actions (table_id, seq, kind, seat, payload, created_at)"
                             " VALUES ('tb', 2, 'act', 0, '{}', 0)")
    before = rows(store)
    with pytest.raises(error):
        line.append_many([("ta", 1, 2, "act", 0, {}, None, None, 1, None),
                          ("tb", 0, 2, "act", 0, {}, None, None, 1, None)])
    assert rows(store) == before  # ta's change, which was fine, was not stored either
    assert line.append_many([("ta", 1, 2, "act", 0, {}, None, None, 1, None)]) == [None]  # and it goes on
