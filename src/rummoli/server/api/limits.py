"""Per-address limits on the REST endpoints that write or cost CPU (issue 33, item 4).

Each address has two token buckets (:class:`~rummoli.server.buckets.RateLimit`): one for creating
tables (``table_rate`` a second on average, ``table_burst`` at once), one shared by the other endpoints that
write or cost CPU: taking and leaving seats, starting, ending and resuming, a seat's history, the evening's record and
replays (``request_rate``, ``request_burst``). A request over its allowance is answered ``429`` in one line
with ``Retry-After`` (seconds until a token is back) before anything is read or done. Only a table made spends
the tables' allowance: a creation refused (an unknown ruleset, a malformed body, too many tables waiting) spends
one of the other requests' instead, so that mistakes do not lock a person out and a flood of them is still
bounded. An address also has at most ``max_waiting_per_ip`` of its tables waiting for players at once (counted
by this process).

The address is the connection's peer. Behind a reverse proxy that is the proxy, shared by every client:
name it with ``rummoli serve --trusted-proxy ADDRESS`` and the client's address is taken from the
``X-Forwarded-For`` header the proxy sets (the last address in it that is not a trusted proxy). A request
from anywhere else is never believed about where it comes from.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummoli.server.buckets import RateLimit
from rummoli.server.jsontext import dumps
from rummoli.server.settings import Settings
from rummoli.server.tables.errors import ServerError

TABLES, REQUESTS = "tables", "requests"
_TABLE = r"/api/tables/[^/]+"
#: (method, path) of each limited endpoint, and its bucket.
LIMITED: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("POST", re.compile(r"/api/tables/?"), TABLES),
    ("POST", re.compile(_TABLE + r"/rematch/?"), TABLES),  # Play again makes a table
    ("POST", re.compile(_TABLE + r"/(seats|leave|start|end|resume)/?"), REQUESTS),
    ("GET", re.compile(_TABLE + r"/(history|record)/?"), REQUESTS),
    ("GET", re.compile(_TABLE + r"/hands/[^/]+/(replay|review)/?"), REQUESTS),
    ("POST", re.compile(r"/api/(replay|review)/?"), REQUESTS),
)
#: Buckets kept before the full (idle) ones are forgotten.
KEEP = 10_000


def client_address(scope: Scope, trusted: frozenset[str]) -> str:
    """The client's address: the peer's, or when the peer is a trusted proxy, what its X-Forwarded-For says.

    >>> scope = {"client": ("10.0.0.9", 4000), "headers": [(b"x-forwarded-for", b"6.6.6.6, 1.2.3.4, 10.0.0.8")]}
    >>> client_address(scope, frozenset()), client_address(scope, frozenset({"10.0.0.9", "10.0.0.8"}))
    ('10.0.0.9', '1.2.3.4')
    """
    client = scope.get("client")
    peer = str(client[0]) if client else ""
    if peer not in trusted:
        return peer
    forwarded = b",".join(v for k, v in scope.get("headers") or [] if k == b"x-forwarded-for")
    hops = [hop.strip() for hop in forwarded.decode("latin-1").split(",") if hop.strip()]
    for hop in reversed(hops):
        if hop not in trusted:
            return hop[:64]
    return peer


def bucket_of(method: str, path: str) -> str | None:
    """Which allowance a request spends, or None for one that is not limited.

    >>> bucket_of("POST", "/api/tables"), bucket_of("GET", "/api/tables/abc/history"), bucket_of("GET", "/healthz")
    ('tables', 'requests', None)
    """
    for verb, pattern, bucket in LIMITED:
        if verb == method and pattern.fullmatch(path):
            return bucket
    return None


class Limits:
    """The allowances of every address (see the module's docstring)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.trusted = frozenset(settings.trusted_proxies)
        self.rates = {TABLES: (settings.table_rate, settings.table_burst),
                      REQUESTS: (settings.request_rate, settings.request_burst)}
        self.buckets: dict[str, dict[str, RateLimit]] = {TABLES: {}, REQUESTS: {}}
        self.waiting: dict[str, list[str]] = {}

    def address(self, scope: Scope) -> str:
        return client_address(scope, self.trusted)

    def spend(self, bucket: str, address: str, now: float) -> float | None:
        """Take a token; None when there was one, else the seconds until there is."""
        rate, burst = self.rates[bucket]
        buckets = self.buckets[bucket]
        limit = buckets.get(address)
        if limit is None:
            if len(buckets) >= KEEP:
                self.forget_full(buckets, now)
            limit = buckets[address] = RateLimit(rate, burst)
        if limit.allow(now):
            return None
        return (1.0 - limit.tokens) / limit.rate

    def give_back(self, bucket: str, address: str) -> None:
        """Return the token a request took (a table creation that made no table)."""
        limit = self.buckets[bucket].get(address)
        if limit is not None:
            limit.tokens = min(limit.burst, limit.tokens + 1.0)

    @staticmethod
    def forget_full(buckets: dict[str, RateLimit], now: float) -> None:
        for address, limit in list(buckets.items()):
            if limit.stamp is None or limit.tokens + (now - limit.stamp) * limit.rate >= limit.burst:
                del buckets[address]

    def refusal(self, bucket: str) -> str:
        rate, burst = self.rates[bucket]
        if bucket == TABLES:
            return f"too many new tables from your address: at most {burst} at once and {rate * 60:g} a minute"
        return f"too many requests from your address: at most {rate:g} a second to this kind of endpoint"

    def admit_table(self, address: str, waiting: Callable[[str], bool]) -> None:
        """Refuse (429) a new table to an address whose tables already waiting are its allowance."""
        most = self.settings.max_waiting_per_ip
        if not most or address in self.trusted:
            return
        mine = [table_id for table_id in self.waiting.get(address, []) if waiting(table_id)]
        if mine:
            self.waiting[address] = mine
        else:
            self.waiting.pop(address, None)
        if len(mine) >= most:
            raise ServerError("rate_limited", f"your address has {len(mine)} tables waiting for players: at most "
                                              f"{most}; start or end one first", status=429)

    def created(self, address: str, table_id: str) -> None:
        if self.settings.max_waiting_per_ip:
            self.waiting.setdefault(address, []).append(table_id)


class RateLimits:
    """ASGI middleware: a request over its address's allowance is answered 429 before it is read. A request
    for a table takes its token first (so that requests at once cannot all pass), and gets it back unless its
    answer is a success: only a table made counts."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        bucket = bucket_of(scope["method"], scope["path"]) if scope["type"] == "http" else None
        if bucket is None:
            await self.app(scope, receive, send)
            return
        address = self.limits.address(scope)
        limits, now = self.limits, time.monotonic()
        # A creation takes a token of both allowances and gives one back when it is answered: a table made keeps
        # the tables' token, a creation refused keeps the other's instead, so that a few mistakes never lock a
        # person out of making a table while a flood of bad ones is still bounded (each is read, a ruleset too).
        for spent in ((REQUESTS, TABLES) if bucket == TABLES else (bucket,)):
            wait = limits.spend(spent, address, now)
            if wait is not None:
                if spent == TABLES:  # refused for the tables' allowance: the requests' token taken goes back
                    limits.give_back(REQUESTS, address)
                await refuse(send, limits.refusal(spent), math.ceil(wait))
                return
        if bucket != TABLES:
            await self.app(scope, receive, send)
            return
        settled = False

        def settle(made: bool) -> None:
            nonlocal settled
            if not settled:
                settled = True
                limits.give_back(REQUESTS if made else TABLES, address)

        async def answer(message: Message) -> None:
            if message["type"] == "http.response.start":
                settle(200 <= message["status"] < 300)  # before the client can hear it and ask again
            await send(message)

        try:
            await self.app(scope, receive, answer)
        finally:
            settle(False)  # no answer at all (an error on the way): no table either


async def refuse(send: Send, message: str, retry: int) -> None:
    body = dumps({"error": {"code": "rate_limited", "message": f"{message}; try again in {retry} s",
                            "rule": None}}).encode()
    headers: list[tuple[bytes, bytes]] = [(b"content-type", b"application/json"),
                                          (b"content-length", str(len(body)).encode()),
                                          (b"retry-after", str(retry).encode())]
    start: dict[str, Any] = {"type": "http.response.start", "status": 429, "headers": headers}
    await send(start)
    await send({"type": "http.response.body", "body": body})
