"""Fixtures: a real server process per module (and fresh ones where a test kills its server)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("server")).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def fresh_dir(tmp_path: Path) -> Path:
    return tmp_path
