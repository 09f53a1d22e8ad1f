"""What large websocket frames cost a server: its peak memory while many clients each send one at once.

    python -m bench.frames [--clients 1 32 128] [--sizes 61440 1048000] [--rounds 3]

A message over ``max_message`` (8 KiB) but within the largest frame read (rummoli.server.run.MAX_FRAME, 1 MiB) is
read whole and answered with one ``too_large`` error line. For each number of clients and each frame size, one
``rummoli serve`` (its own process) gets that many spectators of one table; then every client sends one text
frame of that size at the same moment and waits for its error line. Printed, the median of ``--rounds``:

* the server's peak resident memory (VmHWM, reset just before through /proc/PID/clear_refs) above its memory
  before the frames;
* its memory above that once the clients have left (what stays: nothing, but for the allocator's own);
* its CPU time per frame (/proc counts ticks of 10 ms: only a figure over many clients means anything).

The baseline is the smallest size, in the same run: about the 64 KiB the server read before its limit was raised.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx
import orjson
import websockets

from bench.server import ServerProcess, cpu_seconds


def memory_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in kB (/proc/PID/status)."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


async def one_round(port: int, table: str, clients: int, size: int, pid: int) -> tuple[float, float, float]:
    url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    sockets = [await websockets.connect(url, max_size=None) for _ in range(clients)]
    for ws in sockets:
        await ws.send(orjson.dumps({"type": "hello"}).decode())
        assert orjson.loads(await ws.recv())["type"] == "welcome"
    frame = orjson.dumps({"type": "ping", "pad": "x" * (size - 29)}).decode()
    await asyncio.sleep(0.5)
    before = memory_kb(pid)["VmRSS"]
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM from here on
    cpu = cpu_seconds(pid)

    async def send(ws: websockets.ClientConnection) -> None:
        await ws.send(frame)
        answer = orjson.loads(await ws.recv())
        while answer["type"] != "error":  # the table's updates, as it plays on
            answer = orjson.loads(await ws.recv())
        assert answer["code"] == "too_large", answer

    await asyncio.gather(*(send(ws) for ws in sockets))
    used = cpu_seconds(pid) - cpu
    for ws in sockets:
        await ws.close()
    await asyncio.sleep(1.0)
    after = memory_kb(pid)
    return (after["VmHWM"] - before) / 1024, (after["VmRSS"] - before) / 1024, used / clients * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 32, 128])
    parser.add_argument("--sizes", type=int, nargs="+", default=[61_440, 1_048_000])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'clients':>7} {'frame':>9} {'peak MB above':>14} {'kept MB':>8} {'CPU ms/frame':>13}")
    for clients in args.clients:
        for size in args.sizes:
            with tempfile.TemporaryDirectory() as data:
                server = ServerProcess(Path(data), None)  # no per-address limits (bench.server)
                try:
                    base = f"http://127.0.0.1:{server.port}"
                    created = httpx.post(f"{base}/api/tables", json={"name": "Ann", "seats": [{}, {"bot": "easy"}]})
                    table = created.json()["id"]
                    rows = []
                    for _ in range(args.rounds):
                        rows.append(asyncio.run(one_round(server.port, table, clients, size, server.proc.pid)))
                        time.sleep(0.2)
                finally:
                    server.stop()
            peak, kept, cpu = (statistics.median(column) for column in zip(*rows, strict=True))
            print(f"{clients:>7} {size:>9} {peak:>14.1f} {kept:>8.1f} {cpu:>13.2f}", flush=True)


if __name__ == "__main__":
    main()
