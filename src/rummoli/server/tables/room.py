"""One table in this process as its clients see it (:class:`Room`), and what keeps its table (:class:`Keeper`).

A room is what a connection, a route and the registry hold for a table id: its seats, its status, the
:class:`~rummoli.table.Table` as this process holds it, its lock, the clients connected here, and the reading
every client shares (views, events, update texts, the summary). What the room does with a command depends on
its keeper: the :class:`~rummoli.server.tables.host.Host` that drives the table in this process, or, with
several processes, a follower's copy of a table another process drives (rummoli.server.cluster.copy), which
forwards commands to the owner. Taking a table over or losing it replaces the keeper; the room, and so every
connection holding it, stays. A command that reaches a keeper just replaced is run again with the new one.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rummoli.server.jsontext import dumps
from rummoli.server.rulesets import ruleset_title
from rummoli.server.settings import Settings
from rummoli.server.storage.rows import Recovery, SeatRow, TableRow, token_hash
from rummoli.server.tables import schedule
from rummoli.server.tables.errors import Moved, ServerError
from rummoli.server.tables.updates import Updates

if TYPE_CHECKING:
    from rummoli.server.tables.registry import Registry

log = logging.getLogger("rummoli.server")

T = TypeVar("T")

#: How many times a command is run again when the keeper it reached was replaced meanwhile.
RETRIES = 4


class Keeper(Protocol):
    """What keeps a room's table in this process (see the module's docstring)."""

    #: A follower's copy: the seq of the owner's changes it keeps unplayed (0: none; a host never has any).
    ahead: int

    def catch_up(self) -> None:
        """Play what the copy kept unplayed (only when :attr:`ahead`)."""

    def loaded(self) -> None:
        """The room's table was just replaced (restored from the store, or dealt)."""

    def connected(self, seat: int) -> int:
        """How many clients of ``seat`` are connected, here and (as far as this keeper knows) elsewhere."""

    def clock_info(self) -> dict[str, Any] | None:
        """The turn clock as clients are shown it."""

    def clock_key(self) -> tuple[Any, ...] | None:
        """What names the turn clock (its deadline, not the seconds left) for the cache of update texts."""

    def next_hand_info(self, also: int | None = None) -> dict[str, Any] | None:
        """Between hands: the countdown and who is ready (``also``: a seat whose client is arriving)."""

    def told_text(self, seat: int | None, since: int) -> str | None:
        """An update text made elsewhere for exactly this update (a copy's owner sends them), or None."""

    async def act(self, seat: int, action: Any, seq: int) -> None: ...

    async def next_ready(self, seat: int, seq: int) -> None: ...

    async def end(self) -> None: ...

    async def resume(self) -> None: ...

    async def join(self, name: str, seat: int | None) -> tuple[int, str]: ...

    async def leave(self, seat: int) -> None: ...

    async def start_now(self) -> None: ...

    async def presence_changed(self, seat: int) -> None:
        """A seat's first client here came or its last one went."""

    async def ready_for(self, since: int | None) -> None:
        """Under the lock, before a client is welcomed (``since``: the last seq it saw)."""

    async def recheck_seats(self) -> bool:
        """A token matched no seat: read the seats again if they may be behind; True if they were read."""

    def resumed(self) -> None:
        """The room was stale and has been rebuilt from the store."""

    def begin(self) -> None:
        """The room was just loaded from the store."""

    def halt(self) -> list[asyncio.Task[None]]:
        """Stop what this keeper runs (the room leaves memory, or the server stops): the tasks it cancelled."""

    def retire(self) -> None:
        """This keeper is being replaced: stop, and send whatever still reaches it to the room again."""


def invite_link(base_url: str, table_id: str) -> str:
    return f"{base_url.rstrip('/')}/tables/{table_id}"


def seat_info(seat: int, state: SeatRow, playing_bot: str | None, connected: bool) -> dict[str, Any]:
    return {"seat": seat, "name": state.name, "bot": playing_bot, "person": state.person,
            "open": state.person and state.token_hash is None and not state.left, "connected": connected}


def summary_of(table_id: str, options: dict[str, Any], infos: list[dict[str, Any]], *, status: str, hand_no: int,
               seq: int, pace: schedule.Pace, title: str, created_at: float, base_url: str,
               ending: bool = False) -> dict[str, Any]:
    """What anyone may see of a table (``GET /api/tables/{id}``)."""
    return {
        "id": table_id, "game": str(options["game"]), "ruleset": options["ruleset_name"], "title": title,
        "seats": infos, "open_seats": sum(1 for s in infos if s["open"]) if status == "waiting" else 0,
        "hand_no": hand_no, "seq": seq, "over": status == "over", "status": status,
        "turn_timer": options.get("turn_timer"),
        "pace": pace.info(), "created_at": created_at, "invite": invite_link(base_url, table_id),
        "chips": options.get("chips"), "hands": options.get("hands"), "ending": ending,
    }


def stored_summary(row: TableRow, base_url: str, settings: Settings) -> dict[str, Any]:
    """The summary of a table this process does not hold, as stored (nobody is counted as connected)."""
    infos = [seat_info(seat, state, state.bot, False) for seat, state in enumerate(row.seats)]
    return summary_of(row.id, row.options, infos, status=row.status, hand_no=row.hand_no, seq=row.seq,
                      pace=schedule.pace_of(row.options.get("pace"), settings),
                      title=ruleset_title(row.options["ruleset"]), created_at=row.created_at, base_url=base_url)


def merge_snapshot(snapshot: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The snapshot of a table after ``actions`` (stored changes, in order) on top of ``snapshot``.

    >>> snap = {"journal": [["deal", []]], "bots": [None, {"rng": 1}]}
    >>> merge_snapshot(snap, [{"payload": {"journal": [["act", 0, {}]], "bots": {"1": {"rng": 2}}}}])
    {'journal': [['deal', []], ['act', 0, {}]], 'bots': [None, {'rng': 2}]}
    """
    journal = list(snapshot["journal"])
    bots = list(snapshot["bots"])
    for action in actions:
        journal.extend(action["payload"].get("journal", []))
        for seat, state in action["payload"].get("bots", {}).items():
            bots[int(seat)] = state
    return {**snapshot, "journal": journal, "bots": bots}


@dataclass(eq=False)
class Room:
    """One table in this process (see the module's docstring)."""

    id: str
    options: dict[str, Any]
    creator_seat: int
    seats: list[SeatRow]
    registry: Registry
    status: str = "waiting"  # waiting | playing | paused (its bots kept failing) | over
    created_at: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    present: dict[int, int] = field(default_factory=dict)  # the clients connected to this process, per seat
    stale: bool = False  # the table in memory may differ from the store: rebuild it before anything else
    idle_since: float | None = None  # when its last client here left (rummoli.server.tables.eviction)
    alone_since: float | None = None  # since when no person is connected (rummoli.server.tables.eviction)
    # The table's chat (rummoli.server.tables.chat.Talk, made when first used) and the rematch made at the
    # evening's end (rummoli.server.tables.rematch.Again), if any.
    talk: Any = None
    again: Any = None
    # The rummoli.table.Table once the evening has started, as this process holds it: a follower's copy may
    # keep the owner's last changes unplayed until something reads it (read it as ``table``).
    held: Any = None
    keeper: Keeper = field(default=None)  # type: ignore[assignment]  # set as soon as the room is made
    updates: Updates = field(default_factory=Updates)

    # ------------------------------------------------------------------------------------- reading
    @property
    def table(self) -> Any:
        """The table, with whatever a follower's copy kept unplayed played first."""
        if self.keeper.ahead:
            self.keeper.catch_up()
        return self.held

    @property
    def over(self) -> bool:
        """The evening is over as stored: the one reading of it, for every route and keeper, inside the table's lock
        or outside it, in the process that drives the table or in a follower's.

        It is the room's status, which moves to ``over`` only once the store holds the change that ended the
        evening (every change stores the status its table gives it, ``over`` exactly when ``Table.over``; an end
        before the first deal stores it alone), and which a follower's copy takes from the owner's published
        change, sent after it is stored. The table in memory is not asked: on the owner it is over while the change
        that ends it is being written (an await, after which the write may fail and the table is rebuilt as
        stored), and reading a follower's table would play the owner's changes it keeps unplayed, outside the
        lock. Under the lock, once a change is stored, the two agree."""
        return self.status == "over"

    @property
    def seq(self) -> int:
        ahead = self.keeper.ahead
        if ahead:
            return ahead
        return 0 if self.held is None else int(self.held.seq)

    @property
    def game(self) -> str:
        return str(self.options["game"])

    @property
    def pace(self) -> schedule.Pace:
        """The table's pace (rummoli.server.tables.schedule): its creator's choice, else the server's settings. A
        table made with forced plays inside the actions (``auto``) keeps them there, whatever the settings say."""
        chosen = schedule.pace_of(self.options.get("pace"), self.registry.settings)
        if self.held is not None and self.held.auto and chosen.play > 0:
            return schedule.Pace(chosen.bot, 0.0, chosen.name)
        return chosen

    def seat_of_token(self, token: str) -> int | None:
        hashed = token_hash(token)
        for seat, state in enumerate(self.seats):
            if state.token_hash is not None and secrets.compare_digest(state.token_hash, hashed):
                return seat
        return None

    def connected(self, seat: int) -> int:
        return self.keeper.connected(seat)

    def seat_infos(self) -> list[dict[str, Any]]:
        table = self.table
        bots = table.bots if table is not None else [None] * len(self.seats)
        keeper = self.keeper
        return [seat_info(seat, state, bots[seat].level if bots[seat] is not None else state.bot,
                          keeper.connected(seat) > 0)
                for seat, state in enumerate(self.seats)]

    def summary(self, base_url: str) -> dict[str, Any]:
        """What anyone may see of the table. The title is read from the table as held: a follower's unplayed
        changes are not played for it."""
        table = self.table
        return summary_of(self.id, self.options, self.seat_infos(), status=self.status,
                          hand_no=table.hand_no if table is not None else 0, seq=self.seq, pace=self.pace,
                          title=ruleset_title(self.options["ruleset"], self.held), created_at=self.created_at,
                          base_url=base_url, ending=bool(table is not None and table.ending))

    def view(self, seat: int | None) -> dict[str, Any]:
        table = self.table
        if table is None:
            return {"seq": 0, "waiting": True, "over": self.over, "you": seat}
        view: dict[str, Any] = table.view(seat)
        return view

    def events_since(self, seq: int, seat: int | None) -> list[dict[str, Any]]:
        table = self.table
        if table is None or seq >= table.seq:
            return []
        events: list[dict[str, Any]] = table.events_since(max(0, seq), seat)
        return events

    def update_text(self, seat: int | None, since: int) -> str:
        """The update message for a client of ``seat`` that was last sent ``since`` (rummoli.server.tables.updates)."""
        keeper = self.keeper
        if self.held is None:
            return dumps({"type": "update", "seq": 0, "events": [], "view": self.view(seat), "clock": None})
        text = keeper.told_text(seat, since)
        if text is not None:
            return text
        next_hand = keeper.next_hand_info()
        key = (keeper.clock_key(), schedule.key(next_hand))
        return self.updates.text(self.table, seat, since, keeper.clock_info(), key, next_hand)

    def clock_info(self) -> dict[str, Any] | None:
        return self.keeper.clock_info()

    def next_hand_info(self, also: int | None = None) -> dict[str, Any] | None:
        return self.keeper.next_hand_info(also)

    # ------------------------------------------------------------------------------------- the stored table
    def load(self, table: Any) -> None:
        """Hold ``table`` from now on (a restored or newly dealt one)."""
        self.held = table
        self.keeper.loaded()

    def restore(self, recovery: Recovery) -> None:
        from rummoli.table import Table

        self.load(Table.restore(merge_snapshot(recovery.snapshot, recovery.actions)))
        if self.held.seq != recovery.table.seq:
            raise RuntimeError(f"table {self.id} restored at seq {self.held.seq}, stored at {recovery.table.seq}")
        self.status = recovery.table.status

    async def rebuild(self) -> None:
        """The table as stored; if the store does not answer, the room is marked stale (nothing reads it
        until a rebuild succeeds)."""
        self.stale = True
        try:
            recovery = await asyncio.to_thread(self.registry.store.recover, self.id)
        except Exception as error:
            log.warning("table %s: cannot rebuild from the store yet (%s)", self.id, type(error).__name__)
            return
        if recovery is not None:
            self.restore(recovery)
        self.stale = False

    async def reload(self) -> None:
        """Under the lock: seats, status and table as stored (stale if the store does not answer)."""
        try:
            row = await asyncio.to_thread(self.registry.store.table, self.id)
        except Exception:
            self.stale = True
            return
        if row is None:
            return
        self.seats, self.status = row.seats, row.status
        if row.seq > 0 or row.status != "waiting":
            await self.rebuild()
        else:
            self.stale = False

    async def fresh(self) -> None:
        """Under the lock, before a change or a welcome: a stale table is rebuilt first, or refused."""
        if self.stale:
            await self.rebuild()
            if self.stale:
                raise ServerError("unavailable", "the database does not answer; nothing changed, try again",
                                  seq=self.seq, status=503)

    async def recover_stale(self) -> None:
        """A stale room (a write failed, or its copy could not be read): rebuild it, and let its keeper go on."""
        async with self.lock:
            if not self.stale:
                return
            await self.reload()
            if self.stale:
                return
            self.keeper.resumed()
        self.registry.hub.publish(self.id)
        self.registry.hub.publish_seats(self.id)

    # ------------------------------------------------------------------------------------- commands
    async def command(self, run: Callable[[Keeper], Awaitable[T]]) -> T:
        """``run`` with the room's keeper, again with the new one if it was replaced meanwhile."""
        for _attempt in range(RETRIES):
            try:
                return await run(self.keeper)
            except Moved:
                await asyncio.sleep(0)  # the replacement finishes what it does without waiting
        raise Moved()

    async def act(self, seat: int, action: Any, seq: int) -> None:
        """A person's decision at ``seat``, chosen from the view at ``seq``."""
        await self.command(lambda keeper: keeper.act(seat, action, seq))

    async def next_ready(self, seat: int, seq: int) -> None:
        """A person says next between hands (ignored at another seq)."""
        await self.command(lambda keeper: keeper.next_ready(seat, seq))

    async def end(self) -> None:
        await self.command(lambda keeper: keeper.end())

    async def resume(self) -> None:
        """The creator plays a paused table again (rummoli.server.tables.schedule: its bots kept failing)."""
        await self.command(lambda keeper: keeper.resume())

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Give a person an open seat and its token; the evening starts when no seat is left open."""
        return await self.command(lambda keeper: keeper.join(name, seat))

    async def leave(self, seat: int) -> None:
        """A person leaves: their token stops working; a bot plays the seat for the rest of the evening
        (before the evening starts the seat simply opens again). Once the evening is over there is nothing to
        leave: refused (409), and the token keeps the seat's record, replays and rematch."""
        await self.command(lambda keeper: keeper.leave(seat))

    async def start_now(self) -> None:
        """The creator starts without waiting: bots take the seats still open."""
        await self.command(lambda keeper: keeper.start_now())

    def close_clients(self, seat: int) -> None:
        """The seat was given up: its clients here are closed."""
        for listener in self.registry.hub.listeners(self.id):
            if getattr(listener, "seat", None) == seat:
                listener.close(4001, "you left this seat")

    # ------------------------------------------------------------------------------------- clients here
    async def seat_of(self, token: str) -> int | None:
        """The seat of ``token``, reading the seats again where they may be behind (a seat just taken through
        another process)."""
        seat = self.seat_of_token(token)
        if seat is None and await self.keeper.recheck_seats():
            seat = self.seat_of_token(token)
        return seat

    async def ready_for(self, since: int | None) -> None:
        """Under the lock, before a client is welcomed: a stale table is rebuilt (or ServerError)."""
        await self.keeper.ready_for(since)

    async def arrive(self, seat: int | None) -> None:
        if seat is None:
            return
        self.present[seat] = self.present.get(seat, 0) + 1
        await self.keeper.presence_changed(seat)

    async def depart(self, seat: int | None) -> None:
        if seat is None:
            return
        self.present[seat] = max(0, self.present.get(seat, 0) - 1)
        await self.keeper.presence_changed(seat)
