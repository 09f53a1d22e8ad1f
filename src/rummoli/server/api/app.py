"""The web application: REST endpoints for tables and seats, the websocket for live play, health and protocol.

:func:`create_app` builds it from :class:`~rummoli.server.settings.Settings`. At start it applies the
migrations shipped in the package, opens the bots' worker pool and brings back every table that was waiting
or in play. Every error a client sees is one JSON object ``{"error": {"code", "message", "rule"}}`` (or, on
the websocket, an ``error`` message): never a stack trace.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Body, FastAPI, Header, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummoli.bots.worker import BotWorkers
from rummoli.server.api.connection import CLOSE_POLICY, Connection, ConnectionLimit, error_message
from rummoli.server.api.guard import Addresses, Guard
from rummoli.server.api.history import PAGE_HANDS, history_text, record_text
from rummoli.server.api.limits import Limits, RateLimits
from rummoli.server.api.protocol import (
    PROTOCOL_VERSION,
    CreateTable,
    ErrorResponse,
    Joined,
    JoinTable,
    TableCreated,
    TableList,
    TableSummary,
    first_problem,
    protocol_schema,
)
from rummoli.server.api.web import REPLAY_BODY
from rummoli.server.heap import HeapKeeper
from rummoli.server.jsontext import dumps
from rummoli.server.settings import Settings
from rummoli.server.storage.store import Store
from rummoli.server.tables import rematch
from rummoli.server.tables.errors import ServerError
from rummoli.server.tables.hub import Hub
from rummoli.server.tables.registry import Registry
from rummoli.server.tables.room import Room, invite_link

log = logging.getLogger("rummoli.server")

MAX_BODY = 64 * 1024
Auth = Annotated[str | None, Header(description="`Bearer` and the seat token.")]

DESCRIPTION = """
Rummoli's game server: tables of friends and computer players, played live over one websocket per client.

* Create a table (`POST /api/tables`): you get its id, an invite link to send your friends, and your
  **seat token**, a secret that is your seat (there are no accounts). Send it as `Authorization: Bearer TOKEN`
  to the endpoints that act for a seat, and in the websocket's `hello`.
* Friends take the open seats (`POST /api/tables/{id}/seats`); the evening starts when every seat is taken
  (or when the creator starts it: bots take the open seats).
* Play on `/ws/tables/{id}`: the messages, both ways, are described by `GET /api/protocol.json`.
"""

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "Refused: the message names the problem (and the rule)."},
    404: {"model": ErrorResponse, "description": "No such table."},
}


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413) before any of it is parsed; ``paths``: smaller limits
    of some paths."""

    def __init__(self, app: ASGIApp, limit: int, paths: dict[str, int] | None = None) -> None:
        self.app, self.most, self.paths = app, limit, paths or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.most)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send, limit)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise _BodyTooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _BodyTooLarge:
            await _too_large(send, limit)


class _BodyTooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    body = dumps({"error": {"code": "too_large", "message": f"a request body holds at most {limit} bytes",
                            "rule": None}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _error(status: int, code: str, message: str, rule: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "rule": rule}}, status_code=status)


def create_app(settings: Settings) -> FastAPI:
    """The application for ``settings`` (see the module's docstring)."""
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        await asyncio.to_thread(store.migrate)
        workers = BotWorkers(worker_count(settings.bot_workers)) if settings.bot_workers >= 0 else None
        registry = Registry(settings, store, Hub(), workers)
        state["reviews"].use(workers)
        if settings.redis_url:  # one of several processes; a single one never imports the cluster
            from rummoli.server.cluster import Cluster

            registry.placement = Cluster(registry)
        state["registry"] = registry
        restored = await registry.start()
        if restored:
            log.warning("brought back %d table(s) from %s", restored, settings.database_url.split("://")[0])
        heap = HeapKeeper(settings.gc_freeze, settings.gc_sweep)
        heap.start()
        try:
            yield
        finally:
            await heap.stop()
            await registry.close()
            if workers is not None:
                await asyncio.to_thread(workers.close)
            state["reviews"].close()
            store.close()

    app = FastAPI(title="Rummoli", version=f"protocol {PROTOCOL_VERSION}", description=DESCRIPTION,
                  lifespan=lifespan)
    addresses = Addresses(settings.host, settings.port, settings.public_url)
    app.add_middleware(BodyLimit, limit=MAX_BODY, paths={"/api/replay": REPLAY_BODY, "/api/review": REPLAY_BODY})
    limits = Limits(settings)
    app.add_middleware(RateLimits, limits=limits)  # a refused request is not read
    app.add_middleware(Guard, addresses=addresses)  # added last: the outermost

    def tables() -> Registry:
        found: Registry = state["registry"]
        return found

    def base_url(request: Request) -> str:
        """The base of the links the server makes: its public address, never what the request's Host says."""
        return addresses.base_url(request.headers.get("host", ""))

    # ----------------------------------------------------------------------------------- errors
    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, error: ServerError) -> JSONResponse:
        return _error(error.status, error.code, error.message, error.rule)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(422, "malformed", first_problem(error.errors(), "the body is not valid JSON"))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "error")
        return _error(error.status_code, code, str(error.detail))

    @app.exception_handler(Exception)
    async def _internal(_request: Request, error: Exception) -> JSONResponse:
        log.error("internal error: %s", type(error).__name__, exc_info=error)
        return _error(500, "internal", "the server failed to answer; nothing was changed")

    # ----------------------------------------------------------------------------------- helpers
    async def table_of(table_id: str) -> Room:
        room = await tables().get(table_id)
        if room is None:
            raise ServerError("not_found", "no such table", status=404)
        return room

    def seat_of(room: Room, authorization: str | None) -> int:
        if authorization is None or not authorization.startswith("Bearer "):
            raise ServerError("unauthorized", "send your seat token as 'Authorization: Bearer TOKEN'", status=401)
        seat = room.seat_of_token(authorization.removeprefix("Bearer ").strip())
        if seat is None:
            raise ServerError("unauthorized", "that seat token holds no seat at this table", status=403)
        return seat

    # ----------------------------------------------------------------------------------- service
    @app.get("/healthz", summary="Health", tags=["service"])
    async def healthz() -> JSONResponse:
        """`200` when the server and its database answer (`503` when the database does not). With several
        processes it also says whether Redis answers (without it this process serves only the tables it
        owns), this process's name and how many tables it drives."""
        registry = tables()
        try:
            ok = await asyncio.to_thread(registry.store.ping)
        except Exception:
            ok = False
        placed = registry.placement.health()
        body = {"status": "ok" if ok and placed["redis"] != "unreachable" else "degraded",
                "database": "ok" if ok else "unreachable", "redis": placed["redis"],
                "process": settings.process_name, "owned": placed["owned"], "tables": len(registry.rooms),
                "clients": registry.hub.count(), "protocol": PROTOCOL_VERSION}
        return JSONResponse(body, status_code=200 if ok else 503)

    @app.get("/api/protocol.json", summary="The websocket protocol", tags=["service"])
    async def protocol() -> dict[str, Any]:
        """The JSON Schema of every websocket message (client to server and back) and the protocol version."""
        return protocol_schema()

    # ----------------------------------------------------------------------------------- tables
    @app.post("/api/tables", status_code=201, response_model=TableCreated, summary="Create a table",
              tags=["tables"], responses={**ERRORS, 503: {"model": ErrorResponse}})
    async def create_table(request: Request, body: Annotated[CreateTable, Body()]) -> TableCreated:
        """A new table: its ruleset (a built-in name or an inline ruleset, never a path), its seats (`{"bot":
        LEVEL}` or `{}` for a person), starting chips, evening length and optional turn timer. Answers the id,
        the invite link, the creator's seat and **seat token** (shown only here). The evening starts when
        every person's seat is taken."""
        address = limits.address(request.scope)
        limits.admit_table(address, lambda t: getattr(tables().rooms.get(t), "status", None) == "waiting")
        room, seat, token = await tables().create(body.model_dump())
        limits.created(address, room.id)
        return TableCreated(id=room.id, invite=invite_link(base_url(request), room.id), seat=seat, token=token)

    @app.get("/api/tables", response_model=TableList, summary="List tables", tags=["tables"])
    async def list_tables(request: Request, open: bool = False) -> TableList:
        """The tables waiting or in play (newest first, at most 100); with `open=true`, only those with a
        seat free to take."""
        summaries = await tables().listing(base_url(request))
        if open:
            summaries = [s for s in summaries if s["open_seats"] > 0]
        return TableList(tables=[TableSummary(**s) for s in summaries[:100]])

    @app.get("/api/tables/{table_id}", response_model=TableSummary, summary="A table's public summary",
             tags=["tables"], responses=ERRORS)
    async def get_table(request: Request, table_id: str) -> TableSummary:
        """Game, ruleset, seats (names, bots, who is connected, which are open), hand number and `seq`:
        what anyone may see (a spectator needs no token)."""
        return TableSummary(**(await table_of(table_id)).summary(base_url(request)))

    @app.post("/api/tables/{table_id}/seats", status_code=201, response_model=Joined, summary="Take a seat",
              tags=["seats"], responses={**ERRORS, 409: {"model": ErrorResponse}})
    async def join(table_id: str, body: JoinTable) -> Joined:
        """Take an open seat with a display name (text, at most 24 characters): the answer holds its seat
        token. `409` when no seat is open (the evening has started) or the name is taken."""
        room = await table_of(table_id)
        seat, token = await room.join(body.name, body.seat)
        return Joined(id=room.id, seat=seat, token=token)

    @app.post("/api/tables/{table_id}/leave", summary="Leave your seat", tags=["seats"],
              responses={**ERRORS, 401: {"model": ErrorResponse}, 403: {"model": ErrorResponse},
                         409: {"model": ErrorResponse}})
    async def leave(request: Request, table_id: str, authorization: Auth = None) -> TableSummary:
        """Give up your seat: the token stops working. Before the evening starts the seat opens again;
        during it, a bot plays the seat to the end. `409` once the evening is over: the seat stays yours, with
        its record, replays and Play again."""
        room = await table_of(table_id)
        await room.leave(seat_of(room, authorization))
        return TableSummary(**room.summary(base_url(request)))

    @app.post("/api/tables/{table_id}/start", summary="Start now (creator)", tags=["seats"],
              responses={**ERRORS, 401: {"model": ErrorResponse}, 403: {"model": ErrorResponse}})
    async def start(request: Request, table_id: str, authorization: Auth = None) -> TableSummary:
        """The creator deals the first hand without waiting: bots take the seats still open."""
        room = await table_of(table_id)
        creator_only(room, seat_of(room, authorization))
        await room.start_now()
        return TableSummary(**room.summary(base_url(request)))

    @app.post("/api/tables/{table_id}/end", summary="End the evening (creator)", tags=["tables"],
              responses={**ERRORS, 401: {"model": ErrorResponse}, 403: {"model": ErrorResponse},
                         409: {"model": ErrorResponse}})
    async def end(request: Request, table_id: str, authorization: Auth = None) -> TableSummary:
        """The creator ends the evening: no new hand is dealt; the hand in play is played to its end. `409` when
        the evening is already over."""
        room = await table_of(table_id)
        creator_only(room, seat_of(room, authorization))
        await room.end()
        return TableSummary(**room.summary(base_url(request)))

    @app.post("/api/tables/{table_id}/resume", summary="Resume a paused table (creator)", tags=["tables"],
              responses={**ERRORS, 401: {"model": ErrorResponse}, 403: {"model": ErrorResponse},
                         409: {"model": ErrorResponse}})
    async def resume(request: Request, table_id: str, authorization: Auth = None) -> TableSummary:
        """A table whose computer players failed three decisions in a row is paused (its `status` says so,
        and no bot is asked to move, even after a restart); its creator may ask them again. `409` when the
        table is not paused."""
        room = await table_of(table_id)
        creator_only(room, seat_of(room, authorization))
        await room.resume()
        return TableSummary(**room.summary(base_url(request)))

    @app.post("/api/tables/{table_id}/rematch", status_code=201, response_model=Joined, summary="Play again",
              tags=["seats"], responses={**ERRORS, 401: {"model": ErrorResponse}, 403: {"model": ErrorResponse},
                                         409: {"model": ErrorResponse}})
    async def play_again(table_id: str, authorization: Auth = None) -> Joined:
        """Once the evening is over, a person at the table makes a new one with the same seats, bots and
        options (the first to ask makes it; the others are answered the same table): the answer holds your
        seat token there. The table's other people are sent theirs, each on their own connection (a
        `rematch` message); seats whose people left, or that were open, go to bots. `409` before the end."""
        room = await table_of(table_id)
        new_id, token = await rematch.play_again(room, seat_of(room, authorization))
        return Joined(id=new_id, seat=seat_of(room, authorization), token=token)

    def creator_only(room: Room, seat: int) -> None:
        if seat != room.creator_seat:
            raise ServerError("unauthorized", "only the table's creator may do that", status=403)

    # ----------------------------------------------------------------------------------- history
    @app.get("/api/tables/{table_id}/history", summary="Your view of the hands played", tags=["history"],
             responses={**ERRORS, 401: {"model": ErrorResponse}, 403: {"model": ErrorResponse}})
    async def history(table_id: str, authorization: Auth = None, first: Annotated[int, Query(ge=1)] = 1,
                      count: Annotated[int, Query(ge=1, le=PAGE_HANDS)] = PAGE_HANDS) -> Response:
        """A page of finished hands (`first` on, at most `count`, 20) as your seat saw them: their events
        exactly as your live stream sent them and each hand's final view from your chair (never another
        seat's hidden cards): `{"format": "rummoli-seat-history/3", "table", "seat", "name", "seq", "first",
        "next": the next page's first hand or null, "hands_total", "evening": [events between hands],
        "hands": [{"hand_no", "hand_seats", "players", "you", "first_seq", "last_seq", "events", "view"}]}`."""
        room = await table_of(table_id)
        text = await history_text(room, seat_of(room, authorization), first, count)
        return Response(text, media_type="application/json")

    @app.get("/api/tables/{table_id}/record", summary="The evening's record (when it is over)",
             tags=["history"], responses={**ERRORS, 401: {"model": ErrorResponse}, 403: {"model": ErrorResponse},
                                          409: {"model": ErrorResponse}})
    async def record(table_id: str, authorization: Auth = None) -> Response:
        """The full `rummoli-evening/1` record (every hand with every card), for the table's players once
        the evening is over; `rummoli replay FILE` checks it. `409` while the evening goes on."""
        room = await table_of(table_id)
        seat_of(room, authorization)
        if not room.over or room.table is None:
            raise ServerError("unavailable", "the record is available once the evening is over", status=409)
        return Response(await record_text(room), media_type="application/json")

    # ----------------------------------------------------------------------------------- live play
    connections = ConnectionLimit(settings.max_connections_per_ip)

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        """Live play (see /api/protocol.json)."""
        await websocket.accept()
        if not origin_allowed(websocket, settings, addresses):
            await websocket.send_text(dumps(error_message("unauthorized", "this page's origin may not connect")))
            await websocket.close(CLOSE_POLICY, "origin not allowed")
            return
        address = limits.address(websocket.scope)
        if not connections.enter(address):
            await websocket.send_text(dumps(error_message(
                "rate_limited", f"too many connections from your address: at most {connections.most} at once")))
            await websocket.close(CLOSE_POLICY, "too many connections")
            return
        try:
            await Connection(websocket, tables()).run(table_id)
        finally:
            connections.leave(address)

    # The coach's reviews, made in the bot workers' low-priority aside worker (rummoli.server.api.review).
    from rummoli.server.api.review import Reviews, add_review_routes

    add_review_routes(app, table_of, seat_of, ServerError, state.setdefault("reviews", Reviews()))

    # The browser table (rummoli/web/) and the few endpoints only it uses; mounted last, under "/".
    from rummoli.server.api.web import add_routes

    add_routes(app, table_of, seat_of, ServerError)
    return app


def worker_count(asked: int) -> int:
    """``asked`` bot workers, or for 0 one per core (at most 4)."""
    return asked if asked > 0 else max(1, min(4, os.cpu_count() or 1))


def origin_allowed(websocket: WebSocket, settings: Settings, addresses: Addresses) -> bool:
    """A browser's ``Origin`` must be this server's own address (its ``Host`` was checked already: see
    rummoli.server.api.guard) or one the settings allow; a client that sends none (a program, not a page a
    stranger could load) may connect."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    return origin in addresses.origins(websocket.headers.get("host", "")) or origin in settings.allowed_origins
