"""The bus between several server processes: Redis publish/subscribe.

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

What is ours: the two channel kinds above, the request/answer pairing (:meth:`Bus.request`), and the two
connections that publish (and set this process's heartbeat key) and listen (rummoli.server.cluster.redisline: redis-py's
per-command cost was most of what a second process added per action; hiredis still writes and reads the
protocol). redis-py reads the other processes' heartbeat keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from rummoli.server.cluster.redisline import Address, Listening, Quiet, RedisError, connect
from rummoli.server.jsontext import dumps as _dumps
from rummoli.server.jsontext import loads as _loads

log = logging.getLogger("rummoli.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class BusDown(Exception):
    """Redis does not answer: the message was not sent."""


class Bus:
    """One process's connection to the others (see the module's docstring)."""

    def __init__(self, url: str, prefix: str, name: str, on_table: Handler, on_command: Handler,
                 on_reconnect: Callable[[], Awaitable[None]],
                 on_table_now: Callable[[dict[str, Any]], bool] | None = None) -> None:
        import redis.asyncio as redis

        self.name, self.prefix = name, prefix
        self._address = Address.parse(url)
        # redis-py reads the other processes' heartbeat keys; publishing and listening go through connections of
        # our own (rummoli.server.cluster.redisline says why)
        self._redis = redis.Redis.from_url(url, socket_connect_timeout=1.0, socket_timeout=5.0,
                                           health_check_interval=5)
        self._publisher: Quiet | None = None
        self._opening: asyncio.Task[None] | None = None  # the publisher being connected
        self._listener: Listening | None = None
        self._on_table, self._on_command, self._on_reconnect = on_table, on_command, on_reconnect
        # A table's message that can be handled without waiting (most changes a follower is told) is handled
        # as it is read: no task, no queue (``on_table_now`` answers False for one that needs ``on_table``).
        self._on_table_now = on_table_now
        self._asks = 0
        self._tables: set[str] = set()
        self._outbox: list[tuple[str, ...]] = []  # commands to send, in order, at the loop's next turn
        self._flushing = False
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()
        self._id_base = f"{name}.{secrets.token_hex(4)}."  # + a counter: each command's id, unique across restarts
        self._seen: set[str] = set()  # the last commands' ids, so a command delivered twice runs once
        self._seen_order: deque[str] = deque()
        self._table_queues: dict[str, deque[dict[str, Any]]] = {}  # each table's messages not yet handled
        self.up = False
        self._own_channel = self.process_channel(name)

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
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._heartbeat())]

    async def close(self) -> None:
        self._flush()  # what is queued goes out first, if it can
        tasks = [*self._tasks, *([self._opening] if self._opening is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for connection in (self._publisher, self._listener):
            if connection is not None:
                connection.close()
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
        # Without a listener now, the next one subscribes every table in ``_tables``, this one included.
        listener = self._listener
        if listener is not None and listener.open:
            with contextlib.suppress(TimeoutError, RedisError):
                await asyncio.wait_for(asyncio.shield(listener.subscribe(self.table_channel(table_id))[0]), 2.0)

    def following(self, table_id: str) -> bool:
        return table_id in self._tables

    def unfollow(self, table_id: str) -> None:
        if table_id in self._tables:
            self._tables.discard(table_id)
            listener = self._listener
            if listener is not None and listener.open:
                with contextlib.suppress(RedisError):
                    listener.unsubscribe(self.table_channel(table_id))

    # ------------------------------------------------------------------------------------- sending
    def publish(self, table_id: str, message: dict[str, Any], texts: dict[str, str] | None = None) -> None:
        """Queue ``message`` for the table's followers (sent in the order queued; dropped while Redis is
        down, which the followers make up for from the database). ``texts`` (the update texts of the seats the
        followers show: JSON already) travel after the message as they are, one a line, and reach the
        followers' handler as ``message["texts"]``: inside the message they were escaped by the owner and
        parsed again by every follower, a few kilobytes of each change twice over."""
        if not self.up:
            return
        if texts and not any("\n" in text for text in texts.values()):  # compact JSON holds no raw line break
            keys = list(texts)
            line = "\n".join([_dumps({**message, "texts": keys}), *(texts[key] for key in keys)])
        else:
            line = _dumps({**message, "texts": texts} if texts else message)
        self._queue("PUBLISH", self.table_channel(table_id), line)

    def tell(self, process: str, message: dict[str, Any]) -> None:
        """Queue a message for one process (no answer expected)."""
        if self.up:
            self._queue("PUBLISH", self.process_channel(process), _dumps(message))

    def ask(self, process: str, message: dict[str, Any], timeout: float) -> asyncio.Future[dict[str, Any]]:
        """Send a command to ``process``: the future of its answer (failing with :class:`BusDown`, or with
        :class:`TimeoutError` after ``timeout`` seconds; cancel it to stop waiting).

        A future and a timer, not a task: a process forwards about every other action to another one, and a
        task with ``asyncio.wait_for`` around each cost more than the rest of the forwarding."""
        if not self.up:
            raise BusDown("redis is unreachable")
        self._asks += 1
        ask = f"{self._id_base}{self._asks:x}"
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._waiting[ask] = future
        timer = loop.call_later(timeout, _fail, future, TimeoutError)

        def done(_future: asyncio.Future[dict[str, Any]]) -> None:
            timer.cancel()
            self._waiting.pop(ask, None)

        future.add_done_callback(done)
        self._queue("PUBLISH", self.process_channel(process), _dumps({**message, "ask": ask, "from": self.name}))
        return future

    async def request(self, process: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a command to ``process`` and wait for its answer (:class:`BusDown` or :class:`TimeoutError`)."""
        future = self.ask(process, message, timeout)
        try:
            return await future
        finally:
            future.cancel()  # the caller was cancelled: nobody waits any more (a no-op once answered)

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
    def _queue(self, *command: str) -> None:
        """Send ``command`` (a publish, the heartbeat) at the loop's next turn, in one write with whatever else
        is queued by then: no task, no queue, and no reply to read (rummoli.server.cluster.redisline.Quiet)."""
        self._outbox.append(command)
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flushing = False
        if not self._outbox:
            return
        publisher = self._publisher
        if publisher is None or not publisher.open:
            # Connected first (after a start or an outage), then flushed; what is queued meanwhile waits.
            if self._opening is None:
                self._opening = asyncio.get_running_loop().create_task(self._open_publisher())
            return
        batch, self._outbox = self._outbox, []
        try:
            publisher.write(*batch)
        except RedisError as error:
            self._down(error)

    async def _open_publisher(self) -> None:
        try:
            publisher = await connect(self._address, Quiet, 1.0)
            publisher.hush()
            self._publisher = publisher
        except Exception as error:
            self._down(error)
        finally:
            self._opening = None
        self._flush()

    async def _heartbeat(self) -> None:
        """This process's key, which :meth:`alive` reads, set every second to expire after five (through the
        publisher: nobody waits for its reply)."""
        while True:
            if self.up:
                self._queue("SET", self.alive_key(self.name), "1", "EX", "5")
            await asyncio.sleep(1.0)

    def _down(self, error: BaseException) -> None:
        if self.up:
            log.warning("redis is unreachable (%s): serving own tables only until it is back",
                        type(error).__name__)
        self.up = False
        if self._listener is not None:
            self._listener.close()  # the listener reconnects, and says "up" again only once Redis answers it
        if self._publisher is not None:
            self._publisher.close()  # a new one is connected for the next message
            self._publisher = None
        self._outbox.clear()
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(BusDown("redis is unreachable"))

    async def _listen(self) -> None:
        """Subscribe (again after every outage) and hand each message to its handler as it comes."""
        while True:
            listener: Listening | None = None
            try:
                listener = await connect(self._address, lambda: Listening(self._dispatch), 1.0)
                self._listener = listener
                channels = [self.process_channel(self.name), *[self.table_channel(t) for t in self._tables]]
                await asyncio.wait_for(asyncio.gather(*listener.subscribe(*channels)), 5.0)
                was_up, self.up = self.up, True
                if not was_up:
                    # Alive at once, not at the heartbeat's next turn: in between, an owner that looked took this
                    # process for dead and forgot the clients it had just told it of (a person counted as gone).
                    self._queue("SET", self.alive_key(self.name), "1", "EX", "5")
                    log.warning("redis is reachable: fan-out on")
                    await self._on_reconnect()
                await self._keep_alive(listener)
                raise RedisError("the connection to Redis was lost")
            except asyncio.CancelledError:
                if listener is not None:
                    listener.close()
                raise
            except Exception as error:
                if listener is not None:
                    listener.close()
                self._listener = None
                self._down(error)
                await asyncio.sleep(0.5)

    @staticmethod
    async def _keep_alive(listener: Listening) -> None:
        """Returns once the connection is gone: closed, or silent for 10 s though pinged after 2.5 s of quiet
        (a Redis that hangs closes nothing)."""
        while listener.open:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(listener.closed), 2.5)
            quiet = time.monotonic() - listener.last_heard
            if quiet > 10.0:
                listener.close()
                return
            if quiet > 2.5 and listener.open:
                listener.ping()

    def _dispatch(self, channel: str, payload: bytes) -> None:
        """A message published to one of this process's channels (called as it is read)."""
        head, framed, tail = payload.partition(b"\n")
        try:
            data = _loads(head)
        except ValueError:
            log.error("a bus message that is not JSON was dropped")
            return
        if not isinstance(data, dict):
            return
        if framed:  # the texts that came after it (see publish)
            keys = data.get("texts")
            lines = tail.split(b"\n")
            if not isinstance(keys, list) or len(keys) != len(lines):
                log.error("a bus message whose texts do not match their names was dropped")
                return
            data["texts"] = {str(key): line.decode("utf-8") for key, line in zip(keys, lines, strict=True)}
        if data.get("kind") == "answer":
            future = self._waiting.get(str(data.get("ask")))
            if future is not None and not future.done():
                future.set_result(data)
            return
        if channel == self._own_channel:
            ask = data.get("ask")
            if isinstance(ask, str):
                # A command that reaches this process twice (a message sent again by hand, a proxy) runs once.
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
            answers = data.get("answers")
            if answers is not None:
                # The change that an action forwarded by this process made is that action's answer (the owner
                # sends no answer of its own: one message fewer per forwarded action; Forwarding.on_command).
                future = self._waiting.get(str(answers))
                if future is not None and not future.done():
                    future.set_result({"kind": "answer", "ask": answers, "result": {}})
            # A table's messages are handled in order (each change follows the one before), but tables do not
            # wait for each other: a follower rebuilding one table from the database held up every other
            # table's changes, which then looked missed and were rebuilt too.
            table = channel.rpartition(":t:")[2]
            waiting = self._table_queues.get(table)
            if waiting is not None:
                waiting.append(data)
                return
            if self._on_table_now is not None:
                try:
                    if self._on_table_now(data):
                        return
                except Exception:
                    log.exception("a bus message could not be handled")
                    return
            self._table_queues[table] = deque([data])
            task = asyncio.get_running_loop().create_task(self._drain(table))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _drain(self, table: str) -> None:
        waiting = self._table_queues[table]
        try:
            while waiting:
                await self._guarded(self._on_table(waiting[0]))
                waiting.popleft()
        finally:
            self._table_queues.pop(table, None)

    @staticmethod
    async def _guarded(work: Awaitable[None]) -> None:
        try:
            await work
        except Exception:
            log.exception("a bus message could not be handled")


def _fail(future: asyncio.Future[Any], error: type[BaseException]) -> None:
    if not future.done():
        future.set_exception(error())
