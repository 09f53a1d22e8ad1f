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
