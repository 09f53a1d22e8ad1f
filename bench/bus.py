"""What the bus's own code costs per change, against the engine alone, in one run.

    python -m bench.bus [--changes N]

bench/cluster.py measures whole processes, where the machine's noise is larger than the bus's share. This
isolates the code that several processes add for each change, on real messages: a Rummoli table of four
is played with random legal actions, and after each action the owner's message for its followers is built
as the server builds it (the journal entries it added and the update texts of two seats, as in a table whose
people are spread over two processes), then

* **publish**: ``Bus.publish`` turns it into the line sent to Redis (the socket write itself is left out:
  the kernel's, not ours);
* **dispatch**: ``Bus._dispatch`` reads that line as a follower does and hands it to the follower's handler
  (here one that keeps it, like ``Copy.follow_change_now`` keeping a change in order).

Printed: microseconds per change for each, and the engine alone (bench.server's baseline: an action and
every seat's events and view) per action, with the ratio. Needs no Redis: nothing is sent.

With ``--wake``, also what it costs a process to be woken by a message at all: this process listens on a
channel of the Redis at ``--redis-url`` with the bus's own connection (rummoli.server.cluster.redisline.Listening)
and does nothing with what it gets, while another process publishes a change-sized message ``--rate`` times
a second; printed: this process's CPU time per message. bench/cluster.py counts the wake-ups per action of
each configuration; this is the price of one on the machine at hand, before any of our code runs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from typing import Any

from bench.server import engine_baseline, random_actions


def messages(changes: int) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """The owner's message and its texts after each of ``changes`` random actions of a table of four."""
    from rummoli.server.jsontext import dumps
    from rummoli.table import Seat, Table

    table = Table("rummoli", [Seat(n) for n in "ABCD"], chips=100000, seed="bench-bus")
    out = []
    for seq, mark in random_actions(table, random.Random(7), changes):
        texts = {str(s): dumps({"type": "update", "seq": table.seq, "events": table.events_since(seq, s),
                                "view": table.view(s), "clock": None}) for s in (1, 3)}
        texts["journal"] = dumps(table.journal[mark:])  # as Cluster.publish_change sends it
        out.append(({"kind": "change", "table": "t" * 22, "owner": "p0", "fence": 3, "at": mark,
                     "entries": len(table.journal) - mark, "seq": table.seq, "status": "playing", "since": seq,
                     "clock": None}, texts))
    return out


async def bus_costs(changes: int) -> tuple[float, float, int]:
    from rummoli.server.cluster.bus import Bus

    kept: list[dict[str, Any]] = []

    async def nothing(_message: dict[str, Any]) -> None:
        return None

    def keep(message: dict[str, Any]) -> bool:
        kept.append(message)
        return True

    bus = Bus("redis://127.0.0.1:6379/0", "bench", "p1", nothing, nothing, lambda: nothing({}), keep)
    bus.up = True  # as when connected; publish only queues, and the queue is taken before it is sent
    made = messages(changes)
    channel = bus.table_channel("t" * 22)
    lines: list[bytes] = []
    start = time.process_time()
    for message, texts in made:
        bus.publish("t" * 22, message, texts)
        lines.append(bus._outbox.pop()[2].encode())
    publish = (time.process_time() - start) / changes * 1e6
    start = time.process_time()
    for line in lines:
        bus._dispatch(channel, line)
    dispatch = (time.process_time() - start) / changes * 1e6
    if len(kept) != changes or kept[-1]["seq"] != made[-1][0]["seq"] or set(kept[-1]["texts"]) != {"1", "3", "journal"}:
        raise RuntimeError("the follower's handler did not get every change as published")
    return publish, dispatch, sum(map(len, lines)) // changes


async def wake_cost(url: str, rate: float, seconds: float, size: int) -> tuple[float, int]:
    """CPU microseconds of this process per message received (see the module's docstring), and how many."""
    import subprocess
    import sys

    from rummoli.server.cluster.redisline import Address, Listening, connect

    channel = f"bench-wake-{random.randrange(1 << 30)}"
    received = 0

    def count(_channel: str, _payload: bytes) -> None:
        nonlocal received
        received += 1

    listener = await connect(Address.parse(url), lambda: Listening(count), 2.0)
    await asyncio.gather(*listener.subscribe(channel))
    publisher = subprocess.Popen([sys.executable, "-c", (
        "import sys, time, redis\n"
        "r = redis.Redis.from_url(sys.argv[1]); end = time.monotonic() + float(sys.argv[4])\n"
        "while time.monotonic() < end:\n"
        "    r.publish(sys.argv[2], b'x' * int(sys.argv[5])); time.sleep(1 / float(sys.argv[3]))\n"),
        url, channel, str(rate), str(seconds + 2.0), str(size)])
    try:
        await asyncio.sleep(1.0)
        cpu0, got0 = time.process_time(), received
        await asyncio.sleep(seconds)
        cpu1, got1 = time.process_time(), received
    finally:
        publisher.wait(seconds + 30)
        listener.close()
    if got1 == got0:
        raise RuntimeError("no message arrived: is Redis at --redis-url?")
    return (cpu1 - cpu0) / (got1 - got0) * 1e6, got1 - got0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=3000)
    parser.add_argument("--wake", action="store_true", help="also the CPU cost of being woken by a message")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--rate", type=float, default=200.0, help="--wake: messages a second")
    parser.add_argument("--seconds", type=float, default=8.0, help="--wake: how long to listen")
    args = parser.parse_args()
    engine = engine_baseline("rummoli", args.changes) * 1000
    publish, dispatch, size = asyncio.run(bus_costs(args.changes))
    print(f"engine alone: {engine:.0f} us CPU per action (an action, every seat's events and view)")
    print(f"bus, owner's publish: {publish:.1f} us per change ({publish / engine:.3f}x the engine); "
          f"follower's dispatch: {dispatch:.1f} us per change ({dispatch / engine:.3f}x); "
          f"{size} bytes a change on average")
    if args.wake:
        from bench.server import run_fast

        woken, count = run_fast(wake_cost(args.redis_url, args.rate, args.seconds, size))
        print(f"woken by a message ({size} bytes, {args.rate:.0f} a second) and doing nothing with it: {woken:.1f} us "
              f"CPU per message over {count} ({woken / engine:.3f}x the engine's action)")


if __name__ == "__main__":
    main()
