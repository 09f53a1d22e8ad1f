"""Fixtures for several server processes: a fresh PostgreSQL database and a Redis prefix of each test's own on
the machine's servers, and the test's nodes, stopped (and their database dropped) after it."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# tests/server's helpers (line_cases: what both store lines are held to) import here too
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from multi_helpers import MACHINE_REDIS, Cluster, Database, forget_prefix, missing, redis_answers


@pytest.fixture
def database() -> Iterator[Database]:
    made = Database()
    try:
        yield made
    finally:
        made.drop()


@pytest.fixture
def prefix() -> Iterator[str]:
    """A Redis prefix no other test uses (pub/sub ignores Redis's database numbers)."""
    if not redis_answers(MACHINE_REDIS):
        missing(f"no Redis at {MACHINE_REDIS}")
    name = "rummoli-test-" + secrets.token_hex(6)
    try:
        yield name
    finally:
        forget_prefix(MACHINE_REDIS, name)


@pytest.fixture
def make_cluster(tmp_path: Path, database: Database, prefix: str) -> Iterator[Callable[..., Cluster]]:
    """``make_cluster(count, database=..., redis_url=..., lease=..., args=...)``: started nodes, on the test's
    database and the machine's Redis unless told otherwise; all stopped after the test."""
    made: list[Cluster] = []

    def make(count: int, **given: Any) -> Cluster:
        options: dict[str, Any] = {"database": database, "redis_url": MACHINE_REDIS, "prefix": prefix, **given}
        cluster = Cluster(tmp_path / f"cluster{len(made)}", count, **options)
        made.append(cluster)
        return cluster.start()

    try:
        yield make
    finally:
        for cluster in made:
            cluster.stop()
            print(cluster.logs())
        for cluster in made:
            for node in cluster.nodes:
                if getattr(node, "killed", False):
                    continue
                assert "Traceback" not in node.log(), f"{node.name} logged a traceback:\n{node.log()[-3000:]}"
