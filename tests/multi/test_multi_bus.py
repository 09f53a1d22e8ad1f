"""The bus between server processes (rummoli.server.cluster.bus and its Redis connections,
rummoli.server.cluster.redisline) on a real Redis: what the processes rely on, seen from two buses in one event loop.

* a table's changes reach its follower complete and in order, however many are published at once, with the
  update texts that travel after their JSON exactly as they were given;
* a command is answered, and one delivered twice is run once; an action's answer can be the change it made;
* a Redis that asks for a password is logged into from the URL, and a wrong password is one clear failure;
* after Redis is killed and started again, the bus says so and delivers again.
"""

from __future__ import annotations

import asyncio
import secrets
import subprocess
from pathlib import Path
from typing import Any

import pytest
from multi_helpers import MACHINE_REDIS, PrivateRedis, forget_prefix, free_port, missing, need_program, redis_answers

from rummoli.server.cluster.bus import Bus
from rummoli.server.cluster.redisline import Address, Commands, RedisError, connect


class Process:
    """A bus and what reached its handlers."""

    def __init__(self, url: str, prefix: str, name: str) -> None:
        self.changes: list[dict[str, Any]] = []
        self.commands: list[dict[str, Any]] = []
        self.reconnects = 0
        self.bus = Bus(url, prefix, name, self.on_table, self.on_command, self.on_reconnect)

    async def on_table(self, message: dict[str, Any]) -> None:
        await asyncio.sleep(0)  # a handler that yields, as the real ones do
        self.changes.append(message)

    async def on_command(self, message: dict[str, Any]) -> None:
        self.commands.append(message)
        if message["op"] == "act":  # done: the table's change is the answer (as Forwarding.on_command does)
            self.bus.publish("T1", {"kind": "change", "n": 0, "answers": message["ask"]})
            return
        self.bus.answer(message, {"result": {"doubled": 2 * int(message["args"]["n"])}})

    async def on_reconnect(self) -> None:
        self.reconnects += 1


async def until(check: Any, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.fixture
def machine_redis() -> str:
    if not redis_answers(MACHINE_REDIS):
        missing(f"no Redis at {MACHINE_REDIS}")
    return MACHINE_REDIS


@pytest.mark.asyncio
async def test_changes_arrive_complete_and_in_order_and_commands_are_answered_once(machine_redis: str) -> None:
    prefix = "rummoli-test-" + secrets.token_hex(6)
    owner, follower = Process(machine_redis, prefix, "a"), Process(machine_redis, prefix, "b")
    try:
        owner.bus.start()
        follower.bus.start()
        await until(lambda: owner.bus.up and follower.bus.up)
        await follower.bus.follow("T1")
        await follower.bus.follow("T2")
        for n in range(600):  # queued faster than one round trip each: they go out in batches
            owner.bus.publish("T1" if n % 3 else "T2", {"kind": "change", "n": n})
        await until(lambda: len(follower.changes) == 600)
        assert [m["n"] for m in follower.changes if m["n"] % 3] == [n for n in range(600) if n % 3]
        assert [m["n"] for m in follower.changes if not m["n"] % 3] == [n for n in range(600) if not n % 3]

        answer = await follower.bus.request("a", {"kind": "cmd", "op": "x", "args": {"n": 21}}, timeout=5)
        assert answer["result"] == {"doubled": 42}
        # the same command delivered again (a publish retried after a lost reply) is not run again
        again = {"kind": "cmd", "op": "x", "args": {"n": 21}, "ask": owner.commands[0]["ask"], "from": "b"}
        owner.bus.tell("a", again)
        owner.bus.tell("a", {"kind": "cmd", "op": "x", "args": {"n": 1}, "ask": "other", "from": "b"})
        await until(lambda: len(owner.commands) == 2)
        await asyncio.sleep(0.2)
        assert [c["args"]["n"] for c in owner.commands] == [21, 1]
        owner.commands.clear()

        # update texts after the change's JSON: the same texts come out, quotes, accents and all; one with a
        # raw line break (compact JSON never has one) goes inside the JSON instead
        texts = {"0": '{"type":"update","name":"Zoë \\"Z\\"","n":1}', "s": "{}"}
        owner.bus.publish("T1", {"kind": "change", "n": 601}, texts)
        owner.bus.publish("T1", {"kind": "change", "n": 602}, {"1": "line\nbreak"})
        await until(lambda: follower.changes[-1]["n"] == 602)
        assert follower.changes[-2]["texts"] == texts
        assert follower.changes[-1]["texts"] == {"1": "line\nbreak"}

        answer = await follower.bus.request("a", {"kind": "cmd", "op": "act", "args": {}}, timeout=5)
        assert answer["result"] == {}
        await until(lambda: follower.changes[-1].get("answers") == answer["ask"])

        follower.bus.unfollow("T2")
        await asyncio.sleep(0.2)
        owner.bus.publish("T2", {"kind": "change", "n": -1})
        owner.bus.publish("T1", {"kind": "change", "n": -2})
        await until(lambda: follower.changes[-1]["n"] == -2)
        assert all(m["n"] != -1 for m in follower.changes)
    finally:
        await owner.bus.close()
        await follower.bus.close()
        forget_prefix(machine_redis, prefix)


@pytest.mark.asyncio
async def test_a_redis_with_a_password(tmp_path: Path) -> None:
    binary = need_program("redis-server")
    port = free_port()
    server = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                               "--dir", str(tmp_path), "--requirepass", "s3cret pass"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                connection = await connect(Address.parse(f"redis://:s3cret%20pass@127.0.0.1:{port}/0"), Commands, 1)
                break
            except OSError:
                await asyncio.sleep(0.05)
        else:
            raise AssertionError("redis-server did not start")
        assert await connection.send(("PUBLISH", "x", "y")) == [0]
        connection.close()
        with pytest.raises(RedisError, match="refused the login"):
            await connect(Address.parse(f"redis://:wrong@127.0.0.1:{port}/0"), Commands, 1)
        with pytest.raises(ValueError, match="starts with redis://"):
            Address.parse("unix:///tmp/redis.sock")
    finally:
        server.kill()
        server.wait(10)


@pytest.mark.asyncio
async def test_the_bus_comes_back_after_redis_restarts(tmp_path: Path) -> None:
    redis_server = PrivateRedis(tmp_path)
    owner, follower = Process(redis_server.url, "p", "a"), Process(redis_server.url, "p", "b")
    try:
        owner.bus.start()
        follower.bus.start()
        await until(lambda: owner.bus.up and follower.bus.up)
        await follower.bus.follow("T")
        owner.bus.publish("T", {"kind": "change", "n": 1})
        await until(lambda: len(follower.changes) == 1)
        redis_server.stop()
        await until(lambda: not follower.bus.up)
        owner.bus.publish("T", {"kind": "change", "n": 2})  # nobody can hear it; it must not break anything
        await until(lambda: not owner.bus.up)
        redis_server.start()
        await until(lambda: owner.bus.up and follower.bus.up, 15)
        assert follower.reconnects >= 2  # the first connection, and the one after the restart
        owner.bus.publish("T", {"kind": "change", "n": 3})
        await until(lambda: follower.changes[-1]["n"] == 3)
    finally:
        await owner.bus.close()
        await follower.bus.close()
        redis_server.stop()


def test_a_redis_url_the_bus_cannot_use_is_one_line_at_start(tmp_path: Path) -> None:
    import sys

    done = subprocess.run([sys.executable, "-m", "rummoli.cli", "serve", "--data", str(tmp_path), "--port", "8000",
                           "--redis-url", "unix:///tmp/redis.sock"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "rummoli serve: --redis-url: a Redis URL starts with redis:// or rediss:// (TLS), not 'unix:///tmp/redis.sock'"]
    assert "Traceback" not in done.stdout + done.stderr
