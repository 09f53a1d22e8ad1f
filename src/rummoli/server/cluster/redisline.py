"""The bus's two Redis connections: one that publishes, one that listens (subscribed to channels).

Why not redis-py's asyncio client for these two (it stays for everything else: the heartbeat keys): with the
load of bench/cluster.py spread over two processes, its per-command layers (pool, retry, parser classes, an
awaited round trip per call) were the largest part of what the second process added per action, about as
much CPU per publish and per message received as the engine's own work on a change. What is ours here is
small: each connection is an asyncio protocol that writes commands packed by hiredis and hands the replies,
read by hiredis's parser (the Redis project's own, which redis-py uses too), to whoever waits for them. No
reply is parsed by our code.

A :class:`Commands` connection sends a batch of commands in one write and resolves one future with the batch's
replies, in order. A :class:`Quiet` connection publishes and asks for no replies at all. A :class:`Listening`
connection sends SUBSCRIBE/UNSUBSCRIBE and calls back for each message
published to its channels and for each subscription Redis confirms.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote, urlsplit

import hiredis

log = logging.getLogger("rummoli.server")


class RedisError(ConnectionError):
    """Redis refused a command, or the connection failed."""


@dataclass(frozen=True)
class Address:
    """Where Redis is, from a ``redis://[[user]:password@]host[:port][/db]`` or ``rediss://`` (TLS) URL."""

    host: str
    port: int
    username: str | None
    password: str | None
    tls: bool

    @classmethod
    def parse(cls, url: str) -> Address:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss"):
            raise ValueError(f"--redis-url: a Redis URL starts with redis:// or rediss:// (TLS), not {url[:40]!r}")
        return cls(parts.hostname or "127.0.0.1", parts.port or 6379,
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, parts.scheme == "rediss")


class _Connection(asyncio.Protocol):
    """What both kinds share: the transport, hiredis's reader, and when data last came."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = hiredis.Reader()
        self.last_heard = time.monotonic()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio's classes

    def data_received(self, data: bytes) -> None:
        self.last_heard = time.monotonic()
        self.parser.feed(data)
        while (reply := self.parser.gets()) is not False:
            self.on_reply(reply)

    def on_reply(self, reply: Any) -> None:
        raise NotImplementedError

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)

    def write(self, *commands: tuple[Any, ...]) -> None:
        if self.transport is None or self.transport.is_closing():
            raise RedisError("the connection to Redis is closed")
        self.transport.write(b"".join(hiredis.pack_command(command) for command in commands))

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    @property
    def open(self) -> bool:
        return self.transport is not None and not self.transport.is_closing() and not self.closed.done()


class Commands(_Connection):
    """Commands sent in batches; each batch's replies come back together, in order."""

    def __init__(self) -> None:
        super().__init__()
        self._waiting: deque[tuple[asyncio.Future[list[Any]], int, list[Any]]] = deque()

    def send(self, *commands: tuple[Any, ...]) -> asyncio.Future[list[Any]]:
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self.write(*commands)
        self._waiting.append((future, len(commands), []))
        return future

    def on_reply(self, reply: Any) -> None:
        if not self._waiting:
            return
        future, count, replies = self._waiting[0]
        replies.append(reply)
        if len(replies) == count:
            self._waiting.popleft()
            if not future.done():
                future.set_result(replies)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        while self._waiting:
            future = self._waiting.popleft()[0]
            if not future.done():
                future.set_exception(RedisError("the connection to Redis was lost"))


class Quiet(_Connection):
    """A connection that only writes: the bus's publisher. Once :meth:`hush` has asked Redis for no replies
    (``CLIENT REPLY OFF``), nothing comes back, so a publish costs one write and no read, no future and no
    timer. A publish is never confirmed anyway: pub/sub drops what nobody hears, and the followers make up
    for anything lost from the database. A lost connection shows as :attr:`open` turning false; a Redis that
    hangs is noticed by the listening connection's pings. Any reply that does come (a Redis or proxy that
    refuses ``CLIENT REPLY``) is read and dropped."""

    def hush(self) -> None:
        self.write(("CLIENT", "REPLY", "OFF"))

    def on_reply(self, reply: Any) -> None:
        pass


class Listening(_Connection):
    """A subscribed connection: ``on_message(channel, data)`` for each message, and a future per channel
    asked for that is set once Redis confirms the subscription."""

    def __init__(self, on_message: Callable[[str, bytes], None]) -> None:
        super().__init__()
        self.on_message = on_message
        self._confirming: dict[str, list[asyncio.Future[None]]] = {}

    def subscribe(self, *channels: str) -> list[asyncio.Future[None]]:
        loop = asyncio.get_running_loop()
        futures = []
        for channel in channels:
            future: asyncio.Future[None] = loop.create_future()
            future.add_done_callback(_seen)  # a confirmation nobody waits for any more may fail unread
            self._confirming.setdefault(channel, []).append(future)
            futures.append(future)
        if channels:
            self.write(("SUBSCRIBE", *channels))
        return futures

    def unsubscribe(self, channel: str) -> None:
        self.write(("UNSUBSCRIBE", channel))

    def ping(self) -> None:
        self.write(("PING",))

    def on_reply(self, reply: Any) -> None:
        if isinstance(reply, hiredis.ReplyError):
            self.close()  # never expected on this connection: start again
            return
        if not isinstance(reply, list) or len(reply) < 3:
            return  # the answer to a PING
        kind, channel = reply[0], reply[1].decode("utf-8", "replace")
        if kind == b"message":
            try:
                self.on_message(channel, reply[2])
            except Exception:  # one bad message must not end the connection
                log.exception("a bus message could not be handled")
        elif kind == b"subscribe":
            for future in self._confirming.pop(channel, []):
                if not future.done():
                    future.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        for futures in self._confirming.values():
            for future in futures:
                if not future.done():
                    future.set_exception(RedisError("the connection to Redis was lost"))
        self._confirming.clear()


def _seen(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


async def connect(address: Address, make: Callable[[], _Connection], timeout: float) -> Any:
    """A connection of the kind ``make`` builds, opened (and logged in, when the URL has a password)."""
    loop = asyncio.get_running_loop()
    context = ssl.create_default_context() if address.tls else None
    _transport, protocol = await asyncio.wait_for(
        loop.create_connection(make, address.host, address.port, ssl=context), timeout)
    if address.password is not None:
        login = Commands()
        # A Listening connection reads no plain replies: log in through a Commands protocol's parser first,
        # on the same socket, then hand the socket to the listening protocol.
        _transport.set_protocol(login)
        login.connection_made(_transport)
        credentials = (address.username, address.password) if address.username else (address.password,)
        reply = (await asyncio.wait_for(login.send(("AUTH", *credentials)), timeout))[0]
        if isinstance(reply, hiredis.ReplyError):
            _transport.close()
            raise RedisError(f"Redis refused the login: {reply}")
        _transport.set_protocol(protocol)
    return protocol
