"""Tables in play: each a :class:`~rummoli.table.Table` with its seats, its clients, its bots and its clock.

The rule every change follows (docs/ARCHITECTURE.md): under the table's lock, hand the
change to the table (which checks it and changes nothing on error), store what it added to the table's
journal in one transaction that moves the stored ``seq`` from the value seen before to the new one, and only
then tell the hub, whose listeners each fetch what their own seat may see. If the store refuses, the table is
rebuilt from the store and the change is reported as not made.

What is stored per change (``actions.payload``) is the journal entries the change added (the deck of a deal,
a decision, a bot taking a seat over...) and the state of each bot that changed (its generator and
memory). A restart restores the latest snapshot, appends those journal entries and bot states, and lets
:meth:`Table.restore` replay them: the same views, legal actions, chips and cards to come.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from rummoli.bots.worker import BotWorkers, decide
from rummoli.errors import IllegalAction, MalformedInput, RummoliError
from rummoli.server.defaults import safe_default
from rummoli.server.hub import Hub
from rummoli.server.settings import Settings
from rummoli.server.store import Recovery, SeatRow, Store, token_hash

log = logging.getLogger("rummoli.server")


class ServerError(Exception):
    """A refusal the client should read: ``code`` as in the protocol, ``rule`` when a rule forbids it."""

    def __init__(self, code: str, message: str, rule: str | None = None, seq: int | None = None,
                 status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.rule, self.seq, self.status = code, message, rule, seq, status


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


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


@dataclass
class Clock:
    seat: int
    seq: int
    deadline: float  # loop time


@dataclass
class LiveTable:
    """One table in this process (see the module's docstring)."""

    id: str
    options: dict[str, Any]
    creator_seat: int
    seats: list[SeatRow]
    manager: TableManager
    status: str = "waiting"  # waiting | playing | over
    table: Any = None  # rummoli.table.Table once the evening has started
    created_at: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    present: dict[int, int] = field(default_factory=dict)
    clock: Clock | None = None
    _task: asyncio.Task[None] | None = None
    _away: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    _bot_states: list[Any] = field(default_factory=list)
    _spectator: tuple[tuple[int, int], str] | None = None

    # ------------------------------------------------------------------------------------- reading
    @property
    def seq(self) -> int:
        return 0 if self.table is None else int(self.table.seq)

    @property
    def game(self) -> str:
        return str(self.options["game"])

    def seat_of_token(self, token: str) -> int | None:
        hashed = token_hash(token)
        for seat, state in enumerate(self.seats):
            if state.token_hash is not None and secrets.compare_digest(state.token_hash, hashed):
                return seat
        return None

    def seat_infos(self) -> list[dict[str, Any]]:
        bots = self.table.bots if self.table is not None else [None] * len(self.seats)
        out = []
        for seat, state in enumerate(self.seats):
            playing_bot = bots[seat].level if bots[seat] is not None else state.bot
            out.append({"seat": seat, "name": state.name, "bot": playing_bot, "person": state.person,
                        "open": state.person and state.token_hash is None and not state.left,
                        "connected": self.present.get(seat, 0) > 0})
        return out

    def summary(self, base_url: str) -> dict[str, Any]:
        infos = self.seat_infos()
        return {
            "id": self.id, "game": self.game, "ruleset": self.options["ruleset_name"], "seats": infos,
            "open_seats": sum(1 for s in infos if s["open"]) if self.status == "waiting" else 0,
            "hand_no": 0 if self.table is None else self.table.hand_no, "seq": self.seq,
            "over": self.status == "over", "turn_timer": self.options.get("turn_timer"),
            "created_at": self.created_at, "invite": invite_link(base_url, self.id),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        if self.table is None:
            return {"seq": 0, "waiting": True, "over": self.status == "over", "you": seat}
        view: dict[str, Any] = self.table.view(seat)
        return view

    def events_since(self, seq: int, seat: int | None) -> list[dict[str, Any]]:
        if self.table is None or seq >= self.table.seq:
            return []
        events: list[dict[str, Any]] = self.table.events_since(max(0, seq), seat)
        return events

    def update_text(self, seat: int | None, since: int) -> str:
        """The update message for a client of ``seat`` that was last sent ``since`` (spectators share one)."""
        key = (since, self.seq)
        if seat is None and self._spectator is not None and self._spectator[0] == key:
            return self._spectator[1]
        text = json.dumps({"type": "update", "seq": self.seq, "events": self.events_since(since, seat),
                           "view": self.view(seat), "clock": self.clock_info()},
                          ensure_ascii=False, separators=(",", ":"))
        if seat is None:
            self._spectator = (key, text)
        return text

    def clock_info(self) -> dict[str, Any] | None:
        if self.clock is None:
            return None
        left = max(0.0, self.clock.deadline - asyncio.get_running_loop().time())
        return {"seat": self.clock.seat, "seconds": round(left, 2)}

    # ------------------------------------------------------------------------------------- storing
    def _changed_bots(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for seat, bot in enumerate(self.table.bots):
            state = None if bot is None else bot.state()
            if state != self._bot_states[seat]:
                out[str(seat)] = state
                self._bot_states[seat] = state
        return out

    async def _commit(self, kind: str, seat: int | None, seen_seq: int, journal_from: int,
                      extra: dict[str, Any] | None = None, full: bool = False) -> None:
        """Store the change the table just made (see the module's docstring), then tell the listeners."""
        t = self.table
        payload = {"journal": t.journal[journal_from:], "bots": self._changed_bots(), **(extra or {})}
        new_seq = int(t.seq)
        snapshot = t.snapshot() if full or new_seq == seen_seq else None
        status = "over" if t.over else "playing"
        try:
            await asyncio.to_thread(self.manager.store.append, self.id, seen_seq, new_seq, kind, seat, payload,
                                    snapshot, status)
        except Exception as error:
            log.error("table %s: storing a %s failed (%s); rebuilding it from the store", self.id, kind,
                      type(error).__name__)
            await self._rebuild()
            raise ServerError("unavailable", "the change could not be stored; nothing changed, try again",
                              seq=self.seq, status=503) from None
        self.status = status
        if snapshot is not None and kind == "deal":
            await asyncio.to_thread(self.manager.store.prune_snapshots, self.id, new_seq)
        self.manager.hub.publish(self.id)

    async def _rebuild(self) -> None:
        recovery = await asyncio.to_thread(self.manager.store.recover, self.id)
        if recovery is not None:
            self._restore(recovery)

    def _restore(self, recovery: Recovery) -> None:
        from rummoli.table import Table

        self.table = Table.restore(merge_snapshot(recovery.snapshot, recovery.actions))
        self._bot_states = [None if b is None else b.state() for b in self.table.bots]
        if self.table.seq != recovery.table.seq:
            raise RuntimeError(f"table {self.id} restored at seq {self.table.seq}, stored at {recovery.table.seq}")
        self.status = recovery.table.status

    # ------------------------------------------------------------------------------------- changes
    async def act(self, seat: int, action: Any, seq: int, kind: str = "act") -> None:
        """A person's decision at ``seat``, chosen from the view at ``seq``."""
        from rummoli.errors import StaleAction

        async with self.lock:
            t = self.table
            if t is None:
                raise ServerError("not_your_turn", "the evening has not started: seats are still open")
            if t.over:
                raise ServerError("over", "the evening is over")
            seen, mark = int(t.seq), len(t.journal)
            try:
                t.act(seat, action, seq=seq)
            except StaleAction:
                raise ServerError("stale", f"stale action: sent for seq {seq}, the table is at seq {t.seq}",
                                  seq=int(t.seq)) from None
            except IllegalAction as error:
                code = "not_your_turn" if seat not in t.to_act() else "illegal"
                raise ServerError(code, str(error), rule=error.rule, seq=int(t.seq)) from None
            except MalformedInput as error:
                raise ServerError("malformed", str(error), seq=int(t.seq)) from None
            except Exception:
                log.exception("table %s: an action raised", self.id)
                await self._rebuild()
                raise ServerError("internal", "the server could not apply that action; nothing changed") from None
            self.clock = None
            await self._commit(kind, seat, seen, mark)
            self._plan()

    async def _bot_move(self, seat: int, seq: int) -> None:
        settings = self.manager.settings
        started = asyncio.get_running_loop().time()
        async with self.lock:
            t = self.table
            if t is None or t.seq != seq or t.bot_due() != seat:
                return
            view, bot = t.bot_view(seat), t.bots[seat]
        choice, bot = await self.manager.decide(bot, view)
        rest = settings.bot_pace - (asyncio.get_running_loop().time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        async with self.lock:
            t = self.table
            if t.seq != seq or t.bot_due() != seat:
                return
            mark = len(t.journal)
            try:
                t.apply_bot_choice(seat, choice, bot)
            except RummoliError as error:
                # A bot's choice is checked like anyone's; a refused one is a bug to log, not to apply.
                log.error("table %s: bot at seat %s chose %s: %s", self.id, seat, choice, error)
                return
            await self._commit("bot", seat, seq, mark)
            self._plan()

    async def _deal(self) -> None:
        await asyncio.sleep(self.manager.settings.hand_pause)
        async with self.lock:
            t = self.table
            if t is None or not t.hand_over or t.over:
                return
            seen, mark = int(t.seq), len(t.journal)
            t.next_hand()
            await self._commit("deal", None, seen, mark, full=True)
            self._plan()

    async def _timeout(self, seat: int, seq: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            t = self.table
            if t is None or t.seq != seq or seat not in t.to_act() or t.bots[seat] is not None:
                return
            hand_view = t.view(seat)["hand"]
            action = safe_default(hand_view)
        if action is not None:
            with contextlib.suppress(ServerError):
                await self.act(seat, action, seq, kind="timer")

    def _plan(self) -> None:
        """After a change: schedule what the table does next by itself (a bot's move, the next deal, a clock)."""
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = None
        t = self.table
        if t is None or t.over:
            self.clock = None
            return
        work: Awaitable[None] | None = None
        if t.hand_over:
            work = self._deal()
        elif (seat := t.bot_due()) is not None:
            self.clock = None
            work = self._bot_move(seat, int(t.seq))
        else:
            timer = self.options.get("turn_timer")
            people = [s for s in t.to_act() if t.bots[s] is None]
            if timer and people:
                now = asyncio.get_running_loop().time()
                if self.clock is None or self.clock.seq != t.seq or self.clock.seat != people[0]:
                    self.clock = Clock(people[0], int(t.seq), now + float(timer))
                work = self._timeout(self.clock.seat, self.clock.seq, max(0.0, self.clock.deadline - now))
        if work is not None:
            self._task = asyncio.get_running_loop().create_task(self._guard(work))

    async def _guard(self, work: Awaitable[None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except ServerError as error:
            log.warning("table %s: %s", self.id, error.message)
        except Exception:
            log.exception("table %s: its own move failed", self.id)

    async def set_bot(self, seat: int, level: str | None) -> bool:
        """A bot takes a person's seat over (``level``) or hands it back (``None``); True if it changed."""
        async with self.lock:
            t = self.table
            if t is None or t.over:
                return False
            current = t.bots[seat]
            if (current.level if current is not None else None) == level:
                return False
            seen, mark = int(t.seq), len(t.journal)
            t.set_bot(seat, level)
            await self._commit("seat", seat, seen, mark)
            self._plan()
        self.manager.hub.publish_seats(self.id)
        return True

    async def end(self) -> None:
        async with self.lock:
            t = self.table
            if t is None:
                self.status = "over"
                await asyncio.to_thread(self.manager.store.set_status, self.id, "over")
            elif not t.over:
                seen, mark = int(t.seq), len(t.journal)
                t.end()
                await self._commit("end", None, seen, mark, full=True)
                self._plan()
        self.manager.hub.publish(self.id)

    # ------------------------------------------------------------------------------------- presence
    async def arrive(self, seat: int | None) -> None:
        if seat is None:
            return
        self.present[seat] = self.present.get(seat, 0) + 1
        task = self._away.pop(seat, None)
        if task is not None:
            task.cancel()
        state = self.seats[seat]
        if state.person and not state.left and self.table is not None and self.table.bots[seat] is not None:
            await self.set_bot(seat, None)
        self.manager.hub.publish_seats(self.id)

    async def depart(self, seat: int | None) -> None:
        if seat is None:
            return
        self.present[seat] = max(0, self.present.get(seat, 0) - 1)
        if self.present[seat] == 0:
            self._start_away(seat)
        self.manager.hub.publish_seats(self.id)

    def _start_away(self, seat: int) -> None:
        old = self._away.pop(seat, None)
        if old is not None:
            old.cancel()
        self._away[seat] = asyncio.get_running_loop().create_task(self._guard(self._away_after(seat)))

    async def _away_after(self, seat: int) -> None:
        await asyncio.sleep(self.manager.settings.grace)
        self._away.pop(seat, None)
        if self.present.get(seat, 0) == 0 and self.table is not None:
            await self.set_bot(seat, self.manager.settings.takeover_level)

    def start_clocks(self) -> None:
        """At the start of the evening or after a restart: every person's seat with nobody connected starts
        its grace period; then the table makes its next move by itself if it has one."""
        for seat, state in enumerate(self.seats):
            if state.person and self.present.get(seat, 0) == 0 and seat not in self._away:
                self._start_away(seat)
        self._plan()

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._away.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def invite_link(base_url: str, table_id: str) -> str:
    return f"{base_url.rstrip('/')}/tables/{table_id}"


def bot_name(seat: int, level: str) -> str:
    return f"Bot {seat + 1} ({level})"


class TableManager:
    """Every table of this process, the store, the hub and the bots' worker pool."""

    def __init__(self, settings: Settings, store: Store, hub: Hub, workers: BotWorkers | None) -> None:
        self.settings = settings
        self.store = store
        self.hub = hub
        self.workers = workers
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    async def decide(self, bot: Any, view: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """A bot's decision, made in a worker process (in a thread when the server has no workers)."""
        seconds = self.settings.bot_deadline
        if self.workers is None:
            return await asyncio.to_thread(decide, bot, view, time.time() + seconds)
        return await self.workers.decide(bot, view, seconds)

    # ------------------------------------------------------------------------------------- loading
    async def recover_all(self) -> int:
        """Bring back every table still waiting or in play (after a start or a crash)."""
        ids = await asyncio.to_thread(self.store.table_ids, None)
        count = 0
        for table_id in ids:
            live = await self.get(table_id, active_only=True)
            if live is not None and live.status != "over":
                live.start_clocks()
                count += 1
        return count

    async def get(self, table_id: str, active_only: bool = False) -> LiveTable | None:
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if len(table_id) > 32:
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            live = self.tables.get(table_id)
            if live is not None:
                return live
            row = await asyncio.to_thread(self.store.table, table_id)
            if row is None or (active_only and row.status == "over"):
                return None
            seats = row.seats
            live = LiveTable(row.id, row.options, row.creator_seat, seats, self, status=row.status,
                             created_at=row.created_at)
            if row.seq > 0 or row.status != "waiting":
                recovery = await asyncio.to_thread(self.store.recover, table_id)
                if recovery is not None:
                    live._restore(recovery)
            self.tables[table_id] = live
        self._loading.pop(table_id, None)
        return live

    # ------------------------------------------------------------------------------------- creating
    def _new_table(self, options: dict[str, Any], names: list[str], levels: list[str | None]) -> Any:
        from rummoli.table import Seat, Table

        return Table(options["ruleset"], [Seat(n, b) for n, b in zip(names, levels, strict=True)],
                     chips=options.get("chips"), hands=options.get("hands"), seed=options.get("seed"),
                     samples=self.settings.bot_samples)

    async def create(self, request: dict[str, Any]) -> tuple[LiveTable, int, str]:
        """A new table from a validated :class:`~rummoli.server.protocol.CreateTable` (as a dict)."""
        from rummoli.records import game_of

        if len(self.tables) >= self.settings.max_tables:
            raise ServerError("unavailable", "the server has as many tables as it can hold; try later", status=503)
        if request.get("seed") is not None and not self.settings.allow_seeds:
            raise ServerError("malformed", "this server does not allow fixed seeds (start it with --allow-seeds)")
        specs = request["seats"]
        creator = request["creator_seat"]
        if creator >= len(specs) or specs[creator].get("bot") is not None:
            raise ServerError("malformed", f"creator_seat {creator} must be one of the people's seats")
        ruleset = request["ruleset"]
        try:
            game = game_of(ruleset)
        except MalformedInput as error:
            raise ServerError("malformed", f"ruleset: {error}") from None
        ruleset_name = ruleset if isinstance(ruleset, str) else str(ruleset.get("name", "custom"))[:64]
        options = {"ruleset": ruleset, "ruleset_name": ruleset_name, "game": game, "chips": request.get("chips"),
                   "hands": request.get("hands"), "turn_timer": request.get("turn_timer"),
                   "seed": request.get("seed"), "seats": [s.get("bot") for s in specs]}
        token = new_token()
        seats: list[SeatRow] = []
        for seat, spec in enumerate(specs):
            level = spec.get("bot")
            if level is not None:
                seats.append(SeatRow(bot_name(seat, level), level, None))
            elif seat == creator:
                seats.append(SeatRow(request["name"], None, token_hash(token)))
            else:
                seats.append(SeatRow(f"Seat {seat + 1}", None, None))
        try:
            trial = self._new_table(options, [s.name for s in seats], [s.bot for s in seats])
        except (MalformedInput, IllegalAction, ValueError) as error:
            raise ServerError("malformed", str(error)) from None
        live = LiveTable(new_table_id(), options, creator, seats, self)
        full = all(s.token_hash is not None for s in seats if s.person)
        await asyncio.to_thread(
            self.store.create_table, live.id, game, ruleset_name, options, creator,
            seats)
        self.tables[live.id] = live
        if full:
            await self._start(live, trial)
        return live, creator, token

    async def _start(self, live: LiveTable, table: Any = None) -> None:
        """Deal the first hand: every seat has its player (or bot)."""
        async with live.lock:
            if live.table is not None:
                return
            if table is None:
                table = self._new_table(live.options, [s.name for s in live.seats], [s.bot for s in live.seats])
            live.table = table
            live._bot_states = [None if b is None else b.state() for b in table.bots]
            await asyncio.to_thread(self.store.start_table, live.id, int(table.seq), table.snapshot())
            live.status = "playing"
            live.start_clocks()  # a person who never comes is played by a bot after the grace period
        self.hub.publish(live.id)
        self.hub.publish_seats(live.id)

    async def join(self, live: LiveTable, name: str, seat: int | None) -> tuple[int, str]:
        """Give a person an open seat and its token; start the evening when no seat is left open."""
        async with live.lock:
            if live.status != "waiting":
                raise ServerError("over" if live.status == "over" else "unavailable",
                                  "this table has no open seat: its evening has started" if live.status == "playing"
                                  else "this table's evening is over", status=409)
            open_seats = [i for i, s in enumerate(live.seats) if s.person and s.token_hash is None]
            if seat is None:
                if not open_seats:
                    raise ServerError("unavailable", "this table has no open seat", status=409)
                seat = open_seats[0]
            elif seat not in open_seats:
                raise ServerError("unavailable", f"seat {seat} is not open", status=409)
            if any(s.name.casefold() == name.casefold() for i, s in enumerate(live.seats) if i not in open_seats):
                raise ServerError("malformed", f"someone at this table is already called {name!r}", status=409)
            token = new_token()
            hashed = token_hash(token)
            if not await asyncio.to_thread(self.store.take_seat, live.id, seat, name, hashed):
                raise ServerError("unavailable", f"seat {seat} was just taken", status=409)
            live.seats[seat] = SeatRow(name, None, hashed)
            full = all(s.token_hash is not None for s in live.seats if s.person)
        self.hub.publish_seats(live.id)
        if full:
            await self._start(live)
        return seat, token

    async def start_now(self, live: LiveTable) -> None:
        """The creator starts without waiting: bots take the seats still open."""
        async with live.lock:
            if live.status != "waiting":
                raise ServerError("unavailable", "this table's evening has already started", status=409)
            level = self.settings.takeover_level
            for seat, state in enumerate(live.seats):
                if state.person and state.token_hash is None:
                    live.seats[seat] = SeatRow(bot_name(seat, level), level, None)
                    await asyncio.to_thread(self.store.make_bot_seat, live.id, seat, live.seats[seat].name, level)
        await self._start(live)

    async def leave(self, live: LiveTable, seat: int) -> None:
        """A person leaves: their token stops working; a bot plays the seat for the rest of the evening
        (before the evening starts the seat simply opens again)."""
        async with live.lock:
            state = live.seats[seat]
            await asyncio.to_thread(self.store.leave_seat, live.id, seat, live.status != "waiting")
            if live.status == "waiting":
                live.seats[seat] = SeatRow(f"Seat {seat + 1}", None, None)
            else:
                state.token_hash, state.left = None, True
        for listener in self.hub.listeners(live.id):
            if getattr(listener, "seat", None) == seat:
                listener.close(4001, "you left this seat")
        if live.status == "playing":
            await live.set_bot(seat, self.settings.takeover_level)
        self.hub.publish_seats(live.id)

    async def close(self) -> None:
        for live in list(self.tables.values()):
            await live.stop()

