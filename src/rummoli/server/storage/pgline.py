"""The statements a server process runs many times a second on PostgreSQL, on a connection of their own.

Which: storing changes (:meth:`PgLine.append_many`, the store-writer thread's, once or more per action) and
the cluster's upkeep (:meth:`PgLine.unowned`, :meth:`PgLine.renew` and :meth:`PgLine.owners` every second,
:meth:`PgLine.seqs` every other second, all in the lease thread). Everything else, and everything on SQLite,
goes through SQLAlchemy in :class:`rummoli.server.storage.store.Store`, whose methods of the same names these match
row for row (tests/multi/test_multi_pgline.py holds them to that).

Why not SQLAlchemy for these: measured on this project's machine, storing one change through
``engine.begin()`` cost 0.8 ms of the writer's CPU: a connection checked out of the pool and pinged, then
BEGIN, the compare-and-set, the insert and COMMIT, each a round trip through SQLAlchemy's layers. Here the
connection is held by its one thread, a change is one statement (below), and a batch of several goes to the
server in one pipeline (psycopg's pipeline mode: BEGIN, one statement per change, COMMIT, one round trip):
0.24 ms. The upkeep's polls cost
2-3 ms each through a pinged pool connection and an implicit transaction, about 30 ms of CPU a second for an
idle process; here each is one autocommit statement.

Each change is one statement (a data-modifying ``WITH``): the compare-and-set on the table's row moves its
``seq`` (checking the writer's fence), and only the row it moved feeds the insert of the action (and of the
snapshot), so a refused change writes nothing, exactly as :meth:`Store.append` does in three statements.
"""

from __future__ import annotations

import contextlib
import time
from functools import cache
from typing import Any

from rummoli.server.jsontext import dumps
from rummoli.server.storage.rows import StoreConflict

_NOW = "extract(epoch FROM clock_timestamp())"


@cache
def change_statement(status: bool, fenced: bool, hand_no: bool, logged: bool, snapshot: bool) -> str:
    """The one statement that stores a change of the given shape; its single row counts the rows moved (0: the
    table was not at ``seen``, or not with ``fence``)."""
    sets = "seq = %(new)s, updated_at = %(now)s"
    sets += ", status = %(status)s" if status else ""
    sets += ", hand_no = %(hand_no)s" if hand_no else ""
    where = "id = %(id)s AND seq = %(seen)s" + (" AND fence = %(fence)s" if fenced else "")
    parts = [f"moved AS (UPDATE tables SET {sets} WHERE {where} RETURNING id)"]
    if logged:
        parts.append("logged AS (INSERT INTO actions (table_id, seq, kind, seat, payload, created_at)"
                     " SELECT id, %(new)s, %(kind)s, %(seat)s, %(payload)s, %(now)s FROM moved)")
    if snapshot:
        parts.append("kept AS (INSERT INTO snapshots (table_id, seq, data, created_at)"
                     " SELECT id, %(new)s, %(data)s, %(now)s FROM moved ON CONFLICT (table_id, seq)"
                     " DO UPDATE SET data = EXCLUDED.data, created_at = EXCLUDED.created_at)")
    return "WITH " + ", ".join(parts) + " SELECT count(*) FROM moved"


class PgLine:
    """One thread's own PostgreSQL connection (taken from the store's engine, so with its settings) and the
    statements above. Not for sharing between threads. A statement that fails closes the connection; the next
    call opens another."""

    def __init__(self, engine: Any, owner_gone: str) -> None:
        self.engine = engine
        self._owner_gone = owner_gone  # SQL: the table's owner holds no liveness lock (store._owner_gone)
        self._pooled: Any = None  # SQLAlchemy's pooled DBAPI connection, held for good
        self._conn: Any = None  # the psycopg connection inside it

    def _connection(self) -> Any:
        if self._conn is None or self._conn.closed:
            self._drop()
            pooled = self.engine.raw_connection()
            conn = pooled.driver_connection
            conn.rollback()
            conn.autocommit = True
            conn.prepare_threshold = 0  # the same few statements over and over: prepared at their first run
            self._pooled, self._conn = pooled, conn
        return self._conn

    def _drop(self) -> None:
        pooled, self._pooled, self._conn = self._pooled, None, None
        if pooled is not None:
            with contextlib.suppress(Exception):  # the connection is gone either way
                pooled.invalidate()

    def close(self) -> None:
        self._drop()

    def _run(self, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        conn = self._connection()
        try:
            return list(conn.execute(sql, params).fetchall())
        except BaseException:
            self._drop()
            raise

    # ------------------------------------------------------------------------------------- changes
    def append_many(self, changes: list[tuple[Any, ...]]) -> list[Any]:
        """:meth:`rummoli.server.storage.store.Store.append_many`: the same rows, the same answers, one round trip."""
        now = time.time()
        order = sorted(range(len(changes)), key=lambda k: changes[k][0])  # rows locked in id order (see Store)
        conn = self._connection()
        statements = [self._change(now, *changes[k]) for k in order]
        cursors: list[Any] = []
        try:
            if len(statements) == 1:  # one statement is a transaction of its own (autocommit): no BEGIN, COMMIT
                cursors.append(conn.execute(*statements[0]))
            else:
                with conn.pipeline():
                    conn.execute("BEGIN")
                    cursors.extend(conn.execute(*statement) for statement in statements)
                    conn.execute("COMMIT")
            counts = [cursor.fetchone()[0] for cursor in cursors]
        except BaseException:
            self._drop()  # PostgreSQL rolls back what the closed session left open
            raise
        out: list[Any] = [None] * len(changes)
        for k, (_sql, params), moved in zip(order, statements, counts, strict=True):
            if moved != 1:
                out[k] = StoreConflict.moved(params["id"], params["seen"], params.get("fence"))
        return out

    @staticmethod
    def _change(now: float, table_id: str, seen_seq: int, new_seq: int, kind: str, seat: int | None,
                payload: dict[str, Any], snapshot: dict[str, Any] | None, status: str | None = None,
                fence: int | None = None, hand_no: int | None = None) -> tuple[str, dict[str, Any]]:
        logged = new_seq > seen_seq
        sql = change_statement(status is not None, fence is not None, hand_no is not None, logged,
                               snapshot is not None)
        params: dict[str, Any] = {"id": table_id, "seen": seen_seq, "new": new_seq, "now": now}
        if status is not None:
            params["status"] = status
        if fence is not None:
            params["fence"] = fence
        if hand_no is not None:
            params["hand_no"] = hand_no
        if logged:
            params.update(kind=kind, seat=seat, payload=dumps(payload))
        if snapshot is not None:
            params["data"] = dumps(snapshot)
        return sql, params

    # ------------------------------------------------------------------------------------- upkeep
    def unowned(self, older_than: float, limit: int = 200, early: float = 0.0) -> list[str]:
        """:meth:`rummoli.server.storage.store.Store.unowned`."""
        free = f"lease_until < {_NOW} - %(older)s"
        if early:
            free = f"({free} OR {self._owner_gone})"
        rows = self._run(f"SELECT id FROM tables WHERE status <> 'over' AND {free} ORDER BY lease_until"
                         " LIMIT %(limit)s", {"older": float(older_than), "limit": int(limit), "settle": float(early)})
        return [r[0] for r in rows]

    def renew(self, owner: str, table_ids: list[str], seconds: float) -> set[str]:
        """:meth:`rummoli.server.storage.store.Store.renew` (the rows locked in the order of their ids)."""
        if not table_ids:
            return set()
        rows = self._run(f"UPDATE tables SET lease_until = {_NOW} + %(seconds)s WHERE id IN (SELECT id FROM tables"
                         " WHERE id = ANY(%(ids)s) AND owner = %(owner)s ORDER BY id FOR UPDATE) RETURNING id",
                         {"seconds": float(seconds), "ids": list(table_ids), "owner": owner})
        return {r[0] for r in rows}

    def owners(self, other_than: str) -> set[str]:
        """:meth:`rummoli.server.storage.store.Store.owners`."""
        rows = self._run("SELECT DISTINCT owner FROM tables WHERE status <> 'over' AND owner IS NOT NULL"
                         " AND owner <> %(me)s", {"me": other_than})
        return {r[0] for r in rows}

    def seqs(self, table_ids: list[str]) -> dict[str, int]:
        """:meth:`rummoli.server.storage.store.Store.seqs`."""
        if not table_ids:
            return {}
        rows = self._run("SELECT id, seq FROM tables WHERE id = ANY(%(ids)s)", {"ids": list(table_ids)})
        return {r[0]: int(r[1]) for r in rows}
