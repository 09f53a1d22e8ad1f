"""The bus between several server processes: Redis publish/subscribe (redis-py's asyncio client).

Two kinds of channel, both named under the site's prefix (``Settings.redis_prefix``):

* ``PREFIX:t:TABLE``   what the table's owner tells the processes that show it (its followers): each stored
  change (the journal entries it added, which the followers replay on their copy of the table), who sits
  where, a new owner. Only the owner publishes here, in the order it stored the changes.
* ``PREFIX:p:PROCESS`` messages for one process: commands forwarded to a table's owner (an action, a seat
  taken...) and the answers to them.

Redis carries server-side data only (journal entries hold the decks, as the database does); nothing here
is sent to a client as such: each process's clients get what their own seat may see from its own copy of
the table, through the same ``events_since`` and ``view`` as on a single server.

Pub/sub delivers nothing that was published while a subscriber was away, so nothing relies on it alone:
every change names the ``seq`` it follows, a follower that finds a gap rebuilds its copy from the database,
and after Redis comes back every follower does. While Redis is down a process keeps driving the tables it
owns for its own clients; forwarded commands get "unavailable" (`/healthz` says ``redis: unreachable``).

Why redis-py and not something of our own: the protocol, reconnects and pooling are theirs; what is ours is
only the two channel kinds above and the request/answer pairing (:meth:`Bus.request`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("rummoli.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class BusDown(Exception):
    """Redis does not answer: the message was not sent."""


class Bus:
    """One process's connection to the others (see the module's docstring)."""

    def __init__(self, url: str, prefix: str, name: str, on_table: Handler, on_command: Handler,
                 on_reconnect: Callable[[], Awaitable[None]]) -> None:
        import redis.asyncio as redis

        self.name, self.prefix = name, prefix
        self._redis = redis.Redis.from_url(url, socket_connect_timeout=1.0, socket_timeout=5.0,
                                           health_check_interval=5)
        self._on_table, self._on_command, self._on_reconnect = on_table, on_command, on_reconnect
        self._tables: set[str] = set()
        # ("sub"|"unsub", channel, set once the listener has done it)
        self._changes: asyncio.Queue[tuple[str, str, asyncio.Future[None] | None]] = asyncio.Queue()
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()  # (channel, text), sent in order
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()
        self._broken = False
        self._seen: set[str] = set()  # the last commands' ids, so a command delivered twice runs once
        self._seen_order: deque[str] = deque()
        self.up = False

    # ------------------------------------------------------------------------------------- names
    def table_channel(self, table_id: str) -> str:
        return f"{self.prefix}:t:{table_id}"

    def process_channel(self, name: str) -> str:
        return f"{self.prefix}:p:{name}"

    def alive_key(self, name: str) -> str:
        return f"{self.prefix}:alive:{name}"

    # ------------------------------------------------------------------------------------- life
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._send()),
                       loop.create_task(self._heartbeat())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self._redis.delete(self.alive_key(self.name))
        with contextlib.suppress(Exception):
            await self._redis.aclose()

    # ------------------------------------------------------------------------------------- following
    async def follow(self, table_id: str) -> None:
        """Subscribe to a table's channel; returns once Redis has the subscription (or is down: then the
        reconnect subscribes it and the followers catch up from the database), so that a change published
        after this returns is not missed."""
        if table_id in self._tables:
            return
        self._tables.add(table_id)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._changes.put_nowait(("sub", self.table_channel(table_id), done))
        if self.up:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(done), 2.0)

    def following(self, table_id: str) -> bool:
        return table_id in self._tables

    def unfollow(self, table_id: str) -> None:
        if table_id in self._tables:
            self._tables.discard(table_id)
            self._changes.put_nowait(("unsub", self.table_channel(table_id), None))

    # ------------------------------------------------------------------------------------- sending
    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for the table's followers (sent in the order queued; dropped while Redis is
        down, which the followers make up for from the database)."""
        if self.up:
            self._outbox.put_nowait((self.table_channel(table_id), _dumps(message)))

    def tell(self, process: str, message: dict[str, Any]) -> None:
        """Queue a message for one process (no answer expected)."""
        if self.up:
            self._outbox.put_nowait((self.process_channel(process), _dumps(message)))

    async def request(self, process: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a command to ``process`` and wait for its answer (:class:`BusDown` or :class:`TimeoutError`)."""
        if not self.up:
            raise BusDown("redis is unreachable")
        ask = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ask] = future
        try:
            self._outbox.put_nowait((self.process_channel(process),
                                     _dumps({**message, "ask": ask, "from": self.name})))
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(ask, None)

    def answer(self, command: dict[str, Any], result: dict[str, Any]) -> None:
        if isinstance(command.get("from"), str) and isinstance(command.get("ask"), str):
            self.tell(command["from"], {"kind": "answer", "ask": command["ask"], **result})

    async def alive(self, names: set[str]) -> set[str]:
        """Which of ``names`` are processes still running (their heartbeat key exists)."""
        if not names:
            return set()
        ordered = sorted(names)
        flags = await self._redis.mget([self.alive_key(n) for n in ordered])
        return {n for n, flag in zip(ordered, flags, strict=True) if flag is not None}

    # ------------------------------------------------------------------------------------- tasks
    async def _send(self) -> None:
        while True:
            channel, text = await self._outbox.get()
            try:
                await self._redis.publish(channel, text)
            except Exception:
                # After Redis restarts, the pool's first connection is the dead one: a second try gets a new one.
                try:
                    await self._redis.publish(channel, text)
                except Exception as error:
                    self._down(error)

    async def _heartbeat(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self._redis.set(self.alive_key(self.name), "1", ex=5)
            await asyncio.sleep(1.0)

    def _down(self, error: BaseException) -> None:
        if self.up:
            log.warning("redis is unreachable (%s): serving own tables only until it is back",
                        type(error).__name__)
        self.up = False
        self._broken = True  # the listener reconnects, and says "up" again only once Redis answers it
        while not self._outbox.empty():
            self._outbox.get_nowait()
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(BusDown("redis is unreachable"))

    async def _listen(self) -> None:
        """Subscribe (again after every outage) and hand each message to its handler, in order."""
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                pending = []
                while not self._changes.empty():
                    pending.append(self._changes.get_nowait()[2])  # the full set is subscribed just below
                await pubsub.subscribe(self.process_channel(self.name),
                                       *[self.table_channel(t) for t in self._tables])
                was_up, self.up, self._broken = self.up, True, False
                for done in pending:
                    if done is not None and not done.done():
                        done.set_result(None)
                if not was_up:
                    log.warning("redis is reachable: fan-out on")
                    await self._on_reconnect()
                while True:
                    while not self._changes.empty():
                        what, channel, done = self._changes.get_nowait()
                        await (pubsub.subscribe(channel) if what == "sub" else pubsub.unsubscribe(channel))
                        if done is not None and not done.done():
                            done.set_result(None)
                    if self._broken:
                        raise ConnectionError("a publish failed")
                    message = await pubsub.get_message(timeout=0.05)
                    if message is not None and message.get("type") == "message":
                        await self._dispatch(message)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as error:
                self._down(error)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(0.5)

    async def _dispatch(self, message: dict[str, Any]) -> None:
        try:
            data = json.loads(message["data"])
            channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
        except (ValueError, TypeError, KeyError):
            log.error("a bus message that is not JSON was dropped")
            return
        if not isinstance(data, dict):
            return
        if data.get("kind") == "answer":
            future = self._waiting.get(str(data.get("ask")))
            if future is not None and not future.done():
                future.set_result(data)
            return
        if channel == self.process_channel(self.name):
            ask = data.get("ask")
            if isinstance(ask, str):
                # A publish whose reply was lost is sent again (see _send): a command is run once.
                if ask in self._seen:
                    return
                self._seen.add(ask)
                self._seen_order.append(ask)
                if len(self._seen_order) > 4096:
                    self._seen.discard(self._seen_order.popleft())
            # A command may wait on a table's lock or the database: it runs beside the listener, which goes
            # on reading (answers to this process's own requests among them). Commands start in arrival
            # order and a table's lock is first come, first served.
            task = asyncio.get_running_loop().create_task(self._guarded(self._on_command(data)))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        else:
            await self._guarded(self._on_table(data))  # in order: each change follows the one before

    @staticmethod
    async def _guarded(work: Awaitable[None]) -> None:
        try:
            await work
        except Exception:
            log.exception("a bus message could not be handled")


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
