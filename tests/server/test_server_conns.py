"""Connections that end leave nothing running (issue 34): a thousand websocket clients that drop with messages
still queued for them, and the idle server's CPU afterwards is what it was before them."""

from __future__ import annotations

import json
import os
import socket
import struct
import time
from pathlib import Path

import pytest
from server_helpers import Server
from websockets.sync.client import connect

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (/proc/PID/stat, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def idle_share(pid: int, seconds: float = 5.0) -> float:
    """The share of one core process ``pid`` used over the next ``seconds``."""
    before, start = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (cpu_seconds(pid) - before) / (time.monotonic() - start)


def drop_with_messages_queued(server: Server, table: str) -> None:
    """A spectator that says hello, asks for 25 pongs and vanishes at once (a reset, no close frame): the
    server still holds messages for it when it learns it is gone."""
    ws = connect(server.ws_url(table), open_timeout=10).__enter__()
    ws.send(json.dumps({"type": "hello", "token": None}))
    for _ in range(25):
        ws.send(json.dumps({"type": "ping"}))
    ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    ws.socket.close()


@pytest.mark.slow
def test_a_thousand_dropped_clients_leave_the_server_idle(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        assert server.proc is not None
        table = server.create(ruleset="rummoli", seats=[{}, {}, {"bot": "easy"}])["id"]
        time.sleep(1.0)
        before = idle_share(server.proc.pid, 3.0)
        for _ in range(1000):
            drop_with_messages_queued(server, table)
        time.sleep(2.0)  # every dropped client's one second of grace for its queue is over
        after = idle_share(server.proc.pid)
        assert server.get("/healthz").json()["clients"] == 0
        assert "Traceback" not in server.log()
    finally:
        server.stop()
    print(f"idle server: {before:.2%} of a core before, {after:.2%} after 1000 dropped clients")
    assert after < 0.01, f"the idle server uses {after:.1%} of a core after the clients left (before: {before:.1%})"
