"""``rummoli serve`` on an address it cannot listen on (a port another server holds, an address not on this
machine) says so in one line and stops at once: it announces no address (that would be the other server's)
and creates no data folder. A port left free by a server that stopped is taken again (tests/server/
test_server_crash.py restarts servers on their port)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from server_helpers import SRC, Server


def serve(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "rummoli.cli", "serve", "--data", str(data), *args],
                          capture_output=True, text=True, timeout=60, env=env)


def test_a_port_in_use_is_one_line_and_nothing_is_made(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve(tmp_path / "data", "--port", str(port))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""  # no "Rummoli is at http://127.0.0.1:PORT/": that is someone else's server
    assert done.stderr.splitlines() == [f"rummoli serve: port {port} on 127.0.0.1 is already in use "
                                        "(another server?); choose another with --port"]
    assert not (tmp_path / "data").exists()


def test_an_address_not_here_is_one_line(tmp_path: Path) -> None:
    done = serve(tmp_path / "data", "--host", "192.0.2.1", "--port", "8765")  # TEST-NET-1: on no machine
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("rummoli serve: cannot listen on 192.0.2.1 port 8765: "), line
    assert "Traceback" not in done.stderr and not (tmp_path / "data").exists()


def test_a_server_starts_again_on_its_port(tmp_path: Path) -> None:
    server = Server(tmp_path)
    server.fork = False  # from nothing, as `rummoli serve` starts
    try:
        server.start()
        assert server.create(seats=[{}, {"bot": "easy"}])["id"]  # a connection: TIME_WAIT on the port after
        server.stop()
        server.start()
        assert server.get("/healthz").status_code == 200
    finally:
        server.stop()
    assert "Traceback" not in server.log() and "in use" not in server.log()
