"""The server's memory on disk: tables, seats, actions and snapshots through SQLAlchemy 2.

Everything here is synchronous and short; the application calls it from a worker thread so the event loop
never waits on the disk. Each write that extends a table is one transaction that moves the table's ``seq``
from the value the writer saw to the new one (a compare-and-set): if anything else wrote first, nothing is
stored and :class:`StoreConflict` is raised. The same code runs on SQLite (the embedded default) and on
PostgreSQL.
"""

from __future__ import annotations

import json
import time
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    String,
    Update,
    any_,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY

from rummoli.seating import open_name
from rummoli.server.jsontext import dumps, loads
from rummoli.server.storage import schema
from rummoli.server.storage.rows import Change, Recovery, SeatRow, StoreConflict, TableRow

MIGRATIONS = Path(__file__).with_name("migrations")


def _dumps(data: Any) -> str:
    # orjson: a deal's snapshot and each change's journal are written on every change (see jsontext)
    return dumps(data)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL (readers never block the writer) and a busy timeout."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # NORMAL is durable against a killed process (the crash the tests make); only a power cut
            # can lose the last commits, never corrupt the file.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    if url.startswith("postgresql"):
        # A process that stops in the middle of a transaction (SIGSTOP, a long pause) must not hold a
        # table's row lock for long: the server ends such a session after a second, and nobody waits for
        # a lock more than two, so another process can take the table over when its lease runs out.
        options = "-c idle_in_transaction_session_timeout=1000 -c lock_timeout=2000"
        return create_engine(url, pool_pre_ping=True, connect_args={"options": options})
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema with the migrations shipped inside the package."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    # Alembic keeps its options in a ConfigParser, where "%" starts an interpolation: a data folder, a
    # password or a query (a PostgreSQL socket's path) holding one would stop the server at start.
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several processes start at once on one database: one migrates, the others wait for it (the
            # lock is the transaction's, so it is released with it).
            connection.exec_driver_sql("SET LOCAL lock_timeout = 0")  # however long the other's migration takes
            # The engine's sessions are ended after a second idle in a transaction (make_engine). A migration's
            # transaction is idle while Alembic reads and runs its scripts in this process, which took more than a
            # second on a loaded two-core machine and ended the start there (tests/multi/test_multi_asks.py, in
            # CI). It gets a minute: still ended if this process stops for good while holding the lock.
            connection.exec_driver_sql("SET LOCAL idle_in_transaction_session_timeout = '60s'")
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7412031)")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@cache
def _move(status: bool, fenced: bool, hand_no: bool) -> Update:
    """A change's compare-and-set (with a new status, a fence, a hand number or not) as a bound statement,
    built once: building it per change cost more than the SQLite work itself."""
    t = schema.tables.c
    values: dict[str, Any] = {"seq": bindparam("new"), "updated_at": bindparam("now")}
    if status:
        values["status"] = bindparam("new_status")
    if hand_no:
        values["hand_no"] = bindparam("new_hand_no")
    where = [t.id == bindparam("t_id"), t.seq == bindparam("seen")]
    if fenced:
        where.append(t.fence == bindparam("t_fence"))
    return update(schema.tables).where(*where).values(**values)


_LOG = insert(schema.actions)

#: The first key of every advisory lock this server takes on PostgreSQL ("RUMM"); the second is the hash of
#: a process name.
LIVENESS_KEY = 0x52554D4D

#: A table has an owner that holds no liveness lock (each process holds one while it runs:
#: rummoli.server.cluster.deaths) in this database: it died. Only once the database has run for ``{settle}``
#: seconds: after it starts, every process's lock is gone until the process takes it again (within a lease
#: renewal). One uncorrelated subquery, so PostgreSQL reads its lock table once per
#: statement, not once per row. (``{settle}`` becomes the parameter's place: SQLAlchemy's or psycopg's.)
OWNER_GONE = (
    "(tables.owner IS NOT NULL"
    " AND clock_timestamp() - pg_postmaster_start_time() > make_interval(secs => {settle})"
    " AND hashtext(tables.owner)::oid NOT IN (SELECT objid FROM pg_locks WHERE locktype = 'advisory'"
    f" AND granted AND classid = {LIVENESS_KEY} AND objsubid = 2"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())))"
)


def _owner_gone(settle: float) -> Any:
    """:data:`OWNER_GONE` for SQLAlchemy."""
    return text(OWNER_GONE.format(settle=":settle")).bindparams(settle=settle)


class Store:
    """Reads and writes of the game server (see the module's docstring)."""

    def __init__(self, url: str) -> None:
        if url.startswith("sqlite:///"):
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        self.engine = make_engine(url)
        # Leases are timed by the database's clock, read when the statement runs (after any wait for a
        # lock), so processes on machines whose clocks differ agree, and a claim that waited is not dated
        # from before its wait.
        if self.engine.dialect.name == "postgresql":
            self.now: Any = func.extract("epoch", func.clock_timestamp())
        else:
            self.now = (func.julianday("now") - 2440587.5) * 86400.0

    def migrate(self) -> None:
        migrate(self.engine)

    def line(self) -> Any:
        """What one thread uses for the statements it runs many times a second (``append_many``, ``unowned``,
        ``renew``, ``seqs``): on PostgreSQL and on SQLite a connection of its own (rummoli.server.storage.pgline and
        rummoli.server.storage.sqliteline say why); elsewhere this store."""
        if self.engine.dialect.name == "sqlite":
            from rummoli.server.storage.sqliteline import SqliteLine

            return SqliteLine(self)
        if self.engine.dialect.name != "postgresql":
            return self
        from rummoli.server.storage.pgline import PgLine

        return PgLine(self.engine, OWNER_GONE.format(settle="%(settle)s"))

    def close_line(self, line: Any) -> None:
        """Give back what :meth:`line` gave (from the thread that used it)."""
        if line is not self:
            line.close()

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(1)).scalar() == 1

    # ------------------------------------------------------------------------------------- tables
    def create_table(self, table_id: str, game: str, ruleset: str, options: dict[str, Any], creator_seat: int,
                     seats: list[SeatRow], owner: str | None = None, lease: float = 0.0,
                     created_at: float | None = None) -> int | None:
        """A new table, waiting for its people (``start_table`` deals its first hand). With ``owner`` (several
        processes) the row is born with that owner's lease for ``lease`` seconds, fence 1 (returned): claimed in
        a transaction of its own, the table was for a moment without an owner, and another process's upkeep
        could take it, leaving two processes that each thought they drove it. ``created_at``: the time the table's
        room took as its own (now by default), so that a restored room says the same."""
        now = time.time() if created_at is None else created_at
        lease_values: dict[str, Any] = {} if owner is None else {"owner": owner, "fence": 1,
                                                                  "lease_until": self.now + lease}
        with self.engine.begin() as conn:
            conn.execute(insert(schema.tables).values(
                id=table_id, created_at=now, updated_at=now, game=game, ruleset=ruleset, options=_dumps(options),
                creator_seat=creator_seat, seq=0, status="waiting", **lease_values))
            conn.execute(insert(schema.seats), [
                {"table_id": table_id, "seat": seat, "name": s.name, "bot": s.bot, "token_hash": s.token_hash,
                 "left": s.left} for seat, s in enumerate(seats)])
        return None if owner is None else 1

    def start_table(self, table_id: str, seq: int, snapshot: dict[str, Any], fence: int | None = None) -> None:
        """The evening starts: its first snapshot (the first deal) and ``seq``, or :class:`StoreConflict`."""
        now = time.time()
        where = [schema.tables.c.id == table_id, schema.tables.c.status == "waiting", schema.tables.c.seq == 0]
        if fence is not None:
            where.append(schema.tables.c.fence == fence)
        with self.engine.begin() as conn:
            moved = conn.execute(update(schema.tables).where(*where).values(seq=seq, status="playing", updated_at=now,
                                                                            hand_no=1))
            if moved.rowcount != 1:
                raise StoreConflict(f"table {table_id} has already started")
            conn.execute(insert(schema.snapshots).values(table_id=table_id, seq=seq, data=_dumps(snapshot),
                                                         created_at=now))

    def end_waiting(self, table_id: str, fence: int | None = None) -> None:
        """An evening ended before its first deal: the status ``over``, only while the table still waits (seq 0)
        and, with several processes, under the writer's ``fence``; else :class:`StoreConflict` and nothing
        written (another process may have taken the table over and dealt: its evening goes on)."""
        where = [schema.tables.c.id == table_id, schema.tables.c.status == "waiting", schema.tables.c.seq == 0]
        if fence is not None:
            where.append(schema.tables.c.fence == fence)
        with self.engine.begin() as conn:
            moved = conn.execute(update(schema.tables).where(*where).values(status="over", updated_at=time.time()))
            if moved.rowcount != 1:
                raise StoreConflict.moved(table_id, 0, fence)

    def set_status(self, table_id: str, status: str, seq: int | None = None, fence: int | None = None) -> None:
        """The table's status now ``status``; with ``seq`` only while the table is still at that seq and, with
        several processes, under the writer's ``fence``, else :class:`StoreConflict` and nothing written (an owner
        whose lease ran out would pause or resume a table another process drives on)."""
        where = [schema.tables.c.id == table_id]
        if seq is not None:
            where.append(schema.tables.c.seq == seq)
        if fence is not None:
            where.append(schema.tables.c.fence == fence)
        with self.engine.begin() as conn:
            moved = conn.execute(update(schema.tables).where(*where).values(status=status, updated_at=time.time()))
            if seq is not None and moved.rowcount != 1:
                raise StoreConflict.moved(table_id, seq, fence)

    def _seats(self, conn: Any, table_id: str) -> list[SeatRow]:
        rows = conn.execute(select(schema.seats).where(schema.seats.c.table_id == table_id)
                            .order_by(schema.seats.c.seat)).mappings()
        return [SeatRow(r["name"], r["bot"], r["token_hash"], bool(r["left"])) for r in rows]

    def _table(self, conn: Any, row: Any) -> TableRow:
        return TableRow(row["id"], row["created_at"], row["game"], row["ruleset"], json.loads(row["options"]),
                        row["creator_seat"], row["seq"], row["status"], self._seats(conn, row["id"]),
                        row["hand_no"])

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.tables).where(schema.tables.c.id == table_id)).mappings().first()
            return None if row is None else self._table(conn, row)

    def count_tables(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(schema.tables)).scalar_one())

    # ------------------------------------------------------------------------------------- seats
    def take_seat(self, table_id: str, seat: int, name: str, hashed: str) -> bool:
        """Give an open person's seat to someone; False if it was taken meanwhile."""
        with self.engine.begin() as conn:
            result = conn.execute(update(schema.seats).where(
                schema.seats.c.table_id == table_id, schema.seats.c.seat == seat,
                schema.seats.c.bot.is_(None), schema.seats.c.token_hash.is_(None),
            ).values(name=name, token_hash=hashed, left=False))
            return bool(result.rowcount == 1)

    def leave_seat(self, table_id: str, seat: int, for_good: bool) -> None:
        """The seat's token stops working. Before the evening starts the seat opens again; during it the
        seat is marked as left (a bot plays it)."""
        values: dict[str, Any] = {"token_hash": None, "left": for_good}
        if not for_good:
            values["name"] = open_name(seat)
        with self.engine.begin() as conn:
            conn.execute(update(schema.seats).where(
                schema.seats.c.table_id == table_id, schema.seats.c.seat == seat).values(**values))

    def make_bot_seat(self, table_id: str, seat: int, name: str, level: str) -> None:
        """An open seat goes to a bot (the creator started without waiting for it)."""
        with self.engine.begin() as conn:
            conn.execute(update(schema.seats).where(
                schema.seats.c.table_id == table_id, schema.seats.c.seat == seat).values(name=name, bot=level))

    def seat_of_token(self, table_id: str, hashed: str) -> int | None:
        with self.engine.connect() as conn:
            seat = conn.execute(select(schema.seats.c.seat).where(
                schema.seats.c.table_id == table_id, schema.seats.c.token_hash == hashed)).scalar()
            return None if seat is None else int(seat)

    # ------------------------------------------------------------------------------------- the log
    def append(self, table_id: str, seen_seq: int, new_seq: int, kind: str, seat: int | None,
               payload: dict[str, Any], snapshot: dict[str, Any] | None = None, status: str | None = None,
               fence: int | None = None, hand_no: int | None = None) -> None:
        """Store one change of a table in one transaction, or nothing (:class:`StoreConflict`).

        The table's ``seq`` moves from ``seen_seq`` to ``new_seq``; with several processes the writer's
        ``fence`` must also still be the table's (an owner whose lease was taken over writes nothing). A
        change that made events (``new_seq > seen_seq``) is logged as an action at ``new_seq``; one that
        made none (a seat handed to a bot) is kept only as a snapshot. ``snapshot`` (the whole table at
        ``new_seq``) replaces any
        earlier snapshot at that seq.
        """
        with self.engine.begin() as conn:
            self._append(conn, time.time(), table_id, seen_seq, new_seq, kind, seat, payload, snapshot, status,
                         fence, hand_no)

    def append_many(self, changes: list[Change]) -> list[StoreConflict | None]:
        """Store the changes of many tables in one transaction: each exactly as :meth:`append` would (its own
        compare-and-set on its table's ``seq`` and fence), answering, in order, ``None`` for each one stored
        and a :class:`StoreConflict` for each refused (a refused change writes nothing; the others are stored).
        Raises, and stores none of them, if the transaction itself fails."""
        now = time.time()
        out: list[StoreConflict | None] = [None] * len(changes)
        # Rows are locked in the order of their table ids (a table's own changes keep their order: the sort is
        # stable), as :meth:`renew` locks them: two transactions that lock several rows in different orders can
        # deadlock, and PostgreSQL then aborts one of them after a second. Under load that was a lease renewal
        # every few seconds, and the tables it covered were taken over by another process for nothing.
        order = sorted(range(len(changes)), key=lambda k: changes[k][0])
        with self.engine.begin() as conn:
            for k in order:
                try:
                    self._append(conn, now, *changes[k])
                except StoreConflict as conflict:
                    out[k] = conflict
        return out

    def _append(self, conn: Any, now: float, table_id: str, seen_seq: int, new_seq: int, kind: str,
                seat: int | None, payload: dict[str, Any], snapshot: dict[str, Any] | None,
                status: str | None = None, fence: int | None = None, hand_no: int | None = None) -> None:
        # The compare-and-set comes first: a change it refuses has written nothing.
        moved = conn.execute(_move(status is not None, fence is not None, hand_no is not None),
                             {"t_id": table_id, "seen": seen_seq, "new": new_seq, "now": now, "new_status": status,
                              "t_fence": fence, "new_hand_no": hand_no})
        if moved.rowcount != 1:
            raise StoreConflict.moved(table_id, seen_seq, fence)
        if new_seq > seen_seq:
            conn.execute(_LOG, {"table_id": table_id, "seq": new_seq, "kind": kind, "seat": seat,
                                "payload": _dumps(payload), "created_at": now})
        if snapshot is not None:
            conn.execute(delete(schema.snapshots).where(schema.snapshots.c.table_id == table_id,
                                                        schema.snapshots.c.seq == new_seq))
            conn.execute(insert(schema.snapshots).values(table_id=table_id, seq=new_seq, data=_dumps(snapshot),
                                                         created_at=now))

    # ------------------------------------------------------------------------------------- leases
    # Why the lease lives here and not in Redis: its fencing number must be checked in the same transaction
    # as the write it guards (``append``), and only the database can do that. Clocks matter only for how soon
    # a dead owner's table is taken over, never for safety: a writer whose fence has moved on writes nothing.

    def claim(self, table_id: str, owner: str, seconds: float, early: bool = False) -> int | None:
        """Become the owner of a table whose lease is free, has run out or is already ``owner``'s (with
        ``early``, also one whose owner holds no liveness lock, once the database has run for ``seconds``: see
        :data:`OWNER_GONE`), for ``seconds``: its fencing number (raised when the owner changes), or ``None`` if
        another holds it."""
        now = self.now
        t = schema.tables.c
        free = (t.owner.is_(None)) | (t.lease_until < now) | (t.owner == owner)
        if early and self.engine.dialect.name == "postgresql":
            free = free | _owner_gone(seconds)
        with self.engine.begin() as conn:
            moved = conn.execute(update(schema.tables).where(
                t.id == table_id, t.status != "over", free,
            ).values(fence=case((t.owner == owner, t.fence), else_=t.fence + 1), owner=owner,
                     lease_until=now + seconds))
            if moved.rowcount != 1:
                return None
            fence = conn.execute(select(t.fence).where(t.id == table_id)).scalar_one()
            return int(fence)

    def renew(self, owner: str, table_ids: list[str], seconds: float) -> set[str]:
        """Extend ``owner``'s leases on ``table_ids``; the ids it still holds (the others were taken over)."""
        if not table_ids:
            return set()
        t = schema.tables.c
        # One statement; the rows are locked first, in the order of their ids (see append_many).
        locked = (select(t.id).where(self._among_ids(), t.owner == owner).order_by(t.id).with_for_update()
                  .scalar_subquery())
        with self.engine.begin() as conn:
            rows = conn.execute(update(schema.tables).where(t.id.in_(locked))
                                .values(lease_until=self.now + seconds).returning(t.id), {"ids": list(table_ids)})
            return {r[0] for r in rows}

    def release(self, owner: str, table_ids: list[str]) -> None:
        """Give up leases (a process stopping cleanly): another process may take the tables at once."""
        if not table_ids:
            return
        t = schema.tables.c
        with self.engine.begin() as conn:
            conn.execute(update(schema.tables).where(t.id.in_(table_ids), t.owner == owner)
                         .values(owner=None, lease_until=0))

    def unowned(self, older_than: float, limit: int = 200, early: float = 0.0) -> list[str]:
        """Tables waiting or in play with no owner, or whose lease ran out more than ``older_than`` ago (with
        ``early`` seconds, also those whose owner holds no liveness lock, once the database has run that long:
        see :data:`OWNER_GONE`)."""
        t = schema.tables.c
        free = t.lease_until < self.now - older_than
        if early and self.engine.dialect.name == "postgresql":
            free = free | _owner_gone(early)
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.id).where(t.status != "over", free)
                                .order_by(t.lease_until).limit(limit))
            return [r[0] for r in rows]

    def owners(self, other_than: str) -> set[str]:
        """The processes other than ``other_than`` that own tables waiting or in play (the ones whose death
        matters to the others: rummoli.server.cluster.deaths)."""
        t = schema.tables.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.owner).distinct().where(t.status != "over", t.owner.is_not(None),
                                                                  t.owner != other_than))
            return {r[0] for r in rows}

    def owner(self, table_id: str) -> tuple[str | None, int, float] | None:
        """Who owns a table, its fence and the seconds its lease has left (``None``: no such table)."""
        t = schema.tables.c
        with self.engine.connect() as conn:
            row = conn.execute(select(t.owner, t.fence, t.lease_until - self.now).where(t.id == table_id)).first()
            return None if row is None else (row[0], int(row[1]), float(row[2]))

    # ------------------------------------------------------------------------------------- recovery
    def recover(self, table_id: str) -> Recovery | None:
        """The latest snapshot of a table and every action stored after it, read at one moment: on PostgreSQL
        in a repeatable-read transaction, since with several processes the owner goes on storing while a
        follower reads (a table row read before a change and its actions read after it disagreed)."""
        with self._one_moment() as conn:
            row = conn.execute(select(schema.tables).where(schema.tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            snap = conn.execute(select(schema.snapshots.c.seq, schema.snapshots.c.data)
                                .where(schema.snapshots.c.table_id == table_id)
                                .order_by(schema.snapshots.c.seq.desc()).limit(1)).first()
            if snap is None:
                return None
            acts = conn.execute(select(schema.actions.c.seq, schema.actions.c.kind, schema.actions.c.seat,
                                       schema.actions.c.payload)
                                .where(schema.actions.c.table_id == table_id, schema.actions.c.seq > snap.seq)
                                .order_by(schema.actions.c.seq)).all()
            return Recovery(self._table(conn, row), snap.seq, loads(snap.data),
                            [{"seq": a.seq, "kind": a.kind, "seat": a.seat, "payload": loads(a.payload)}
                             for a in acts])

    def _one_moment(self) -> Any:
        conn = self.engine.connect()
        if self.engine.dialect.name == "postgresql":
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        return conn

    def _among_ids(self) -> Any:
        """``tables.id`` is one of the ``ids`` parameter's: on PostgreSQL one array parameter (a list of a hundred
        parameters cost milliseconds of CPU per statement, in statements run every second)."""
        t = schema.tables.c
        if self.engine.dialect.name == "postgresql":
            return t.id == any_(bindparam("ids", type_=ARRAY(String)))
        return t.id.in_(bindparam("ids", expanding=True))

    def seqs(self, table_ids: list[str]) -> dict[str, int]:
        """The stored ``seq`` of each table."""
        if not table_ids:
            return {}
        t = schema.tables.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.id, t.seq).where(self._among_ids()), {"ids": list(table_ids)})
            return {r[0]: int(r[1]) for r in rows}

    def listing(self, limit: int) -> list[TableRow]:
        """The newest tables waiting or in play, with their seats."""
        t = schema.tables
        with self.engine.connect() as conn:
            rows = conn.execute(select(t).where(t.c.status != "over").order_by(t.c.created_at.desc())
                                .limit(limit)).mappings().all()
            return [self._table(conn, row) for row in rows]

    def table_ids(self, status: str | None = None) -> list[str]:
        query = select(schema.tables.c.id).order_by(schema.tables.c.created_at)
        if status is not None:
            query = query.where(schema.tables.c.status == status)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    # ------------------------------------------------------------------------------------- chat
    def add_chat(self, table_id: str, n: int, seat: int, kind: str, text: str, at: float) -> None:
        """Keep a chat line (``n``: its number at the table, one more than the last)."""
        with self.engine.begin() as conn:
            conn.execute(insert(schema.chat).values(table_id=table_id, n=n, seat=seat, kind=kind, text=text,
                                                    created_at=at))

    def chat_lines(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        """A table's last ``limit`` chat lines, oldest first: ``{"n", "seat", "kind", "text", "at"}``."""
        c = schema.chat.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(c.n, c.seat, c.kind, c.text, c.created_at).where(c.table_id == table_id)
                                .order_by(c.n.desc()).limit(limit)).all()
        return [{"n": int(r[0]), "seat": int(r[1]), "kind": r[2], "text": r[3], "at": float(r[4])}
                for r in reversed(rows)]

    def prune_snapshots(self, table_id: str, keep_from: int) -> None:
        """Forget snapshots older than ``keep_from`` (the actions stay: they are the table's history)."""
        with self.engine.begin() as conn:
            conn.execute(delete(schema.snapshots).where(schema.snapshots.c.table_id == table_id,
                                                        schema.snapshots.c.seq < keep_from))
