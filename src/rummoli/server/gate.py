"""The server's door: how many connections one address may hold, and how long a connection may take to ask.

uvicorn on its own keeps a connection open for ever while it sends nothing, half a request line, headers a
byte a minute or a body that never ends (its keep-alive timeout starts only after a first answer), and it
takes every connection from one address until the process runs out of file descriptors: then nobody else can
connect (issues 33 and 38). :func:`protocols` gives uvicorn its own HTTP and websocket protocols with a
:class:`Gate` in front:

* an address holds at most ``most`` connections at once (plain HTTP and websockets together); one more is
  answered ``429`` in one line and closed at once, so its descriptor is freed. A trusted reverse proxy's
  address is every client's address: it is never refused here (the proxy limits its clients itself);
* a connection must deliver a whole request, headers and body, within ``timeout`` seconds of opening or of
  its previous answer, else it is answered ``408`` (when nothing was answered yet) and closed; a websocket
  must finish its handshake within the same time. A request being answered is never cut: the time starts
  again after its answer, and an open websocket is kept alive by its pings (uvicorn closes it when they go
  unanswered).

Each connection has one timer, set when it starts waiting for a request: nothing polls.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

REFUSED = 429
TIMED_OUT = 408


def _answer(status: int, reason: str, code: str, message: str, retry: int | None = None) -> bytes:
    body = json.dumps({"error": {"code": code, "message": message, "rule": None}}).encode() + b"\n"
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json", f"content-length: {len(body)}",
            "connection: close", *([f"retry-after: {retry}"] if retry is not None else [])]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class Gate:
    """Open connections per address, shared by every connection of one server.

    >>> gate = Gate(most=2, timeout=10.0, trusted=("10.0.0.9",))
    >>> [gate.enter(k, "10.0.0.1") for k in "abc"], gate.enter("d", "10.0.0.2")
    ([True, True, False], True)
    >>> gate.leave("a"); gate.leave("a"); gate.enter("e", "10.0.0.1")
    True
    >>> all(gate.enter(k, "10.0.0.9") for k in range(5))
    True
    """

    def __init__(self, most: int, timeout: float, trusted: tuple[str, ...] = ()) -> None:
        self.most, self.timeout, self.trusted = most, timeout, frozenset(trusted)
        self.open: dict[str, int] = {}
        self.holders: dict[Any, str] = {}  # transport -> its address
        limit = f"at most {most} at once"
        self.refusal = _answer(REFUSED, "Too Many Requests", "rate_limited",
                               f"too many connections from your address: {limit}", retry=5)
        self.too_slow = _answer(TIMED_OUT, "Request Timeout", "timeout",
                                f"the request did not arrive whole within {timeout:g} seconds")

    def enter(self, transport: Any, address: str) -> bool:
        """Count a new connection; False when its address already holds its allowance."""
        count = self.open.get(address, 0)
        if self.most and count >= self.most and address not in self.trusted:
            return False
        self.open[address] = count + 1
        self.holders[transport] = address
        return True

    def leave(self, transport: Any) -> None:
        """A connection ended (once per connection; a second call does nothing)."""
        address = self.holders.pop(transport, None)
        if address is None:
            return
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)


def peer_host(transport: Any) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else ""


#: The close code of a websocket message over the largest frame read (RFC 6455: "message too big").
MESSAGE_TOO_BIG = 1009


def protocols(gate: Gate, too_big: str = "") -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and websocket protocols (whichever it would choose) with ``gate`` in front.

    ``too_big``: the reason, in our words, of the close that ends a websocket whose message is over the largest
    frame uvicorn reads (``ws_max_size``). websockets closes it with code 1009 as soon as the frame's header gives
    its length, without reading the frame, and gives as its reason its own sentence ("frame with 2097152 bytes
    exceeds limit of 1048576 bytes"); uvicorn offers no way to set it, so it is replaced here, where the close is
    made. Its length is checked: a close reason holds at most 123 bytes."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    assert AutoWebSocketsProtocol is not None, "the server depends on websockets"
    http_base: Any = AutoHTTPProtocol
    ws_base: Any = AutoWebSocketsProtocol

    class GatedHTTP(http_base):  # type: ignore[misc]
        timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            if not gate.enter(transport, peer_host(transport)):
                transport.write(gate.refusal)
                transport.close()
                return
            self.wait_for_request()

        def wait_for_request(self) -> None:
            self.stop_waiting()
            self.timer = asyncio.get_running_loop().call_later(gate.timeout, self.check_request)

        def stop_waiting(self) -> None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

        def check_request(self) -> None:
            """Time is up: close unless a whole request has come and is being answered."""
            self.timer = None
            cycle = self.cycle
            if self.transport.is_closing():
                return
            if cycle is not None and not cycle.response_complete and not cycle.more_body:
                return  # being answered: the time starts again after the answer
            if cycle is None or not cycle.response_started:
                self.transport.write(gate.too_slow)
            self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self.wait_for_request()

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self.stop_waiting()  # the websocket protocol takes the connection (and its place at the gate)
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self.stop_waiting()
            gate.leave(self.transport)
            super().connection_lost(exc)

    assert len(too_big.encode()) <= 123, "a websocket's close reason holds at most 123 bytes"

    class GatedWebSocket(ws_base):  # type: ignore[misc]
        timer: asyncio.TimerHandle | None = None

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            conn = getattr(self, "conn", None)  # websockets' Sans-I/O protocol (uvicorn's websockets-sansio)
            if too_big and conn is not None and callable(getattr(conn, "fail", None)):
                fail = conn.fail

                def fail_in_our_words(code: int, reason: str = "") -> None:
                    fail(code, too_big if code == MESSAGE_TOO_BIG else reason)

                conn.fail = fail_in_our_words

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self.timer = asyncio.get_running_loop().call_later(gate.timeout, self.check_handshake)

        def check_handshake(self) -> None:
            self.timer = None
            done = getattr(self, "handshake_complete", None)
            if done is None:
                done = self.handshake_completed_event.is_set()
            if not done and not self.transport.is_closing():
                self.transport.close()

        async def send(self, message: Any) -> None:
            """uvicorn's websockets-sansio protocol writes a denial response (``websocket.http.response.*``: the
            Host guard's 400, rummoli.server.api.guard) but does not count the handshake as answered, so when the
            application returns it logs "ASGI callable returned without completing handshake." at ERROR: anyone
            could write ERROR lines at will. Once the denial's last byte is written, the handshake is answered."""
            await super().send(message)
            if (message.get("type") == "websocket.http.response.body" and not message.get("more_body")
                    and hasattr(self, "handshake_complete")):
                self.handshake_complete = True

        def connection_lost(self, exc: Exception | None) -> None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            gate.leave(self.transport)
            super().connection_lost(exc)

    return GatedHTTP, GatedWebSocket
