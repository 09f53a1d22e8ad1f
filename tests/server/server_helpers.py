"""A real server for the tests: ``rummoli serve`` in its own process on a free loopback port, with a
temporary data folder (a real SQLite file), and clients that speak HTTP (httpx) and websockets to it."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
import zygote
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import rummoli

SRC = Path(rummoli.__file__).resolve().parents[1]

# One HTTP client for every request a test worker makes. ``httpx.get()`` builds a client per call, and with it a
# TLS context loaded from the CA bundle: about 25 ms of CPU even for an http:// address, paid on every poll of
# /healthz while a server starts and on every request, some tens of CPU seconds over the suite. Each request
# still opens a connection of its own, as before (no keep-alive): servers are killed and started again on the
# same port, and the limits tests count what one address has open. Safe to share between threads.
HTTP = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


#: Python's words for work an asyncio program dropped: a coroutine made and never run (a move planned and never
#: made), a task's error nobody read, a task still running when its loop was thrown away. Any of them in a server's
#: log is a fault, whatever the test was about (one was seen once in CI, in a test of something else).
LOG_FAULTS = ("was never awaited", "Task exception was never retrieved", "Task was destroyed but it is pending")


def log_faults(log: str) -> list[str]:
    """The lines of a server's log that hold one of :data:`LOG_FAULTS`."""
    return [line for line in log.splitlines() if any(fault in line for fault in LOG_FAULTS)]


class Server:
    """``rummoli serve`` as a child process; ``kill()`` is ``kill -9``, ``start()`` again restarts it on the
    same data folder and port."""

    start_seconds = 30.0  # how long start() waits for /healthz
    fork = True  # started by the worker's zygote (tests/server/zygote.py) where it can be; False: a fresh process

    def __init__(self, data: Path, *args: str, **env: str) -> None:
        self.data = data
        # No pace (tables play as fast as they can; tests/server/test_server_pace.py sets its own), and
        # scripted clients that create tables and ask far faster than people do: limits they do not reach
        # (tests/server/test_server_limits.py checks the defaults).
        self.args = ["--bot-pace", "0", "--play-pace", "0", "--hand-pause", "0", "--bot-workers", "1",
                     "--allow-seeds", "--table-rate", "1000", "--request-rate", "1000", "--max-waiting", "0", *args]
        self.env = env
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | zygote.Forked | None = None
        self.preexec: Callable[[], None] | None = None  # run in the server's process before it starts

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, table_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}"

    def start(self) -> Server:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
               **self.env}
        return self.launch([sys.executable, "-m", "rummoli.cli", "serve", "--port", str(self.port), "--data",
                            str(self.data), *self.args], env, self.start_seconds)

    def launch(self, argv: list[str], env: dict[str, str] | None = None, seconds: float = 30) -> Server:
        """Start ``argv`` (its output in server.log) and wait until ``/healthz`` answers 200 on our port."""
        path, given = self.data / "server.log", env or dict(os.environ)
        if self.fork and zygote.can_fork(argv, given, self.preexec):
            self.proc = zygote.ZYGOTE.spawn(argv, given, path)
        else:
            with path.open("ab") as log:
                self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env,
                                             preexec_fn=self.preexec)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{argv[0]} stopped at start:\n{self.log()}")
            try:
                if HTTP.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{argv[0]} did not answer in {seconds} s:\n{self.log()}")

    def log(self) -> str:
        path = self.data / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def children(self) -> list[int]:
        """The server's child processes (its bot workers)."""
        assert self.proc is not None
        out = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                out.append(int(stat.parent.name))
        return out

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        # The bot workers see their parent gone and end by themselves (tests/server/test_server_crash.py).

    def stop(self) -> None:
        """SIGTERM, and the server's log checked for what must never be in it (:data:`LOG_FAULTS`)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        faults = log_faults(self.log())
        assert not faults, f"the server's log ({self.data / 'server.log'}) holds: {faults[:3]}"

    # ------------------------------------------------------------------------------------------ HTTP
    def post(self, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return HTTP.post(self.url + path, json=body, headers=headers, timeout=10)

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return HTTP.get(self.url + path, headers=headers, timeout=10)

    def create(self, **body: Any) -> dict[str, Any]:
        body.setdefault("name", "Ann")
        answer = self.post("/api/tables", body)
        assert answer.status_code == 201, answer.text
        created: dict[str, Any] = answer.json()
        return created

    def client(self, table_id: str, token: str | None = None, since: int | None = None,
               origin: str | None = None) -> Client:
        return Client(self, table_id, token, since, origin)


class Client:
    """One websocket client: says hello, keeps the latest view and every event and message it received."""

    def __init__(self, server: Server, table_id: str, token: str | None, since: int | None = None,
                 origin: str | None = None) -> None:
        headers = {"Origin": origin} if origin else None
        self.ws: ClientConnection = connect(server.ws_url(table_id), additional_headers=headers,
                                           open_timeout=10).__enter__()
        self.messages: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.seq = 0
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if since is not None:
            hello["since"] = since
        with contextlib.suppress(ConnectionClosed):  # refused at once (an origin not allowed): read below all the same
            self.send(hello)
        self.welcome = self.recv(10)
        self.seat: int | None = self.welcome.get("seat")

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = orjson.loads(self.ws.recv(timeout))  # several times json's speed on a long view
        self.messages.append(message)
        kind = message["type"]
        if kind in ("welcome", "update"):
            self.events.extend(message["events"])
            self.view = message["view"]
            self.seq = message["seq"]
        elif kind == "error":
            self.errors.append(message)
        return message

    def poll(self) -> dict[str, Any] | None:
        try:
            return self.recv(0)
        except TimeoutError:
            return None

    def drain(self, quiet: float = 0.2) -> None:
        """Read until nothing has come for ``quiet`` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def until(self, test: Any, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such message in {timeout} s; last: {self.messages[-3:]}")
            message = self.recv(left)
            if test(message):
                return message

    def my_turn(self) -> bool:
        view = self.view
        return bool(view.get("hand")) and self.seat in view.get("to_act", []) and bool(
            view["hand"].get("legal_actions")) and not view.get("over")

    def act(self, action: dict[str, Any], seq: int | None = None) -> None:
        self.send({"type": "act", "seq": self.seq if seq is None else seq, "action": action})

    def close(self) -> None:
        self.ws.close()


def choose(view: dict[str, Any], rng: random.Random, eager: bool = False) -> dict[str, Any]:
    """A random legal action from a view (an amount drawn from its range); ``eager`` melds and lays off
    whenever it can, so a Rummy hand ends in fewer turns."""
    legal = view["hand"]["legal_actions"]
    keen = [a for a in legal if a["action"] in ("meld", "layoff", "knock")] if eager else []
    action = dict(rng.choice(keen or legal))
    if "min" in action:
        action["amount"] = rng.randint(action.pop("min"), action.pop("max"))
    return action


def play(clients: list[Client], rng: random.Random, until: Any, timeout: float = 60, eager: bool = False) -> None:
    """Let the people at ``clients`` answer their turns at random until ``until()`` holds."""
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            raise TimeoutError(f"play did not reach its goal in {timeout} s: {[c.view.get('to_act') for c in clients]}")
        moved = False
        for client in clients:
            while client.poll() is not None:
                pass
            if client.my_turn():
                seq = client.seq
                client.act(choose(client.view, rng, eager))
                client.until(lambda m, s=seq: m["type"] == "error" or (m["type"] == "update" and m["seq"] > s))
                moved = True
        if not moved:
            for client in clients:
                with contextlib.suppress(TimeoutError):
                    client.recv(0.05)


def play_until(client: Client, done: Callable[[Client], object], rng: random.Random, timeout: float = 60) -> None:
    """Let one client answer its turns at random until ``done(client)`` holds."""
    deadline = time.monotonic() + timeout
    while not done(client):
        assert time.monotonic() < deadline, f"not reached in {timeout} s: {client.view}"
        if client.my_turn():
            seq = client.seq
            client.act(choose(client.view, rng))
            client.until(lambda m, s=seq: m["type"] == "error" or (m["type"] == "update" and m["seq"] > s))
        else:
            client.recv(20)


# ------------------------------------------------------------------ the same table on two servers
# (tests/server/test_server_crash.py; tests/multi/ plays them on several processes)


class Party:
    """The people of one table on one server: a client per person's seat and a spectator."""

    def __init__(self, server: Server, table_id: str, tokens: dict[int, str]) -> None:
        self.server, self.table_id, self.tokens = server, table_id, tokens
        self.connect()

    def connect(self) -> None:
        self.seats = {seat: self.server.client(self.table_id, token) for seat, token in self.tokens.items()}
        self.watcher = self.server.client(self.table_id)

    def close(self) -> None:
        for client in [*self.seats.values(), self.watcher]:
            client.close()

    def settle(self, after: int = -1, timeout: float = 30) -> None:
        """Wait until the table has gone past ``after`` and waits for a person (or is over), and every client
        has seen all of it."""
        deadline = time.monotonic() + timeout

        def waiting() -> bool:
            view = self.watcher.view
            if self.watcher.seq <= after:
                return False
            if view.get("over"):
                return True
            people = [s for s in view.get("to_act", []) if view["seats"][s]["bot"] is None]
            return bool(people) and not view.get("hand_over")

        while True:
            while not waiting():
                self.watcher.recv(max(0.01, deadline - time.monotonic()))
            for client in self.seats.values():
                while client.seq < self.watcher.seq:
                    client.recv(max(0.01, deadline - time.monotonic()))
            # A person's forced play in a run is made by the server as a change of its own, a moment after the
            # watcher saw the table wait: only that seat is told it is coming, and its client may already be past.
            ahead = max([self.watcher.seq, *(c.seq for c in self.seats.values())])
            forced = any((c.view.get("hand") or {}).get("forced") for c in self.seats.values())
            if ahead == self.watcher.seq and not forced:
                return
            after = max(ahead - 1, self.watcher.seq if forced else -1)

    def views(self) -> dict[Any, Any]:
        out: dict[Any, Any] = {seat: c.view for seat, c in self.seats.items()}
        out[None] = self.watcher.view
        return out

    def histories(self) -> dict[Any, Any]:
        """Every event each seat (and a spectator) may see, from the first, as a client reconnecting gets them."""
        out: dict[Any, Any] = {}
        for seat, token in [*self.tokens.items(), (None, None)]:
            client = self.server.client(self.table_id, token, since=0)
            out[seat] = client.welcome["events"]
            assert [e["seq"] for e in out[seat]] == list(range(1, client.welcome["seq"] + 1))
            client.close()
        return out

    def mover(self) -> Client | None:
        view = self.watcher.view
        for seat in view.get("to_act", []):
            if seat in self.seats and view["seats"][seat]["bot"] is None:
                return self.seats[seat]
        return None


def take_seat(server: Server, table_id: str, name: str, seconds: float = 20) -> dict[str, Any]:
    """Take an open seat through ``server``; one that passes it on to another process may answer
    ``unavailable`` (503) while that one is slow to answer: it is asked again."""
    deadline = time.monotonic() + seconds
    while True:
        answer = server.post(f"/api/tables/{table_id}/seats", {"name": name})
        if answer.status_code != 503 or time.monotonic() > deadline:
            assert answer.status_code == 201, answer.text
            joined: dict[str, Any] = answer.json()
            return joined
        time.sleep(0.2)


def open_table(server: Server, ruleset: str, people: int, bots: list[str], seed: str | None, hands: int = 3,
               joiners: list[Server] | None = None,
               party: Callable[[str, dict[int, str]], Party] | None = None) -> Party:
    """A table created at ``server`` (its other people's seats taken through ``joiners`` in turn, default the
    same server), its people's clients made by ``party`` (default: a :class:`Party` on ``server``)."""
    seats: list[dict[str, Any]] = [{} for _ in range(people)] + [{"bot": b} for b in bots]
    created = server.create(ruleset=ruleset, seats=seats, seed=seed, hands=hands, chips=60)
    tokens = {0: created["token"]}
    for k in range(1, people):
        joined = take_seat(joiners[k % len(joiners)] if joiners else server, created["id"], f"P{k}")
        tokens[joined["seat"]] = joined["token"]
    made = party(created["id"], tokens) if party else Party(server, created["id"], tokens)
    made.settle()
    return made


STEER = {"auction": "keep", "poker": "swap"}  # the dealer's choice that leads to that phase


def step(pair: tuple[Party, Party], rng: random.Random, towards: str | None = None) -> bool:
    """One person's decision, made at both servers; False once the evening is over."""
    a, b = pair
    assert a.views() == b.views()
    mover = a.mover()
    if mover is None:
        return False
    action = choose(mover.view, rng)
    steer = [x for x in mover.view["hand"]["legal_actions"] if x["action"] == STEER.get(towards or "")]
    if steer:
        action = dict(steer[0])
    seat, seq = mover.seat, mover.seq
    for party in pair:
        party.seats[seat].act(action)  # type: ignore[index]
    for party in pair:
        party.settle(after=seq)
    return True


def drive_to(pair: tuple[Party, Party], rng: random.Random, phase: str | None, moves: int) -> None:
    """Play until the hand in play is in ``phase`` (or ``moves`` decisions, or the evening ends)."""
    for _ in range(moves):
        hand = pair[0].watcher.view.get("hand") or {}
        if phase is not None and hand.get("phase") == phase and not pair[0].watcher.view.get("hand_over"):
            return
        if not step(pair, rng, phase):
            return


def one_line(answer: Any, status: int) -> str:
    """The message of an error answer with ``status``: one line, not empty."""
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert "\n" not in error["message"] and error["message"]
    return str(error["message"])


def end_evening(server: Server, table: str, token: str, client: Client, rng: random.Random,
                seconds: float = 20) -> None:
    """The creator ends the evening, ``client`` plays its seat to the end, and the table says it is over."""
    assert server.post(f"/api/tables/{table}/end", token=token).status_code in (200, 202, 204)
    play_until(client, lambda c: bool(c.view.get("over")), rng)
    client.close()
    deadline = time.monotonic() + seconds
    while not server.get(f"/api/tables/{table}").json()["over"]:
        assert time.monotonic() < deadline, "the evening did not end"
        time.sleep(0.2)
