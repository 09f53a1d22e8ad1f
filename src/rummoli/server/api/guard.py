"""What every request passes before the application sees it: its ``Host`` must be one of the server's own
addresses, and every answer carries the browser's security headers.

**Host.** A page on a stranger's site can make a browser send requests to a server on the browser's own
network under the stranger's name (DNS rebinding): the browser then believes the server *is* that site, and
its same-origin rules protect nothing. Such a request names the stranger's host in its ``Host`` header, so the
server answers only requests addressed to itself (:class:`Addresses`): the public address the operator gave
(``--public-url``, what a reverse proxy's clients use) and the address it listens on (for a loopback address,
``localhost``, ``127.0.0.1`` and ``[::1]`` alike; listening on every interface, any IP address, which no
rebinding can forge: it needs a name). Anything else is refused with ``400`` and one line, on HTTP and on the
websocket alike. Invite links are made from the public address, never from what a request says.

**Headers.** Every HTTP answer says: only this server's own scripts, styles and connections
(``Content-Security-Policy``), never inside another site's frame (``frame-ancestors 'none'`` and
``X-Frame-Options: DENY``), no guessing of content types (``X-Content-Type-Options: nosniff``), and no
``Referer`` sent on (an invite link names its table). The API's own documentation pages (``/docs``,
``/redoc``) load their scripts from a CDN and configure them inline: they alone get a policy that lets them.

>>> a = Addresses("127.0.0.1", 8000, "")
>>> a.allows("localhost:8000"), a.allows("[::1]:8000"), a.allows("evil.example:8000"), a.allows("127.0.0.1")
(True, True, False, False)
>>> a.base_url("localhost:8000")
'http://127.0.0.1:8000'
>>> b = Addresses("127.0.0.1", 8001, "https://Cards.Example.org/")
>>> b.allows("cards.example.org"), b.allows("cards.example.org:443"), b.allows("127.0.0.1:8001"), b.base_url("x")
(True, True, True, 'https://cards.example.org')
>>> c = Addresses("0.0.0.0", 8000, "")
>>> c.allows("192.168.1.20:8000"), c.allows("[fe80::1]:8000"), c.allows("rebound.example:8000")
(True, True, False)
>>> c.base_url("192.168.1.20:8000")
'http://192.168.1.20:8000'
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummoli.errors import quote
from rummoli.server.jsontext import dumps

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::", "")
DEFAULT_PORTS = {"http": 80, "https": 443}

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
#: FastAPI's /docs and /redoc pages: their scripts come from a CDN and are configured inline.
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
            "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https:; worker-src 'self' blob:; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")
HEADERS = [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer")]


def split_host(header: str, scheme: str = "http") -> tuple[str, int] | None:
    """``(host, port)`` of a ``Host`` header (lowercase, IPv6 without brackets, the scheme's port when none is
    given), or None when it is not one.

    >>> split_host("Example.org"), split_host("[::1]:8000"), split_host("a:b"), split_host("")
    (('example.org', 80), ('::1', 8000), None, None)
    """
    try:
        parts = urlsplit(f"{scheme}://{header.strip()}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host or parts.path or parts.query or parts.fragment or parts.username is not None:
        return None
    return host.rstrip("."), port if port is not None else DEFAULT_PORTS[scheme]


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class Addresses:
    """The server's own addresses: which ``Host`` headers it answers, and the base of the links it makes
    (see the module's docstring). ``public_url``: empty, or the address people use (``https://host[:port]``)."""

    def __init__(self, host: str, port: int, public_url: str) -> None:
        self.port = port
        self.bound = host.strip("[]").lower()
        self.public: tuple[str, int] | None = None
        self.public_scheme = "http"
        self.public_base = ""
        if public_url:
            parts = urlsplit(public_url.strip())
            if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path.strip("/") or parts.query:
                raise ValueError(f"--public-url {public_url!r} is not an address like https://cards.example.org "
                                 "(http or https, a host, an optional port, no path)")
            found = split_host(parts.netloc, parts.scheme)
            if found is None:
                raise ValueError(f"--public-url {public_url!r} has no host")
            self.public, self.public_scheme = found, parts.scheme
            default = found[1] == DEFAULT_PORTS[parts.scheme]
            self.public_base = f"{parts.scheme}://{url_host(found[0])}{'' if default else f':{found[1]}'}"
        self.loopback = self.bound in LOOPBACK_NAMES or (
            is_ip(self.bound) and ipaddress.ip_address(self.bound).is_loopback)

    def allows(self, header: str) -> bool:
        """Whether a request with this ``Host`` header is addressed to this server."""
        if self.public is not None and split_host(header, self.public_scheme) == self.public:
            return True  # a Host without a port names the public address's scheme's own
        found = split_host(header)
        if found is None:
            return False
        host, port = found
        if port != self.port:
            return False
        if self.loopback:
            return host in LOOPBACK_NAMES or host == self.bound
        if self.bound in WILDCARDS:
            return is_ip(host) or host in LOOPBACK_NAMES
        return host == self.bound

    def base_url(self, header: str) -> str:
        """The base of the links the server makes (invites): the public address; without one, the address it
        listens on (listening on every interface, the IP address the request was sent to, already checked)."""
        if self.public_base:
            return self.public_base
        if self.bound in WILDCARDS:
            found = split_host(header)
            if found is not None and is_ip(found[0]):
                return f"http://{url_host(found[0])}:{self.port}"
            return f"http://127.0.0.1:{self.port}"
        return f"http://{url_host(self.bound)}:{self.port}"

    def origins(self, header: str) -> tuple[str, ...]:
        """The browser origins of this server's own pages, for a request sent with this (allowed) ``Host``."""
        own = (f"http://{header}", f"https://{header}")
        return (*own, self.public_base) if self.public_base else own


class Guard:
    """The ASGI middleware of the module's docstring, outermost: a request to another host never reaches the
    application, and every answer (the application's refusals included) has the headers."""

    def __init__(self, app: ASGIApp, addresses: Addresses) -> None:
        self.app, self.addresses = app, addresses

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        if not self.addresses.allows(host):
            await refuse(scope, receive, send, f"this server does not answer for the host {quote(host)}")
            return
        policy = DOCS_CSP if scope.get("path") in DOCS_PATHS else CSP

        async def headed(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                message = {**message, "headers": with_headers(message.get("headers") or [], policy)}
            await send(message)

        await self.app(scope, receive, headed)


def with_headers(headers: list[tuple[bytes, bytes]], policy: str) -> list[tuple[bytes, bytes]]:
    have = {name.lower() for name, _value in headers}
    extra = [(b"content-security-policy", policy.encode()), *HEADERS]
    return [*headers, *((name, value) for name, value in extra if name not in have)]


async def refuse(scope: Scope, receive: Receive, send: Send, message: str) -> None:
    """A ``400`` with one JSON line, on HTTP or on a websocket's handshake (a server that cannot answer a
    handshake with a body closes it unopened: the client sees a ``403``)."""
    body = dumps({"error": {"code": "malformed", "message": message, "rule": None}}).encode()
    headers = with_headers([(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
                           CSP)
    if scope["type"] == "websocket":
        await receive()  # the handshake's websocket.connect
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        await send({"type": "websocket.http.response.start", "status": 400, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send({"type": "http.response.start", "status": 400, "headers": headers})
    await send({"type": "http.response.body", "body": body})
