"""The SQLite fast path (rummoli.server.storage.sqliteline) against the store's SQLAlchemy statements: the same
answers and the same rows for the same changes, no statement through SQLAlchemy, and a batch that fails stores
nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from line_cases import BATCHES, a_failed_batch_stores_nothing, answers, rows, store_with_tables
from sqlalchemy import event

from rummoli.server.storage.rows import StoreConflict
from rummoli.server.storage.sqliteline import SqliteLine
from rummoli.server.storage.store import Store


def fresh(path: Path) -> Store:
    return store_with_tables(f"sqlite:///{path}")


# and a hand number moved without a fence (one process), after a snapshot-less change
MORE = [[("tb", 0, 1, "act", 3, {"journal": [["act", 3, {}]]}, None, None, None, 2)]]


def test_the_fast_path_stores_and_answers_as_the_store_does(tmp_path: Path) -> None:
    slow, fast = fresh(tmp_path / "slow.db"), fresh(tmp_path / "fast.db")
    line = fast.line()
    assert isinstance(line, SqliteLine)
    try:
        for batch in BATCHES + MORE:
            assert answers(line.append_many(batch)) == answers(slow.append_many(batch))
        assert rows(fast) == rows(slow)
        assert any(isinstance(o, StoreConflict) for o in line.append_many([BATCHES[0][2]]))
        assert line.unowned(0.0, 10) == fast.unowned(0.0, 10)
        assert line.renew("p0", ["tb", "ta", "zz"], 60.0) == {"ta", "tb"}
        assert line.seqs(["ta", "tb", "zz"]) == fast.seqs(["ta", "tb", "zz"]) == {"ta": 5, "tb": 1}
        assert line.owners("p1") == fast.owners("p1") == {"p0"}
    finally:
        fast.close_line(line)
        slow.close()
        fast.close()


def test_storing_a_change_runs_no_statement_through_sqlalchemy(tmp_path: Path) -> None:
    """What makes the line cheap: the writer's statements go to sqlite3 directly (about a quarter of the CPU)."""
    store = fresh(tmp_path / "t.db")
    line = store.line()
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(store.engine, "before_cursor_execute", note)
    try:
        assert line.append_many([("ta", 0, 1, "deal", None, {"journal": [1]}, {"snap": 1}, "playing", 1, 1),
                                 ("tb", 0, 1, "act", 0, {"journal": [2]}, None, None, 1, None)]) == [None, None]
        assert seen == []
        assert store.seqs(["ta", "tb"]) == {"ta": 1, "tb": 1}  # committed: another connection reads it
    finally:
        event.remove(store.engine, "before_cursor_execute", note)
        store.close_line(line)
        store.close()


def test_a_batch_that_fails_stores_none_of_its_changes(tmp_path: Path) -> None:
    store = fresh(tmp_path / "t.db")
    line = store.line()
    try:
        a_failed_batch_stores_nothing(store, line, sqlite3.IntegrityError)
        assert store.seqs(["ta"]) == {"ta": 2}
    finally:
        store.close_line(line)
        store.close()


def test_a_status_is_set_only_where_the_store_still_is(tmp_path: Path) -> None:
    """A pause or a resume is written as fenced as a change (Host.store_fenced): an owner whose lease ran out, or
    that holds the table at an older seq, writes nothing and is told so (it would pause or resume a table another
    process drives on)."""
    store = fresh(tmp_path / "t.db")
    try:
        store.set_status("ta", "paused", 0, 1)
        for seq, fence in ((0, 2), (3, 1), (3, None)):
            try:
                store.set_status("ta", "playing", seq, fence)
            except StoreConflict:
                continue
            raise AssertionError(f"seq {seq}, fence {fence} was written")
        assert rows(store)["tables"][0][:3] == ("ta", 0, "paused")
        store.set_status("ta", "playing", 0, None)  # one process: no fence, the seq still checked
        assert rows(store)["tables"][0][2] == "playing"
    finally:
        store.close()
