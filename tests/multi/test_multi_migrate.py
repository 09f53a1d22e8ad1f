"""A server on PostgreSQL brings the schema up to date however slowly its own process runs the migrations.

The store's sessions are ended by PostgreSQL after a second idle inside a transaction (so that a process stopped
in the middle of one cannot hold a table's row lock for long: rummoli.server.storage.store.make_engine). A
migration's transaction is idle while this process reads and runs Alembic's scripts, and on a loaded two-core
machine that took more than a second: the start failed with ``IdleInTransactionSessionTimeout`` (seen in CI, in
tests/multi/test_multi_asks.py). The migration's own transaction is allowed a minute."""

from __future__ import annotations

import time
from typing import Any

import alembic.command
import pytest
from multi_helpers import Database

from rummoli.server.storage.store import Store


def test_a_migration_slower_than_the_idle_timeout_still_completes(database: Database,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    upgrade = alembic.command.upgrade

    def slow(config: Any, revision: str) -> None:  # this process busy for 1.5 s inside the transaction
        time.sleep(1.5)
        upgrade(config, revision)

    monkeypatch.setattr(alembic.command, "upgrade", slow)
    store = Store(database.url)
    try:
        store.migrate()
        assert database.query("SELECT count(*) FROM tables") == [(0,)]  # the schema is there
    finally:
        store.close()
