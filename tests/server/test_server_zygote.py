"""The tests' servers forked from a pre-imported parent (tests/server/zygote.py) are the servers the README's
command starts: the same answers, the same exit codes, the same log, and signals reach them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import zygote
from server_helpers import Server


def started(data: Path, fork: bool) -> Server:
    data.mkdir()
    server = Server(data)
    server.fork = fork
    return server.start()


def test_a_forked_server_deals_what_a_fresh_one_deals_and_ends_as_it_does(tmp_path: Path) -> None:
    forked, fresh = started(tmp_path / "forked", True), started(tmp_path / "fresh", False)
    try:
        assert isinstance(forked.proc, zygote.Forked) and isinstance(fresh.proc, subprocess.Popen)
        assert forked.proc.pid not in (os.getpid(), fresh.proc.pid)
        views = []
        for server in (forked, fresh):
            created = server.create(ruleset="rummoli", seats=[{}, {"bot": "easy"}, {"bot": "easy"}], seed="same")
            client = server.client(created["id"], created["token"])
            views.append((client.view["hand"], client.view.get("legal_actions")))
            client.close()
        assert views[0] == views[1]
        assert forked.proc.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            forked.proc.wait(0.1)
        forked.proc.send_signal(signal.SIGSTOP)  # as tests/multi pauses a process
        forked.proc.send_signal(signal.SIGCONT)
        assert forked.get("/healthz").status_code == 200
    finally:
        forked.stop()
        fresh.stop()
    assert forked.proc.returncode == fresh.proc.returncode  # SIGTERM ends both the same way
    for server in (forked, fresh):
        assert "Rummoli is at http://127.0.0.1:" in server.log() and "Traceback" not in server.log()
    forked.start()
    forked.kill()
    assert forked.proc.returncode == -signal.SIGKILL


def test_a_bad_option_is_one_line_and_exit_2_from_the_zygote_too(tmp_path: Path) -> None:
    server = Server(tmp_path, "--bot-workers", "-5")
    with pytest.raises(RuntimeError, match="stopped at start"):
        server.start()
    assert isinstance(server.proc, zygote.Forked) and server.proc.returncode == 2
    assert server.log().count("\n") == 1 and "--bot-workers" in server.log()


def test_what_a_fork_could_change_is_started_afresh() -> None:
    env = zygote.zygote_env()
    serve = [sys.executable, "-m", "rummoli.cli", "serve", "--port", "1"]
    assert zygote.can_fork(serve, env, None)
    assert not zygote.can_fork(serve, env, lambda: None)  # code to run before the server: only Popen runs it
    assert not zygote.can_fork(serve, {**env, "RUMMOLI_PURE": "1"}, None)  # read once, at import
    assert not zygote.can_fork([sys.executable, "-m", "rummoli.cli", "play"], env, None)
    assert not zygote.can_fork(["/usr/sbin/nginx", "-c", "x"], env, None)


def signal_mask(pid: int, field: str) -> int:
    """A process's ``SigIgn`` or ``SigCgt`` mask (Linux /proc): bit ``n - 1`` is signal ``n``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1], 16)
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def test_a_forked_server_takes_signals_as_a_fresh_one_does(tmp_path: Path) -> None:
    """Python ignores SIGPIPE from its start (a write to a socket whose client has gone raises BrokenPipeError):
    so does a forked server, which with SIGPIPE's default died at once, without a word, when it wrote to a
    client or a bot worker that had just gone. The signals each ignores and catches are the same."""
    forked, fresh = started(tmp_path / "forked", True), started(tmp_path / "fresh", False)
    try:
        assert isinstance(forked.proc, zygote.Forked)
        for field in ("SigIgn", "SigCgt"):
            assert signal_mask(forked.proc.pid, field) == signal_mask(fresh.proc.pid, field), field
        assert signal_mask(forked.proc.pid, "SigIgn") & (1 << (signal.SIGPIPE - 1))
        for server in (forked, fresh):
            server.proc.send_signal(signal.SIGPIPE)  # as a write to a closed socket raises it
        assert forked.get("/healthz").status_code == 200 and fresh.get("/healthz").status_code == 200
        assert forked.proc.poll() is None and fresh.proc.poll() is None
    finally:
        forked.stop()
        fresh.stop()
