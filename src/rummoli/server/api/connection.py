"""One websocket client: its hello, its messages checked by size, rate and type, and its own updates.

Each client has one writer task and a queue, so the messages it receives keep their order (welcome first,
then updates) and a slow client never holds up a table: updates it has not taken yet merge into one, built
when it is sent, from exactly what its seat may see (``events_since`` and ``view`` of its seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummoli.server.api.protocol import PROTOCOL_VERSION, Act, Chat, Hello, Next, Ping, client_message, first_problem
from rummoli.server.buckets import RateLimit
from rummoli.server.jsontext import dumps
from rummoli.server.tables import chat, rematch
from rummoli.server.tables.errors import ServerError
from rummoli.server.tables.registry import Registry
from rummoli.server.tables.room import Room

log = logging.getLogger("rummoli.server")

HELLO_TIMEOUT = 15.0
CLOSE_POLICY = 1008
#: Longest wait, once a client has gone, for its writer to send what is still queued.
DRAIN_SECONDS = 1.0
#: The writer's last item: the connection has ended.
END = "end"


def too_large(max_message: int) -> str:
    """What a client is told of a message too large: the ``too_large`` error line's words, and the reason of the
    close that ends a connection whose frame is over the largest read (rummoli.server.run.max_frame)."""
    return f"a message holds at most {max_message} bytes"


def error_message(code: str, message: str, rule: str | None = None, seq: int | None = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "rule": rule, "seq": seq}


class ConnectionLimit:
    """At most ``most`` websockets at once from one address (0: no limit).

    >>> limit = ConnectionLimit(2)
    >>> limit.enter("10.0.0.1"), limit.enter("10.0.0.1"), limit.enter("10.0.0.1"), limit.enter("10.0.0.2")
    (True, True, False, True)
    >>> limit.leave("10.0.0.1"); limit.enter("10.0.0.1")
    True
    """

    def __init__(self, most: int) -> None:
        self.most = most
        self.open: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        count = self.open.get(address, 0)
        if self.most and count >= self.most:
            return False
        self.open[address] = count + 1
        return True

    def leave(self, address: str) -> None:
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)


class Connection:
    """A client of one table (see the module's docstring)."""

    def __init__(self, websocket: WebSocket, registry: Registry) -> None:
        self.ws = websocket
        self.registry = registry
        self.room: Room | None = None
        self.seat: int | None = None
        self.last_seq = 0
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self._update_pending = False
        self.closing = False
        settings = registry.settings
        self.limit = RateLimit(settings.rate, settings.burst)

    # ------------------------------------------------------------------------------------- hub side
    def poke(self) -> None:
        if not self._update_pending:
            self._update_pending = True
            self.queue.put_nowait("update")

    def poke_seats(self) -> None:
        self.queue.put_nowait("seats")

    def poke_next(self) -> None:
        self.queue.put_nowait("next_hand")

    def close(self, code: int, reason: str) -> None:
        self.closing = True
        self.queue.put_nowait(("close", code, reason))

    def send(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)

    async def writer(self) -> None:
        try:
            await self._write()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            # The socket is gone (the reader ends the connection), or a bug: then say so, never die silently.
            if not isinstance(error, WebSocketDisconnect | RuntimeError | OSError):
                log.exception("a client's writer failed")
            raise

    async def _write(self) -> None:
        ws = self.ws
        while True:
            item = await self.queue.get()
            room = self.room
            if item == "update" and room is not None:
                self._update_pending = False
                async with room.lock:
                    seq = room.seq
                    if seq <= self.last_seq or room.stale:
                        continue  # a stale table is poked again once it is rebuilt
                    text = room.update_text(self.seat, self.last_seq)
                    self.last_seq = seq
                await ws.send_text(text)
            elif item == "seats" and room is not None:
                await ws.send_text(dumps({"type": "seats", "seats": room.seat_infos(), "status": room.status}))
            elif item == "next_hand" and room is not None:
                # Read as it is sent: a countdown that ended meanwhile is told by the update of the deal.
                shown = None if room.stale else room.next_hand_info()
                if shown is not None:
                    await ws.send_text(dumps({"type": "next_hand", **shown}))
            elif isinstance(item, tuple):
                await ws.close(item[1], item[2])
                return
            elif item == END:
                return
            elif isinstance(item, dict):
                await ws.send_text(dumps(item))

    # ------------------------------------------------------------------------------------- reading
    async def _receive(self) -> str | None:
        """The next text message, or ``None`` once the client is gone."""
        message = await self.ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        if message.get("text") is None:
            return ""  # a binary frame: not a protocol message
        text: str = message["text"]
        return text

    def _check(self, text: str) -> Hello | Act | Next | Ping | Chat | None:
        """The message read and checked, or ``None`` after sending the client its error."""
        settings = self.registry.settings
        if not self.limit.allow(time.monotonic()):
            self.send(error_message("rate_limited", f"too many messages: at most {settings.rate:g} a second"))
            if self.limit.refused > 3 * settings.burst:
                self.close(CLOSE_POLICY, "too many messages")
            return None
        if len(text) > settings.max_message or len(text.encode("utf-8")) > settings.max_message:
            self.send(error_message("too_large", too_large(settings.max_message)))
            return None
        if not text:
            self.send(error_message("malformed", "a message is one JSON object, sent as text"))
            return None
        try:
            parsed: Hello | Act | Next | Ping | Chat = client_message.validate_json(text)
        except ValidationError as error:
            self.send(error_message("malformed", first_problem(
                error.errors(include_url=False), "a message is one JSON object")))
            return None
        return parsed

    async def run(self, table_id: str) -> None:
        """The whole life of the connection: hello, then messages until the client goes."""
        writer = asyncio.get_running_loop().create_task(self.writer())
        try:
            await self._serve(table_id)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            if self.room is not None:
                self.registry.hub.unsubscribe(self.room.id, self)
                with contextlib.suppress(Exception):
                    await self.room.depart(self.seat)
            # Let the writer send what is queued (an error, a close) and stop at the end mark; one that has
            # failed already (the socket is gone) is simply done, and one that takes over a second (a client
            # that reads nothing) is cancelled by wait_for. Nothing waits on the queue after this.
            self.queue.put_nowait(END)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, DRAIN_SECONDS)

    async def _serve(self, table_id: str) -> None:
        try:
            text = await asyncio.wait_for(self._receive(), HELLO_TIMEOUT)
        except TimeoutError:
            self.send(error_message("protocol", "say hello first"))
            self.close(CLOSE_POLICY, "no hello")
            return
        if text is None:
            return
        hello = self._check(text)
        if hello is None:
            self.close(CLOSE_POLICY, "bad hello")
            return
        if not isinstance(hello, Hello):
            self.send(error_message("protocol", "the first message is a hello"))
            self.close(CLOSE_POLICY, "no hello")
            return
        if hello.protocol != PROTOCOL_VERSION:
            self.send(error_message("protocol", f"this server speaks protocol {PROTOCOL_VERSION}, "
                                                f"not {hello.protocol}"))
            self.close(CLOSE_POLICY, "protocol version")
            return
        room = await self.registry.get(table_id)
        if room is None:
            self.send(error_message("not_found", "no such table"))  # as the HTTP API answers it
            self.close(4004, "no such table")
            return
        if hello.token is not None:
            self.seat = await room.seat_of(hello.token)
            if self.seat is None:
                self.send(error_message("unauthorized", "that seat token holds no seat at this table"))
                self.close(4003, "bad token")
                return
        self.room = room
        lines = await chat.history(room)
        async with room.lock:
            try:
                await room.ready_for(hello.since)
            except ServerError as error:
                self.send(error_message(error.code, error.message))
                self.close(1013, "try again later")
                return
            since = hello.since if hello.since is not None and hello.since <= room.seq else room.seq
            self.last_seq = room.seq
            seats = room.seat_infos()
            if self.seat is not None:
                seats[self.seat]["connected"] = True  # this very client (counted just below)
            self.send({"type": "welcome", "protocol": PROTOCOL_VERSION, "table": room.id, "seat": self.seat,
                       "seq": room.seq, "view": room.view(self.seat), "events": room.events_since(since, self.seat),
                       "seats": seats, "status": room.status, "clock": room.clock_info(),
                       "next_hand": room.next_hand_info(self.seat), "pace": room.pace.info(), "chat": lines,
                       "rematch": rematch.invitation(room, self.seat)})
            self.registry.hub.subscribe(room.id, self)
        await room.arrive(self.seat)
        while True:
            text = await self._receive()
            if text is None:
                return
            message = self._check(text)
            text = ""  # not kept while the next message is awaited: it may be a frame of up to 1 MiB
            if self.closing:
                return
            if message is None:
                continue
            if isinstance(message, Ping):
                self.send({"type": "pong"})
            elif isinstance(message, Hello):
                self.send(error_message("protocol", "hello was already said"))
            elif isinstance(message, Chat) and self.seat is None:
                self.send(error_message("unauthorized", "spectators read the chat but cannot write to it: "
                                                        "take a seat to write"))
            elif self.seat is None:
                self.send(error_message("unauthorized", "spectators cannot act: say hello with a seat token"))
            elif isinstance(message, Chat):
                try:
                    await chat.say(room, self.seat, message.text, message.reaction)
                except ServerError as error:
                    self.send(error_message(error.code, error.message))
            elif isinstance(message, Next):
                try:
                    await room.next_ready(self.seat, message.seq)
                except ServerError as error:
                    self.send(error_message(error.code, error.message, error.rule, error.seq))
            else:
                try:
                    await room.act(self.seat, message.action, message.seq)
                except ServerError as error:
                    self.send(error_message(error.code, error.message, error.rule, error.seq))
