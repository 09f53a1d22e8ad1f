"""The database schema (SQLAlchemy Core), the single source the migrations are checked against.

Tables:

* ``tables``    one row per table: its options, its creator's seat and ``seq``, the number of the last event
  stored -- the compare-and-set point every write goes through, so two writers can never both extend a table.
  With several server processes, ``owner``, ``fence`` and ``lease_until`` say which process drives the table:
  a lease with a fencing number, checked in the same compare-and-set, so an owner that lost its lease can
  write nothing.
* ``seats``     who sits where: a display name, a bot level, or a person's seat token stored only as a hash.
* ``actions``   every change to a table in order, keyed by ``(table_id, seq)`` (unique: an action is stored
  once, or not at all), with the seat and the action as the engine received it.
* ``snapshots`` the table's full state at some ``seq`` (each deal, each bot move): the deck of the hand in
  play and the bots' memory live here, on the server only. A restart restores the latest snapshot and applies
  the actions stored after it.
* ``chat``      what a table's people wrote to each other (a line, or one of the quick reactions), numbered
  per table; the writer is a seat number, the name is read from the seat when the line is shown.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
)

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("game", String(16), nullable=False),
    Column("ruleset", String(64), nullable=False),  # the ruleset's name (inline ones keep their own)
    Column("options", Text, nullable=False),  # JSON: the creation request as validated
    Column("creator_seat", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # playing | over
    # Several processes (docs/deploy.md): the process that drives the table, until when, and the fencing
    # number that goes up with every change of owner. Every write checks it with ``seq``.
    Column("owner", String(64), nullable=True),
    Column("fence", Integer, nullable=False, server_default="0"),
    Column("lease_until", Float, nullable=False, server_default="0"),
    Column("hand_no", Integer, nullable=False, server_default="0"),  # for lists of tables held elsewhere
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("bot", String(16), nullable=True),  # a bot's level; NULL for a person's seat
    Column("token_hash", String(64), nullable=True, unique=True),  # sha256 of the seat token; NULL: open
    Column("left", Boolean, nullable=False, default=False),
    PrimaryKeyConstraint("table_id", "seat"),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(16), nullable=False),  # act | bot | deal | end | seat
    Column("seat", Integer, nullable=True),
    Column("payload", Text, nullable=False),  # JSON
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "seq"),
)

snapshots = Table(
    "snapshots",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("data", Text, nullable=False),  # JSON: Table.snapshot()
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "seq"),
)

chat = Table(
    "chat",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("n", Integer, nullable=False),  # 1, 2, 3... per table
    Column("seat", Integer, nullable=False),
    Column("kind", String(16), nullable=False),  # line | reaction
    Column("text", Text, nullable=False),  # a line as written (plain text), or a reaction's key
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "n"),
)

Index("ix_tables_status", tables.c.status)
Index("ix_tables_lease", tables.c.status, tables.c.lease_until)
