"""A server that stays fast for days: one ``rummoli serve`` under steady load, measured window by window.

    python -m bench.soak [--tables 200] [--minutes 30] [--window 300] [--think 0.5 1.5] [--churn 0.1]

``--tables`` tables of four scripted people (bench/server.py's players: each waits a think time, then sends a
random legal action) play for ``--minutes``. Every ``--window`` seconds it prints the window's actions served
per second, the server's CPU time per action (user + system, from /proc), p50 and p99 of an action's time to
reach every seat, the server's resident memory (RSS) and its open file descriptors. Between windows a share
``--churn`` of the tables' people leave and come back (new websockets on the same seats, with updates queued
as they go: what once leaked a polling task per connection), so a leak of connections shows.

At the end it prints the spread of CPU per action and of RSS over the windows after the first (the first
holds the warm-up): flat means both within 10% of their first window's value. The baseline is the server
itself, earlier in the same run: a server that slows or grows with time is the finding.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.server import Recorder, ServerProcess, cpu_seconds, open_tables, player, run_fast


def rss_mb(pid: int) -> float:
    """The process's resident memory in MB (/proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def open_files(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


async def soak(server: ServerProcess, tables: int, minutes: float, window: float, think: tuple[float, float],
               churn: float) -> list[dict[str, float]]:
    base = f"http://127.0.0.1:{server.port}"
    made = await open_tables(base, tables, "rummoli")
    recorder = Recorder(seats=4)
    recorder.measuring = True
    rng = random.Random(34)
    seats = [(table, seat, token) for table, tokens in made for seat, token in enumerate(tokens)]

    def join(table: str, seat: int, token: str, until: asyncio.Event) -> asyncio.Task[None]:
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
        return asyncio.get_running_loop().create_task(
            player(url, table, token, seat, think, recorder, until, random.Random(rng.random())))

    stops = {key[:2]: asyncio.Event() for key in seats}
    tasks = {key[:2]: join(*key, stops[key[:2]]) for key in seats}
    rows: list[dict[str, float]] = []
    end = time.monotonic() + minutes * 60
    while time.monotonic() < end:
        recorder.latencies.clear()
        cpu0, t0 = cpu_seconds(server.proc.pid), time.perf_counter()
        await asyncio.sleep(min(window, max(1.0, end - time.monotonic())))
        cpu1, t1 = cpu_seconds(server.proc.pid), time.perf_counter()
        lat = sorted(recorder.latencies)
        served = len(lat)
        row = {"served": served / (t1 - t0),
               "cpu_ms": (cpu1 - cpu0) / max(1, served) * 1000,
               "p50": statistics.median(lat) * 1000 if lat else float("nan"),
               "p99": lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000 if lat else float("nan"),
               "rss": rss_mb(server.proc.pid), "fds": open_files(server.proc.pid), "errors": recorder.errors}
        rows.append(row)
        print(f"window {len(rows):3}  served {row['served']:6.1f}/s  CPU {row['cpu_ms']:.2f} ms/action  "
              f"p50 {row['p50']:6.1f} ms  p99 {row['p99']:7.1f} ms  RSS {row['rss']:6.1f} MB  "
              f"fds {row['fds']:5.0f}  errors so far {row['errors']:.0f}", flush=True)
        # Some people leave (their sockets closed with updates still on the way) and come back at once.
        for key in rng.sample(list(tasks), int(churn * len(tasks))):
            stops[key].set()
            stops[key] = asyncio.Event()
            token = next(t for (tb, s, t) in seats if (tb, s) == key)
            tasks[key] = join(key[0], key[1], token, stops[key])
    for event in stops.values():
        event.set()
    await asyncio.gather(*tasks.values(), return_exceptions=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--window", type=float, default=300.0, help="seconds a window (default 300)")
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 1.5))
    parser.add_argument("--churn", type=float, default=0.1, help="share of people who leave and return a window")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(Path(folder), None)
        try:
            rows = run_fast(soak(server, args.tables, args.minutes, args.window, tuple(args.think), args.churn))
        finally:
            server.stop()
    later = rows[1:] or rows
    first_cpu, first_rss = later[0]["cpu_ms"], later[0]["rss"]
    cpu_spread = max(abs(r["cpu_ms"] / first_cpu - 1) for r in later)
    rss_spread = max(abs(r["rss"] / first_rss - 1) for r in later)
    print(f"over windows 2-{len(rows)}: CPU per action within {cpu_spread:.0%} of window 2's, RSS within "
          f"{rss_spread:.0%}; {'flat' if cpu_spread <= 0.10 and rss_spread <= 0.10 else 'NOT flat'} (10% allowed)")


if __name__ == "__main__":
    main()
