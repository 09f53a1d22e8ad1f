"""A data folder or a database URL holding ``%`` (issue 38, item 3): Alembic keeps its options in a ConfigParser,
where ``%`` starts an interpolation, so such a server used to stop at start ("invalid interpolation syntax").
Each test starts a real ``rummoli serve`` and creates a table on it."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from server_helpers import Server

SOCKET_DIR = "/var/run/postgresql"


def serves(data: Path, *args: str) -> None:
    """A server on ``data`` with ``args`` starts and creates a table."""
    data.mkdir(parents=True, exist_ok=True)
    server = Server(data, *args)
    server.fork = False  # from nothing, as the README's command starts it: imports included
    try:
        server.start()
        assert server.create(seats=[{}, {"bot": "easy"}])["id"]
    finally:
        server.stop()
    assert "Traceback" not in server.log(), server.log()[-3000:]
    # Stopped by SIGTERM, the server ends without finalizers: its bot workers' queues are let go before that, or
    # multiprocessing's tracker reports their semaphores as leaked.
    assert "leaked" not in server.log(), server.log()[-3000:]


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh database on the machine's PostgreSQL (trust authentication, user postgres); a missing server
    fails the test, it never skips."""
    name = "rummoli_test_" + secrets.token_hex(6)
    admin_dsn = "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=5"
    try:
        with psycopg.connect(admin_dsn, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        pytest.fail(f"no PostgreSQL at 127.0.0.1:5432: {str(error).strip().splitlines()[0]}")
    try:
        yield name
    finally:
        with contextlib.suppress(psycopg.Error), psycopg.connect(admin_dsn, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_data_folder_with_percent_and_spaces_starts(tmp_path: Path) -> None:
    serves(tmp_path / "da%ta 50% full")


def test_a_percent_escaped_password_starts(tmp_path: Path, database: str) -> None:
    serves(tmp_path / "data", "--database-url", f"postgresql+psycopg://postgres:p%40ss@127.0.0.1:5432/{database}")


def test_a_unix_socket_host_starts(tmp_path: Path, database: str) -> None:
    serves(tmp_path / "data", "--database-url", f"postgresql+psycopg://postgres@/{database}?host={SOCKET_DIR}")
