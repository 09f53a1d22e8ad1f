"""Several ``rummoli serve`` processes on one PostgreSQL database and one Redis (issue 14), for tests/multi.

* :class:`Database`: a fresh database with a random name on a PostgreSQL server (the machine's, or a private
  one), dropped after the test.
* :class:`PrivatePostgres`, :class:`PrivateRedis`: servers of the test's own on free ports, for the tests that
  stop or restart them, so that tests running beside them (``pytest -n auto``) never see it.
* :class:`Node`: one ``rummoli serve`` process (the ``Server`` of tests/server/server_helpers.py) given the
  database, the Redis, the test's own Redis prefix, a short lease and a name; :class:`Cluster`: the nodes of one
  test, and who owns a table (the ``tables.owner`` column).
* :class:`ClusterParty`: the people of one table spread over the nodes, whose clients reconnect to a live node
  when theirs dies; :class:`Load`: a table played in the background as fast as the servers answer.

A missing PostgreSQL, Redis or binary fails a test, saying what is missing (it never skips).
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NoReturn

import psycopg
import pytest
import redis
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import HTTP, Client, Party, Server, choose, free_port, take_seat

PG_BIN = Path("/usr/lib/postgresql/15/bin")
MACHINE_PG_PORT = 5432
MACHINE_REDIS = "redis://127.0.0.1:6379/0"
LEASE = 3.0  # seconds, the default: a dead node is seen at once (its liveness lock), a stopped one after this


def missing(what: str) -> NoReturn:
    """A service or program the test needs is not there: the test fails (never skips), saying what is missing."""
    pytest.fail(f"{what} (.ci/run starts the machine's PostgreSQL and Redis)")


def need_program(path: str) -> str:
    found = shutil.which(path)
    if found is None:
        missing(f"no {path} on this machine")
    return found


# ------------------------------------------------------------------------------------------ PostgreSQL


class Database:
    """A fresh database named ``rummoli_test_<random>`` on the PostgreSQL at 127.0.0.1:``port`` (user postgres,
    trust authentication), dropped by :meth:`drop`."""

    def __init__(self, port: int = MACHINE_PG_PORT) -> None:
        self.port = port
        self.name = "rummoli_test_" + secrets.token_hex(6)
        try:
            with psycopg.connect(self.dsn("postgres"), autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{self.name}"')
        except psycopg.OperationalError as error:
            missing(f"no PostgreSQL at 127.0.0.1:{port}: {str(error).strip().splitlines()[0]}")

    def dsn(self, name: str | None = None) -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={name or self.name} connect_timeout=5"

    @property
    def url(self) -> str:
        """What ``rummoli serve --database-url`` takes."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{self.name}"

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.dsn()) as connection:
            return list(connection.execute(sql, params).fetchall())

    def drop(self) -> None:
        with contextlib.suppress(psycopg.Error), psycopg.connect(self.dsn("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def run_as_postgres(*command: str) -> None:
    """A PostgreSQL program run as the postgres user (it refuses to run as root)."""
    runuser = need_program("runuser") if os.getuid() == 0 else None
    argv = [runuser, "-u", "postgres", "--", *command] if runuser else list(command)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")


class PrivatePostgres:
    """A PostgreSQL server of the test's own (initdb, pg_ctl) on a free port, its socket in its own folder.

    The folder is made under the system's temporary folder, not in pytest's ``tmp_path``: the postgres user
    cannot enter root's pytest folders (mode 0700). :meth:`close` stops it and removes the folder."""

    def __init__(self) -> None:
        if not (PG_BIN / "initdb").exists():
            missing(f"no PostgreSQL programs in {PG_BIN} (Debian's postgresql-15)")
        self.root = Path(tempfile.mkdtemp(prefix="rummoli-pg-"))
        if os.getuid() == 0:
            shutil.chown(self.root, "postgres")
        self.data = self.root / "data"
        self.port = free_port()
        run_as_postgres(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "-N",
                        "-E", "UTF8")
        self.start()

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off")
        run_as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"),
                        "-w", "-t", "30", "start")

    def stop(self) -> None:
        """A fast shutdown: every connection is cut, as when the database goes away."""
        run_as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "30", "stop")

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


# ------------------------------------------------------------------------------------------ Redis


def redis_answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def forget_prefix(url: str, prefix: str) -> None:
    """Remove every key a test's processes left under its prefix on a shared Redis."""
    with contextlib.suppress(redis.RedisError):
        client = redis.Redis.from_url(url, socket_timeout=2)
        for key in client.scan_iter(match=f"{prefix}*", count=500):
            client.delete(key)


class PrivateRedis:
    """A Redis server of the test's own on a free port (nothing kept on disk), to stop and start mid-hand."""

    def __init__(self, root: Path) -> None:
        self.binary = need_program("redis-server")
        self.root = root
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = (self.root / "redis.log").open("ab")
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.root)], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not redis_answers(self.url):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def stop(self) -> None:
        """``kill -9``: Redis goes away at once, with whatever it held."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


# ------------------------------------------------------------------------------------------ server processes


class Node(Server):
    """One of several ``rummoli serve`` processes on the same database and Redis."""

    start_seconds = 60.0  # several start at once, each migrating and connecting to Redis, on a busy machine

    def __init__(self, data: Path, name: str, database_url: str, redis_url: str | None, prefix: str,
                 lease: float = LEASE, *args: str) -> None:
        data.mkdir(parents=True, exist_ok=True)
        given = ["--database-url", database_url, *(["--redis-url", redis_url] if redis_url else []), *args]
        # Every test client comes from 127.0.0.1, as behind a proxy: no limit of websockets per address.
        super().__init__(data, *given, RUMMOLI_REDIS_PREFIX=prefix, RUMMOLI_LEASE_SECONDS=str(lease),
                         RUMMOLI_PROCESS_NAME=name, RUMMOLI_MAX_CONNECTIONS_PER_IP="0",
                         RUMMOLI_MAX_OPEN_PER_IP="0")
        self.name = name

    def start(self) -> Server:
        self.ready = False
        super().start()
        self.ready = True
        return self

    def kill(self) -> None:
        self.ready, self.killed = False, True  # its bot workers, orphaned, may write tracebacks to its log
        super().kill()

    def alive(self) -> bool:
        """Started, answering, and not killed since."""
        return getattr(self, "ready", False) and self.proc is not None and self.proc.poll() is None

    def pause(self) -> None:
        """SIGSTOP: the process stands still, its sockets open, until :meth:`resume`."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self.alive():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.resume()
        super().stop()

    def health(self) -> tuple[int, dict[str, Any]]:
        answer = HTTP.get(f"{self.url}/healthz", timeout=5)
        return answer.status_code, answer.json()


class Cluster:
    """``count`` nodes of one test, on one database and one Redis under the test's own prefix."""

    def __init__(self, root: Path, count: int, database: Database, redis_url: str | None, prefix: str,
                 lease: float = LEASE, args: tuple[str, ...] = ()) -> None:
        self.database = database
        self.nodes = [Node(root / f"node{k}", f"node{k}", database.url, redis_url, prefix, lease, *args)
                      for k in range(count)]

    def start(self) -> Cluster:
        with ThreadPoolExecutor(len(self.nodes)) as pool:
            list(pool.map(Node.start, self.nodes))
        return self

    def stop(self) -> None:
        with ThreadPoolExecutor(len(self.nodes)) as pool:
            list(pool.map(Node.stop, self.nodes))

    def live(self) -> list[Node]:
        return [node for node in self.nodes if node.alive()]

    def node(self, name: str) -> Node:
        return next(node for node in self.nodes if node.name == name)

    def owner(self, table_id: str) -> tuple[str | None, int, float]:
        """(owner, fence, lease_until) of a table, as the database has them."""
        rows = self.database.query("SELECT owner, fence, lease_until FROM tables WHERE id = %s", table_id)
        assert rows, f"no table {table_id} in the database"
        owner, fence, until = rows[0]
        return owner, int(fence or 0), float(until or 0)

    def wait_owner(self, table_id: str, other_than: str | None = None, timeout: float = 15) -> Node:
        """The live node that holds the table's lease (another than ``other_than``), once there is one."""
        deadline = time.monotonic() + timeout
        while True:
            owner, _fence, until = self.owner(table_id)
            if owner is not None and owner != other_than and until > time.time():
                node = self.node(owner)
                if node.alive():
                    return node
            if time.monotonic() > deadline:
                raise TimeoutError(f"no live owner of {table_id} in {timeout} s (owner {owner!r}); "
                                   f"logs:\n{self.logs()}")
            time.sleep(0.05)

    def logs(self, lines: int = 30) -> str:
        return "\n".join(f"--- {node.name}\n" + "\n".join(node.log().splitlines()[-lines:]) for node in self.nodes)


def connect(nodes: list[Node], table_id: str, token: str | None, since: int, timeout: float = 15) -> tuple[
        Node, Client]:
    """A client of the first node in ``nodes`` that answers (trying them in turn until ``timeout``)."""
    deadline = time.monotonic() + timeout
    while True:
        for node in nodes:
            if not node.alive():
                continue
            try:
                return node, node.client(table_id, token, since=since)
            except (OSError, ConnectionClosed, TimeoutError, KeyError):
                continue
        if time.monotonic() > deadline:
            raise TimeoutError(f"no node let a client of {table_id} in within {timeout} s")
        time.sleep(0.1)


def close_all(clients: list[Client]) -> None:
    """Close clients, each after reading what it was sent: one whose unread messages fill its queue stops
    reading the socket, so it would wait its whole close timeout for the server's close frame."""
    for client in clients:
        with contextlib.suppress(Exception):
            client.drain(0)
        client.close()


def gapless(client: Client) -> None:
    """The client saw every event of the table once, in order (its seq from 1 to the last)."""
    seqs = [event["seq"] for event in client.events]
    assert seqs == list(range(1, client.seq + 1)), f"seat {client.seat}: events {seqs}"


class ClusterParty(Party):
    """The people of one table spread over the cluster: the k-th person's client on node ``first + k``, the
    spectator on the next one; each client says hello with ``since`` 0, so it holds every event from the first.

    :meth:`recover` moves the clients of a dead node to live ones (hello with their token and the last ``seq``
    they saw), keeping what they had, so :func:`gapless` checks a client across its reconnections."""

    def __init__(self, cluster: Cluster, table_id: str, tokens: dict[int, str], first: int = 0) -> None:
        self.cluster, self.first = cluster, first
        self.where: dict[int | None, Node] = {}
        self.listeners: dict[str, Client] = {}  # other clients a test wants shown when it fails
        super().__init__(cluster.nodes[first % len(cluster.nodes)], table_id, tokens)

    def connect(self) -> None:
        nodes, count = self.cluster.nodes, len(self.cluster.nodes)
        self.seats = {}
        for k, (seat, token) in enumerate(sorted(self.tokens.items())):
            self.where[seat], self.seats[seat] = connect(
                [nodes[(self.first + k + j) % count] for j in range(count)], self.table_id, token, 0)
        self.where[None], self.watcher = connect(
            [nodes[(self.first + len(self.tokens) + j) % count] for j in range(count)], self.table_id, None, 0)

    def clients(self) -> dict[int | None, Client]:
        return {**self.seats, None: self.watcher}

    def close(self) -> None:
        close_all(list(self.clients().values()))

    def settle(self, after: int = -1, timeout: float = 30) -> None:
        try:
            super().settle(after, timeout)
        except TimeoutError as error:
            raise TimeoutError(f"{error}\n{self.state()}") from None

    def state(self) -> str:
        """Where each client stands, and the database, for a failure's message."""
        stored = self.cluster.database.query("SELECT seq FROM tables WHERE id = %s", self.table_id)
        lines = [f"table {self.table_id}: owner, fence, lease_until {self.cluster.owner(self.table_id)}; "
                 f"seq in the database {stored}"]
        shown: dict[str, Client] = {f"seat {k} on {self.where[k].name}": c for k, c in self.clients().items()}
        for name, client in [*shown.items(), *self.listeners.items()]:
            view = client.view
            lines.append(f"  {name}: seq {client.seq}, to_act {view.get('to_act')}, "
                         f"phase {(view.get('hand') or {}).get('phase')}, errors {client.errors[-2:]}, last messages "
                         f"{[(m['type'], m.get('seq')) for m in client.messages[-4:]]}")
        for node in self.cluster.live():
            with contextlib.suppress(Exception):
                lines.append(f"  {node.name} /healthz: {node.health()}")
        return "\n".join(lines) + "\n" + self.cluster.logs(15)

    def recover(self) -> int:
        """Reconnect the clients whose node is down; the number reconnected."""
        moved = 0
        for key, client in self.clients().items():
            if self.where[key].alive():
                continue
            with contextlib.suppress(Exception):
                client.close()
            live = self.cluster.live()
            node, again = connect(live, self.table_id, None if key is None else self.tokens[key], client.seq)
            again.events[:0] = client.events
            again.messages[:0] = client.messages
            self.where[key] = node
            if key is None:
                self.watcher = again
            else:
                self.seats[key] = again
            moved += 1
        return moved

    def histories(self) -> dict[Any, Any]:
        """Every event each seat (and a spectator) may see, asked of every live node: all must agree."""
        first = None
        for node in self.cluster.live():
            self.server = node
            found = super().histories()
            if first is None:
                first = found
            assert found == first, f"{node.name} tells another history of {self.table_id}"
        assert first is not None
        return first

    def check_gapless(self) -> None:
        for client in self.clients().values():
            gapless(client)


def play_out(party: Party, listeners: list[Client], rng: random.Random, limit: int = 2000) -> int:
    """The people decide at random (``listeners`` read as they go) until the evening is over; the decisions made."""
    after, made = -1, 0
    while made < limit:
        party.settle(after=after)
        for client in listeners:
            while client.poll() is not None:
                pass
        if party.watcher.view.get("over"):
            return made
        mover = party.mover()
        assert mover is not None
        after = mover.seq
        decide(mover, choose(mover.view, rng, eager=True))
        made += 1
    raise AssertionError(f"the evening did not end in {limit} decisions")


def decide(client: Client, action: dict[str, Any], seq: int | None = None, patient: bool = True) -> dict[
        str, Any]:
    """Send a decision and wait for its answer: the update past ``seq`` (default: the client's), or an error.
    Scripted people decide faster than the server lets one connection send (10 messages a second): a
    ``rate_limited`` answer is waited out and the same decision sent again; so is an ``unavailable`` one when
    ``patient`` (the table changed owner: on a loaded machine a lease may run out without a kill)."""
    seq = client.seq if seq is None else seq
    deadline = time.monotonic() + 15
    while True:
        client.act(action, seq)
        answer = client.until(lambda m: m["type"] == "error" or (m["type"] == "update" and m["seq"] > seq))
        retry = ("rate_limited", "unavailable") if patient else ("rate_limited",)
        if answer["type"] != "error" or answer["code"] not in retry or time.monotonic() > deadline:
            return answer
        time.sleep(0.3)


class Load(threading.Thread):
    """An unseeded table of four people spread over the nodes, played at random as fast as the servers answer:
    the load under which a test kills a node. Its clients reconnect when their node dies; :meth:`finish`
    stops it and checks that each saw every event once."""

    def __init__(self, cluster: Cluster, seed: int = 7) -> None:
        super().__init__(daemon=True)
        self.cluster, self.rng = cluster, random.Random(seed)
        nodes = cluster.nodes
        created = nodes[0].create(ruleset="rummoli", seats=[{}, {}, {}, {}], chips=100000, hands=200)
        self.table_id = created["id"]
        self.tokens = {0: created["token"]}
        for k in range(1, 4):
            joined = take_seat(nodes[k % len(nodes)], self.table_id, f"L{k}")
            self.tokens[joined["seat"]] = joined["token"]
        self.where: dict[int, Node] = {}
        self.clients: dict[int, Client] = {}
        for seat, token in self.tokens.items():
            self.where[seat], self.clients[seat] = connect(
                nodes[seat % len(nodes):] + nodes[:seat % len(nodes)], self.table_id, token, 0)
        self.halt = threading.Event()
        self.failure: BaseException | None = None
        self.acted = 0

    def run(self) -> None:
        sent: dict[int, int] = {}
        try:
            while not self.halt.is_set():
                idle = True
                for seat in list(self.clients):
                    client = self.clients[seat]
                    errors = len(client.errors)
                    try:
                        while client.poll() is not None:
                            idle = False
                        if len(client.errors) > errors:
                            sent.pop(seat, None)  # refused (a takeover under way, too fast): try again soon
                            time.sleep(0.2)
                        if client.my_turn() and sent.get(seat) != client.seq:
                            sent[seat] = client.seq
                            client.act(choose(client.view, self.rng))
                            self.acted += 1
                            idle = False
                    except (ConnectionClosed, OSError):
                        self.reconnect(seat)
                        sent.pop(seat, None)
                if idle:
                    time.sleep(0.02)
        except BaseException as error:  # handed to the test by finish()
            self.failure = error

    def reconnect(self, seat: int) -> None:
        old = self.clients[seat]
        with contextlib.suppress(Exception):
            old.close()
        self.where[seat], again = connect(self.cluster.live(), self.table_id, self.tokens[seat], old.seq, 30)
        again.events[:0] = old.events
        self.clients[seat] = again

    def finish(self) -> None:
        self.halt.set()
        self.join(30)
        if self.failure is not None:
            raise self.failure
        for seat, client in self.clients.items():
            if not self.where[seat].alive():
                self.reconnect(seat)
                client = self.clients[seat]
            client.drain(0.3)
            gapless(client)
            client.close()
        assert self.acted > 0
