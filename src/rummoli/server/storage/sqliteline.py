"""The changes a server process stores on SQLite, written on a connection of their own without SQLAlchemy.

:meth:`SqliteLine.append_many` is the store-writer thread's (rummoli.server.storage.writer), once or more per
action: the same statements as :meth:`rummoli.server.storage.store.Store.append_many` (the compare-and-set on
the table's row, then the action, then the snapshot), the same rows and the same answers, run through the
``sqlite3`` module's own cursor on one connection the thread holds. Measured on this project's machine with a
change a transaction, SQLAlchemy's way cost 195 us of the writer's CPU per change (a connection checked out of
the pool and reset, each statement compiled from its cache, its parameters processed, its result wrapped), this
way 54 us; at a few hundred changes a second that is a tenth of the server's CPU. The connection comes from the
store's engine, so it has the engine's settings (WAL, the busy timeout, foreign keys).

The rest of what the cluster's upkeep asks of a line (:meth:`unowned`, :meth:`renew`, :meth:`owners`,
:meth:`seqs`) is run by the store: those are seconds apart. tests/server/test_server_sqliteline.py holds this
line to the store's rows and answers.
"""

from __future__ import annotations

import contextlib
import time
from functools import cache
from typing import Any

from rummoli.server.jsontext import dumps
from rummoli.server.storage.rows import Change, StoreConflict


@cache
def move_statement(status: bool, fenced: bool, hand_no: bool) -> str:
    """The compare-and-set of a change of this shape (as :func:`rummoli.server.storage.store._move` builds it)."""
    sets = "seq = ?, updated_at = ?" + (", status = ?" if status else "") + (", hand_no = ?" if hand_no else "")
    return f"UPDATE tables SET {sets} WHERE id = ? AND seq = ?" + (" AND fence = ?" if fenced else "")


LOG = "INSERT INTO actions (table_id, seq, kind, seat, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)"
FORGET = "DELETE FROM snapshots WHERE table_id = ? AND seq = ?"
KEEP = "INSERT INTO snapshots (table_id, seq, data, created_at) VALUES (?, ?, ?, ?)"


class SqliteLine:
    """One thread's own SQLite connection (from the store's engine) and :meth:`append_many` above. Not for sharing
    between threads. A batch that fails is rolled back; a connection that cannot be rolled back is dropped and
    the next call opens another."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._pooled: Any = None  # SQLAlchemy's pooled DBAPI connection, held for good
        self._conn: Any = None  # the sqlite3 connection inside it

    def _connection(self) -> Any:
        if self._conn is None:
            pooled = self.store.engine.raw_connection()
            self._pooled, self._conn = pooled, pooled.driver_connection
        return self._conn

    def _drop(self) -> None:
        pooled, self._pooled, self._conn = self._pooled, None, None
        if pooled is not None:
            with contextlib.suppress(Exception):  # the connection is gone either way
                pooled.invalidate()

    def close(self) -> None:
        pooled, self._pooled, self._conn = self._pooled, None, None
        if pooled is not None:
            with contextlib.suppress(Exception):
                pooled.close()  # back to the pool, which rolls back anything left open

    # ------------------------------------------------------------------------------------- changes
    def append_many(self, changes: list[Change]) -> list[StoreConflict | None]:
        """:meth:`rummoli.server.storage.store.Store.append_many`: the same rows and answers, in one transaction
        (the ``sqlite3`` module opens it at the first write, as under SQLAlchemy; a refused change writes
        nothing, the others are stored; if the transaction fails, none is)."""
        now = time.time()
        out: list[StoreConflict | None] = [None] * len(changes)
        order = sorted(range(len(changes)), key=lambda k: changes[k][0])  # rows locked in id order (see Store)
        conn = self._connection()
        try:
            if conn.isolation_level is None:  # the driver's autocommit: the batch is still one transaction
                conn.execute("BEGIN")
            for k in order:
                out[k] = self._append(conn, now, *changes[k])
            conn.commit()
        except BaseException:
            try:
                conn.rollback()
            except BaseException:
                self._drop()
            raise
        return out

    @staticmethod
    def _append(conn: Any, now: float, table_id: str, seen_seq: int, new_seq: int, kind: str, seat: int | None,
                payload: dict[str, Any], snapshot: dict[str, Any] | None, status: str | None = None,
                fence: int | None = None, hand_no: int | None = None) -> StoreConflict | None:
        # The compare-and-set comes first: a change it refuses has written nothing.
        params: list[Any] = [new_seq, now]
        if status is not None:
            params.append(status)
        if hand_no is not None:
            params.append(hand_no)
        params += [table_id, seen_seq]
        if fence is not None:
            params.append(fence)
        moved = conn.execute(move_statement(status is not None, fence is not None, hand_no is not None), params)
        if moved.rowcount != 1:
            return StoreConflict.moved(table_id, seen_seq, fence)
        if new_seq > seen_seq:
            conn.execute(LOG, (table_id, new_seq, kind, seat, dumps(payload), now))
        if snapshot is not None:
            conn.execute(FORGET, (table_id, new_seq))
            conn.execute(KEEP, (table_id, new_seq, dumps(snapshot), now))
        return None

    # ------------------------------------------------------------------------------------- upkeep
    def unowned(self, older_than: float, limit: int = 200, early: float = 0.0) -> list[str]:
        result: list[str] = self.store.unowned(older_than, limit, early)
        return result

    def renew(self, owner: str, table_ids: list[str], seconds: float) -> set[str]:
        result: set[str] = self.store.renew(owner, table_ids, seconds)
        return result

    def owners(self, other_than: str) -> set[str]:
        result: set[str] = self.store.owners(other_than)
        return result

    def seqs(self, table_ids: list[str]) -> dict[str, int]:
        result: dict[str, int] = self.store.seqs(table_ids)
        return result
