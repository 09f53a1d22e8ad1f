"""``rummoli serve`` takes every setting it is not given as an option from the environment (docs/deploy.md's
table of RUMMOLI_* variables): ``--host`` and ``--port`` had defaults of their own, which hid RUMMOLI_HOST and
RUMMOLI_PORT."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rummoli.server.run
from rummoli.cli import main


def settings_of(monkeypatch: pytest.MonkeyPatch, *args: str) -> Any:
    """The settings ``rummoli serve ARGS`` would start the server with (nothing is started)."""
    seen: list[Any] = []
    monkeypatch.setattr(rummoli.server.run, "serve", seen.append)
    monkeypatch.setattr(rummoli.server.run, "listen_problem", lambda host, port: None)
    with pytest.raises(SystemExit) as stop:
        main(["serve", *args])
    assert stop.value.code in (0, None)
    assert len(seen) == 1
    return seen[0]


def test_host_and_port_come_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RUMMOLI_HOST", "0.0.0.0")
    monkeypatch.setenv("RUMMOLI_PORT", "8123")
    monkeypatch.setenv("RUMMOLI_DATA_DIR", str(tmp_path))
    settings = settings_of(monkeypatch)
    assert (settings.host, settings.port, settings.data_dir) == ("0.0.0.0", 8123, tmp_path)


def test_an_option_beats_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RUMMOLI_PORT", "8123")
    settings = settings_of(monkeypatch, "--port", "8124", "--host", "127.0.0.2", "--data", str(tmp_path))
    assert (settings.host, settings.port) == ("127.0.0.2", 8124)


def test_without_either_the_defaults_stand(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("RUMMOLI_HOST", raising=False)
    monkeypatch.delenv("RUMMOLI_PORT", raising=False)
    settings = settings_of(monkeypatch, "--data", str(tmp_path))
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
