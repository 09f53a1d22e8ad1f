"""Game server under load: many tables of scripted players on loopback, against one ``rummoli serve`` process.

    python -m bench.server [--tables 200] [--seconds 30] [--think 0.5 1.5] [--sweep [--scales ...]]
                           [--compare OTHER/src] [--profile] [--ruleset rummoli]

Each table has four people (scripted websocket clients, no bots). A client whose turn comes waits a think
time drawn from ``--think`` (as a person does), then sends a random legal action with the ``seq`` it saw.
Printed, over the measured window (after a warm-up):

* actions per second offered and served;
* p50 / p99 (and max) of the time from an action being sent to the update reaching *every* seat of its table;
* how much of the time the server's event loop, and the generator's, were ready to run but waited for a CPU
  (Linux schedstat): on a machine shared with other work this, not the server, is often the latency;
* the server process's CPU time per action (user + system, from /proc; split between the event loop's thread
  and the others, where the store writes), beside a baseline measured in the
  same run: the same work done in-process by the engine alone (``Table.act`` plus the four seats' events and
  views), so the ratio is what the server adds (HTTP-free websocket framing, JSON, the store's transaction,
  fan-out);
* with ``--profile``, where the server's time goes (cProfile of the server process, by area);
* with ``--sweep``, the same at shorter think times, and the highest offered load whose p99 stays under 100 ms;
* with ``--compare OTHER/src``, the same load, in turn, against a second server run from another checkout
  (an older commit, say), so a change is measured against its baseline in the same run.

The generator's own garbage collector is held off while measuring (its pauses would look like the
server's latency).

The load generator runs in this process and shares the machine's cores with the server, as the issue asks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import orjson
import websockets

TICKS = os.sysconf("SC_CLK_TCK")
T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def thread_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of a process's main thread (the event loop) and of all its other threads (the store's)."""
    main = other = 0.0
    for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used = (int(fields[11]) + int(fields[12])) / TICKS
        if stat.parent.name == str(pid):
            main += used
        else:
            other += used
    return main, other


def runnable_wait(pid: int) -> float:
    """Seconds a process's main thread has spent ready to run but waiting for a CPU (Linux schedstat): what
    the machine's other work costs its latency."""
    try:
        return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def wakeups(pids: list[int]) -> int:
    """How many times the processes' threads have gone to sleep and been woken so far (Linux: voluntary
    context switches). Each wake-up costs a server CPU beyond its work (on a machine whose cores other
    processes share, its caches start cold), and a table spread over several processes wakes more of them."""
    total = 0
    for pid in pids:
        for status in Path(f"/proc/{pid}/task").glob("*/status"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                total += int(status.read_text().split("voluntary_ctxt_switches:")[1].split()[0])
    return total


def threads_cpu(pids: list[int]) -> tuple[float, float]:
    split = [thread_cpu(pid) for pid in pids]
    return sum(s[0] for s in split), sum(s[1] for s in split)


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = view["hand"]["legal_actions"]
    keen = [a for a in legal if a["action"] in ("meld", "layoff", "knock")]
    action = dict(rng.choice(keen or legal))
    if "min" in action:
        action["amount"] = rng.randint(action.pop("min"), action.pop("max"))
    return action


@dataclass
class Pending:
    sent: float
    waiting: set[int]
    last: float = 0.0


@dataclass
class Recorder:
    """Times from each action to the update reaching every seat of its table."""

    seats: int
    measuring: bool = False
    # Only actions sent from this moment on are timed: an action already in flight when the window opens may
    # have waited through the generator's own collection just before it, which is not the server's latency (at
    # 2,000 tables such actions were over 1% of the window's, enough to make its p99).
    since: float = 0.0
    pending: dict[str, dict[int, Pending]] = field(default_factory=dict)  # table -> seq acted on -> times
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)  # how many of each error code, for the report
    connected: int = 0

    def on_send(self, table: str, seq: int) -> None:
        self.pending.setdefault(table, {})[seq] = Pending(time.perf_counter(), set(range(self.seats)))
        if self.measuring:
            self.sent += 1

    def on_update(self, table: str, seat: int, seq: int) -> None:
        waiting = self.pending.get(table)
        if not waiting:
            return
        now = time.perf_counter()
        for at in [k for k in waiting if k < seq]:
            entry = waiting[at]
            if seat in entry.waiting:
                entry.waiting.discard(seat)
                entry.last = now
                if not entry.waiting:
                    del waiting[at]
                    if self.measuring and entry.sent >= self.since:
                        self.latencies.append(entry.last - entry.sent)


async def player(url: str, table: str, token: str, seat: int, think: tuple[float, float], recorder: Recorder,
                 stop: asyncio.Event, rng: random.Random) -> None:
    async with websockets.connect(url, max_size=None, ping_interval=None, open_timeout=120) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        acting: asyncio.Task[None] | None = None
        view: dict[str, Any] = {}
        seq = 0

        async def act(at_seq: int) -> None:
            await asyncio.sleep(rng.uniform(*think))
            if seq != at_seq or stop.is_set():
                return
            recorder.on_send(table, at_seq)
            await ws.send(orjson.dumps({"type": "act", "seq": at_seq, "action": choose(view, rng)}).decode())

        while not stop.is_set():
            try:
                message = orjson.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except TimeoutError:
                continue
            if message["type"] == "error":
                recorder.errors += 1
                code = str(message.get("code"))
                recorder.error_codes[code] = recorder.error_codes.get(code, 0) + 1
                continue
            if message["type"] not in ("welcome", "update"):
                continue
            if message["type"] == "welcome":
                recorder.connected += 1
            view, seq = message["view"], message["seq"]
            recorder.on_update(table, seat, seq)
            hand = view.get("hand") or {}
            my_turn = seat in view.get("to_act", []) and hand.get("legal_actions") and not view.get("over")
            if my_turn and (acting is None or acting.done()):
                acting = asyncio.get_running_loop().create_task(act(seq))


async def open_tables(base: str | list[str], count: int, ruleset: str) -> list[tuple[str, list[str]]]:
    """``count`` tables of four people; with several servers' addresses, the k-th table is created through the
    k-th of them (bench/cluster.py)."""
    bases = [base] if isinstance(base, str) else base
    limits = httpx.Limits(max_connections=16)
    # At most 16 tables being opened at a time: with every table's coroutine started at once, thousands wait for
    # one of the 16 connections, and on a loaded machine that wait passed the client's timeout (a 2,000-table
    # run stopped there).
    opening = asyncio.Semaphore(16)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        async def one(k: int) -> tuple[str, list[str]]:
            async with opening:
                return await open_one(k)

        async def open_one(k: int) -> tuple[str, list[str]]:
            at = bases[k % len(bases)]
            created = (await http.post(f"{at}/api/tables", json={
                "name": f"A{k}", "ruleset": ruleset, "chips": 100000, "seats": [{}, {}, {}, {}]})).json()
            tokens = [created["token"]]
            for name in ("B", "C", "D"):
                joined = (await http.post(f"{at}/api/tables/{created['id']}/seats", json={"name": f"{name}{k}"})).json()
                tokens.append(joined["token"])
            return created["id"], tokens

        return list(await asyncio.gather(*(one(k) for k in range(count))))


async def run_load(port: int | list[int], pid: int | list[int], tables: list[tuple[str, list[str]]],
                   think: tuple[float, float], warmup: float, seconds: float,
                   meters: dict[str, Callable[[], float]] | None = None, profiling: bool = False,
                   spread: bool = True) -> dict[str, float]:
    """Play ``tables`` for ``warmup`` + ``seconds``; the figures of the measured window. With several ports (the
    processes of one site, bench/cluster.py) seat s of the k-th table plays through port k + s (so every table
    has people on every process; ``spread=False``: every seat through port k, the process that created the
    table and drives it, so nothing is forwarded or fanned out), and the CPU time is the sum over ``pid``.
    Each of ``meters`` (CPU seconds so far of something else: the database, Redis) gives ``cpu_NAME_ms``, its
    CPU time per action."""
    ports = [port] if isinstance(port, int) else port
    pids = [pid] if isinstance(pid, int) else pid
    recorder = Recorder(seats=4)
    stop = asyncio.Event()
    rng = random.Random(12)

    def through(k: int, seat: int) -> int:
        return ports[(k + (seat if spread else 0)) % len(ports)]

    tasks = [asyncio.create_task(player(f"ws://127.0.0.1:{through(k, seat)}/ws/tables/{table}", table,
                                        token, seat, think, recorder, stop, random.Random(rng.random())))
             for k, (table, tokens) in enumerate(tables) for seat, token in enumerate(tokens)]
    # Every client connected and welcomed before the warm-up starts (on a busy machine 800 handshakes take a
    # while; a client still connecting is no load).
    deadline = time.monotonic() + 120
    while recorder.connected < len(tasks) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    await asyncio.sleep(warmup)
    # The generator's own collector pauses would be counted as the server's latency: none while measuring.
    gc.collect()
    gc.freeze()
    gc.disable()
    # That collection held this process up for a moment (8,000 clients' objects at 2,000 tables): the updates
    # that came meanwhile are read before the window opens, so its first actions do not wait behind them.
    await asyncio.sleep(1.0)
    recorder.measuring, recorder.since = True, time.perf_counter()
    meters = meters or {}
    cpu0, t0, own0 = sum(map(cpu_seconds, pids)), time.perf_counter(), time.process_time()
    other0 = {name: meter() for name, meter in meters.items()}
    threads0, woken0 = threads_cpu(pids), wakeups(pids)
    wait0 = sum(map(runnable_wait, pids)), runnable_wait(os.getpid())
    if profiling:  # the server's profile covers the measured window only (rummoli.server.run)
        for one in pids:
            os.kill(one, signal.SIGUSR1)
    await asyncio.sleep(seconds)
    if profiling:
        for one in pids:
            os.kill(one, signal.SIGUSR2)
    recorder.measuring = False
    cpu1, t1, own1 = sum(map(cpu_seconds, pids)), time.perf_counter(), time.process_time()
    other1 = {name: meter() for name, meter in meters.items()}
    threads1, woken1 = threads_cpu(pids), wakeups(pids)
    wait1 = sum(map(runnable_wait, pids)), runnable_wait(os.getpid())
    alive = sum(not t.done() for t in tasks)  # players still connected at the window's end
    gc.enable()
    gc.unfreeze()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(recorder.latencies)
    served = len(lat)
    elapsed = t1 - t0
    return {
        "offered": recorder.sent / elapsed, "served": served / elapsed,
        "p50": statistics.median(lat) * 1000 if lat else float("nan"),
        "p99": lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000 if lat else float("nan"),
        "max": lat[-1] * 1000 if lat else float("nan"),
        "cpu_per_action_ms": (cpu1 - cpu0) / max(1, served) * 1000, "cpu_share": (cpu1 - cpu0) / elapsed,
        "loop_ms": (threads1[0] - threads0[0]) / max(1, served) * 1000,
        "server_wait": (wait1[0] - wait0[0]) / elapsed, "generator_wait": (wait1[1] - wait0[1]) / elapsed,
        "threads_ms": (threads1[1] - threads0[1]) / max(1, served) * 1000,
        "wakeups": (woken1 - woken0) / max(1, served),
        "errors": recorder.errors, "clients": alive, "error_codes": recorder.error_codes,  # type: ignore[dict-item]
        "generator_share": (own1 - own0) / elapsed,
        **{f"cpu_{name}_ms": (other1[name] - other0[name]) / max(1, served) * 1000 for name in meters},
    }


def run_fast(work: Coroutine[Any, Any, T]) -> T:
    """Run the generator on uvloop (as the server runs) where it is installed: its own loop's delays are
    counted in every latency it measures."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    result: T = uvloop.run(work)
    return result


def engine_baseline(ruleset: str, actions: int = 3000) -> float:
    """CPU ms per action for the engine alone: act, then each of 4 seats' new events and view (JSON)."""
    from rummoli.table import Seat, Table

    table = Table(ruleset, [Seat(n) for n in "ABCD"], chips=100000, seed="bench")
    start = time.process_time()
    for seq, _mark in random_actions(table, random.Random(5), actions):
        for s in range(4):
            json.dumps({"events": table.events_since(seq, s), "view": table.view(s)})
    return (time.process_time() - start) / actions * 1000


def random_actions(table: Any, rng: random.Random, actions: int) -> Iterator[tuple[int, int]]:
    """Play ``actions`` random legal actions at ``table`` (a new hand whenever one ends); after each, yield the
    seq it was chosen at and the journal's length before it."""
    done = 0
    while done < actions:
        if table.hand_over:
            table.next_hand()
            continue
        seat, seq, mark = table.to_act()[0], table.seq, len(table.journal)
        table.act(seat, choose(table.view(seat), rng), seq=seq)
        done += 1
        yield seq, mark


class ServerProcess:
    """``rummoli serve`` on a free port (or ``port``) with ``args`` and ``env`` added (bench/cluster.py starts
    several on PostgreSQL and Redis); its log in ``data``/server.log."""

    def __init__(self, data: Path, profile: Path | None, *args: str, env: dict[str, str] | None = None,
                 port: int | None = None) -> None:
        self.data, self.args = data, args
        self.port = port or free_port()
        # every scripted client comes from 127.0.0.1: no per-address limit here; forced plays inside the actions
        # as before the tables had a pace (an environment variable, which a server older than it ignores)
        self.env = {**os.environ, "RUMMOLI_MAX_CONNECTIONS_PER_IP": "0", "RUMMOLI_MAX_OPEN_PER_IP": "0",
                    "RUMMOLI_TABLE_RATE": "100000", "RUMMOLI_REQUEST_RATE": "100000", "RUMMOLI_MAX_WAITING_PER_IP": "0",
                    "RUMMOLI_PLAY_PACE": "0", **(env or {})}
        if profile is not None:
            self.env["RUMMOLI_PROFILE"] = str(profile)
        self.start()

    def start(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        log = (self.data / "server.log").open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rummoli.cli", "serve", "--port", str(self.port), "--data", str(self.data),
             "--hand-pause", "1", "--bot-workers", "1", *self.args], stdout=subprocess.DEVNULL, stderr=log,
            env=self.env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped at start: see {self.data / 'server.log'}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """``kill -9``."""
        self.proc.kill()
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def show(label: str, r: dict[str, float], baseline: float) -> None:
    codes = r.get("error_codes") or {}
    kinds = f" ({', '.join(f'{k} {v}' for k, v in sorted(codes.items()))})" if codes else ""  # type: ignore[attr-defined]
    print(f"{label:>14}  offered {r['offered']:6.1f}/s  served {r['served']:6.1f}/s  "
          f"p50 {r['p50']:6.1f} ms  p99 {r['p99']:6.1f} ms  max {r['max']:6.0f} ms  "
          f"server CPU {r['cpu_per_action_ms']:.2f} ms/action = {r['cpu_per_action_ms'] / baseline:.1f}x engine "
          f"(event loop {r['loop_ms']:.2f}, other threads {r['threads_ms']:.2f}; {r['cpu_share'] * 100:.0f}% of a "
          f"core; load generator {r['generator_share'] * 100:.0f}%; {r['wakeups']:.1f} wake-ups/action)  "
          f"errors {r['errors']:.0f}"
          f"{kinds}  "
          f"clients connected to the end {r['clients']:.0f}  "
          f"waiting for a CPU: server loop {r['server_wait'] * 100:.0f}%, generator {r['generator_wait'] * 100:.0f}% "
          f"of the time", flush=True)


def areas(profile: Path) -> list[tuple[str, float]]:
    """The server's own time (tottime) by area, from a cProfile dump."""
    import pstats

    stats = pstats.Stats(str(profile))
    groups = {"engine (rules, views, events)": ("rummoli/stops", "rummoli/rummy", "rummoli/table", "rummoli/evening",
                                                "rummoli/cards", "rummoli/poker", "rummoli/bots"),
              "store (SQLAlchemy, SQLite)": ("sqlalchemy", "sqlite3", "rummoli/server/storage"),
              "JSON": ("json/",), "websockets framing and sockets": ("websockets", "uvicorn", "ssl", "socket"),
              "asyncio and threads": ("asyncio", "threading", "concurrent", "selectors", "queue"),
              "server (tables, api)": ("rummoli/server",), "HTTP framework": ("starlette", "fastapi",
                                                                                         "pydantic", "anyio")}
    totals: dict[str, float] = dict.fromkeys(groups, 0.0)
    totals["other"] = 0.0
    for (filename, _line, name), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if "poll" in name or name in ("<method 'acquire' of '_thread.lock' objects>",):
            continue  # waiting for something to do, not work
        for area, marks in groups.items():
            if any(m in filename for m in marks):
                totals[area] += tottime
                break
        else:
            totals["other"] += tottime
    whole = sum(totals.values()) or 1.0
    return sorted(((a, t / whole) for a, t in totals.items()), key=lambda x: -x[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 1.5))
    parser.add_argument("--ruleset", default="rummoli")
    parser.add_argument("--sweep", action="store_true", help="also at shorter think times (see --scales)")
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 0.5, 0.35, 0.25, 0.18, 0.125],
                        help="with --sweep: the think times' multipliers, longest first")
    parser.add_argument("--compare", metavar="SRC", help="also run the same load, in turn, against the server "
                        "of another checkout's src folder (a baseline in the same run)")
    parser.add_argument("--profile", action="store_true", help="profile the server and show where its time goes")
    args = parser.parse_args()

    baseline = engine_baseline(args.ruleset)
    print(f"engine alone (baseline): {baseline:.3f} ms CPU per action incl. 4 seats' events and views, "
          f"{args.ruleset}", flush=True)
    runs: list[tuple[str, str | None]] = [("this server", None)]
    if args.compare:
        runs.append((f"--compare {Path(args.compare).parent.name}", args.compare))
    profile = Path(tempfile.gettempdir()) / "rummoli-bench-server.prof" if args.profile else None
    servers: list[ServerProcess] = []
    tables: list[list[tuple[str, list[str]]]] = []
    best: dict[str, float | None] = {}
    try:
        for label, src in runs:
            env = None
            if src is not None:  # another checkout's server
                env = {"PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
            servers.append(ServerProcess(Path(tempfile.mkdtemp(prefix="rummoli-bench-")),
                                         profile if src is None else None, env=env))
            started = time.perf_counter()
            tables.append(asyncio.run(open_tables(f"http://127.0.0.1:{servers[-1].port}", args.tables,
                                                  args.ruleset)))
            print(f"{label}: {args.tables} tables x 4 players opened in {time.perf_counter() - started:.1f} s",
                  flush=True)
            best[label] = None
        for scale in args.scales if args.sweep else [1.0]:
            think = (args.think[0] * scale, args.think[1] * scale)
            for (label, src), server, opened in zip(runs, servers, tables, strict=True):
                if profile is not None and src is None:
                    profile.unlink(missing_ok=True)
                result = run_fast(run_load(server.port, server.proc.pid, opened, think, args.warmup,
                                              args.seconds, profiling=profile is not None and src is None))
                show(f"think {think[0]:.2f}-{think[1]:.2f}s" + ("" if len(runs) == 1 else f" {label}"), result,
                     baseline)
                if result["p99"] < 100:
                    best[label] = max(best[label] or 0.0, result["offered"])
        if args.sweep:
            for label, found in best.items():
                print(f"{label}: highest offered load with p99 < 100 ms: "
                      + (f"{found:.0f} actions/s" if found else "none"))
    finally:
        for server in servers:
            server.stop()
    if profile is not None and profile.exists():
        print("where the server's event loop spends its CPU time (cProfile by thread CPU time, own time by area):")
        for area, share in areas(profile):
            print(f"  {share * 100:5.1f}%  {area}")
        print(f"  (the event loop's thread only; the store's writer thread is the 'other threads' CPU above. "
              f"Profile: {profile})")
    for server in servers:
        log = (server.data / "server.log").read_text(errors="replace").strip()
        if log:
            print("a server's log (last lines):\n  " + "\n  ".join(log.splitlines()[-10:]))
        shutil.rmtree(server.data, ignore_errors=True)


if __name__ == "__main__":
    main()
