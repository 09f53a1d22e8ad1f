"""The tables of this process: where a table id finds its room, how a table is created or loaded from the store,
the bots' decisions, and the upkeep that rebuilds stale tables and lets finished evenings leave memory.

Where each table is driven is the placement's to say (rummoli.server.tables.placement): this process, for a
single server; a lease among several processes otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import secrets
import time
from typing import Any

from rummoli.bots.worker import GRACE, BotWorkers, NoAnswer, decide
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.server.settings import Settings
from rummoli.server.storage.rows import SeatRow, token_hash
from rummoli.server.storage.store import Store
from rummoli.server.storage.writer import StoreWriter
from rummoli.server.tables.errors import ServerError
from rummoli.server.tables.eviction import lonely, over_to_drop
from rummoli.server.tables.host import Host
from rummoli.server.tables.hub import Hub
from rummoli.server.tables.names import bot_name, clash, new_token, open_name
from rummoli.server.tables.placement import LocalPlacement, Placement
from rummoli.server.tables.room import Room

log = logging.getLogger("rummoli.server")


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


class Health:
    """A repeated chore's health in the log: one line when it starts failing, one when it works again (not
    one per attempt, every second, while the database is down)."""

    def __init__(self, what: str, retry: str) -> None:
        self.what, self.retry, self.failing = what, retry, False

    def failed(self, error: BaseException) -> None:
        if not self.failing:
            log.warning("%s failed (%s, the database?); trying again %s", self.what, type(error).__name__,
                        self.retry)
        self.failing = True

    def works(self) -> None:
        if self.failing:
            log.warning("%s works again", self.what)
        self.failing = False


class Registry:
    """Every table of this process, the store, the hub and the bots' worker pool."""

    def __init__(self, settings: Settings, store: Store, hub: Hub, workers: BotWorkers | None) -> None:
        self.settings = settings
        self.store = store
        self.hub = hub
        self.workers = workers
        self.writer = StoreWriter(store)
        self.rooms: dict[str, Room] = {}
        self.placement: Placement = LocalPlacement(self)
        self.wake = asyncio.Event()  # set to run the upkeep now (a placement that hears of a death)
        self._loading: dict[str, asyncio.Lock] = {}
        self._upkeep: asyncio.Task[None] | None = None

    async def start(self) -> int:
        """Start the upkeep and the placement; how many tables were brought back."""
        self._upkeep = asyncio.get_running_loop().create_task(self._maintain())
        return await self.placement.start()

    # ------------------------------------------------------------------------------------- finding
    async def get(self, table_id: str, active_only: bool = False) -> Room | None:
        """The room of a table, loaded from the store if this process does not hold it yet (its keeper is the
        placement's to choose)."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if len(table_id) > 32:
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(table_id)
            if room is not None:
                return room
            row = await asyncio.to_thread(self.store.table, table_id)
            if row is None or (active_only and row.status == "over"):
                return None
            room = Room(row.id, row.options, row.creator_seat, row.seats, self, status=row.status,
                        created_at=row.created_at)
            room.keeper = await self.placement.keeper_for(room)
            if row.seq > 0 or row.status != "waiting":
                recovery = await asyncio.to_thread(self.store.recover, table_id)
                if recovery is not None:
                    room.restore(recovery)
            self.rooms[table_id] = room
            room.keeper.begin()
        self._loading.pop(table_id, None)
        return room

    async def listing(self, base_url: str) -> list[dict[str, Any]]:
        """Summaries of the tables waiting or in play, newest first."""
        return await self.placement.listing(base_url)

    def summaries(self, base_url: str) -> list[dict[str, Any]]:
        """Summaries of the tables this process holds that are waiting or in play, newest first."""
        rooms = sorted((r for r in self.rooms.values() if not r.over), key=lambda r: -r.created_at)
        return [r.summary(base_url) for r in rooms]

    def drop(self, room: Room) -> None:
        """The room leaves memory (the store keeps the table: the next request loads it again)."""
        self.rooms.pop(room.id, None)
        room.keeper.halt()

    # ------------------------------------------------------------------------------------- creating
    def new_table(self, options: dict[str, Any], names: list[str], levels: list[str | None]) -> Any:
        from rummoli.table import Seat, Table

        # Forced plays are each a step of their own (rummoli.server.tables.schedule), at every pace: one made
        # inside the action that caused it would tell every seat it was forced (issue 33). A person's forced
        # lead, pass or keep is asked of them, as a choice is.
        return Table(options["ruleset"], [Seat(n, b) for n, b in zip(names, levels, strict=True)],
                     chips=options.get("chips"), hands=options.get("hands"), seed=options.get("seed"),
                     samples=self.settings.bot_samples, auto=False, ask_forced=True)

    async def create(self, request: dict[str, Any]) -> tuple[Room, int, str]:
        """A new table from a validated :class:`~rummoli.server.api.protocol.CreateTable` (as a dict)."""
        from rummoli.games import family, game_of

        if len(self.rooms) >= self.settings.max_tables:
            raise ServerError("unavailable", "the server has as many tables as it can hold; try later", status=503)
        if request.get("seed") is not None and not self.settings.allow_seeds:
            raise ServerError("malformed", "this server does not allow fixed seeds (start it with --allow-seeds)")
        specs = request["seats"]
        creator = request["creator_seat"]
        if creator >= len(specs) or specs[creator].get("bot") is not None:
            raise ServerError("malformed", f"creator_seat {creator} must be one of the people's seats")
        problem = clash(request["name"], [])
        if problem is not None:
            raise ServerError("malformed", f"name: {problem}")
        ruleset = request["ruleset"]
        try:
            game = game_of(ruleset)
        except MalformedInput as error:
            raise ServerError("malformed", f"ruleset: {error}") from None
        ruleset_name = ruleset if isinstance(ruleset, str) else str(ruleset.get("name", "custom"))[:64]
        # Chips are for the games played for chips on a board: a Rummy-family table keeps none it was sent (it
        # showed them in its summary, never to be played with), so a client that sends chips for every game is
        # not refused
        chips = request.get("chips") if family(game).has_board else None
        options = {"ruleset": ruleset, "ruleset_name": ruleset_name, "game": game, "chips": chips,
                   "hands": request.get("hands"), "turn_timer": request.get("turn_timer"),
                   "seed": request.get("seed"), "seats": [s.get("bot") for s in specs], "pace": request.get("pace")}
        token = new_token()
        seats: list[SeatRow] = []
        for seat, spec in enumerate(specs):
            level = spec.get("bot")
            if level is not None:
                seats.append(SeatRow(bot_name(seat, level), level, None))
            elif seat == creator:
                seats.append(SeatRow(request["name"], None, token_hash(token)))
            else:
                seats.append(SeatRow(open_name(seat), None, None))
        room = await self.open_table(options, creator, seats)
        return room, creator, token

    async def open_table(self, options: dict[str, Any], creator: int, seats: list[SeatRow]) -> Room:
        """A new table of ``options`` (as :meth:`create` makes them) with these seats, stored and held here; dealt
        at once when every person's seat is taken (a rematch: rummoli.server.tables.rematch)."""
        if len(self.rooms) >= self.settings.max_tables:
            raise ServerError("unavailable", "the server has as many tables as it can hold; try later", status=503)
        try:
            trial = self.new_table(options, [s.name for s in seats], [s.bot for s in seats])
        except (MalformedInput, IllegalAction, ValueError) as error:
            raise ServerError("malformed", str(error), rule=getattr(error, "rule", None)) from None  # as its message
        room = Room(new_table_id(), options, creator, seats, self)
        full = all(s.token_hash is not None for s in seats if s.person)
        fence = await asyncio.to_thread(self.store.create_table, room.id, str(options["game"]),
                                        str(options["ruleset_name"]), options, creator, seats, self.placement.owner,
                                        self.settings.lease_seconds, room.created_at)
        host = Host(room, fence)
        room.keeper = host
        self.rooms[room.id] = room
        if full:
            await host.start(trial)
        return room

    # ------------------------------------------------------------------------------------- bots
    async def decide(self, bot: Any, view: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """A bot's decision, made in a worker process (in a thread when the server has no workers). Past the
        deadline and a little more, :class:`~rummoli.bots.worker.NoAnswer` (a stuck worker is replaced; in a
        thread the bot decides on a copy, so one that answers too late changes nothing)."""
        seconds = self.settings.bot_deadline
        if self.workers is None:
            try:
                return await asyncio.wait_for(asyncio.to_thread(decide, copy.deepcopy(bot), view,
                                                                time.time() + seconds),
                                              seconds + GRACE)
            except TimeoutError:  # a thread cannot be ended: the bot's own deadline ends it
                raise NoAnswer(f"no answer within {seconds + GRACE} s") from None
        return await self.workers.decide(bot, view, seconds)

    # ------------------------------------------------------------------------------------- upkeep
    async def _maintain(self) -> None:
        """Every second: rebuild the tables a failed write left stale (once the database answers again) and
        go on with them, let finished evenings nobody watches leave memory, then the placement's own upkeep."""
        health = Health("upkeep", "every second")
        while True:
            # Each look wakes the process, and an idle process's wake-ups are most of what it costs
            # (python -m bench.cluster --idle): once a second, or at once when woken.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), 1.0)
            self.wake.clear()
            now = time.monotonic()
            try:
                for room in list(self.rooms.values()):
                    if room.stale:
                        await room.recover_stale()
                self._drop_over(now)
                await self._close_lonely(now)
                await self.placement.upkeep(now)
                health.works()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                health.failed(error)

    def _drop_over(self, now: float) -> None:
        """Finished evenings nobody watches leave memory (rummoli.server.tables.eviction); the store keeps them."""
        settings = self.settings
        for room in over_to_drop(list(self.rooms.values()), lambda i: bool(self.hub.listeners(i)), now,
                                 settings.over_keep, settings.over_cap):
            self.drop(room)

    async def _close_lonely(self, now: float) -> None:
        """Tables this process drives that nobody is at close (rummoli.server.tables.eviction.lonely): a waiting
        one leaves the lobby, an evening in play ends."""
        settings = self.settings
        driven = [r for r in self.rooms.values() if isinstance(r.keeper, Host) and not r.stale]

        def anyone(room: Room) -> bool:
            return any(room.keeper.connected(seat) > 0 for seat, state in enumerate(room.seats) if state.person)

        for room in lonely(driven, anyone, now, settings.waiting_keep, settings.idle_end):
            log.info("table %s: nobody has been at it for a while; its %s ends", room.id,
                        "waiting" if room.status == "waiting" else "evening")
            room.alone_since = None
            try:
                await room.end()
            except ServerError:
                continue

    async def close(self) -> None:
        if self._upkeep is not None:
            self._upkeep.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._upkeep
        await self.placement.stopping()
        for room in list(self.rooms.values()):
            for task in room.keeper.halt():
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await asyncio.to_thread(self.writer.close)
        await self.placement.close()
